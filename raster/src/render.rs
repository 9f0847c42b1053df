//! The rasterizer: bodies of an engine world → a 256 × 256 observation.
//!
//! # The pixel rule
//!
//! Pixel (x, y) — column x, row y, row 0 at the bottom — takes a body's colour when its centre
//! (x + ½, y + ½) lies inside one of the body's parts **or on its boundary**. There is no
//! anti-aliasing. Bodies are painted in id order (scene bodies, then user bodies), so later
//! bodies overwrite earlier ones; bodies of colour 0 (the walls) are skipped.
//!
//! Polygons are drawn by their vertices exactly: the engine's collision skin (0.01 m = 0.06 px
//! around every polygon) is **not** drawn, as in PHYRE's renderer, which rasterizes the polygon
//! vertices. The skin is a physics artefact; a 0.06 px band would change about one pixel per
//! scene and would make the picture disagree with the original.
//!
//! # Exact, deterministic arithmetic
//!
//! Positions come from the engine in Q32.32 metres. Each vertex (or circle centre and radius)
//! is placed in the world with the engine's own fixed-point transform, multiplied by 6
//! (px per metre) and rounded once to **Q·16 pixel units** (1/65,536 px, ties up). From then on
//! every coverage decision is exact integer arithmetic on those units, so the rule above holds
//! without exception for the rounded geometry; the rounding moves an edge by at most 2^-17 px,
//! which changes a pixel only when its centre lies that close to the boundary.
//!
//! Why 16 fractional bits: with the sizes the engine admits (parts within 1,024 m of the body
//! origin) every product the span setup needs fits in 64 bits, and the per-row work is
//! additions only. No floating point is used.
//!
//! # Spans
//!
//! Each part is reduced to one interval of columns per row, computed exactly, then filled by a
//! [`SpanFiller`]:
//!
//! * **circle**: the covered columns of a row are the integers x with
//!   (X − cx)² ≤ r² − dy² (X = pixel-centre abscissa in units). The middle row of each half is
//!   solved with one integer square root; moving away from the centre the interval can only
//!   shrink, so each further row trims its ends with exact squared-distance tests (amortised
//!   O(1) per row, no square root);
//! * **convex polygon** (counter-clockwise): a centre P is inside when
//!   cross(W − V, P − V) ≥ 0 for every edge V→W. For a row this is one bound per non-horizontal
//!   edge, `x ≤ ⌊N/D⌋` (edges going up) or `x ≥ −⌊N/D⌋` (edges going down), with N linear in the
//!   row. The quotient and remainder are set up once per edge and stepped row by row with an
//!   exact digital-differential update (add, compare, correct) — no division per row.
//!   Horizontal edges bound the row range itself.

use crate::observation::{Observation, PIXELS, SIZE};
#[cfg(target_arch = "x86_64")]
use crate::span::{Avx2, Sse2};
use crate::span::{Fill, Scalar, SpanFiller, Swar};
use engine::MAX_POLYGON_VERTICES;
use engine::{Fixed, Shape, Transform, Vec2, World};

/// Fractional bits of the rasterizer's pixel units.
const FRAC: u32 = 16;
/// One pixel and half a pixel in units.
const ONE: i64 = 1 << FRAC;
const HALF: i64 = 1 << (FRAC - 1);
/// Image size in units.
const IMAGE: i64 = SIZE as i64 * ONE;
/// Coordinates are clamped to ±2^40 units (±2^24 px; the engine keeps bodies within 2^20 m =
/// 2^22.6 px) so that no input, however wild, can overflow the arithmetic below.
const COORD_LIMIT: i64 = 1 << 40;
/// Radii are clamped to 2^29 units (8,192 px; the engine allows 1,024 m = 6,144 px), so that
/// r² < 2^58 and squared distances inside a circle's box fit in i64.
const RADIUS_LIMIT: i64 = 1 << 29;

/// Q32.32 metres → pixel units, rounded to nearest (ties toward +∞), clamped.
#[inline]
fn to_units(v: Fixed) -> i64 {
    let px = v.raw() as i128 * engine::settings::PX_PER_METRE as i128;
    let shift = engine::FRAC_BITS - FRAC;
    let u = (px + (1i128 << (shift - 1))) >> shift;
    u.clamp(-(COORD_LIMIT as i128), COORD_LIMIT as i128) as i64
}

#[inline]
fn point_units(v: Vec2) -> (i64, i64) {
    (to_units(v.x), to_units(v.y))
}

