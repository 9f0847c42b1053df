"""A Gymnasium environment over PHYRE tasks (rephyre only; needs `pip install gymnasium`).

Each episode is one attempt on one task: `reset()` picks a task and returns its initial scene
(256 x 256 uint8, values 0-6, row 0 = bottom); `step(action)` places the ball(s), simulates,
and ends the episode. Reward: 1 solved, 0 not solved, `invalid_reward` (default 0) for an
invalid action. `info` holds the task id, the `SimulationStatus` and the solved step.

Importing this module registers the environment as `ENV_ID` ("rephyre/PHYRE-v0"):
`gymnasium.make("rephyre/PHYRE-v0", eval_setup="ball_within_template", fold_id=0,
split="train")` draws each episode's task from that fold's split.

`PhyqEnv` plays Phy-Q tasks (`rephyre.phyq`), one step per bird: `reset()` picks a task and
returns its picture after the level's 2 s opening (480 x 640 uint8 colour codes, row 0 = top);
`step((x, y, tap))` shoots the next bird and runs the world to rest. Reward 1 when that shot
passes the level (every pig destroyed), else 0; the episode terminates when the level is passed
or the birds run out. Registered as `PHYQ_ENV_ID` ("rephyre/PhyQ-v0"; all 7,500 built-in tasks
unless `task_ids` or `template` is given).
"""

from typing import Optional, Sequence

import numpy as np

try:
    import gymnasium as gym
    from gymnasium import spaces
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("rephyre.gym_env needs Gymnasium: pip install gymnasium") from e

from . import phyq
from .action_simulator import ActionSimulator
from .metrics import eval_setup_to_action_tier, get_fold

__all__ = ["ENV_ID", "PhyreEnv", "PHYQ_ENV_ID", "PhyqEnv"]

ENV_ID = "rephyre/PHYRE-v0"
PHYQ_ENV_ID = "rephyre/PhyQ-v0"
# The birds' 1 m drag radius in pixels of the built-in tasks' pictures (35 m across 640 px):
# the game clamps a release further from the slingshot to it.
DRAG_RADIUS_PX = 640 / 35
_SPLITS = ("train", "dev", "test")


