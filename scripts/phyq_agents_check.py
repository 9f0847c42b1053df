"""The original Phy-Q agent framework against `rephyre phyq-server` (run by scripts/phyq-agents-test.sh).

Imports the framework's own modules, unchanged, from its folder (../shared/reference/phy-q/agents,
not part of this project) and checks:

  client    the original AgentClient through every request code it has, each reply as it reads
            it (game states, ground truth, screenshots, shots, scores, novelty requests);
  labels    the original SymbolicStateReader with Utils/model and Utils/target_class classifies
            every object of the first task of each of the 75 templates, from its colour map,
            as its true kind (the developer-mode label says which), and the SymbolicStateDevReader
            reads the same objects;
  pigshooter the original PigShooter through SBEnvironmentWrapper and the framework's agent
            thread, on the levels served, until each is won or lost; prints its pass rate per
            template and writes a CSV (--out).
  planner   the shot the original PigShooter sends through SBEnvironmentWrapper on each level
            served, for every pig, both arcs and the ends of its tap intervals (its random
            choices scripted, the shot caught before it leaves): the fixture rephyre's pig
            shooter must equal to the pixel and the millisecond (--out; --ids names the levels).

Two stand-ins, neither touching what the agents decide: the wrapper's `time.sleep` calls (waits for
the Unity game to catch up; rephyre answers when it is done) return at once, and `torch`, which
the wrapper imports only for an isinstance check of actions, is a stub module when it is not
installed (pass --real-torch to require it).

Usage: python phyq_agents_check.py AGENTS_DIR PORT {client,labels,pigshooter} [options]
Exit status 0 when every check holds, 1 otherwise (the failures are printed).
"""

import argparse
import csv
import os
import random
import sys
import threading
import time
import types
from collections import defaultdict

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)


def import_framework(agents_dir, real_torch):
    sys.path.insert(0, agents_dir)
    os.chdir(agents_dir)  # the framework opens Utils/model and friends relative to its folder
    if "torch" not in sys.modules:
        try:
            import torch  # noqa: F401
        except ImportError:
            if real_torch:
                raise
            stub = types.ModuleType("torch")

            class Tensor:  # the wrapper's isinstance(action, torch.Tensor) is all it uses
                pass

            stub.Tensor = Tensor
            sys.modules["torch"] = stub


