"""rephyre.phyq: Phy-Q tasks, shots played as `rephyre simulate ID --shots` plays them, the
stateful game and the Gymnasium environment (one step per bird)."""

import json

import numpy as np
import pytest

import rephyre
from rephyre import phyq

from conftest import REPO

WITNESSES = REPO / "phyq" / "data" / "witnesses.csv"
# `rephyre tasks import-levels DIR --out python/tests/data/phyq-levels.json` on a folder holding
# phyq/data/templates/1_2_4_1.xml as demo_level.xml and 1_1_4_1.xml as 1_1_4_7.xml.
LEVELS = REPO / "python" / "tests" / "data" / "phyq-levels.json"

# `rephyre simulate ID --shots TEXT --json` at commit 5a634d4 (damage once per pair of colliders): (id, shots, status, pigs left,
# shots taken, steps, final hash).
CLI = [
    ("phyq:1_2_4:00001", "-15.3,-10.01,0;-11.53,-10.42,0",
     "passed", 0, 2, 649, "ec651c62e69b6567"),
    ("phyq:1_2_4:00001", "10,0,0;-5,3,0.5;0,0,0", "not_passed", 1, 3, 581, "fc4b69014fc8d236"),
    ("phyq:3_7_1:00001", "-17,-6,0;-18,-3,1.2", "not_passed", 1, 2, 1358, "44ef44ac3870d8a4"),
    ("phyq:1_1_4:00001", "-10,-5,0;-10,-5,0", "invalid", 1, 0, 0, "3a6584d9d9f6bad3"),
]

# `rephyre simulate ID --shots TEXT --json`'s score for the playable rows above.
SCORES = {
    ("phyq:1_2_4:00001", CLI[0][1]): 15470,
    ("phyq:1_2_4:00001", CLI[1][1]): 0,
    ("phyq:3_7_1:00001", CLI[2][1]): 330,
}

PIG = 125  # the pigs' colour code


def rows_of(text):
    return [[float(v) for v in shot.split(",")] for shot in text.split(";")]


def read_witnesses():
    """The witness file's rows as dicts (its last column, the shots, holds commas itself)."""
    with open(WITNESSES) as f:
        header = next(f).strip().split(",")
        return [dict(zip(header, line.strip().split(",", len(header) - 1))) for line in f]


@pytest.fixture(scope="module")
def witnesses():
    rows = read_witnesses()
    assert len(rows) == 7500
    # Every 500th task, and the first passed with a tap and the first with three shots.
    chosen = rows[::500]
    chosen.append(next(r for r in rows if any(s.split(",")[2] != "0"
                                                for s in r["shots"].split(";"))))
    chosen.append(next(r for r in rows if r["shots"].count(";") == 2))
    return [(r["task_id"], r["shots"]) for r in chosen]


def test_task_ids_and_templates():
    ids = phyq.task_ids()
    assert len(ids) == 7500 and len(set(ids)) == 7500
    assert ids[0] == "phyq:1_1_1:00001"
    assert set(ids) == {r["task_id"] for r in read_witnesses()}
    ts = phyq.templates()
    assert len(ts) == 75
    assert set(ts[0]) == {"scenario", "scenario_name", "paper", "code", "role", "strategy"}
    assert (ts[0]["paper"], ts[0]["code"], ts[0]["scenario"]) == ("1.1", "1_1_4", 1)
    assert {t["role"] for t in ts} == {"train", "test"}
    assert {i.split(":")[1] for i in ids} == {t["code"] for t in ts}
    one = phyq.task_ids("1.1")
    assert one == [f"phyq:1_1_4:{k:05d}" for k in range(1, 101)]
    assert phyq.task_ids("1_1_4") == one
    t = phyq.task("phyq:1_2_4:00001")
    assert (t.id, t.template) == ("phyq:1_2_4:00001", "1_2_4")
    assert len(t.birds) == 3 and all(b.startswith("Bird") for b in t.birds)
    assert "seed 0" in t.source


