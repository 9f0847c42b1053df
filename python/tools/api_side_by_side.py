"""Prints the public API of `phyre` or `rephyre` (signatures, types, dtypes, shapes, a few
values) so the two can be diffed side by side. Run it under each package and compare:

    python3.9 -m venv /tmp/phyre && /tmp/phyre/bin/pip install phyre==0.2.2
    /tmp/phyre/bin/python python/tools/api_side_by_side.py phyre > orig.txt
    python python/tools/api_side_by_side.py rephyre > ours.txt
    diff orig.txt ours.txt

Expected differences are listed in python/README.md ("Differences from phyre 0.2.2"): goals,
the last digits of featurized positions (fixed-point physics), `sample()` without an rng,
rephyre's added parameters and members, ActionSimulator's constructor, the module names in
annotations and MAIN_EVAL_SETUPS (no ball_phyre_to_tools). With numpy 2 the
original's `observations_to_float_rgb` needs the `np.float` alias, which this script restores.
"""

import inspect
import sys

import numpy as np

if not hasattr(np, "float"):
    np.float = float  # the original's vis uses it
phyre = __import__(sys.argv[1])
def sig(f):
    try: return str(inspect.signature(f))
    except Exception as e: return f"<{type(e).__name__}>"
names = ["get_fold","list_eval_setups","eval_setup_to_action_tier","initialize_simulator",
 "observations_to_float_rgb","observations_to_uint8_rgb","featurized_objects_vector_to_raster","get_default_100k_cache"]
for n in names:
    print(n, sig(getattr(phyre, n, None)) if hasattr(phyre,n) else "MISSING")
for c in ["ActionSimulator","Evaluator","SimulationCache","Simulation","FeaturizedObjects"]:
    cls = getattr(phyre, c, None)
    if cls is None: print(c,"MISSING"); continue
    print(c, "__init__", sig(cls.__init__))
    for m, v in sorted(vars(cls).items()):
        if m.startswith("_"): continue
        if isinstance(v, property): print(" ", c, m, "property")
        elif callable(v) or isinstance(v,(staticmethod,classmethod)): print(" ", c, m, sig(getattr(cls,m)))
        else: print(" ", c, m, "attr")
print("SimulationStatus", [ (s.name, int(s)) for s in phyre.SimulationStatus])
print("ACTION_TIERS", phyre.ACTION_TIERS); print("MAIN_EVAL_SETUPS", phyre.MAIN_EVAL_SETUPS)
print("MAX_TEST_ATTEMPTS", phyre.MAX_TEST_ATTEMPTS, "SCENE", getattr(phyre,'SCENE_WIDTH',None), getattr(phyre,'SCENE_HEIGHT',None), "NUM_COLORS", getattr(phyre,'NUM_COLORS',None))
vis = __import__(sys.argv[1]+".vis", fromlist=["x"])
for n in sorted(dir(vis)):
    if not n.startswith("_") and inspect.isfunction(getattr(vis,n)) and getattr(vis,n).__module__.endswith("vis"): print("vis", n, sig(getattr(vis,n)))
sim = phyre.initialize_simulator(['00000:000','00002:017'], 'ball')
def d(name, x):
    if isinstance(x, np.ndarray): print(name, type(x).__name__, x.dtype, x.shape, repr(x.ravel()[:8]))
    else: print(name, type(x).__name__, repr(x)[:200])
d('initial_scenes', sim.initial_scenes)
d('goals', sim.goals)
d('action_space_dim', sim.action_space_dim)
fo = sim.initial_featurized_objects[0]
print('fo type', type(fo).__name__)
for a in ['features','xs','ys','angles','diameters','shapes','colors','shapes_one_hot','colors_one_hot','states','num_objects','num_scene_objects','num_user_inputs']:
    try: d('fo.'+a, getattr(fo,a))
    except Exception as e: print('fo.'+a, 'ERR', e)
r = sim.simulate_action(0, [0.8,0.8,0.3], need_images=True, need_featurized_objects=True)
print('status', repr(r.status))
d('images', r.images)
fo = r.featurized_objects
for a in ['features','xs','shapes','colors','states','num_objects','num_user_inputs']:
    try: d('r.fo.'+a, getattr(fo,a))
    except Exception as e: print('r.fo.'+a, 'ERR', e)
d('sample', sim.sample())
d('discrete', sim.build_discrete_action_space(5))
d('rgb', phyre.observations_to_float_rgb(sim.initial_scenes[0]))
d('rgb8', phyre.observations_to_uint8_rgb(sim.initial_scenes[0]))
tr, dv, te = phyre.get_fold('ball_cross_template', 0); d('fold', (type(tr).__name__, len(tr), len(dv), len(te), tr[:2]))
ev = phyre.Evaluator(['00000:000'])
d('log', ev.maybe_log_attempt(0, phyre.SimulationStatus.NOT_SOLVED))
d('metrics', ev.compute_all_metrics())
d('auccess', ev.get_aucess())
d('stable', sim.simulate_action(0, [0.8,0.8,0.3], need_images=False, stable=True).status)
d('simulate_single', sim.simulate_single(0, [0.8,0.8,0.3], need_images=False))
