//! Observations: 256 × 256 bytes, one per pixel, row 0 at the bottom of the world.
//!
//! A pixel is filled when its centre (x + ½, y + ½) lies inside the shape or on its boundary
//! (no anti-aliasing, polygon skins not drawn). Shape coordinates are taken to Q48.16 pixels
//! (rounded from the engine's Q32.32 metres × 6) and every coverage decision is then exact
//! integer arithmetic on those (i64 products below 2^50), so rendering is deterministic
//! everywhere and needs no 128-bit division. Each shape is reduced to one span of columns per row, then spans are filled by
//! [`crate::span`] (SIMD or scalar, identical bytes).

use crate::span::SpanFiller;
use engine::{Fixed, Shape, Transform, Vec2, World};

/// Width and height of an observation in pixels.
pub const SIZE: usize = 256;

/// Pixel values (SPEC §5).
pub mod colour {
    pub const BACKGROUND: u8 = 0;
    pub const RED: u8 = 1;
    pub const GREEN: u8 = 2;
    pub const BLUE: u8 = 3;
    pub const PURPLE: u8 = 4;
    pub const GRAY: u8 = 5;
    pub const BLACK: u8 = 6;
}

/// A 256 × 256 observation; `pixels[y * 256 + x]`, row 0 = bottom.
#[derive(Clone, PartialEq, Eq)]
pub struct Observation {
    pub pixels: Box<[u8; SIZE * SIZE]>,
}

impl Default for Observation {
    fn default() -> Self {
        Observation {
            pixels: Box::new([0; SIZE * SIZE]),
        }
    }
}

impl core::fmt::Debug for Observation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let filled = self.pixels.iter().filter(|&&p| p != 0).count();
        write!(f, "Observation({filled} filled pixels)")
    }
}

impl Observation {
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> u8 {
        self.pixels[y * SIZE + x]
    }

    /// The raw 65,536 bytes (row 0 = bottom).
    pub fn as_bytes(&self) -> &[u8] {
        &self.pixels[..]
    }
}

/// Scene pixels per engine metre.
const PX: i64 = engine::settings::PX_PER_METRE;
/// Fractional bits of the rasterizer's pixel coordinates.
const FRAC: u32 = 16;
/// ½ pixel and 1 pixel in raster units.
const HALF: i64 = 1 << (FRAC - 1);
const ONE: i64 = 1 << FRAC;
/// Coordinates are clamped to ±2^22 px (far outside the image) so products stay in i64.
const LIMIT: i64 = 1 << (22 + FRAC);

/// Q32.32 metres → Q48.16 pixels, rounded to nearest (ties up), clamped to ±LIMIT.
#[inline]
fn to_units(v: Fixed) -> i64 {
    let raw = v.raw() as i128 * PX as i128;
    let shift = engine::fixed::FRAC_BITS - FRAC;
    (((raw + (1i128 << (shift - 1))) >> shift) as i64).clamp(-LIMIT, LIMIT)
}

#[inline]
fn to_px(v: Vec2) -> (i64, i64) {
    (to_units(v.x), to_units(v.y))
}

/// Floor division with a positive divisor.
#[inline]
fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

