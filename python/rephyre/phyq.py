"""Phy-Q on rephyre (rephyre only): the 7,500 built-in tasks (75 templates x 100, ids
`phyq:L_C_K:NNNNN`) or a level-set file's, played on the same bit-reproducible game as
`rephyre simulate ID --shots ...`.

A shot is (x, y, tap): the release point relative to the bird's rest point on the slingshot,
in pixels of the level's 640 x 480 picture (x right, y up; the birds' 1 m drag radius is about
18.3 pixels for the built-in tasks, and longer offsets are clamped by the game), and the tap
time in seconds after the launch (0: no tap; at most 60). Shots are checked as `--shots`
checks them: anything else raises ValueError.

* `task_ids(template=None)`, `templates()`, `task(id)`, `load_tasks(path)`;
* `simulate(task, shots, picture=False, symbolic=False)`: a `Result` with the status
  ("passed", "not_passed", or "invalid" for more shots than birds), pigs left, shots taken,
  steps and the final hash, all as `simulate --json` gives them;
* `observe(task)`: the level's picture and symbolic JSON before any step (`rephyre render` and
  `rephyre tasks show --json`);
* `Game(task)`: a game kept between shots (one `shoot` per bird), which the Gymnasium
  environment `rephyre.gym_env.PhyqEnv` plays;
* `to_rgb(picture)`: a picture's colour codes as RGB.

Pictures are 480 x 640 uint8 arrays of the original's colour codes (RRRGGGBB), row 0 at the
top; the symbolic representation is JSON text (`json.loads` it).
"""

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = ["Task", "Game", "Result", "task_ids", "templates", "task", "load_tasks", "simulate",
           "observe", "to_rgb", "WIDTH", "HEIGHT"]

WIDTH = 640
HEIGHT = 480

Task = _native.PhyqTask
TaskLike = Union[str, "Task"]


# A task in play, one bird at a time; its doc: help(rephyre.phyq.Game).
Game = _native.PhyqGame


@dataclass(frozen=True)
class Result:
    """What `simulate` returns: the fields of `rephyre simulate ID --shots ... --json`, and the
    final state's picture and symbolic JSON when asked for."""

    task_id: str
    status: str
    pigs_left: int
    shots: int
    steps: int
    final_hash: str
    picture: Optional[np.ndarray] = None
    symbolic: Optional[str] = None

    @property
    def passed(self) -> bool:
        return self.status == "passed"


def task_ids(template: Optional[str] = None) -> List[str]:
    """Ids of the built-in tasks, sorted as `rephyre tasks list --tier phyq` prints them; only a
    template's 100 with `template` (its code, "1_1_4", or paper number, "1.1")."""
    return _native.phyq_task_ids(template)


def templates() -> List[Dict]:
    """The 75 templates in the paper's order: scenario, scenario_name, paper (number "S.T"),
    code ("L_C_K"), role ("train" / "test": the broad-generalization split), strategy."""
    keys = ("scenario", "scenario_name", "paper", "code", "role", "strategy")
    return [dict(zip(keys, row)) for row in _native.phyq_templates()]


def task(task_id: TaskLike) -> "Task":
    """The built-in task with this id (a `Task`: id, source, birds, template)."""
    return _native.phyq_task(task_id)


def load_tasks(path) -> List["Task"]:
    """The tasks of a level-set file (`rephyre tasks import-levels ... --out FILE`), sorted by
    id."""
    return _native.phyq_load(str(path))


def simulate(task: TaskLike, shots, *, picture: bool = False,
             symbolic: bool = False) -> Result:
    """Plays `shots` (a list of (x, y, tap), or the `--shots` text "x,y,tap;...") on `task` (an
    id or a `Task`), one bird each, stopping when every pig is destroyed; with `picture` /
    `symbolic`, the final state's picture and symbolic JSON too."""
    t = task if isinstance(task, Task) else _native.phyq_task(task)
    status, pigs, taken, steps, final_hash, pic, sym = _native.phyq_simulate(
        t, shots, bool(picture), bool(symbolic))
    return Result(t.id, status, pigs, taken, steps, final_hash, pic, sym)


def observe(task: TaskLike) -> Tuple[np.ndarray, str]:
    """The level as written, before any step: (picture, symbolic JSON)."""
    return _native.phyq_observe(task)


_PALETTE = None


def to_rgb(picture) -> np.ndarray:
    """Colour codes (any shape) as RGB uint8 (the shape and 3)."""
    global _PALETTE
    if _PALETTE is None:
        _PALETTE = _native.phyq_palette()
    codes = np.asarray(picture)
    if codes.dtype != np.uint8:
        raise ValueError(f"a picture is uint8 colour codes, got {codes.dtype}")
    return _PALETTE[codes]
