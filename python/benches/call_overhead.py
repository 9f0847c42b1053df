"""The Python layer's cost of one `simulate_action(..., need_images=False)` call (the figure in
python/README.md, "Speed").

Two measurements in CPU time (process_time), the variants of each run in turn:

* valid actions: `--pairs` (task, action) pairs of the ball tier (the first `--tasks` dev tasks
  of ball_cross_template fold 0, the actions of `build_discrete_action_space(pairs, seed=1)`,
  pair i on task i mod tasks), simulated one by one with `simulate_action` and with
  `simulate_batch(..., num_threads=1)`, which runs the same simulations with one native call
  per chunk. Both go over the pairs in chunks of `--chunk`, each chunk one way then the
  other, `--repeat` times; each chunk's best time is kept (a shared machine's interruptions
  land in some rounds, not in all), and the overhead is the difference of the sums per call.
* an invalid action (a component above 1, rejected before any simulation): the whole
  `simulate_action` round trip, and the native call alone (`rephyre._native.simulate`), per
  call over `--calls` calls, best of `--repeat`. Their difference (`python_layer_us`) is the
  Python layer's own cost, the same steps as for a valid action, free of the simulations'
  timing noise, which on a shared machine is larger than the overhead itself.

Usage, with the package installed: `python python/benches/call_overhead.py [--repeat 5]`.
Under the original (`python call_overhead.py --package phyre`) it times the one-by-one calls
and the invalid round trip only (it has no simulate_batch and no native entry point of this
shape). Prints one JSON object (times in microseconds).
"""

import argparse
import importlib
import json
import platform
import sys
import time


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--package", default="rephyre")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--tasks", type=int, default=100)
    ap.add_argument("--calls", type=int, default=100_000)
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()

    import warnings

    import numpy as np
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not hasattr(np, "float"):
            np.float = float  # the original's vis module uses the alias numpy 2 removed
    phyre = importlib.import_module(args.package)
    ours = hasattr(phyre.ActionSimulator, "simulate_batch")

    _, dev, _ = phyre.get_fold("ball_cross_template", 0)
    sim = phyre.initialize_simulator(dev[:args.tasks], "ball")
    actions = np.array(sim.build_discrete_action_space(args.pairs, seed=1), dtype=np.float64)
    tasks = np.arange(args.pairs, dtype=np.int64) % args.tasks

    chunks = [range(c, min(c + args.chunk, args.pairs)) for c in range(0, args.pairs, args.chunk)]

    def one_by_one(chunk):
        for i in chunk:
            sim.simulate_action(int(tasks[i]), actions[i], need_images=False)

    def batch(chunk):
        sim.simulate_batch(tasks[chunk.start:chunk.stop], actions[chunk.start:chunk.stop],
                           num_threads=1)

    # Same statuses both ways (a check that both time the same work).
    if ours:
        serial = [int(sim.simulate_action(int(tasks[i]), actions[i], need_images=False).status)
                  for i in range(args.pairs)]
        assert serial == batch_statuses(sim, tasks, actions), "batch != one by one"

    bad = np.array([1.5, 0.5, 0.5])
    assert int(sim.simulate_action(0, bad, need_images=False).status) == 0  # INVALID_INPUT

    def invalid_round_trip():
        for _ in range(args.calls):
            sim.simulate_action(0, bad, need_images=False)

    if ours:
        native = importlib.import_module(args.package + "._native")
        index, tier = sim._indices[0], sim.action_tier

        def invalid_native():
            for _ in range(args.calls):
                native.simulate(index, tier, bad, False, False, 60, False)

    inf = float("inf")
    t_serial = [inf] * len(chunks)
    t_batch = [inf] * len(chunks)
    t_inv, t_nat = [], []
    for _ in range(args.repeat):
        for c, chunk in enumerate(chunks):
            t_serial[c] = min(t_serial[c], best(lambda: one_by_one(chunk), 1))
            if ours:
                t_batch[c] = min(t_batch[c], best(lambda: batch(chunk), 1))
        t_inv.append(best(invalid_round_trip, 1))
        if ours:
            t_nat.append(best(invalid_native, 1))

    us = 1e6
    out = {
        "package": args.package,
        "python": platform.python_version(),
        "pairs": args.pairs, "tasks": args.tasks, "calls": args.calls, "repeat": args.repeat,
        "chunk": args.chunk,
        "simulate_action_us": round(sum(t_serial) / args.pairs * us, 2),
        "invalid_round_trip_us": round(min(t_inv) / args.calls * us, 3),
    }
    if ours:
        out["simulate_batch_1_thread_us"] = round(sum(t_batch) / args.pairs * us, 2)
        out["overhead_us"] = round((sum(t_serial) - sum(t_batch)) / args.pairs * us, 2)
        out["invalid_native_us"] = round(min(t_nat) / args.calls * us, 3)
        # The Python layer's own steps (checks, the call, the Simulation object) are the same
        # for a valid action; this is their cost without any simulation noise.
        out["python_layer_us"] = round((min(t_inv) - min(t_nat)) / args.calls * us, 3)
    if ours:
        # Per-chunk overheads (us per call): their spread shows how far to trust the mean.
        per = sorted((a - b) / len(ch) * us for a, b, ch in zip(t_serial, t_batch, chunks))
        out["chunk_overhead_us_min_median_max"] = [round(per[0], 1), round(per[len(per) // 2], 1),
                                                   round(per[-1], 1)]
    json.dump(out, sys.stdout)
    print()


def batch_statuses(sim, tasks, actions):
    return [int(s) for s in sim.simulate_batch(tasks, actions, num_threads=1)]


if __name__ == "__main__":
    main()
