"""`SimulationCache`: the statuses of a fixed action set on every task of a tier, computed
locally with `simulate_batch`, saved to a cache folder and loaded back (PHYRE 0.2.2 names).

The original downloaded a precomputed 100,000-action cache; rephyre computes one of the size
the caller chooses (100,000 actions x 2,500 tasks is 250 million simulations, about 70
CPU-hours: choose fewer actions, or fewer tasks, unless you have the time).

Folder layout (`<cache_dir>/<name>/`): `actions.npy` (A x dim float64), `statuses.npy`
(T x A int8, `SimulationStatus` values -1 / 0 / 1), `task_ids.txt` (one id a line) and
`meta.json` (tier, seed, counts).
"""

import json
import os
import pathlib
import sys
import time
from typing import Dict, Optional, Sequence, Union

import numpy as np

from . import _native
from .action_simulator import ActionSimulator, _check_tier

__all__ = ["SimulationCache", "get_default_100k_cache", "default_cache_dir"]

_VERSION = 1


def default_cache_dir() -> pathlib.Path:
    """`$REPHYRE_CACHE_DIR`, else `~/.cache/rephyre`."""
    env = os.environ.get("REPHYRE_CACHE_DIR")
    return pathlib.Path(env) if env else pathlib.Path.home() / ".cache" / "rephyre"


def _tier_task_ids(tier: str):
    prefix = range(0, 25) if tier == "ball" else range(100, 125)
    return tuple(t for t in _native.all_task_ids() if int(t[:5]) in prefix)


class SimulationCache:
    """Statuses of `action_array` on `task_ids`, loaded from a saved cache's folder."""

    def __init__(self, cache_dir: Union[str, pathlib.Path], cache_name: Optional[str] = None):
        """`SimulationCache(folder)` loads the cache saved in `folder`, as the original's does
        (its parameter is `cache_dir` too). With `cache_name`, the cache
        `<cache_dir>/<cache_name>`; a bare name that is no folder loads
        `<$REPHYRE_CACHE_DIR>/<name>`."""
        if cache_name is not None:
            path = pathlib.Path(cache_dir if cache_dir is not None else default_cache_dir())
            path = path / cache_name
        else:
            path = pathlib.Path(cache_dir)
            if not path.is_dir():
                path = default_cache_dir() / path
        meta_path = path / "meta.json"
        if not meta_path.exists():
            raise ValueError(f"no simulation cache at {path} (make one with "
                             "SimulationCache.compute or get_default_100k_cache)")
        meta = json.loads(meta_path.read_text())
        if meta.get("version") != _VERSION:
            raise ValueError(f"{path}: cache version {meta.get('version')!r}, "
                             f"this rephyre reads version {_VERSION}")
        self.path = path
        self.action_tier = meta["tier"]
        self.seed = meta["seed"]
        self.task_ids = tuple((path / "task_ids.txt").read_text().split())
        self.action_array = np.load(path / "actions.npy")
        self._statuses = np.load(path / "statuses.npy")
        self._row = {t: k for k, t in enumerate(self.task_ids)}
        if self._statuses.shape != (len(self.task_ids), len(self.action_array)):
            raise ValueError(f"{path}: statuses of shape {self._statuses.shape} do not match "
                             f"{len(self.task_ids)} tasks x {len(self.action_array)} actions")

    def __len__(self) -> int:
        """Number of actions."""
        return len(self.action_array)

    def load_simulation_states(self, task_id: str) -> np.ndarray:
        """The statuses of every action on `task_id`: int8 (-1 not solved, 0 invalid, 1
        solved), one per action."""
        return self._statuses[self._rows([task_id])[0]]

    def _rows(self, task_ids: Sequence[str]):
        missing = [t for t in task_ids if t not in self._row]
        if missing:
            raise ValueError(f"task ids not in the cache: {missing[:5]}"
                             f"{' ...' if len(missing) > 5 else ''}")
        return [self._row[t] for t in task_ids]

    def get_sample(self, task_ids: Optional[Sequence[str]] = None,
                   num_actions: Optional[int] = None) -> Dict[str, object]:
        """{'task_ids', 'actions', 'simulation_statuses'} for `task_ids` (default: all) and
        the first `num_actions` actions (default: all)."""
        task_ids = self.task_ids if task_ids is None else tuple(task_ids)
        n = len(self) if num_actions is None else int(num_actions)
        if not 0 <= n <= len(self):
            raise ValueError(f"num_actions must be 0-{len(self)}, got {n}")
        return {
            "task_ids": task_ids,
            "actions": self.action_array[:n],
            "simulation_statuses": self._statuses[self._rows(task_ids)][:, :n],
        }

    @classmethod
    def compute(cls, action_tier: str, num_actions: int, *, task_ids=None, seed: int = 1,
                cache_name: Optional[str] = None, cache_dir: Optional[str] = None,
                num_threads: Optional[int] = None, progress: bool = True) -> "SimulationCache":
        """Simulate `num_actions` actions (`build_discrete_action_space(num_actions, seed)`)
        on `task_ids` (default: every task of the tier), save the cache and load it. With
        `progress`, a line on stderr counts the tasks done and estimates the time left."""
        tier = _check_tier(action_tier)
        num_actions = int(num_actions)
        if num_actions < 1:
            raise ValueError(f"num_actions must be at least 1, got {num_actions}")
        task_ids = _tier_task_ids(tier) if task_ids is None else tuple(task_ids)
        sim = ActionSimulator(task_ids, tier)
        actions = np.array(sim.build_discrete_action_space(num_actions, seed=seed))
        statuses = np.empty((len(task_ids), num_actions), dtype=np.int8)
        start = time.monotonic()
        for k in range(len(task_ids)):
            statuses[k] = sim.simulate_batch(np.full(num_actions, k), actions,
                                             num_threads=num_threads)
            if progress:
                _report(k + 1, len(task_ids), time.monotonic() - start)
        name = cache_name or f"{tier}-{num_actions}-seed{seed}"
        path = (pathlib.Path(cache_dir) if cache_dir else default_cache_dir()) / name
        path.mkdir(parents=True, exist_ok=True)
        np.save(path / "actions.npy", actions)
        np.save(path / "statuses.npy", statuses)
        (path / "task_ids.txt").write_text("\n".join(task_ids) + "\n")
        (path / "meta.json").write_text(json.dumps({
            "version": _VERSION, "tier": tier, "seed": seed, "actions": num_actions,
            "tasks": len(task_ids)}))
        return cls(str(path))


def _report(done: int, total: int, seconds: float) -> None:
    left = seconds / done * (total - done)
    end = "\n" if done == total else ""
    print(f"\rsimulation cache: {done}/{total} tasks, {seconds:.0f} s, about {left:.0f} s left",
          end=end, file=sys.stderr, flush=True)


def get_default_100k_cache(tier: str, num_actions: int = 100_000,
                           cache_dir: Optional[str] = None, **compute_args) -> SimulationCache:
    """The tier's cache of `num_actions` actions (default 100,000, the original's size) from
    the cache folder, computed and saved first when it is not there (see the module's note on
    the cost)."""
    tier = _check_tier(tier)
    name = f"{tier}-{int(num_actions)}-seed1"
    base = pathlib.Path(cache_dir) if cache_dir else default_cache_dir()
    if (base / name / "meta.json").exists():
        return SimulationCache(str(base), cache_name=name)
    return SimulationCache.compute(tier, num_actions, cache_name=name, cache_dir=str(base),
                                   **compute_args)