def client_check(port, n_levels):
    from Client.agent_client import AgentClient, GameState

    c = AgentClient("127.0.0.1", port)
    c.connect_to_server()
    check(c.configure(28888) == (0, 0, 0), "configure replies 0,0,0 in training mode")
    check(c.set_game_simulation_speed(100) == 1, "set simulation speed")
    check(c.get_game_state() == GameState.NEWTRIAL, "the first state is NEWTRIAL")
    r = c.ready_for_new_set()
    check(len(r) == 7 and r[2] == n_levels, "ready_for_new_set: 7 fields, the level count")
    check(c.get_game_state() == GameState.NEWTRAININGSET, "then NEWTRAININGSET")
    c.ready_for_new_set()
    check(c.get_game_state() == GameState.MAIN_MENU, "then MAIN_MENU")
    check(c.get_novelty_info() == -1, "novelty info -1")
    check(c.get_number_of_levels() == n_levels, "number of levels")
    check(c.load_level(1) == 1, "load level 1")
    check(c.get_game_state() == GameState.PLAYING, "PLAYING after a load")
    check(c.get_current_level() == 1, "current level 1")
    check(c.fully_zoom_out() == 1 and c.fully_zoom_in() == 1, "zoom accepted")
    img = c.do_screenshot()
    check(img.shape == (3, 480, 640), "screenshot 640 x 480 RGB (as the client transposes it)")
    gt = c.get_symbolic_state_without_screenshot()
    labels = [f["properties"]["label"] for f in gt[0]["features"]]
    check(labels[:2] == ["Ground", "Slingshot"], "ground truth: ground and slingshot first")
    img2, gt2 = c.get_symbolic_state_with_screenshot()
    check(gt2 == gt and (img2 == img).all(), "ground truth with screenshot: the same truth and picture")
    ngt = c.get_noisy_ground_truth_without_screenshot()
    check([f["properties"]["label"] for f in ngt[0]["features"]] == labels, "noisy truth: same objects")
    nimg, ngt2 = c.get_noisy_ground_truth_with_screenshot()
    check(nimg.shape == (3, 480, 640) and len(ngt2[0]["features"]) == len(labels), "noisy truth with screenshot")
    check(c.get_current_score() == 0, "score 0 before a shot")
    # A shot straight down from the slingshot, recording the ground truth every 10 frames.
    sling = [f for f in gt[0]["features"] if f["properties"]["label"] == "Slingshot"][0]
    xs = [p[0] for p in sling["geometry"]["coordinates"][0]]
    ys = [p[1] for p in sling["geometry"]["coordinates"][0]]
    x, y = (min(xs) + max(xs)) // 2, min(ys)
    frames = c.shoot_and_record_ground_truth(x, y + 300, 0, 0, 10)
    check(len(frames) > 0 and all("features" in f[0] for f in frames), "shot with ground truth every 10 frames")
    check(c.shoot(x, y + 300, 0, 0, False) in (0, 1), "a Cartesian shot")
    check(c.fast_shoot(4500, 100, 0, 500, True) in (0, 1), "a polar fast shot")
    state = c.get_game_state()
    check(state in (GameState.PLAYING, GameState.WON, GameState.LOST), "a game state after shots")
    scores = c.get_all_level_scores()
    check(len(scores) == n_levels, "all levels' scores")
    check(c.get_current_score() >= 0, "current score")
    check(c.restart_level() == 1 and c.get_game_state() == GameState.PLAYING, "restart")
    check(c.load_next_available_level() == 2 and c.get_current_level() == 2, "next available level")
    check(c.report_novelty_likelihood(0.9, 0.1, {1, -2, -398879789}, 0, "") == 1, "novelty likelihood")
    check(c.report_novelty_description("none") == 1, "novelty description")
    check(c.load_level(n_levels + 1) == 0, "a level past the end refused")
    c.disconnect_from_server()


def labels_check(port, n_levels):
    """Every object of every level served (the first task of each template) is classified as its kind."""
    import numpy as np
    from Client.agent_client import AgentClient
    from StateReader.SymbolicStateDevReader import SymbolicStateDevReader
    from StateReader.SymbolicStateReader import SymbolicStateReader

    model = np.loadtxt("Utils/model", delimiter=",")
    target_class = [x.replace("\n", "") for x in open("Utils/target_class").readlines()]
    c = AgentClient("127.0.0.1", port)
    c.connect_to_server()
    c.configure(1)
    objects = 0
    for level in range(1, n_levels + 1):
        check(c.load_level(level) == 1, f"load level {level}")
        gt = c.get_symbolic_state_without_screenshot()
        truth = []
        for f in gt[0]["features"]:
            label = f["properties"]["label"]
            if label in ("Ground", "Trajectory", "Platform"):
                continue
            parts = label.split("_")
            if parts[0] == "bird":
                kind = "_".join(parts[:2])
            elif parts[0] == "pig":
                kind = "_".join(parts[:3])
            else:
                kind = parts[0]
            truth.append(kind)
        reader = SymbolicStateReader(gt, model, target_class)
        dev = SymbolicStateDevReader(gt, model, target_class)
        want = defaultdict(int)
        for k in truth:
            want[reader.type_transformer[k]] += 1
        got = {k: len(v) for k, v in reader.allObj.items()}
        got_dev = {k: len(v) for k, v in dev.allObj.items()}
        check(got == dict(want), f"level {level}: the model's kinds {got} != the true kinds {dict(want)}")
        check(got_dev == dict(want), f"level {level}: the dev reader's kinds {got_dev} != {dict(want)}")
        check(reader.is_vaild(), f"level {level}: a pig and a bird found")
        objects += len(truth)
    c.disconnect_from_server()
    print(f"labels: {n_levels} levels, {objects} objects, each classified by the original model as its kind"
          if not FAILURES else f"labels: {len(FAILURES)} failures", flush=True)


