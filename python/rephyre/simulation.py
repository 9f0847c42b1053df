"""Simulation results: `SimulationStatus`, `Simulation` and `FeaturizedObjects` (PHYRE 0.2.2 names)."""

import enum
from typing import List, Optional

import numpy as np

__all__ = ["SimulationStatus", "Simulation", "FeaturizedObjects"]


class SimulationStatus(enum.IntEnum):
    """What an action did on a task, with the original's values."""

    NOT_SOLVED = -1
    INVALID_INPUT = 0
    SOLVED = 1
    UNSTABLY_SOLVED = 2
    STABLY_SOLVED = 3

    def is_solved(self) -> bool:
        """SOLVED, UNSTABLY_SOLVED or STABLY_SOLVED."""
        return self in (SimulationStatus.SOLVED, SimulationStatus.UNSTABLY_SOLVED,
                        SimulationStatus.STABLY_SOLVED)

    def is_stably_solved(self) -> bool:
        return self == SimulationStatus.STABLY_SOLVED

    def is_not_solved(self) -> bool:
        return self == SimulationStatus.NOT_SOLVED

    def is_invalid(self) -> bool:
        return self == SimulationStatus.INVALID_INPUT


# Status code -> member, without the enum's constructor on the hot path.
STATUS_OF_CODE = {int(s): s for s in SimulationStatus}

# Feature columns (SPEC §5).
_X, _Y, _ANGLE, _DIAMETER = 0, 1, 2, 3
_SHAPES = slice(4, 8)
_COLORS = slice(8, 14)
NUM_FEATURES = 14
SHAPE_NAMES = ("BALL", "BAR", "JAR", "STANDINGSTICKS")
COLOR_NAMES = ("RED", "GREEN", "BLUE", "PURPLE", "GRAY", "BLACK")


class FeaturizedObjects:
    """Object features of a rollout: `features` is T x N x 14 float32 (frames x objects x
    columns x/256, y/256, angle/2pi, diameter/256, one-hot shape (ball, bar, jar, sticks),
    one-hot colour (red, green, blue, purple, gray, black)). Objects are the scene's (walls
    excluded), then the user's balls (red)."""

    def __init__(self, featurized_objects: np.ndarray):
        features = np.asarray(featurized_objects)
        if features.ndim == 2:
            features = features[None]
        if features.ndim != 3 or features.shape[-1] != NUM_FEATURES:
            raise ValueError(
                "featurized objects must be an array of shape (frames, objects, 14) or "
                f"(objects, 14), got shape {features.shape}")
        self.features = features

    @property
    def num_objects(self) -> int:
        return self.features.shape[1]

    @property
    def num_user_inputs(self) -> int:
        if self.features.shape[0] == 0:
            return 0
        return int(np.sum(self.colors_one_hot[:, 0] == 1))

    @property
    def num_scene_objects(self) -> int:
        return self.num_objects - self.num_user_inputs

    @property
    def xs(self) -> np.ndarray:
        return self.features[:, :, _X]

    @property
    def ys(self) -> np.ndarray:
        return self.features[:, :, _Y]

    @property
    def angles(self) -> np.ndarray:
        return self.features[:, :, _ANGLE]

    @property
    def diameters(self) -> np.ndarray:
        return self.features[0, :, _DIAMETER]

    @property
    def shapes_one_hot(self) -> np.ndarray:
        return self.features[0, :, _SHAPES]

    @property
    def colors_one_hot(self) -> np.ndarray:
        return self.features[0, :, _COLORS]

    @property
    def shapes(self) -> List[str]:
        """Shape name of each object ('BALL', 'BAR', 'JAR', 'STANDINGSTICKS'), a list as in
        the original."""
        return [SHAPE_NAMES[i] for i in np.argmax(self.shapes_one_hot, axis=1)]

    @property
    def colors(self) -> List[str]:
        """Colour name of each object ('RED', 'GREEN', 'BLUE', 'PURPLE', 'GRAY', 'BLACK'), a
        list as in the original."""
        return [COLOR_NAMES[i] for i in np.argmax(self.colors_one_hot, axis=1)]

    @property
    def states(self) -> np.ndarray:
        """x, y, angle of every object in every frame: T x N x 3."""
        return self.features[:, :, :_DIAMETER]

    def __repr__(self) -> str:
        return (f"FeaturizedObjects(frames={self.features.shape[0]}, "
                f"objects={self.num_objects}, user_inputs={self.num_user_inputs})")


class Simulation:
    """The result of `ActionSimulator.simulate_action`: `status`, `images` (T x 256 x 256
    uint8, row 0 = bottom of the scene, or None) and `featurized_objects`
    (`FeaturizedObjects`, or None). Both are None for an invalid action. `solved_step`
    (rephyre only) is the step at which the goal's 3-second hold completed."""

    __slots__ = ("status", "images", "featurized_objects", "solved_step")

    def __init__(self, *, status: Optional[SimulationStatus] = None,
                 images: Optional[np.ndarray] = None,
                 featurized_objects: Optional[FeaturizedObjects] = None,
                 solved_step: Optional[int] = None):
        self.status = status
        self.images = images
        self.featurized_objects = featurized_objects
        self.solved_step = solved_step

    def __repr__(self) -> str:
        frames = None if self.images is None else self.images.shape[0]
        return f"Simulation(status={self.status!r}, frames={frames})"
