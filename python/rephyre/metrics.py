"""Evaluation setups, folds and the AUCCESS evaluator (PHYRE 0.2.2 names)."""

import collections
import itertools
import logging
import math
from typing import Dict, List, Sequence, Tuple, Union

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
AUCCESS_METRIC = "independent_solved_by_aucs"
_logger = logging.getLogger(__name__)


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


def _compute_metrics(log: Sequence[Tuple[str, SimulationStatus]]) -> Dict[str, object]:
    """The original's `phyre.metrics.compute_metrics`, step for step (so every float is the
    same): counts per task id over the log of valid attempts, not yet divided by the number
    of tasks."""
    if not log:
        _logger.warning("Computing metrics for empty evaluation log!")
    attempts: Dict[str, int] = collections.defaultdict(int)
    solved_at: Dict[str, int] = {}
    first_solution_points = []
    for attempt_index, (task, status) in enumerate(log, start=1):
        attempts[task] += 1
        if task not in solved_at and status.is_solved():
            first_solution_points.append(attempt_index)
            solved_at[task] = attempts[task]
    if solved_at and max(solved_at.values()) > MAX_TEST_ATTEMPTS:
        _logger.warning(
            "Used more than %d attempts at least of one of the"
            " tasks. It most likely means a bug in evaluation loop.", MAX_TEST_ATTEMPTS)
    # independent_solved_by[i] := how many tasks were solved with at most i attempts.
    independent_solved_by = [0]
    for num_attempts, group in itertools.groupby(sorted(solved_at.values())):
        count = len(list(group))
        if num_attempts > MAX_TEST_ATTEMPTS:
            break
        while len(independent_solved_by) <= num_attempts:
            independent_solved_by.append(independent_solved_by[-1])
        independent_solved_by[num_attempts] += count
    while len(independent_solved_by) <= MAX_TEST_ATTEMPTS:
        independent_solved_by.append(independent_solved_by[-1])
    independent_solved_by_aucs = [0.]
    num, denom = 0., 0.
    for up_to in range(1, MAX_TEST_ATTEMPTS + 1):
        weight = math.log(up_to + 1) - math.log(up_to)
        num += weight * independent_solved_by[up_to]
        denom += weight
        independent_solved_by_aucs.append(num / denom)
    global_solved_by = {
        t: sum(num_attempts <= t for num_attempts in first_solution_points)
        for t in [100, 1000, 100000]
    }
    return dict(
        independent_solved_by=independent_solved_by,
        independent_solved_by_aucs=independent_solved_by_aucs,
        global_solved_by=global_solved_by,
        total_attempts=sum(attempts.values()),
        total_solved=len(first_solution_points),
    )


def _normalize(value, num_tasks: int):
    if isinstance(value, dict):
        return {k: _normalize(v, num_tasks) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalize(v, num_tasks) for v in value]
    return value / num_tasks


class Evaluator:
    """Logs the valid attempts of an agent on `task_ids` and computes AUCCESS (SPEC §7):
    at most `MAX_TEST_ATTEMPTS` valid attempts per task; invalid ones are not logged; a task
    counts as solved at its first solving attempt. Metrics are the original's, float for
    float."""

    def __init__(self, task_ids: Sequence[str]):
        self._task_ids = tuple(task_ids)
        self._log: List[Tuple[str, SimulationStatus]] = []
        # The original's public counter (a list, one entry per task index).
        self.attempts_per_task_index: List[int] = [0] * len(self._task_ids)

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

    def maybe_log_attempt(self, task_index: int,
                          status: Union[int, str, SimulationStatus]) -> bool:
        """Log an attempt; returns False (and logs nothing) when `status` is invalid. Raises
        AssertionError, as the original does, when the task already has `MAX_TEST_ATTEMPTS`
        logged attempts."""
        i = self._check_index(task_index)
        status = SimulationStatus(int(status))
        if status.is_invalid():
            return False
        assert self.attempts_per_task_index[i] < MAX_TEST_ATTEMPTS, (
            f"Task {self._task_ids[i]} of index {task_index} has "
            f"{self.attempts_per_task_index[i]} attempts made, "
            "greater than maximum number of test attempts "
            f"{MAX_TEST_ATTEMPTS}")
        self._log.append((self._task_ids[i], status))
        self.attempts_per_task_index[i] += 1
        return True

    def get_attempts_for_task(self, task_index: int) -> int:
        return self.attempts_per_task_index[self._check_index(task_index)]

    def compute_all_metrics(self) -> Dict[str, object]:
        """The original's metrics, each divided by the number of tasks:
        'independent_solved_by' (s_k, k = 0..100), 'independent_solved_by_aucs' (AUCCESS at
        k attempts, k = 0..100), 'global_solved_by' ({100, 1000, 100000}: tasks whose first
        solution came within that many logged attempts in all), 'total_attempts',
        'total_solved'."""
        num_tasks = len(self._task_ids)
        metrics = _compute_metrics(self._log)
        if metrics["total_attempts"] < MAX_TEST_ATTEMPTS * num_tasks:
            _logger.warning(
                "Used %f attempts per task instead of maximum allowed"
                " %f. That probably indicate a bug in evaluation loop.",
                metrics["total_attempts"] / num_tasks, MAX_TEST_ATTEMPTS)
        return _normalize(metrics, num_tasks)

    def get_auccess(self, attempts: int = MAX_TEST_ATTEMPTS) -> float:
        """AUCCESS = sum_k w_k s_k / sum_k w_k, k = 1..attempts, w_k = ln(k+1) - ln(k):
        `compute_all_metrics()['independent_solved_by_aucs'][attempts]`, as in the
        original."""
        return self.compute_all_metrics()[AUCCESS_METRIC][attempts]

    # The original's spelling.
    def get_aucess(self, attempts: int = MAX_TEST_ATTEMPTS) -> float:
        return self.get_auccess(attempts)

    def __len__(self) -> int:
        return len(self._log)