def test_witnesses_pass(witnesses):
    for task_id, text in witnesses:
        shots = rows_of(text)
        r = phyq.simulate(task_id, shots)
        assert (r.status, r.pigs_left, r.passed) == ("passed", 0, True), (task_id, text)
        assert 1 <= r.shots <= len(shots) and r.steps > 100
        assert r.picture is None and r.symbolic is None
        # The --shots text gives the same run.
        assert phyq.simulate(task_id, text) == r


@pytest.mark.parametrize("task_id,text,status,pigs,taken,steps,final_hash", CLI)
def test_simulate_is_the_command_line(task_id, text, status, pigs, taken, steps, final_hash):
    r = phyq.simulate(task_id, rows_of(text))
    assert (r.task_id, r.status, r.pigs_left, r.shots, r.steps, r.final_hash) == \
        (task_id, status, pigs, taken, steps, final_hash)
    # Tuples, numpy rows and the task object: the same shots, the same run.
    again = phyq.simulate(phyq.task(task_id), np.array(rows_of(text)))
    assert again == r


@pytest.mark.parametrize("task_id,text", [(c[0], c[1]) for c in CLI if c[2] != "invalid"])
def test_game_shot_by_shot_is_simulate(task_id, text):
    shots = rows_of(text)
    want = phyq.simulate(task_id, shots, picture=True, symbolic=True)
    g = phyq.Game(task_id)
    assert (g.status, g.shots, g.steps, g.task_id) == ("playing", 0, 100, task_id)
    birds = g.birds_left
    for k, (x, y, tap) in enumerate(shots):
        g.shoot(x, y, tap)
        assert g.shots == k + 1 and g.birds_left == birds - k - 1
    assert (g.status, g.pigs_left, g.shots, g.steps, g.state_hash) == \
        (want.status, want.pigs_left, want.shots, want.steps, want.final_hash)
    assert np.array_equal(g.picture(), want.picture)
    assert g.symbolic() == want.symbolic
    assert g.score == SCORES[(task_id, text)]
    # A finished game takes no more shots, and says why.
    with pytest.raises(ValueError, match="is passed" if want.passed else "no bird left"):
        g.shoot(-15, -10, 0)
    assert g.shots == len(shots) and g.state_hash == want.final_hash


def test_pictures_and_symbolic(witnesses):
    task_id, text = witnesses[0]
    pic, sym = phyq.observe(task_id)
    assert pic.shape == (480, 640) and pic.dtype == np.uint8
    assert (pic == PIG).any()
    s = json.loads(sym)
    assert (s["format"], s["id"]) == ("rephyre-phyq-symbolic", task_id)
    assert (s["screen"]["width"], s["screen"]["height"]) == (640, 480)
    assert any(o["kind"].startswith("Basic") for o in s["objects"])
    # After the witness every pig is gone, from the picture and the representation.
    r = phyq.simulate(task_id, text, picture=True, symbolic=True)
    assert r.picture.shape == (480, 640) and r.picture.dtype == np.uint8
    assert not (r.picture == PIG).any()
    end = json.loads(r.symbolic)
    birds = len(phyq.task(task_id).birds)
    assert end["id"] == task_id and len(end["birds_left"]) == birds - r.shots
    assert not any(o["kind"].startswith("Basic") for o in end["objects"])
    rgb = phyq.to_rgb(pic)
    assert rgb.shape == (480, 640, 3) and rgb.dtype == np.uint8
    assert tuple(rgb[pic == PIG][0]) == (0x6d, 0xff, 0x55)
    # The opening (2 s) runs before the first shot: the game is no longer the level as written.
    g = phyq.Game(task_id)
    assert g.picture().shape == (480, 640) and json.loads(g.symbolic())["id"] == task_id