/// ⌊a / ONE⌋ and ⌈a / ONE⌉: ONE is a power of two, so these are shifts.
#[inline]
fn floor_px(a: i64) -> i64 {
    a >> FRAC
}

#[inline]
fn ceil_px(a: i64) -> i64 {
    -((-a) >> FRAC)
}

/// Abscissa (units) of the centre of column `x`.
#[inline]
fn centre(x: i64) -> i64 {
    x * ONE + HALF
}

/// Rows whose pixel centres lie in [lo, hi] (units), clipped to the image.
#[inline]
fn rows_between(lo: i64, hi: i64) -> Option<(i64, i64)> {
    let first = ceil_px(lo - HALF).max(0);
    let last = floor_px(hi - HALF).min(SIZE as i64 - 1);
    (first <= last).then_some((first, last))
}

/// Render every body of `world` whose colour (`colours[body index]`; bodies beyond the slice
/// count as 0) is not 0, in id order, with the fastest span filler of this CPU.
pub fn render(world: &World, colours: &[u8]) -> Observation {
    let mut obs = Observation::default();
    render_into(world, colours, &mut obs, SpanFiller::detect());
    obs
}

/// [`render`] into an existing observation (cleared first), with a chosen span filler. Every
/// filler gives the same bytes; an unavailable one is replaced by a portable one.
pub fn render_into(world: &World, colours: &[u8], obs: &mut Observation, filler: SpanFiller) {
    obs.clear();
    let pixels = &mut *obs.pixels;
    // Dispatch once per frame into a copy of the whole painting loop compiled for the chosen
    // instruction set, so the span stores inline into the row loops.
    match filler.usable() {
        SpanFiller::Scalar => paint::<Scalar>(world, colours, pixels),
        SpanFiller::Swar => paint::<Swar>(world, colours, pixels),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86_64 baseline.
        SpanFiller::Sse2 => unsafe { paint_sse2(world, colours, pixels) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `usable` keeps Avx2 only when run-time detection found it.
        SpanFiller::Avx2 => unsafe { paint_avx2(world, colours, pixels) },
        #[cfg(not(target_arch = "x86_64"))]
        SpanFiller::Sse2 | SpanFiller::Avx2 => paint::<Swar>(world, colours, pixels),
    }
}

/// Paint one shape (body coordinates, metres) placed by `xf` onto `obs` without clearing it:
/// for overlays and custom scenes. Same rule and bytes as [`render`].
pub fn paint_shape(obs: &mut Observation, shape: &Shape, xf: &Transform, value: u8) {
    let pixels = &mut *obs.pixels;
    // One shape is too little work for a per-instruction-set copy: the portable filler.
    paint_part::<Swar>(pixels, shape, xf, value);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
unsafe fn paint_sse2(world: &World, colours: &[u8], pixels: &mut [u8; PIXELS]) {
    paint::<Sse2>(world, colours, pixels)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn paint_avx2(world: &World, colours: &[u8], pixels: &mut [u8; PIXELS]) {
    paint::<Avx2>(world, colours, pixels)
}

#[inline(always)]
fn paint<F: Fill>(world: &World, colours: &[u8], pixels: &mut [u8; PIXELS]) {
    for (body, &c) in world.bodies().iter().zip(colours) {
        if c == 0 {
            continue;
        }
        let xf = body.transform();
        for part in body.parts() {
            paint_part::<F>(pixels, part, xf, c);
        }
    }
}

#[inline(always)]
fn paint_part<F: Fill>(pixels: &mut [u8; PIXELS], part: &Shape, xf: &Transform, value: u8) {
    match part {
        Shape::Circle(c) => {
            let (cx, cy) = point_units(xf.apply(c.center));
            let r = to_units(c.radius).min(RADIUS_LIMIT);
            fill_circle::<F>(pixels, cx, cy, r, value);
        }
        Shape::Polygon(p) => {
            let mut vs = [(0i64, 0i64); MAX_POLYGON_VERTICES];
            let n = p.count();
            for (slot, &v) in vs.iter_mut().zip(p.vertices()) {
                *slot = point_units(xf.apply(v));
            }
            fill_convex::<F>(pixels, &vs[..n], value);
        }
    }
}

/// Fill columns [x0, x1] (unclipped) of row y (inside the image).
#[inline(always)]
fn fill_clipped<F: Fill>(pixels: &mut [u8; PIXELS], y: i64, x0: i64, x1: i64, value: u8) {
    let a = x0.max(0);
    let b = x1.min(SIZE as i64 - 1);
    if a <= b {
        let start = y as usize * SIZE;
        let row = &mut pixels[start..start + SIZE];
        // SAFETY: 0 ≤ a ≤ b ≤ 255 < row.len(); every `F` reaching here was selected after
        // checking CPU support (`render_into`) or is portable (`paint_shape`).
        unsafe { F::fill(row, a as usize, b as usize, value) };
    }
}

/// A disc of centre (cx, cy) and radius r, in units.
#[inline(always)]
fn fill_circle<F: Fill>(pixels: &mut [u8; PIXELS], cx: i64, cy: i64, r: i64, value: u8) {
    if r <= 0 {
        return;
    }
    let Some((ya, yb)) = rows_between(cy - r, cy + r) else {
        return;
    };
    let r2 = r * r;
    // Rows up to `mid` have centres at or below cy; rows above it, above cy. Walking away from
    // cy in either direction the covered interval only shrinks.
    let mid = floor_px(cy - HALF);
    let lower = (ya..=yb.min(mid)).rev();
    let upper = ya.max(mid + 1)..=yb;
    circle_half::<F>(pixels, cx, cy, r2, lower, value);
    circle_half::<F>(pixels, cx, cy, r2, upper, value);
}

/// One half of a disc: `rows` in order of increasing distance from the centre row.
#[inline(always)]
fn circle_half<F: Fill>(
    pixels: &mut [u8; PIXELS],
    cx: i64,
    cy: i64,
    r2: i64,
    mut rows: impl Iterator<Item = i64>,
    value: u8,
) {
    let Some(first) = rows.next() else {
        return;
    };
    // Room left for the horizontal offset in this row: (X − cx)² ≤ d.
    let room = |y: i64| {
        let dy = centre(y) - cy;
        r2 - dy * dy
    };
    let d = room(first);
    if d < 0 {
        return;
    }
    // X − cx is an integer, so (X − cx)² ≤ d ⟺ |X − cx| ≤ ⌊√d⌋.
    let s = (d as u64).isqrt() as i64;
    let mut x0 = ceil_px(cx - s - HALF);
    let mut x1 = floor_px(cx + s - HALF);
    let inside = |x: i64, d: i64| {
        let dx = centre(x) - cx;
        dx * dx <= d
    };
    let mut y = first;
    loop {
        if x0 > x1 {
            return; // empty here, so empty in every row further out
        }
        fill_clipped::<F>(pixels, y, x0, x1, value);
        let Some(next) = rows.next() else {
            return;
        };
        y = next;
        let d = room(y);
        if d < 0 {
            return;
        }
        while x0 <= x1 && !inside(x1, d) {
            x1 -= 1;
        }
        while x0 <= x1 && !inside(x0, d) {
            x0 += 1;
        }
    }
}

/// The bound one non-horizontal edge puts on the columns of successive rows, stepped exactly.
///
/// With N(y) = ey·(vx − ½) + ex·(Y − vy) (Y = centre of row y) and D = |ey|·ONE, the edge allows
/// `x ≤ ⌊N/D⌋` when it goes up (ey > 0, a right-hand edge of a counter-clockwise polygon) and
/// `x ≥ −⌊N/D⌋` when it goes down (ey < 0, left-hand). N grows by ex·ONE per row, so the floor
/// quotient `q` and remainder `rem` ∈ [0, D) advance by the constant `dq`, `drem`.
#[derive(Clone, Copy)]
struct EdgeStepper {
    q: i64,
    rem: i64,
    dq: i64,
    drem: i64,
    den: i64,
}

impl EdgeStepper {
    /// Set up at row `y`, or `None` if the numbers do not fit 64 bits (only for shapes larger
    /// than the engine admits; the caller then uses the 128-bit path).
    #[inline(always)]
    fn new(v: (i64, i64), w: (i64, i64), y: i64) -> Option<EdgeStepper> {
        let (ex, ey) = (w.0 - v.0, w.1 - v.1);
        let den = ey.abs().checked_mul(ONE)?;
        let n = ey
            .checked_mul(v.0 - HALF)?
            .checked_add(ex.checked_mul(centre(y) - v.1)?)?;
        let step = ex.checked_mul(ONE)?;
        Some(EdgeStepper {
            q: n.div_euclid(den),
            rem: n.rem_euclid(den),
            dq: step.div_euclid(den),
            drem: step.rem_euclid(den),
            den,
        })
    }

    /// A stepper that never binds (quotient ±2^62, constant), to pad fixed-size edge sets.
    const INERT: EdgeStepper = EdgeStepper {
        q: 1 << 62,
        rem: 0,
        dq: 0,
        drem: 0,
        den: 1,
    };

    /// Move to the next row. Branch-free: whether the remainder carries is data-dependent and
    /// unpredictable. The operations cannot overflow (rem, drem < den ≤ 2^47; q moves by at
    /// most 2^31 + 1 per row over at most 256 rows), so they are written as wrapping to spare
    /// the overflow checks that every profile keeps on.
    #[inline(always)]
    fn advance(&mut self) {
        let r = self.rem.wrapping_add(self.drem);
        // −1 when r ≥ den (a carry into the quotient), else 0.
        let carry = self.den.wrapping_sub(1).wrapping_sub(r) >> 63;
        self.rem = r.wrapping_sub(self.den & carry);
        self.q = self.q.wrapping_add(self.dq).wrapping_sub(carry);
    }
}

/// A convex polygon, counter-clockwise, vertices in units.
#[inline(always)]
fn fill_convex<F: Fill>(pixels: &mut [u8; PIXELS], vs: &[(i64, i64)], value: u8) {
    let n = vs.len();
    if n < 3 {
        return;
    }
    let (mut xlo, mut xhi, mut ylo, mut yhi) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
    for &(x, y) in vs {
        xlo = xlo.min(x);
        xhi = xhi.max(x);
        ylo = ylo.min(y);
        yhi = yhi.max(y);
    }
    // Cull parts entirely off the image; this also bounds the coordinates of every part that
    // is drawn by its own size, which keeps the edge set-up within 64 bits.
    if xhi < 0 || xlo > IMAGE {
        return;
    }
    let Some((y0, y1)) = rows_between(ylo, yhi) else {
        return;
    };
    // Unused slots hold inert steppers: they never bind, so the row loop needs no count.
    let mut right = [EdgeStepper::INERT; MAX_POLYGON_VERTICES];
    let mut left = [EdgeStepper::INERT; MAX_POLYGON_VERTICES];
    let (mut nr, mut nl) = (0, 0);
    for i in 0..n {
        let v = vs[i];
        let w = vs[if i + 1 == n { 0 } else { i + 1 }];
        if w.1 == v.1 {
            continue; // horizontal: already the row range
        }
        let Some(e) = EdgeStepper::new(v, w, y0) else {
            return fill_convex_wide::<F>(pixels, vs, y0, y1, value);
        };
        if w.1 > v.1 {
            right[nr] = e;
            nr += 1;
        } else {
            left[nl] = e;
            nl += 1;
        }
    }
    // Boxes and the jar's quads have at most two rising and two falling edges: a fixed
    // two-by-two loop the compiler unrolls and keeps in registers.
    if nr <= 2 && nl <= 2 {
        let r2 = [right[0], right[1]];
        let l2 = [left[0], left[1]];
        scan_rows::<F, 2>(pixels, r2, l2, y0, y1, value);
    } else {
        scan_rows::<F, MAX_POLYGON_VERTICES>(pixels, right, left, y0, y1, value);
    }
}

/// Rows y0..=y1 of a polygon: the span of each row is the tightest of the rising edges'
/// upper bounds and the falling edges' lower bounds.
#[inline(always)]
fn scan_rows<F: Fill, const N: usize>(
    pixels: &mut [u8; PIXELS],
    mut right: [EdgeStepper; N],
    mut left: [EdgeStepper; N],
    y0: i64,
    y1: i64,
    value: u8,
) {
    for y in y0..=y1 {
        let mut x1 = i64::MAX;
        let mut x0 = i64::MIN;
        for k in 0..N {
            x1 = x1.min(right[k].q);
            x0 = x0.max(left[k].q.wrapping_neg());
            right[k].advance();
            left[k].advance();
        }
        if x0 <= x1 {
            fill_clipped::<F>(pixels, y, x0, x1, value);
        }
    }
}

/// The same spans as [`fill_convex`] computed row by row in 128 bits: for polygons too large
/// for the 64-bit stepper (beyond the engine's limits). Slow but exact.
#[cold]
#[inline(never)]
fn fill_convex_wide<F: Fill>(
    pixels: &mut [u8; PIXELS],
    vs: &[(i64, i64)],
    y0: i64,
    y1: i64,
    value: u8,
) {
    let n = vs.len();
    for y in y0..=y1 {
        let py = centre(y) as i128;
        let (mut x0, mut x1) = (i128::MIN, i128::MAX);
        for i in 0..n {
            let (vx, vy) = (vs[i].0 as i128, vs[i].1 as i128);
            let (wx, wy) = (vs[(i + 1) % n].0 as i128, vs[(i + 1) % n].1 as i128);
            let (ex, ey) = (wx - vx, wy - vy);
            if ey == 0 {
                continue;
            }
            let num = ey * (vx - HALF as i128) + ex * (py - vy);
            let q = num.div_euclid(ey.abs() * ONE as i128);
            if ey > 0 {
                x1 = x1.min(q);
            } else {
                x0 = x0.max(-q);
            }
        }
        if x0 <= x1 {
            let clip = |v: i128| v.clamp(-1, SIZE as i128) as i64;
            fill_clipped::<F>(pixels, y, clip(x0), clip(x1), value);
        }
    }
}

/// The pixel rule itself, one pixel at a time: whether the centre of pixel (x, y) is inside or
/// on `shape` placed by `xf`, with the same unit rounding as the rasterizer. It is the
/// specification the span code is tested against (and the tool for checking single pixels).
pub fn covers(shape: &Shape, xf: &Transform, x: usize, y: usize) -> bool {
    let px = centre(x as i64) as i128;
    let py = centre(y as i64) as i128;
    match shape {
        Shape::Circle(c) => {
            let (cx, cy) = point_units(xf.apply(c.center));
            let r = to_units(c.radius).min(RADIUS_LIMIT) as i128;
            let (dx, dy) = (px - cx as i128, py - cy as i128);
            r > 0 && dx * dx + dy * dy <= r * r
        }
        Shape::Polygon(p) => {
            let vs: Vec<(i128, i128)> = p
                .vertices()
                .iter()
                .map(|&v| {
                    let (x, y) = point_units(xf.apply(v));
                    (x as i128, y as i128)
                })
                .collect();
            let n = vs.len();
            n >= 3
                && (0..n).all(|i| {
                    let (vx, vy) = vs[i];
                    let (wx, wy) = vs[(i + 1) % n];
                    (wx - vx) * (py - vy) - (wy - vy) * (px - vx) >= 0
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::colour;

    fn draw_units_polygon(vs: &[(i64, i64)]) -> Observation {
        let mut o = Observation::new();
        fill_convex::<Scalar>(&mut o.pixels, vs, colour::BLACK);
        o
    }

    fn brute_polygon(vs: &[(i64, i64)], x: i64, y: i64) -> bool {
        let (px, py) = (centre(x) as i128, centre(y) as i128);
        (0..vs.len()).all(|i| {
            let (vx, vy) = (vs[i].0 as i128, vs[i].1 as i128);
            let j = (i + 1) % vs.len();
            let (wx, wy) = (vs[j].0 as i128, vs[j].1 as i128);
            (wx - vx) * (py - vy) - (wy - vy) * (px - vx) >= 0
        })
    }

    #[test]
    fn rounding_to_units_is_nearest_with_ties_up() {
        // 1 m = 6 px exactly.
        assert_eq!(to_units(Fixed::ONE), 6 * ONE);
        // raw · 6 / 2^16 units: 2^15 raw → 3 units exactly; 2^14 raw → 1.5 → 2 and
        // −2^14 raw → −1.5 → −1 (ties toward +∞).
        assert_eq!(to_units(Fixed::from_raw(1 << 15)), 3);
        assert_eq!(to_units(Fixed::from_raw(1 << 14)), 2);
        assert_eq!(to_units(Fixed::from_raw(-(1 << 14))), -1);
        assert_eq!(to_units(Fixed::MAX), COORD_LIMIT);
        assert_eq!(to_units(Fixed::MIN), -COORD_LIMIT);
    }

    #[test]
    fn edges_through_pixel_centres_are_inside() {
        // The square with corners at pixel centres (10.5, 20.5) and (13.5, 22.5): 4 × 3 pixels.
        let c = |x: i64, y: i64| (centre(x), centre(y));
        let o = draw_units_polygon(&[c(10, 20), c(13, 20), c(13, 22), c(10, 22)]);
        assert_eq!(o.histogram()[colour::BLACK as usize], 12);
        assert_eq!(o.get(10, 20), colour::BLACK);
        assert_eq!(o.get(13, 22), colour::BLACK);
        assert_eq!(o.get(14, 22), 0);
        // One unit smaller on every side: only the inner 2 × 1 remain.
        let o = draw_units_polygon(&[
            (centre(10) + 1, centre(20) + 1),
            (centre(13) - 1, centre(20) + 1),
            (centre(13) - 1, centre(22) - 1),
            (centre(10) + 1, centre(22) - 1),
        ]);
        assert_eq!(o.histogram()[colour::BLACK as usize], 2);
    }

    #[test]
    fn polygon_spans_match_the_brute_force_rule_on_slanted_triangles() {
        // Deterministic pseudo-random triangles, many nearly horizontal or nearly vertical, some
        // far outside the image.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * m as u64)) as i64 - m
        };
        for _ in 0..300 {
            let base = (next(200 * ONE) + 128 * ONE, next(200 * ONE) + 128 * ONE);
            let mut vs = vec![
                base,
                (base.0 + next(150 * ONE), base.1 + next(3 * ONE)),
                (base.0 + next(4 * ONE), base.1 + next(150 * ONE)),
            ];
            // Counter-clockwise, as the engine gives them.
            let cross = (vs[1].0 - vs[0].0) * (vs[2].1 - vs[0].1)
                - (vs[1].1 - vs[0].1) * (vs[2].0 - vs[0].0);
            if cross == 0 {
                continue;
            }
            if cross < 0 {
                vs.swap(1, 2);
            }
            let o = draw_units_polygon(&vs);
            for y in 0..SIZE as i64 {
                for x in 0..SIZE as i64 {
                    let want = brute_polygon(&vs, x, y);
                    assert_eq!(
                        o.get(x as usize, y as usize) != 0,
                        want,
                        "{vs:?} at ({x}, {y})"
                    );
                }
            }
            // The 128-bit fallback gives the same spans.
            if let Some((y0, y1)) = rows_between(
                vs.iter().map(|v| v.1).min().unwrap(),
                vs.iter().map(|v| v.1).max().unwrap(),
            ) {
                let mut wide = Observation::new();
                fill_convex_wide::<Scalar>(&mut wide.pixels, &vs, y0, y1, colour::BLACK);
                assert_eq!(wide, o);
            }
        }
    }

    #[test]
    fn circle_spans_match_the_brute_force_rule() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as i64
        };
        for k in 0..400 {
            let cx = next(300 * ONE) - 20 * ONE;
            let cy = next(300 * ONE) - 20 * ONE;
            // Mostly small radii, a few huge ones, and some exactly on pixel-centre distances.
            let r = match k % 4 {
                0 => next(2 * ONE),
                1 => next(40 * ONE),
                2 => ONE * next(40),
                _ => next(500 * ONE),
            };
            let mut o = Observation::new();
            fill_circle::<Scalar>(&mut o.pixels, cx, cy, r, colour::GRAY);
            for y in 0..SIZE as i64 {
                for x in 0..SIZE as i64 {
                    let (dx, dy) = (centre(x) - cx, centre(y) - cy);
                    let want = r > 0 && dx * dx + dy * dy <= r * r;
                    assert_eq!(
                        o.get(x as usize, y as usize) != 0,
                        want,
                        "c ({cx}, {cy}) r {r} at ({x}, {y})"
                    );
                }
            }
        }
    }

    #[test]
    fn giant_and_far_away_shapes_neither_overflow_nor_hang() {
        let mut o = Observation::new();
        // A circle as large as the clamp allows, centred far away but reaching the image.
        fill_circle::<Swar>(
            &mut o.pixels,
            -RADIUS_LIMIT + 100 * ONE,
            128 * ONE,
            RADIUS_LIMIT,
            1,
        );
        assert_eq!(o.get(0, 128), 1);
        assert_eq!(o.get(255, 128), 0);
        // A polygon at the coordinate limit: culled or drawn, never a panic.
        let l = COORD_LIMIT;
        let mut o = draw_units_polygon(&[(-l, -l), (l, -l), (l, l), (-l, l)]);
        assert!(o.pixels.iter().all(|&p| p == colour::BLACK));
        fill_convex::<Swar>(&mut o.pixels, &[(l - 5, l - 5), (l, l - 5), (l, l)], 2);
        fill_circle::<Swar>(&mut o.pixels, l, -l, RADIUS_LIMIT, 2);
        assert!(o.pixels.iter().all(|&p| p == colour::BLACK));
    }
}
