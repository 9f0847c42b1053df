"""rephyre: PHYRE 0.2.2's Python API on a bit-reproducible fixed-point engine.

`import rephyre as phyre` runs code written for phyre 0.2.2 (see python/README.md for the
differences). The 5,000 PHYRE-B and PHYRE-2B tasks are built in, and so are Phy-Q's 7,500
(`rephyre.phyq`).
"""

from . import _native
from . import phyq, studies, vis
from .action_simulator import ACTION_TIERS, ActionSimulator, initialize_simulator
from .metrics import (MAIN_EVAL_SETUPS, MAX_TEST_ATTEMPTS, Evaluator, eval_setup_to_action_tier,
                      get_fold, list_eval_setups)
from .objects_util import featurized_objects_vector_to_raster
from .simulation import FeaturizedObjects, Simulation, SimulationStatus
from .simulation_cache import SimulationCache, get_default_100k_cache
from .vis import observations_to_float_rgb, observations_to_uint8_rgb

SCENE_WIDTH = 256
SCENE_HEIGHT = 256
NUM_COLORS = 7

__version__ = "0.1.0"

__all__ = [
    "ACTION_TIERS", "ActionSimulator", "initialize_simulator", "MAIN_EVAL_SETUPS",
    "MAX_TEST_ATTEMPTS", "Evaluator", "eval_setup_to_action_tier", "get_fold",
    "list_eval_setups", "featurized_objects_vector_to_raster", "FeaturizedObjects",
    "Simulation", "SimulationStatus", "observations_to_float_rgb", "observations_to_uint8_rgb",
    "vis", "phyq", "SimulationCache", "get_default_100k_cache", "SCENE_WIDTH", "SCENE_HEIGHT", "NUM_COLORS", "all_task_ids",
]


def all_task_ids():
    """rephyre only: the ids of the 5,000 built-in tasks, sorted."""
    return tuple(_native.all_task_ids())