def test_level_set_file():
    tasks = phyq.load_tasks(LEVELS)
    assert [t.id for t in tasks] == ["phyq:1_1_4:00007", "phyq:demo_level"]
    coded, named = tasks
    assert named.template is None and named.source == "demo_level.xml"
    assert coded.template == "1_1_4"
    assert json.loads(phyq.observe(named)[1])["id"] == "phyq:demo_level"
    # A task object plays its own level: the file's 1_1_4:00007 is the template as written,
    # not the built-in variation of that id.
    assert phyq.observe(coded)[1] != phyq.observe("phyq:1_1_4:00007")[1]
    # demo_level is template 1_2_4 as written: three birds, and a game plays it as simulate.
    assert len(named.birds) == 3
    shots = [[-15, -10, 0], [-16, -8, 0], [-14, -12, 0]]
    r = phyq.simulate(named, shots)
    assert r.task_id == "phyq:demo_level" and r.status in ("passed", "not_passed")
    g = phyq.Game(named)
    for s in shots[:r.shots]:
        g.shoot(*s)
    assert (g.state_hash, g.steps, g.status) == (r.final_hash, r.steps, r.status)
    with pytest.raises(ValueError):
        phyq.simulate("phyq:demo_level", shots)  # not a built-in id


@pytest.mark.parametrize("shots,match", [
    ([[float("nan"), 0, 0]], "shot 0: x is NaN"),
    ([[-10, 0, 0], [0, float("inf"), 0]], "shot 1: y is inf"),
    ([[-10, 0]], "expected 3 numbers x,y,tap, got 2"),
    ([[-10, 0, 0, 0]], "got 4"),
    ([[-10, 0, 0], []], "shot 1: expected 3 numbers x,y,tap, got 0"),
    ([], "empty shot list"),
    ([["a", 0, 0]], "shot 0: x 'a' is not a number"),
    (["-10,0,0"], "shot 0: expected 3 numbers"),
    ([[-10, 1e9, 0]], "out of range"),
    ([[-10, 0, -1]], "before the launch"),
    ([[-10, 0, 61]], "out of range"),
    ([[-10, 0, 0]] * 101, "more than 100 shots"),
    ("-10,0", "expected 3 numbers"),
    ("-10,x,0", "not a number"),
    (5, "shots must be a list"),
])
def test_bad_shots_raise_value_error(shots, match):
    with pytest.raises(ValueError, match=match):
        phyq.simulate("phyq:1_1_4:00001", shots)


@pytest.mark.parametrize("task_id", ["phyq:1_1_4:00101", "phyq:1_1_4:00000", "phyq:9_9_9:00001",
                                     "phyq:1_1_4:1", "00000:000", "", "phyq:no_such_level"])
def test_unknown_tasks_raise_value_error(task_id):
    with pytest.raises(ValueError):
        phyq.simulate(task_id, [[-10, 0, 0]])
    with pytest.raises(ValueError):
        phyq.observe(task_id)
    with pytest.raises(ValueError):
        phyq.Game(task_id)


def test_other_bad_input():
    with pytest.raises(TypeError):
        phyq.simulate(7, [[-10, 0, 0]])
    with pytest.raises(ValueError, match="no Phy-Q template"):
        phyq.task_ids("16.1")
    with pytest.raises(ValueError):
        phyq.load_tasks(REPO / "no-such-file.json")
    with pytest.raises(ValueError, match="level-set"):
        phyq.load_tasks(WITNESSES)
    with pytest.raises(ValueError, match="uint8"):
        phyq.to_rgb(np.zeros((2, 2)))
    g = phyq.Game("phyq:1_2_4:00001")
    before = (g.state_hash, g.steps)
    for x, y, tap, match in [(float("nan"), 0, 0, "shot 0: x is NaN"),
                             (-10, 0, -0.5, "before the launch"),
                             (-1e6, 0, 0, "out of range")]:
        with pytest.raises(ValueError, match=match):
            g.shoot(x, y, tap)
    assert (g.state_hash, g.steps, g.shots) == before + (0,)
    g.shoot(10, 0)
    with pytest.raises(ValueError, match="shot 1: tap time 99"):
        g.shoot(-10, 0, 99)


