"""`ActionSimulator` and `initialize_simulator` (PHYRE 0.2.2 names), plus rephyre's
`simulate_batch`."""

from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from .simulation import STATUS_OF_CODE, FeaturizedObjects, Simulation, SimulationStatus

__all__ = ["ACTION_TIERS", "ActionSimulator", "initialize_simulator"]

ACTION_TIERS = ("ball", "two_balls")
_DIMS = {"ball": 3, "two_balls": 6}
ActionLike = Union[np.ndarray, Sequence[float]]


def _check_tier(action_tier: str) -> str:
    """The tier's name ('ball' / 'two_balls'); the library's upper-case spellings ('BALL',
    'TWO_BALLS') are accepted too, as by the native functions."""
    if isinstance(action_tier, str) and action_tier.isupper():
        action_tier = action_tier.lower()
    if action_tier not in _DIMS:
        raise ValueError(
            f"unknown action tier {action_tier!r} (expected one of {ACTION_TIERS})")
    return action_tier


class ActionSimulator:
    """Simulates actions of one tier on a fixed list of tasks (indices follow `task_ids`)."""

    def __init__(self, task_ids: Sequence[str], action_tier: str):
        if isinstance(task_ids, str):
            raise ValueError("task_ids must be a sequence of task ids, not one string")
        self._tier = _check_tier(action_tier)
        self._task_ids = tuple(str(t) for t in task_ids)
        self._indices = _native.task_indices(list(self._task_ids))
        self._index_array = np.asarray(self._indices, dtype=np.int64)
        self._n = len(self._indices)
        self._dim = _DIMS[self._tier]
        self._scenes = None
        self._features = None

    def _load_scenes(self):
        if self._scenes is None:
            scenes, features = _native.initial_scenes(self._indices)
            # The original returns int64 scenes (its docstring says uint8); code written for it
            # may do arithmetic on them, so the dtype is kept.
            self._scenes = scenes.astype(np.int64)
            self._features = [FeaturizedObjects(f) for f in features]

    @property
    def task_ids(self) -> Tuple[str, ...]:
        return self._task_ids

    @property
    def action_tier(self) -> str:
        return self._tier

    @property
    def initial_scenes(self) -> np.ndarray:
        """N x 256 x 256 int64 observations (colour indices 0-6) of the scenes, as the original
        returns them; row 0 = bottom of the scene (use `observations_to_uint8_rgb` to get an
        upright picture)."""
        self._load_scenes()
        return self._scenes

    @property
    def initial_featurized_objects(self) -> List[FeaturizedObjects]:
        """One `FeaturizedObjects` (1 frame) per task: the scene's objects before any action."""
        self._load_scenes()
        return self._features

    @property
    def goals(self) -> np.ndarray:
        """N x 3 int64: (body 1, relation, body 2) per task; body indices count the scene's
        bodies as the task file lists them (the 4 walls first); relation 5 is TOUCHING."""
        return _native.goals(self._indices)

    @property
    def action_space_dim(self) -> int:
        return self._dim

    def _task_index(self, task_index) -> int:
        try:
            i = int(task_index)
        except (TypeError, ValueError):
            raise IndexError(f"task index must be an integer, got {task_index!r}") from None
        if not -self._n <= i < self._n:
            raise IndexError(f"task index {i} is out of range ({self._n} tasks)")
        return self._indices[i]

    def sample(self, valid_only: bool = True, rng=None) -> np.ndarray:
        """A uniform random action; with `valid_only`, redrawn until its balls lie in the scene
        (and, two balls, apart). Occlusion by the task's bodies is not checked (as in the
        original). `rng`: a `numpy.random.RandomState` / `Generator`; the same `RandomState`
        gives the original's actions. Default: numpy's global generator (the original used a
        fresh unseeded one, so `np.random.seed` makes rephyre's default reproducible)."""
        rng = np.random if rng is None else rng
        while True:
            action = np.asarray(rng.uniform(size=self._dim), dtype=np.float64)
            if not valid_only or _native.in_action_space(self._tier, action):
                return action

    def build_discrete_action_space(self, max_actions: int, seed: int = 1) -> List[np.ndarray]:
        """`max_actions` actions from `sample()` with `np.random.RandomState(seed)`, as a list
        of float64 arrays: the original's type and, draw for draw, the original's actions."""
        max_actions = int(max_actions)
        if max_actions < 0:
            raise ValueError(f"max_actions must be non-negative, got {max_actions}")
        rng = np.random.RandomState(seed=seed)
        return [self.sample(rng=rng) for _ in range(max_actions)]

    def simulate_action(self, task_index: int, action: ActionLike, *,
                        need_images: bool = True, need_featurized_objects: bool = False,
                        stride: int = 60, stable: bool = False) -> Simulation:
        """Simulate `action` on task `task_index`. Images (T x 256 x 256 uint8, row 0 =
        bottom) and featurized objects are recorded after steps 1, 1 + stride, ... up to the
        end of the run (the solving step for a solved run). With `stable=True`, a solution
        is STABLY_SOLVED when every valid neighbour action (balls moved by half a pixel)
        solves too, else UNSTABLY_SOLVED. An invalid action gives INVALID_INPUT and no images.
        NaN / infinite components and a wrong length raise ValueError."""
        index = self._task_index(task_index)
        a = np.asarray(action, dtype=np.float64)
        if a.ndim != 1:
            raise ValueError(f"an action must be a 1-D array of {self._dim} numbers, "
                             f"got shape {a.shape}")
        status, images, features, solved_step = _native.simulate(
            index, self._tier, a, need_images, need_featurized_objects, int(stride),
            stable)
        return Simulation(
            status=STATUS_OF_CODE[status], images=images,
            featurized_objects=None if features is None else FeaturizedObjects(features),
            solved_step=solved_step)

    def simulate_single(self, task_index: int, action: ActionLike, need_images: bool = True,
                        stride: int = 60, stable: bool = False
                        ) -> Tuple[SimulationStatus, Optional[np.ndarray]]:
        """The original's older call: (status, images)."""
        sim = self.simulate_action(task_index, action, need_images=need_images,
                                   stride=stride, stable=stable)
        return sim.status, sim.images

    def simulate_batch(self, task_indices, actions, *, stable: bool = False,
                       return_solved_steps: bool = False, num_threads: Optional[int] = None):
        """rephyre only: statuses of `actions[i]` on task `task_indices[i]` (simulator
        indices), computed in parallel with the GIL released. Returns an int8 array of
        `SimulationStatus` values (and, with `return_solved_steps`, an int32 array of solved
        steps, -1 where not solved). The result is identical to calling `simulate_action`
        one by one, for any `num_threads` (default: all cores)."""
        idx = np.asarray(task_indices)
        if idx.ndim != 1:
            raise ValueError(f"task_indices must be 1-D, got shape {idx.shape}")
        if idx.size and not np.issubdtype(idx.dtype, np.integer):
            raise ValueError(f"task_indices must be integers, got dtype {idx.dtype}")
        idx = idx.astype(np.int64, copy=False)
        if idx.size:
            bad = np.flatnonzero((idx < -self._n) | (idx >= self._n))
            if bad.size:
                k = int(bad[0])
                raise IndexError(f"task index {int(idx[k])} at position {k} is out of range "
                                 f"({self._n} tasks)")
            idx = self._index_array[idx]
        a = np.asarray(actions, dtype=np.float64)
        if a.ndim == 1 and a.size == 0:
            a = a.reshape(0, self._dim)
        if a.ndim != 2:
            raise ValueError(f"actions must be a 2-D array (n x {self._dim}), got shape {a.shape}")
        statuses, steps = _native.simulate_batch(
            np.ascontiguousarray(idx), self._tier, np.ascontiguousarray(a), bool(stable),
            None if num_threads is None else int(num_threads))
        return (statuses, steps) if return_solved_steps else statuses

    def __len__(self) -> int:
        return self._n


def initialize_simulator(task_ids: Sequence[str], action_tier: str) -> ActionSimulator:
    """An `ActionSimulator` for `task_ids` (e.g. a fold's lists) and actions of `action_tier`."""
    return ActionSimulator(task_ids, action_tier)
