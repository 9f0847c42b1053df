"""Writes python/tests/data/phyre-0.2.2-evaluator-vis.json: the Evaluator's metrics on fixed logs
and observations_to_uint8_rgb on fixed random scenes, as phyre 0.2.2 computes them. Run it with
the original installed: python gen_reference_0_2_2.py python/tests/data/phyre-0.2.2-evaluator-vis.json
"""
import hashlib, json, sys
import numpy as np
import phyre

def scenarios():
    out = []
    out.append(("spec_value", ["a", "b"], [(0, 1)] + [(1, -1)] * 11 + [(1, 0), (1, 1)]))
    rng = np.random.RandomState(17)
    ids = [f"000{t:02d}:{i:03d}" for t in range(4) for i in range(5)]
    log = []
    caps = {k: int(rng.randint(0, 101)) for k in range(len(ids))}
    made = {k: 0 for k in caps}
    solved = set()
    while True:
        open_ = [k for k in caps if made[k] < caps[k] and k not in solved]
        if not open_:
            break
        k = int(open_[rng.randint(len(open_))])
        st = int(rng.choice([-1, -1, -1, -1, 0, 1], p=[.25, .25, .2, .2, .06, .04]))
        log.append((k, st))
        if st != 0:
            made[k] += 1
        if st == 1 and rng.rand() < 0.8:
            solved.add(k)
    out.append(("random_agent_20_tasks", ids, log))
    out.append(("duplicate_ids_and_untouched", ["x", "x", "y", "z"],
                [(0, -1), (1, 1), (0, 1), (2, -1), (2, -1), (2, 1), (2, 1), (0, 0)]))
    full = [(0, -1)] * 100
    out.append(("full_100_then_more", ["only"], full))
    out.append(("stable_statuses", ["p", "q"], [(0, 2), (1, -1), (1, 3), (0, 1)]))
    return out

import importlib.metadata, platform
ref = {"produced_by": f"phyre {importlib.metadata.version('phyre')} (Python {platform.python_version()}),"
                      " python/tools/gen_reference_0_2_2.py", "evaluator": []}
for name, ids, log in scenarios():
    ev = phyre.Evaluator(tuple(ids))
    returns = []
    for k, st in log:
        returns.append(ev.maybe_log_attempt(k, st))
    entry = {"name": name, "task_ids": ids, "log": log, "returns": returns,
             "metrics": ev.compute_all_metrics(),
             "auccess": {str(a): ev.get_auccess(a) for a in (0, 1, 5, 10, 12, 100)},
             "aucess_default": ev.get_aucess(),
             "attempts": [ev.get_attempts_for_task(i) for i in range(len(ids))]}
    if name == "full_100_then_more":
        try:
            ev.maybe_log_attempt(0, -1); entry["extra"] = "no error"
        except AssertionError as e:
            entry["extra"] = "AssertionError"
        entry["extra_invalid"] = ev.maybe_log_attempt(0, 0)
    ref["evaluator"].append(entry)
# JSON keys must be strings: global_solved_by keys 100/1000/100000 -> stored as strings.
vis = []
for seed, kwargs in [(0, {}), (0, {"is_solved": True}), (0, {"is_solved": False}),
                     (1, {"is_solved": False}), (2, {"user_input": [(3, 200), (255, 0), (300, 5), (-1, 4)]}),
                     (2, {"user_input": [(10, 20)], "is_solved": True})]:
    scene = np.random.RandomState(seed).randint(0, 8, size=(256, 256))
    img = phyre.observations_to_uint8_rgb(scene, **kwargs)
    vis.append({"seed": seed, "kwargs": kwargs, "shape": list(img.shape), "dtype": str(img.dtype),
                "md5": hashlib.md5(np.ascontiguousarray(img).tobytes()).hexdigest(),
                "row0": np.asarray(img[0, :8]).tolist(), "row5": np.asarray(img[5, :8]).tolist()})
ref["vis"] = vis
# One line per case, so that a change shows as a one-line diff.
with open(sys.argv[1], "w") as f:
    f.write('{"produced_by": %s,\n' % json.dumps(ref["produced_by"]))
    for key in ("evaluator", "vis"):
        f.write(' "%s": [\n  %s\n ]%s\n' % (key, ",\n  ".join(json.dumps(e) for e in ref[key]),
                                           "," if key == "evaluator" else ""))
    f.write("}\n")