def test_env_episode_matches_simulate():
    pytest.importorskip("gymnasium")
    from rephyre.gym_env import PhyqEnv
    task_id, text = CLI[0][0], CLI[0][1]
    env = PhyqEnv([task_id, "phyq:3_7_1:00001"])
    obs, info = env.reset(seed=1, options={"task": task_id})
    assert obs.shape == (480, 640) and obs.dtype == np.uint8
    assert env.observation_space.contains(obs)
    assert (info["task_id"], info["status"], info["birds_left"], info["steps"]) == \
        (task_id, "playing", 3, 100)
    shots = rows_of(text)
    for k, shot in enumerate(shots):
        obs, reward, terminated, truncated, info = env.step(np.array(shot))
        last = k == len(shots) - 1
        assert (reward, terminated, truncated) == (1.0 if last else 0.0, last, False)
    assert info["status"] == "passed" and info["pigs_left"] == 0
    assert info["state_hash"] == phyq.simulate(task_id, shots).final_hash == CLI[0][6]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.array(shots[0]))
    # Birds run out: terminated, reward 0.
    obs, info = env.reset(options={"task": task_id})
    for k, shot in enumerate(rows_of(CLI[1][1])):
        obs, reward, terminated, truncated, info = env.step(shot)
        assert reward == 0.0 and terminated == (k == 2) and not truncated
    assert (info["status"], info["pigs_left"], info["state_hash"]) == ("not_passed", 1, CLI[1][6])


def test_env_draws_tasks_and_checks_actions():
    pytest.importorskip("gymnasium")
    from rephyre.gym_env import PhyqEnv
    env = PhyqEnv(template="2.1", symbolic=True)
    assert len(env.tasks) == 100
    seen = set()
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        assert info["task_id"].startswith("phyq:1_2_4:")
        assert json.loads(info["symbolic"])["id"] == info["task_id"]
        seen.add(info["task_id"])
    assert len(seen) > 1
    first = env.reset(seed=5)[1]["task_id"]
    assert env.reset(seed=5)[1]["task_id"] == first
    low, high = env.action_space.low, env.action_space.high
    assert np.allclose(low, [-640 / 35, -640 / 35, 0]) and np.allclose(high, [640 / 35, 640 / 35, 5])
    for bad in ([-10, 0], [[-10, 0, 0]], [np.nan, 0, 0]):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.game.shots == 0
    loaded = PhyqEnv(phyq.load_tasks(LEVELS))
    _, info = loaded.reset(options={"task": loaded.tasks[1]})
    assert info["task_id"] == "phyq:demo_level"
    with pytest.raises(ValueError, match="not both"):
        PhyqEnv(["phyq:1_1_4:00001"], template="1.1")
    with pytest.raises(ValueError):
        PhyqEnv(["phyq:1_1_4:00101"])
    with pytest.raises(ValueError):
        PhyqEnv("phyq:1_1_4:00001")
    with pytest.raises(ValueError):
        PhyqEnv([])
    with pytest.raises(ValueError):
        PhyqEnv(["phyq:1_1_4:00001"], max_tap=0)
    with pytest.raises(RuntimeError, match="reset"):
        PhyqEnv(["phyq:1_1_4:00001"]).step([-10, 0, 0])


def test_env_passes_check_env_and_is_registered():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env
    from rephyre.gym_env import PHYQ_ENV_ID, PhyqEnv
    env = PhyqEnv(phyq.task_ids("1.1")[:5], render_mode="rgb_array")
    check_env(env)
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (480, 640, 3) and frame.dtype == np.uint8
    made = gymnasium.make(PHYQ_ENV_ID, template="1_1_4")
    _, info = made.reset(seed=2)
    assert info["task_id"].startswith("phyq:1_1_4:")
    assert len(gymnasium.make(PHYQ_ENV_ID).unwrapped.tasks) == 7500
    assert rephyre.phyq is phyq
