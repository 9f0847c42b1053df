"""Times `simulate_batch` against `rephyre bench` on the same (task, action) rows.

Both run one thread and status only (the path `simulate_batch` uses), in turn, `--repeat`
times each; the figure is the best CPU time of each. Usage (from the workspace root, with the
package installed and the CLI built in release):

    python python/benches/batch_vs_bench.py studies/data/phyre-0.2.2/speed/pairs-ball.csv \
        --rephyre target/release/rephyre

The rows file is an outcomes-A table (`task_id`, `tier`, `action` with space-separated
components, `status`), such as the original's timing pairs committed under
studies/data/phyre-0.2.2/speed/. Prints one JSON object.
"""

import argparse
import csv
import json
import subprocess
import sys
import time

import numpy as np

import rephyre


def load_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: no rows")
    tiers = {r["tier"] for r in rows}
    if len(tiers) != 1:
        sys.exit(f"{path}: expected one tier, found {sorted(tiers)}")
    return rows, tiers.pop()


def batch_inputs(rows, tier):
    task_ids = sorted({r["task_id"] for r in rows})
    position = {t: i for i, t in enumerate(task_ids)}
    sim = rephyre.initialize_simulator(task_ids, tier)
    indices = np.array([position[r["task_id"]] for r in rows], dtype=np.int64)
    actions = np.array([[float(x) for x in r["action"].split()] for r in rows])
    return sim, indices, actions


def time_batch(sim, indices, actions, threads):
    """(CPU seconds, wall seconds, statuses) of one `simulate_batch` call."""
    cpu, wall = time.process_time(), time.perf_counter()
    statuses = sim.simulate_batch(indices, actions, num_threads=threads)
    return time.process_time() - cpu, time.perf_counter() - wall, statuses


def time_bench(binary, path):
    out = subprocess.run([binary, "--threads", "1", "--quiet", "bench", "--reference", path,
                          "--status-only", "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows")
    parser.add_argument("--rephyre", default="target/release/rephyre")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2,
                        help="also time simulate_batch's wall clock on this many threads")
    args = parser.parse_args()
    rows, tier = load_rows(args.rows)
    sim, indices, actions = batch_inputs(rows, tier)
    batch_s, bench_s, wall_1, wall_n, bench = [], [], [], [], None
    for _ in range(args.repeat):
        cpu, wall, statuses = time_batch(sim, indices, actions, 1)
        batch_s.append(cpu)
        wall_1.append(wall)
        bench = time_bench(args.rephyre, args.rows)
        bench_s.append(bench["cpu_s"])
        _, wall, parallel = time_batch(sim, indices, actions, args.threads)
        wall_n.append(wall)
        if not np.array_equal(parallel, statuses):
            sys.exit(f"simulate_batch on {args.threads} threads differs from 1 thread")
    # The original's spelling of statuses (-1 / 0 / 1) is the table's; the batch's SOLVED is 1.
    agree = sum(int(s) == int(r["status"]) for s, r in zip(statuses, rows)) / len(rows)
    print(json.dumps({
        "rows": len(rows), "tier": tier,
        "simulate_batch_cpu_s": min(batch_s), "bench_cpu_s": min(bench_s),
        "ratio": min(batch_s) / min(bench_s),
        "batch_wall_s_1_thread": min(wall_1), f"batch_wall_s_{args.threads}_threads": min(wall_n),
        "speedup": min(wall_1) / min(wall_n),
        "batch_status_agreement": agree, "bench_status_agreement": bench["status_agreement"],
        "python": sys.version.split()[0],
    }, indent=1))


if __name__ == "__main__":
    main()
