"""Pictures of observations (PHYRE 0.2.2 names): colour conversion and GIFs of rollouts."""

from typing import Optional, Sequence

import numpy as np

__all__ = ["observations_to_uint8_rgb", "observations_to_float_rgb",
           "save_observation_series_to_gif", "WAD_COLORS"]

# Display palette of the 7 observation values (SPEC §5).
WAD_COLORS = np.array([
    [255, 255, 255],  # 0 background
    [0xf3, 0x4f, 0x46],  # 1 red (user)
    [0x6b, 0xce, 0xbb],  # 2 green
    [0x18, 0x77, 0xf2],  # 3 blue
    [0x4b, 0x4a, 0xa4],  # 4 purple
    [0xb9, 0xca, 0xd2],  # 5 gray
    [0, 0, 0],  # 6 black
], dtype=np.uint8)
_SOLVED = np.array([0x6b, 0xce, 0xbb], dtype=np.uint8)
_NOT_SOLVED = np.array([0xf3, 0x4f, 0x46], dtype=np.uint8)


def observations_to_uint8_rgb(scene: np.ndarray, user_input=(), is_solved: Optional[bool] = None
                              ) -> np.ndarray:
    """An observation (256 x 256 values 0-6, row 0 = bottom; or a batch ... x 256 x 256) as an
    upright RGB picture (... x 256 x 256 x 3 uint8, row 0 = top). `is_solved` draws a 2-px
    frame, green when solved, red when not. `user_input` is accepted for compatibility and not
    drawn."""
    scene = np.asarray(scene)
    if scene.ndim < 2:
        raise ValueError(f"an observation has at least 2 dimensions, got shape {scene.shape}")
    if scene.size and (scene.min() < 0 or scene.max() >= len(WAD_COLORS)):
        raise ValueError("observation values must be 0-6")
    image = WAD_COLORS[scene.astype(np.intp)]
    image = np.flip(image, axis=-3).copy()
    if is_solved is not None:
        color = _SOLVED if is_solved else _NOT_SOLVED
        image[..., :2, :, :] = color
        image[..., -2:, :, :] = color
        image[..., :, :2, :] = color
        image[..., :, -2:, :] = color
    return image


def observations_to_float_rgb(scene: np.ndarray, user_input=(), is_solved: Optional[bool] = None
                              ) -> np.ndarray:
    """`observations_to_uint8_rgb` scaled to [0, 1], float64 as in the original (which builds
    it with the `np.float` alias that numpy 2 removed)."""
    return observations_to_uint8_rgb(scene, user_input, is_solved).astype(np.float64) / 255.0


def save_observation_series_to_gif(batched_observation_series: Sequence[np.ndarray], fpath: str,
                                   solved_states: Optional[Sequence[bool]] = None,
                                   fps: int = 4) -> None:
    """Save rollouts (each T x 256 x 256, e.g. `Simulation.images`) as one animated GIF, the
    rollouts side by side; shorter rollouts hold their last frame. Needs Pillow
    (`pip install pillow`)."""
    try:
        from PIL import Image
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("saving a GIF needs Pillow: pip install pillow") from e
    series = [np.asarray(s) for s in batched_observation_series]
    if not series or any(s.ndim != 3 or s.shape[0] == 0 for s in series):
        raise ValueError("give one or more non-empty T x 256 x 256 observation series")
    length = max(s.shape[0] for s in series)
    frames = []
    for t in range(length):
        tiles = []
        for k, s in enumerate(series):
            solved = None if solved_states is None else bool(solved_states[k])
            tiles.append(observations_to_uint8_rgb(s[min(t, s.shape[0] - 1)],
                                                   is_solved=solved))
        frames.append(Image.fromarray(np.concatenate(tiles, axis=1)))
    frames[0].save(fpath, save_all=True, append_images=frames[1:], loop=0,
                   duration=int(1000 / max(int(fps), 1)))