/// Ceiling division with a positive divisor.
#[inline]
fn ceil_div(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

/// Render every body of `world` whose colour (`colours[body id]`, missing = 0) is not 0, in body
/// order (later bodies paint over earlier ones).
pub fn render(world: &World, colours: &[u8]) -> Observation {
    let mut obs = Observation::default();
    render_into(world, colours, &mut obs, SpanFiller::detect());
    obs
}

/// [`render`] into an existing observation (cleared first) with a chosen span filler.
pub fn render_into(world: &World, colours: &[u8], obs: &mut Observation, filler: SpanFiller) {
    obs.pixels.fill(0);
    for (i, body) in world.bodies().iter().enumerate() {
        let c = colours.get(i).copied().unwrap_or(0);
        if c == 0 {
            continue;
        }
        for part in body.parts() {
            draw_shape(&mut obs.pixels, part, body.transform(), c, filler);
        }
    }
}

/// Paint one convex shape (body coordinates, metres) placed by `xf`.
pub fn draw_shape(
    pixels: &mut [u8; SIZE * SIZE],
    shape: &Shape,
    xf: &Transform,
    value: u8,
    filler: SpanFiller,
) {
    match shape {
        Shape::Circle(c) => {
            let (cx, cy) = to_px(xf.apply(c.center));
            let r = to_units(c.radius).min(1 << (12 + FRAC));
            fill_circle(pixels, cx, cy, r, value, filler);
        }
        Shape::Polygon(p) => {
            let mut vs = [(0i64, 0i64); engine::shape::MAX_POLYGON_VERTICES];
            for (k, v) in p.vertices().iter().enumerate() {
                vs[k] = to_px(xf.apply(*v));
            }
            fill_convex(pixels, &vs[..p.count()], value, filler);
        }
    }
}

/// Rows whose pixel centres lie in [lo, hi] (raw px), clamped to the image.
fn row_range(lo: i64, hi: i64) -> Option<(usize, usize)> {
    let first = ceil_div(lo - HALF, ONE).max(0);
    let last = floor_div(hi - HALF, ONE).min(SIZE as i64 - 1);
    (first <= last).then_some((first as usize, last as usize))
}

/// A disc of centre (cx, cy) and radius r, all raw Q32.32 pixels.
pub(crate) fn fill_circle(
    pixels: &mut [u8; SIZE * SIZE],
    cx: i64,
    cy: i64,
    r: i64,
    value: u8,
    filler: SpanFiller,
) {
    if r <= 0 {
        return;
    }
    let Some((y0, y1)) = row_range(cy - r, cy + r) else {
        return;
    };
    let r2 = r * r;
    for y in y0..=y1 {
        let dy = (2 * y as i64 + 1) * HALF - cy;
        let d = r2 - dy * dy;
        if d < 0 {
            continue;
        }
        // Integer X (raster units) with (X − cx)² ≤ d is exactly |X − cx| ≤ isqrt(d).
        let s = (d as u64).isqrt() as i64;
        let x0 = ceil_div(cx - s - HALF, ONE).max(0);
        let x1 = floor_div(cx + s - HALF, ONE).min(SIZE as i64 - 1);
        if x0 <= x1 {
            filler.fill(
                &mut pixels[y * SIZE..(y + 1) * SIZE],
                x0 as usize,
                x1 as usize,
                value,
            );
        }
    }
}

/// A convex polygon given counter-clockwise in raster units. A pixel centre P is inside
/// when cross(v[i+1] − v[i], P − v[i]) ≥ 0 for every edge.
pub(crate) fn fill_convex(
    pixels: &mut [u8; SIZE * SIZE],
    vs: &[(i64, i64)],
    value: u8,
    filler: SpanFiller,
) {
    if vs.len() < 3 {
        return;
    }
    let lo = vs.iter().map(|v| v.1).min().unwrap_or(0);
    let hi = vs.iter().map(|v| v.1).max().unwrap_or(0);
    let Some((y0, y1)) = row_range(lo, hi) else {
        return;
    };
    let n = vs.len();
    'rows: for y in y0..=y1 {
        let py = (2 * y as i64 + 1) * HALF;
        // Columns x (pixel centre X = x·ONE + HALF) allowed by every edge.
        let mut x0: i64 = 0;
        let mut x1: i64 = SIZE as i64 - 1;
        for i in 0..n {
            let (vx, vy) = vs[i];
            let (wx, wy) = vs[(i + 1) % n];
            let (ex, ey) = (wx - vx, wy - vy);
            // ex·(py − vy) − ey·(X − vx) ≥ 0, linear in X.
            let k = ex * (py - vy);
            if ey == 0 {
                if k < 0 {
                    continue 'rows;
                }
            } else if ey > 0 {
                // X ≤ vx + k/ey  →  x ≤ floor((vx·ey + k − HALF·ey) / (ONE·ey))
                x1 = x1.min(floor_div(vx * ey + k - HALF * ey, ONE * ey));
            } else {
                // X ≥ vx + k/ey (ey < 0)  →  multiply through by −ey > 0.
                let (num, den) = (-(vx * ey + k - HALF * ey), -ey * ONE);
                x0 = x0.max(ceil_div(num, den));
            }
            if x0 > x1 {
                continue 'rows;
            }
        }
        filler.fill(
            &mut pixels[y * SIZE..(y + 1) * SIZE],
            x0 as usize,
            x1 as usize,
            value,
        );
    }
}

/// Pixel centre test used by the tests (exact, shape by shape).
pub fn covers(shape: &Shape, xf: &Transform, x: usize, y: usize) -> bool {
    let px = (2 * x as i64 + 1) * HALF;
    let py = (2 * y as i64 + 1) * HALF;
    match shape {
        Shape::Circle(c) => {
            let (cx, cy) = to_px(xf.apply(c.center));
            let r = to_units(c.radius).min(1 << (12 + FRAC));
            (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r
        }
        Shape::Polygon(p) => {
            let vs: Vec<(i64, i64)> = p.vertices().iter().map(|v| to_px(xf.apply(*v))).collect();
            (0..vs.len()).all(|i| {
                let (vx, vy) = vs[i];
                let (wx, wy) = vs[(i + 1) % vs.len()];
                (wx - vx) * (py - vy) - (wy - vy) * (px - vx) >= 0
            })
        }
    }
}

/// A fixed-point value from pixels (for building test scenes).
pub fn px_to_metres(px: Fixed) -> Fixed {
    px.div_int(PX)
}