class Caught(Exception):
    """The shot the wrapper sends, stopped on its way to the game."""


def planner_fixtures(port, n_levels, out, ids):
    """The original PigShooter's shots through the original wrapper, every random choice scripted."""
    import numpy as np
    import HeuristicAgents.PigShooter as pig_shooter_module
    import SBEnvironment.SBEnvironmentWrapper as wrapper_module
    from Client.agent_client import AgentClient, GameState
    from HeuristicAgents.PigShooter import PigShooter
    from SBEnvironment.SBEnvironmentWrapper import SBEnvironmentWrapper
    from StateReader.SymbolicStateDevReader import SymbolicStateDevReader
    from Utils.point2D import Point2D
    from Utils.trajectory_planner import SimpleTrajectoryPlanner

    wrapper_module.time.sleep = lambda s: None
    model = np.loadtxt("Utils/model", delimiter=",")
    target_class = [x.replace("\n", "") for x in open("Utils/target_class").readlines()]
    c = AgentClient("127.0.0.1", port)
    c.connect_to_server()
    c.configure(1)
    rows = []
    for level in range(1, n_levels + 1):
        check(c.load_level(level) == 1, f"load level {level}")
        gt = c.get_symbolic_state_without_screenshot()
        reader = SymbolicStateDevReader(gt, model, target_class)
        sling = reader.find_slingshot()[0]
        sling.width, sling.height = sling.height, sling.width
        pigs = reader.find_pigs() or []
        bird = reader.find_bird_on_sling(reader.find_birds(), reader.find_slingshot()[0]).type

        class Ar:  # the wrapper's client: this level's state, the shot caught
            def get_game_state(self):
                return GameState.PLAYING

            def get_symbolic_state_without_screenshot(self):
                return gt

            def shoot(self, *args):
                raise Caught(args)

        for k, pig in enumerate(pigs):
            centre = pig.get_centre_point()
            target = Point2D(centre[1], centre[0])
            for arc in (0, 1):
                for tap_end in ("lo", "hi"):
                    calls = []

                    def randint(a, b, k=k, arc=arc, tap_end=tap_end, calls=calls):
                        n = len(calls)
                        v = k if n == 0 else arc if (a, b) == (0, 1) and n == 1 else (a if tap_end == "lo" else b)
                        calls.append(f"{a}-{b}:{v}")
                        return v

                    pig_shooter_module.random.randint = randint
                    wrapper_module.random.randint = randint
                    agent = PigShooter.__new__(PigShooter)
                    agent.tp = SimpleTrajectoryPlanner()
                    agent.model, agent.target_class, agent.env = model, target_class, None
                    env = SBEnvironmentWrapper.__new__(SBEnvironmentWrapper)
                    env.agent = types.SimpleNamespace(ar=Ar(), tp=agent.tp)
                    env.model, env.target_class = model, target_class
                    env.env_state, env.shots_per_level, env.num_birds = gt, 1, 1
                    shot = agent.select_action(gt)
                    try:
                        env.step(shot)
                        check(False, f"level {level}: the wrapper sent no shot")
                        continue
                    except Caught as e:
                        x, y, _t1, tap_ms, polar = e.args[0]
                    check(polar == 0, f"level {level}: a Cartesian shot")
                    row = [ids[level - 1] if ids else level, k, len(pigs), bird.value, " ".join(calls),
                           int(sling.X), int(sling.Y), int(sling.width), int(sling.height),
                           repr(float(target.X)), repr(float(target.Y)), int(x), int(y), int(tap_ms)]
                    if row not in rows[-2:]:  # a bird without a tap: both ends are one shot
                        rows.append(row)
    c.disconnect_from_server()
    pig_shooter_module.random.randint = random.randint
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["task", "pig", "pigs", "bird", "draws", "sling_x", "sling_y", "sling_w", "sling_h",
                    "target_x", "target_y", "x", "y", "tap_ms"])
        w.writerows(rows)
    print(f"planner: {n_levels} levels, {len(rows)} shots of the original PigShooter through its wrapper", flush=True)


