"""Time the original PHYRE (phyre==0.2.2, Python 3.9) on a job-shaped workload: many actions per
task, each task's rows together, the way solvability, diversity and the agents' outcome tables
simulate. Writes the rows (outcomes-A format, the original's statuses) so that rephyre runs the
very same calls: `rephyre --threads 1 bench --reference OUT.csv --status-only --json`.

Usage: python phyre-job-speed.py TIER TASKS ACTIONS_PER_TASK OUT.csv [SEED]
  TIER: ball or two_balls. Tasks: a seeded sample of fold 0 of the tier's cross-template setup
  (all 2,500 tasks of the tier); actions: a seeded sample of build_discrete_action_space(2000,
  seed=1) per task. Prints the thread CPU seconds spent in simulate_action.
"""
import sys
import time

import numpy as np
import phyre


def main():
    tier, n_tasks, per_task, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 2026
    setup = "ball_cross_template" if tier == "ball" else "two_balls_cross_template"
    everything = sorted(t for split in phyre.get_fold(setup, 0) for t in split)
    rng = np.random.RandomState(seed)
    chosen = sorted(rng.choice(everything, size=n_tasks, replace=False).tolist())
    sim = phyre.initialize_simulator(chosen, tier)
    space = sim.build_discrete_action_space(max_actions=2000, seed=1)
    lines, cpu, valid, k = [], 0.0, 0, 0
    for ti, task_id in enumerate(chosen):
        for ai in rng.randint(len(space), size=per_task):
            action = space[int(ai)]
            t0 = time.thread_time()
            status = int(sim.simulate_action(ti, action, need_images=False).status)
            cpu += time.thread_time() - t0
            valid += status != 0
            text = " ".join(repr(float(x)) for x in action)
            lines.append(f"{task_id},{tier},random,{k},{text},{status}\n")
            k += 1
    with open(out, "w") as f:
        f.write("task_id,tier,kind,index,action,status\n")
        f.writelines(lines)
    print(f"original phyre 0.2.2 {tier}: {n_tasks} tasks x {per_task} actions = {k} calls, "
          f"{valid} valid, {cpu:.2f} s thread CPU, {1000 * cpu / max(valid, 1):.3f} ms per valid "
          f"simulation (invalid calls' cost included)")


if __name__ == "__main__":
    main()