class PhyreEnv(gym.Env):
    """One-step episodes on `task_ids` with actions of `action_tier`, or on one split of an
    evaluation fold (`eval_setup`, `fold_id`, `split` in "train" / "dev" / "test"; the tier then
    follows from the setup). Tasks are drawn at random from the environment's generator (seeded
    by `reset(seed=...)`), or given with `reset(options={'task_index': k})`."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, task_ids: Optional[Sequence[str]] = None, action_tier: Optional[str] = None,
                 invalid_reward: float = 0.0, render_mode: Optional[str] = None, *,
                 eval_setup: Optional[str] = None, fold_id: int = 0, split: str = "train"):
        if eval_setup is not None:
            if task_ids is not None:
                raise ValueError("give either task_ids or eval_setup, not both")
            if split not in _SPLITS:
                raise ValueError(f"unknown split {split!r}; expected one of {', '.join(_SPLITS)}")
            setup_tier = eval_setup_to_action_tier(eval_setup)
            if action_tier is not None and action_tier != setup_tier:
                raise ValueError(f"eval setup {eval_setup!r} uses tier {setup_tier!r}, "
                                 f"not {action_tier!r}")
            action_tier = setup_tier
            task_ids = get_fold(eval_setup, fold_id)[_SPLITS.index(split)]
        elif task_ids is None:
            raise ValueError("give task_ids or an eval_setup")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"unknown render_mode {render_mode!r}; expected None or 'rgb_array'")
        self.simulator = ActionSimulator(task_ids, action_tier or "ball")
        dim = self.simulator.action_space_dim
        self.action_space = spaces.Box(0.0, 1.0, shape=(dim,), dtype=np.float64)
        self.observation_space = spaces.Box(0, 6, shape=(256, 256), dtype=np.uint8)
        self.invalid_reward = float(invalid_reward)
        self.render_mode = render_mode
        self._task = None
        self._last = None

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if options and "task_index" in options:
            k = int(options["task_index"])
            if not 0 <= k < len(self.simulator):
                raise IndexError(f"task index {k} is out of range ({len(self.simulator)} tasks)")
        else:
            k = int(self.np_random.integers(len(self.simulator)))
        self._task = k
        self._last = self.simulator.initial_scenes[k].astype(np.uint8)
        # A fresh array each time: callers keep observations, and the simulator's are shared.
        return self._last.copy(), {"task_id": self.simulator.task_ids[k], "task_index": k}

    def step(self, action):
        if self._task is None:
            raise RuntimeError("call reset() before step()")
        res = self.simulator.simulate_action(self._task, np.asarray(action, dtype=np.float64),
                                             need_images=self.render_mode is not None)
        if res.status.is_invalid():
            reward = self.invalid_reward
        else:
            reward = 1.0 if res.status.is_solved() else 0.0
        if res.images is not None and len(res.images):
            self._last = res.images[-1]
        info = {"task_id": self.simulator.task_ids[self._task], "status": res.status,
                "solved_step": res.solved_step}
        self._task = None
        return self._last.copy(), reward, True, False, info

    def render(self):
        if self.render_mode != "rgb_array" or self._last is None:
            return None
        from .vis import observations_to_uint8_rgb
        return observations_to_uint8_rgb(self._last)


class PhyqEnv(gym.Env):
    """Phy-Q episodes, one step per bird, on `task_ids` (ids or `rephyre.phyq.Task`s, e.g. from
    `rephyre.phyq.load_tasks`), on one template's 100 tasks (`template`: code or paper
    number), or on all 7,500 built-in tasks. Tasks are drawn from the environment's generator
    (seeded by `reset(seed=...)`), or given with `reset(options={'task': id_or_task})`.

    The action is one shot, (x, y, tap): the release point from the slingshot in pixels (x
    right, y up), in [-max_offset, max_offset] (default the drag radius, about 18.3 px; the
    game clamps longer offsets), and the tap time in seconds after the launch, in [0, max_tap]
    (0: no tap; the game takes up to 60). The observation is the picture (480 x 640 uint8
    colour codes; `rephyre.phyq.to_rgb` turns them into RGB); with `symbolic=True`, `info`
    also holds the symbolic representation (JSON text). `info` holds the task id, the status
    ("playing", "passed", "not_passed"), pigs and birds left, shots taken, steps and the
    state's hash (after the same shots, `rephyre.phyq.simulate`'s `final_hash`)."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, task_ids: Optional[Sequence] = None, *, template: Optional[str] = None,
                 symbolic: bool = False, max_offset: float = DRAG_RADIUS_PX,
                 max_tap: float = 5.0, render_mode: Optional[str] = None):
        if task_ids is not None and template is not None:
            raise ValueError("give either task_ids or template, not both")
        if task_ids is None:
            task_ids = phyq.task_ids(template)
        elif isinstance(task_ids, (str, phyq.Task)):
            raise ValueError("task_ids must be a sequence of task ids or tasks, not one")
        self.tasks = [t if isinstance(t, phyq.Task) else phyq.task(t) for t in task_ids]
        if not self.tasks:
            raise ValueError("no task to play")
        if not (np.isfinite(max_offset) and max_offset > 0):
            raise ValueError(f"max_offset must be a positive number of pixels, got {max_offset}")
        if not (np.isfinite(max_tap) and 0 < max_tap <= 60):
            raise ValueError(f"max_tap must be in (0, 60] seconds, got {max_tap}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"unknown render_mode {render_mode!r}; expected None or 'rgb_array'")
        m = float(max_offset)
        self.action_space = spaces.Box(np.array([-m, -m, 0.0]), np.array([m, m, float(max_tap)]),
                                       dtype=np.float64)
        self.observation_space = spaces.Box(0, 255, shape=(phyq.HEIGHT, phyq.WIDTH),
                                            dtype=np.uint8)
        self.symbolic = bool(symbolic)
        self.render_mode = render_mode
        self.game = None
        self._over = True
        self._last = None

    def _info(self):
        g = self.game
        info = {"task_id": g.task_id, "status": g.status, "pigs_left": g.pigs_left,
                "birds_left": g.birds_left, "shots": g.shots, "steps": g.steps,
                "state_hash": g.state_hash}
        if self.symbolic:
            info["symbolic"] = g.symbolic()
        return info

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if options and "task" in options:
            task = options["task"]
        else:
            task = self.tasks[int(self.np_random.integers(len(self.tasks)))]
        self.game = phyq.Game(task)
        self._over = self.game.status != "playing"
        self._last = self.game.picture()
        return self._last.copy(), self._info()

    def step(self, action):
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset() before step()")
        a = np.asarray(action, dtype=np.float64)
        if a.shape != (3,):
            raise ValueError(f"an action is one shot (x, y, tap), got shape {a.shape}")
        self.game.shoot(float(a[0]), float(a[1]), float(a[2]))
        status = self.game.status
        self._over = status != "playing"
        self._last = self.game.picture()
        reward = 1.0 if status == "passed" else 0.0
        return self._last.copy(), reward, self._over, False, self._info()

    def render(self):
        if self.render_mode != "rgb_array" or self._last is None:
            return None
        return phyq.to_rgb(self._last)


if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point=PhyreEnv,
                 kwargs={"eval_setup": "ball_within_template", "fold_id": 0, "split": "train"})

if PHYQ_ENV_ID not in gym.registry:
    gym.register(id=PHYQ_ENV_ID, entry_point=PhyqEnv)
