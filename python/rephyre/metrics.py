"""Evaluation setups, folds and the AUCCESS evaluator (PHYRE 0.2.2 names)."""

import math
from typing import Dict, List, Sequence, Tuple

from . import _native
from .simulation import SimulationStatus

__all__ = [
    "MAX_TEST_ATTEMPTS", "MAIN_EVAL_SETUPS", "get_fold", "list_eval_setups",
    "eval_setup_to_action_tier", "Evaluator",
]

MAX_TEST_ATTEMPTS = 100
MAIN_EVAL_SETUPS = (
    "ball_cross_template",
    "ball_within_template",
    "two_balls_cross_template",
    "two_balls_within_template",
)
TaskIds = Tuple[str, ...]


def list_eval_setups() -> Tuple[str, ...]:
    """The evaluation setups (the four main ones)."""
    return MAIN_EVAL_SETUPS


def get_fold(eval_setup: str, seed: int) -> Tuple[TaskIds, TaskIds, TaskIds]:
    """(train, dev, test) task ids of fold `seed` (0-9) of `eval_setup`: 1600 / 400 / 500 ids,
    each sorted, exactly the original's folds."""
    if isinstance(seed, bool) or not isinstance(seed, int) and not hasattr(seed, "__index__"):
        raise ValueError(f"fold must be an integer 0-9, got {seed!r}")
    train, dev, test = _native.get_fold(str(eval_setup), int(seed))
    return tuple(train), tuple(dev), tuple(test)


def eval_setup_to_action_tier(eval_setup_name: str) -> str:
    """'ball' or 'two_balls'."""
    return _native.setup_tier(str(eval_setup_name))


def _weights(attempts: int) -> List[float]:
    return [math.log(k + 1) - math.log(k) for k in range(1, attempts + 1)]


class Evaluator:
    """Logs the valid attempts of an agent on `task_ids` and computes AUCCESS (SPEC §7):
    at most `MAX_TEST_ATTEMPTS` valid attempts per task; invalid ones are not logged; a task
    counts as solved at its first solving attempt."""

    def __init__(self, task_ids: Sequence[str]):
        self._task_ids = tuple(task_ids)
        self._attempts = [0] * len(self._task_ids)
        self._solved_at = [None] * len(self._task_ids)
        self._log: List[Tuple[str, SimulationStatus]] = []

    @property
    def task_ids(self) -> Tuple[str, ...]:
        """The task ids given to the constructor, in order."""
        return self._task_ids

    def _check_index(self, task_index: int) -> int:
        n = len(self._task_ids)
        i = int(task_index)
        if not -n <= i < n:
            raise IndexError(f"task index {i} is out of range ({n} tasks)")
        return i % n

    def maybe_log_attempt(self, task_index: int, status) -> bool:
        """Log an attempt; returns False (and logs nothing) when `status` is invalid or the
        task already has `MAX_TEST_ATTEMPTS` attempts."""
        i = self._check_index(task_index)
        status = SimulationStatus(int(status))
        if status.is_invalid():
            return False
        if self._attempts[i] >= MAX_TEST_ATTEMPTS:
            return False
        self._attempts[i] += 1
        if status.is_solved() and self._solved_at[i] is None:
            self._solved_at[i] = self._attempts[i]
        self._log.append((self._task_ids[i], status))
        return True

    def get_attempts_for_task(self, task_index: int) -> int:
        return self._attempts[self._check_index(task_index)]

    def _solved_by(self, attempts: int) -> List[float]:
        """s_k for k = 0..attempts: share of the tasks solved within k attempts."""
        n = max(len(self._task_ids), 1)
        counts = [0] * (attempts + 1)
        for s in self._solved_at:
            if s is not None and s <= attempts:
                counts[s] += 1
        out, running = [], 0
        for c in counts:
            running += c
            out.append(running / n)
        return out

    def get_auccess(self, attempts: int = MAX_TEST_ATTEMPTS) -> float:
        """AUCCESS = sum_k w_k s_k / sum_k w_k, k = 1..attempts, w_k = ln(k+1) - ln(k)."""
        attempts = int(attempts)
        if attempts < 1:
            raise ValueError(f"attempts must be at least 1, got {attempts}")
        s = self._solved_by(attempts)[1:]
        w = _weights(attempts)
        return sum(a * b for a, b in zip(w, s)) / sum(w)

    # The original's spelling.
    get_aucess = get_auccess

    def compute_all_metrics(self) -> Dict[str, object]:
        """'independent_solved_by' (s_k, k = 0..100), 'independent_solved_by_aucs' (AUCCESS
        at k attempts, k = 0..100; 0 at k = 0), 'total_attempts', 'total_solved',
        'num_tasks'."""
        solved_by = self._solved_by(MAX_TEST_ATTEMPTS)
        aucs = [0.0]
        num = den = 0.0
        for k in range(1, MAX_TEST_ATTEMPTS + 1):
            w = math.log(k + 1) - math.log(k)
            num += w * solved_by[k]
            den += w
            aucs.append(num / den)
        return {
            "independent_solved_by": solved_by,
            "independent_solved_by_aucs": aucs,
            "total_attempts": len(self._log),
            "total_solved": sum(s is not None for s in self._solved_at),
            "num_tasks": len(self._task_ids),
        }

    def __len__(self) -> int:
        return len(self._log)
