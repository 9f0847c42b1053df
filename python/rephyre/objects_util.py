"""Drawing object features back into an observation (PHYRE 0.2.2's
`featurized_objects_vector_to_raster`).

The features keep position, angle, size, shape and colour only, so the shapes are rebuilt from
SPEC §3's geometry (bar and stick thickness 5.12 px, jar proportions) and drawn with the
observation's rule (a pixel takes a colour when its centre lies inside). The result matches
the simulator's observation up to a pixel on shape edges, not bit for bit.
"""

import math

import numpy as np

__all__ = ["featurized_objects_vector_to_raster"]

_SIZE = 256
_THICK = 5.12
_CENTRES = np.arange(_SIZE, dtype=np.float64) + 0.5


def _grid():
    return np.meshgrid(_CENTRES, _CENTRES)  # px[y, x] = x + .5, py[y, x] = y + .5


def _box(hw, hh, rot=0.0, dx=0.0, dy=0.0):
    c, s = math.cos(rot), math.sin(rot)
    pts = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
    return [(dx + c * x - s * y, dy + s * x + c * y) for x, y in pts]


def _polygon_area_centroid(poly):
    a = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        cr = x0 * y1 - x1 * y0
        a += cr
        cx += (x0 + x1) * cr
        cy += (y0 + y1) * cr
    a *= 0.5
    return a, cx / (6 * a), cy / (6 * a)


def _jar_parts(diameter_px):
    h = diameter_px / 320.0 * 256.0
    w = h / 1.2
    b = 0.8 * w
    t = math.log(h) / math.log(76.8) * _THICK
    side = (w - b) / 2
    hyp = math.hypot(h, side)
    cos, sin = side / hyp, h / hyp
    dx, dx_top, dy = t * sin, t / sin, t * cos
    left = [(-w / 2, h - t / 2), (-b / 2, -t / 2), (-b / 2 + dx, dy - t / 2),
            (-w / 2 + dx_top, h - t / 2)]
    right = [(-x, y) for x, y in reversed(left)]
    base = _box(b / 2, t / 2)
    return [base, left, right]


def _parts(shape, diameter_px):
    """Convex parts (counter-clockwise) in body coordinates, and the offset of the feature
    position (centre of mass for jars) from the body origin."""
    if shape == 1:  # bar
        length = math.sqrt(max(diameter_px ** 2 - _THICK ** 2, 0.0))
        return [_box(length / 2, _THICK / 2)], (0.0, 0.0)
    if shape == 3:  # standing sticks
        w = math.sqrt(max(diameter_px ** 2 - _THICK ** 2, 0.0))
        hw, hh = w / 3, _THICK / 3
        rot = math.radians(77.5)
        return [_box(hw, hh, -rot), _box(hw, hh, rot)], (0.0, 0.0)
    parts = _jar_parts(diameter_px)
    total = mx = my = 0.0
    for p in parts:
        a, cx, cy = _polygon_area_centroid(p)
        total += a
        mx += a * cx
        my += a * cy
    return parts, (mx / total, my / total)


def featurized_objects_vector_to_raster(featurized_objects: np.ndarray) -> np.ndarray:
    """Draw objects given as an N x 14 feature array (one frame of
    `FeaturizedObjects.features`) into a 256 x 256 uint8 observation (row 0 = bottom)."""
    f = np.asarray(featurized_objects, dtype=np.float64)
    if f.ndim != 2 or f.shape[1] != 14:
        raise ValueError(f"expected an N x 14 array of object features, got shape {f.shape}")
    if not np.all(np.isfinite(f)):
        raise ValueError("object features must be finite")
    out = np.zeros((_SIZE, _SIZE), dtype=np.uint8)
    px, py = _grid()
    for row in f:
        x, y = row[0] * _SIZE, row[1] * _SIZE
        angle = row[2] * 2 * math.pi
        d = row[3] * _SIZE
        shape = int(np.argmax(row[4:8]))
        colour = int(np.argmax(row[8:14])) + 1 if row[8:14].max() > 0 else 0
        if colour == 0:
            continue
        if shape == 0:
            mask = (px - x) ** 2 + (py - y) ** 2 <= (d / 2) ** 2
        else:
            parts, (ox, oy) = _parts(shape, d)
            c, s = math.cos(angle), math.sin(angle)
            # Body origin from the feature position (the jar's centre of mass).
            bx, by = x - (c * ox - s * oy), y - (s * ox + c * oy)
            # Pixel centres in body coordinates.
            u = c * (px - bx) + s * (py - by)
            v = -s * (px - bx) + c * (py - by)
            mask = np.zeros_like(out, dtype=bool)
            for poly in parts:
                inside = np.ones_like(mask)
                for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
                    inside &= (x1 - x0) * (v - y0) - (y1 - y0) * (u - x0) >= 0
                mask |= inside
        out[mask] = colour
    return out
