"""rephyre's studies library from Python (rephyre only): the same computations as the
`rephyre solvability`, `diversity` and `parity` commands, on the built-in tasks, in parallel
with the GIL released. Results do not depend on `num_threads`.

Solvability and diversity also run sharded, like the command line's `--shard K/N`: each call
with `shard="K/N", part=FILE` runs part K of N (on any machine) and writes FILE; `merge(FILES)`
gives the single run's result. The part files are the command line's: `rephyre merge` reads
these, and `merge` reads the command's.
"""

import json
from typing import Dict, List, Optional, Sequence, Tuple

from . import _native

__all__ = ["solvability", "diversity", "parity", "merge"]


def _ids(task_ids):
    if task_ids is None:
        return None
    if isinstance(task_ids, str):
        raise ValueError("task_ids must be a sequence of task ids, not one string")
    return [str(t) for t in task_ids]


def solvability(tier: str, task_ids: Optional[Sequence[str]] = None, *,
                p0: Optional[float] = None, alpha: float = 0.05, min_valid: int = 10_000,
                min_solutions: int = 3, max_valid: Optional[int] = None, batch: int = 1000,
                seed: int = 0, num_threads: Optional[int] = None,
                checkpoint: Optional[str] = None, resume: bool = False,
                shard: Optional[str] = None, part: Optional[str] = None) -> Optional[List[Dict]]:
    """SPEC §8 per task: random actions in batches of `batch` valid ones until the binomial
    tests decide (or `max_valid`, default 2/p0). One dict per task: counts (valid, invalid,
    solved, stable), the four p-values, the flags (GOOD, BAD, GOOD_STABLE, BAD_STABLE,
    TRIVIAL) and up to 5 stable solutions. Defaults are the command line's; `checkpoint` /
    `resume` save and continue a long run. With `shard="K/N"` it runs part K of N, writes it
    to `part` and returns None (see `merge`)."""
    rows = _native.solvability(tier, _ids(task_ids), p0, float(alpha), int(min_valid),
                               int(min_solutions), None if max_valid is None else int(max_valid),
                               int(batch), int(seed),
                               None if num_threads is None else int(num_threads),
                               checkpoint, bool(resume), shard, _path(part))
    return None if shard is not None else rows


def diversity(tier: str, samples: int, task_ids: Optional[Sequence[str]] = None, *,
              seed: int = 0, num_threads: Optional[int] = None,
              shard: Optional[str] = None, part: Optional[str] = None) -> Optional[Dict[str, Dict]]:
    """Solution diversity: `samples` random actions each tried on every task of each
    template. Returns {template: {'tasks': n, 'histogram': [actions solving exactly k of its
    tasks, k = 0..n]}}. With `shard="K/N"` it runs part K of N (a share of every template's
    actions), writes it to `part` and returns None (see `merge`)."""
    rows = _native.diversity(tier, _ids(task_ids), int(samples), int(seed),
                             None if num_threads is None else int(num_threads),
                             shard, _path(part))
    return None if shard is not None else _histograms(rows)


def _histograms(rows):
    return {t: {"tasks": n, "histogram": h} for t, n, h in rows}


def merge(parts: Sequence[str]) -> Tuple[str, object]:
    """The part files of a sharded solvability or diversity run (every shard K of N exactly
    once, in any order) merged into the single run's result, byte for byte what one unsharded
    call gives: ("solvability", rows) or ("diversity", histograms). Parts of different runs,
    a missing part or one given twice raise ValueError naming the file."""
    if isinstance(parts, (str, bytes)):
        raise ValueError("parts must be a sequence of part files, not one path")
    study, result = _native.merge([_path(p) for p in parts])
    return study, _histograms(result) if study == "diversity" else result


def _path(p):
    return None if p is None else str(p)


def parity(reference: Optional[str] = None, *, random_per_task: int = 0,
           random_per_task_2b: int = 0, num_threads: Optional[int] = None
           ) -> Tuple[Dict, str]:
    """rephyre against the original on a reference table (CSV text with the columns
    task_id,tier,kind,index,action,status; None = the built-in 141,680 rows, minutes of
    work). Returns (summary dict as `rephyre parity --json` prints it, Markdown report)."""
    summary, markdown = _native.parity(reference, int(random_per_task), int(random_per_task_2b),
                                       None if num_threads is None else int(num_threads))
    return json.loads(summary), markdown
