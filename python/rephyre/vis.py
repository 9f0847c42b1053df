"""Pictures of observations (PHYRE 0.2.2 names): colour conversion and GIFs of rollouts."""

from typing import Optional, Sequence, Tuple

import numpy as np

__all__ = ["observations_to_uint8_rgb", "observations_to_float_rgb",
           "save_observation_series_to_gif", "WAD_COLORS",
           "SOLVE_STATUS_COLORS", "compose_gifs", "compose_gifs_compact"]

# Display palette of the observation values (SPEC §5), the original's `WAD_COLORS`: the 7
# values a scene holds and the original's 8th entry (light red, never in a rephyre scene).
WAD_COLORS = np.array([
    [255, 255, 255],  # 0 white (background)
    [0xf3, 0x4f, 0x46],  # 1 red (user)
    [0x6b, 0xce, 0xbb],  # 2 green
    [0x18, 0x77, 0xf2],  # 3 blue
    [0x4b, 0x4a, 0xa4],  # 4 purple
    [0xb9, 0xca, 0xd2],  # 5 gray
    [0, 0, 0],  # 6 black
    [0xfc, 0xdf, 0xe3],  # 7 light red
], dtype=np.uint8)
# The original's colours of the `is_solved` band: cherry (not solved), green (solved).
SOLVE_STATUS_COLORS = np.array([
    (121, 6, 4),
    (11, 102, 35),
], dtype=np.uint8)


def _one_to_uint8_rgb(scene: np.ndarray, user_input, is_solved: Optional[bool]) -> np.ndarray:
    # The original's steps, in its order.
    base_image = WAD_COLORS[scene]
    for y, x in user_input:
        if 0 <= x < base_image.shape[1] and 0 <= y < base_image.shape[0]:
            base_image[x, y] = [255, 0, 0]
    base_image = base_image[::-1]
    if is_solved is not None:
        color = SOLVE_STATUS_COLORS[int(is_solved)]
        line = np.tile(color.reshape((1, 1, 3)), (5, base_image.shape[1], 1))
        line[:, :5] = WAD_COLORS[0]
        line[:, -5:] = WAD_COLORS[0]
        base_image = np.concatenate([line, base_image], 0)
    return np.ascontiguousarray(base_image)


def observations_to_uint8_rgb(scene: np.ndarray,
                              user_input: Tuple[Tuple[int, int], ...] = (),
                              is_solved: Optional[bool] = None) -> np.ndarray:
    """An observation (256 x 256 values 0-6, row 0 = bottom) as an upright RGB picture
    (256 x 256 x 3 uint8, row 0 = top), as the original draws it: each `(y, x)` of
    `user_input` paints the observation's pixel [x, y] pure red; `is_solved` (not None) puts a
    5-row band on top (261 x 256 x 3): green (11, 102, 35) when solved, cherry (121, 6, 4) when
    not, its 5 pixels at either end white. A batch (... x 256 x 256) gives one picture per
    observation (the original only handles one)."""
    scene = np.asarray(scene)
    if scene.ndim < 2:
        raise ValueError(f"an observation has at least 2 dimensions, got shape {scene.shape}")
    if scene.size and (scene.min() < 0 or scene.max() >= len(WAD_COLORS)):
        raise ValueError(f"observation values must be 0-{len(WAD_COLORS) - 1}")
    scene = scene.astype(np.intp, copy=False)
    if scene.ndim == 2:
        return _one_to_uint8_rgb(scene, user_input, is_solved)
    lead, h, w = scene.shape[:-2], scene.shape[-2], scene.shape[-1]
    flat = scene.reshape((-1, h, w))
    out_h = h + (5 if is_solved is not None else 0)
    out = np.empty((flat.shape[0], out_h, w, 3), dtype=np.uint8)
    for k in range(flat.shape[0]):
        out[k] = _one_to_uint8_rgb(flat[k], user_input, is_solved)
    return out.reshape(lead + (out_h, w, 3))


def observations_to_float_rgb(scene: np.ndarray,
                              user_input: Tuple[Tuple[int, int], ...] = (),
                              is_solved: Optional[bool] = None) -> np.ndarray:
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


def _read_gif(fpath) -> list:
    from PIL import Image, ImageSequence
    with Image.open(fpath) as im:
        return [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(im)]


def _write_gif(frames, fpath) -> None:
    from PIL import Image
    images = [Image.fromarray(np.asarray(f, dtype=np.uint8)) for f in frames]
    images[0].save(fpath, save_all=True, append_images=images[1:], loop=0)


def compose_gifs_compact(input_fpathes, output_fpath) -> None:
    """The original's: one frame per input GIF, its first frame above its last. Needs
    Pillow (the original used imageio)."""
    first_and_last = []
    for fname in input_fpathes:
        data = _read_gif(fname)
        first_and_last.append(np.concatenate([data[0], data[-1]], axis=0))
    if first_and_last:
        _write_gif(first_and_last, output_fpath)


def compose_gifs(input_fpathes, output_fpath) -> None:
    """The original's: the input GIFs one above the other (it concatenates the frames along
    their height), frame by frame; shorter ones hold their last frame. Needs Pillow (the
    original used imageio)."""
    all_data = [_read_gif(fname) for fname in input_fpathes]
    max_timestamps = max(len(data) for data in all_data)
    padded = [data + [data[-1]] * (max_timestamps - len(data)) for data in all_data]
    _write_gif(np.concatenate(padded, 1), output_fpath)