def pigshooter_run(port, n_levels, agents, out, seed, attempts, until_pass):
    """The original PigShooter through SBEnvironmentWrapper, `agents` of them in threads, each on
    its share of the levels, `attempts` attempts at each (the paper measured its heuristic agents
    with 5 on tasks 81-100 of each template: `phyq-server --from-task 81 --per-template 20`); with
    `until_pass`, the framework's own MaxAttempts selection: a level is played again only while it
    is unsolved (how the paper's Pig Shooter rates were made)."""
    import SBEnvironment.SBEnvironmentWrapper as wrapper_module
    from HeuristicAgents.HeuristicAgentThread import AgentThread
    from HeuristicAgents.PigShooter import PigShooter
    from SBEnvironment.SBEnvironmentWrapper import SBEnvironmentWrapper
    from Utils.LevelSelection import LevelSelectionSchema

    random.seed(seed)
    # The waits for the Unity game: rephyre replies when it is done.
    wrapper_module.time.sleep = lambda s: None
    # The wrapper starts the Java server with os.system when it is the first: rephyre runs already.
    wrapper_module.os.system = lambda cmd: 0
    levels = list(range(1, n_levels + 1))
    share = [levels[i::agents] for i in range(agents)]
    threads, lock = [], threading.Lock()
    started = time.time()
    for i, lv in enumerate(share):
        if not lv:
            continue
        env = SBEnvironmentWrapper(reward_type="passing", speed=100)
        schema = LevelSelectionSchema.MaxAttempts if until_pass else LevelSelectionSchema.RepeatPlay
        selection = schema(attempts).select
        agent = PigShooter(env=env, level_selection_function=selection, id=i + 1, level_list=lv)
        t = AgentThread(agent, env, lock, mode="train")
        t.start()
        threads.append((t, agent))
    for t, _ in threads:
        t.join()
    seconds = time.time() - started
    rows = []
    for _, agent in threads:
        for level, rec in agent.total_score_record.items():
            rows.append((level, int(rec["did_win"]), rec["attempts"], rec["total_score"]))
    rows.sort()
    check(len(rows) == n_levels, f"every level played ({len(rows)} of {n_levels})")
    if until_pass:
        check(all(r[2] == attempts or (r[1] and r[2] <= attempts) for r in rows),
              f"every level attempted until passed, at most {attempts} times")
    else:
        check(all(r[2] == attempts for r in rows), f"every level attempted {attempts} times")
    if out:
        with open(out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["level_number", "passed", "attempts", "score"])
            w.writerows(rows)
    passed = sum(r[1] for r in rows)
    print(f"pigshooter: {len(rows)} levels, {passed} passed at least once ({passed / max(len(rows), 1):.3f}) "
          f"in {seconds:.1f} s with {agents} agent threads", flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("agents_dir")
    p.add_argument("port", type=int)
    p.add_argument("check", choices=["client", "labels", "pigshooter", "planner"])
    p.add_argument("--levels", type=int, required=True, help="levels the server serves")
    p.add_argument("--agents", type=int, default=1)
    p.add_argument("--attempts", type=int, default=1, help="pigshooter: attempts per level")
    p.add_argument("--until-pass", action="store_true",
                   help="pigshooter: attempts stop at a level's first pass (MaxAttempts)")
    p.add_argument("--out")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--real-torch", action="store_true")
    p.add_argument("--ids", help="planner: a file with the served levels' task ids, one a line")
    a = p.parse_args()
    out = a.out and os.path.abspath(a.out)
    ids = [line.strip() for line in open(a.ids)] if a.ids else None
    import_framework(os.path.abspath(a.agents_dir), a.real_torch)
    if a.check == "client":
        client_check(a.port, a.levels)
    elif a.check == "labels":
        labels_check(a.port, a.levels)
    elif a.check == "planner":
        planner_fixtures(a.port, a.levels, out, ids)
    else:
        pigshooter_run(a.port, a.levels, a.agents, out, a.seed, a.attempts, a.until_pass)
    if FAILURES:
        print(f"{len(FAILURES)} checks failed", flush=True)
        sys.exit(1)
    print(f"{a.check}: all checks passed", flush=True)


if __name__ == "__main__":
    main()
