//! Vectors, rotations and rigid transforms over [`Fixed`], and deterministic sin/cos.

use crate::fixed::Fixed;
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A 2D vector.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Vec2 {
    pub x: Fixed,
    pub y: Fixed,
}

impl Vec2 {
    pub const ZERO: Vec2 = Vec2 {
        x: Fixed::ZERO,
        y: Fixed::ZERO,
    };

    #[inline]
    pub const fn new(x: Fixed, y: Fixed) -> Vec2 {
        Vec2 { x, y }
    }

    #[inline]
    pub fn dot(self, o: Vec2) -> Fixed {
        self.x * o.x + self.y * o.y
    }

    /// The z component of the 3D cross product.
    #[inline]
    pub fn cross(self, o: Vec2) -> Fixed {
        self.x * o.y - self.y * o.x
    }

    /// `self × 1` (z-axis), the vector turned a quarter turn clockwise: `(y, −x)`. The same
    /// bits as `cross_vs(Fixed::ONE)` (a product with one rounds to the other factor exactly)
    /// without its two multiplies.
    #[inline]
    pub fn cross_v1(self) -> Vec2 {
        Vec2::new(self.y, -self.x)
    }

    /// `self × s` for a scalar s (z-axis): `(s·y, −s·x)`.
    #[inline]
    pub fn cross_vs(self, s: Fixed) -> Vec2 {
        Vec2::new(s * self.y, -(s * self.x))
    }

    /// `s × v` for a scalar s (z-axis): `(−s·y, s·x)`.
    #[inline]
    pub fn cross_sv(s: Fixed, v: Vec2) -> Vec2 {
        Vec2::new(-(s * v.y), s * v.x)
    }

    /// The left perpendicular `(−y, x)`.
    #[inline]
    pub fn perp(self) -> Vec2 {
        Vec2::new(-self.y, self.x)
    }

    #[inline]
    pub fn length_squared(self) -> Fixed {
        self.dot(self)
    }

    /// Length, computed in 128 bits so that it neither loses precision for tiny vectors nor
    /// overflows for large ones.
    #[inline]
    pub fn length(self) -> Fixed {
        length_of_squared(self.length_squared_exact())
    }

    /// The exact squared length in raw units (2^-64), the input of [`Vec2::length`]: comparing
    /// these orders vectors by length without a square root.
    #[inline]
    pub fn length_squared_exact(self) -> u128 {
        let x = self.x.raw() as i128;
        let y = self.y.raw() as i128;
        (x * x + y * y) as u128
    }

    /// The unit vector along `self` and the original length; a zero (or too short to normalise,
    /// below 2^-24) vector gives `None`.
    #[inline]
    pub fn normalize_with_length(self) -> Option<(Vec2, Fixed)> {
        // One integer square root with `s` extra bits: r = floor(|v|·2^s), so that short vectors
        // still give unit vectors exact to about one ulp. sq·4^s stays below 2^126, hence
        // |x| < 2^(63−s) and x·2^(32+s) < 2^95; and floor(r / 2^s) = floor(|v|) = length().
        let x = self.x.raw() as i128;
        let y = self.y.raw() as i128;
        let sq = (x * x + y * y) as u128;
        let s = (sq.leading_zeros().saturating_sub(2) / 2).min(30);
        let r = (sq << (2 * s)).isqrt();
        let len = (r >> s) as i64;
        if len < 256 {
            return None;
        }
        let r = r as i128;
        let unit = |c: i128| Fixed::from_raw(((c << (32 + s)) / r) as i64);
        Some((Vec2::new(unit(x), unit(y)), Fixed::from_raw(len)))
    }

    /// Whether |self| < `limit` (exactly, without a square root).
    #[inline]
    pub fn shorter_than(self, limit: Fixed) -> bool {
        if limit.raw() <= 0 {
            return false;
        }
        let x = self.x.raw() as i128;
        let y = self.y.raw() as i128;
        let l = limit.raw() as i128;
        ((x * x + y * y) as u128) < (l * l) as u128
    }

    /// The unit vector along `self`, or zero for a vector too short to normalise.
    #[inline]
    pub fn normalize_or_zero(self) -> Vec2 {
        self.normalize_with_length().map_or(Vec2::ZERO, |(n, _)| n)
    }

    #[inline]
    pub fn scale(self, s: Fixed) -> Vec2 {
        Vec2::new(self.x * s, self.y * s)
    }

    #[inline]
    pub fn min(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x.min(o.x), self.y.min(o.y))
    }

    #[inline]
    pub fn max(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x.max(o.x), self.y.max(o.y))
    }

    /// Boundary conversion from f64 components.
    pub fn from_f64(x: f64, y: f64) -> Result<Vec2, crate::fixed::FromFloatError> {
        Ok(Vec2::new(Fixed::from_f64(x)?, Fixed::from_f64(y)?))
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl Neg for Vec2 {
    type Output = Vec2;
    #[inline]
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

impl Mul<Vec2> for Fixed {
    type Output = Vec2;
    #[inline]
    fn mul(self, v: Vec2) -> Vec2 {
        v.scale(self)
    }
}

impl AddAssign for Vec2 {
    #[inline]
    fn add_assign(&mut self, o: Vec2) {
        *self = *self + o;
    }
}

impl SubAssign for Vec2 {
    #[inline]
    fn sub_assign(&mut self, o: Vec2) {
        *self = *self - o;
    }
}

/// A rotation stored as its sine and cosine.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rot {
    pub s: Fixed,
    pub c: Fixed,
}

impl Default for Rot {
    fn default() -> Rot {
        Rot::IDENTITY
    }
}

impl Rot {
    pub const IDENTITY: Rot = Rot {
        s: Fixed::ZERO,
        c: Fixed::ONE,
    };

    /// The rotation by `angle` radians (counter-clockwise), via [`sin_cos`].
    #[inline]
    pub fn from_angle(angle: Fixed) -> Rot {
        let (s, c) = sin_cos(angle);
        Rot { s, c }
    }

    /// Rotate a vector.
    #[inline]
    pub fn apply(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    /// Rotate a vector by the inverse rotation.
    #[inline]
    pub fn apply_inv(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x + self.s * v.y, -(self.s * v.x) + self.c * v.y)
    }
}

/// A rigid transform: rotation then translation.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Transform {
    pub p: Vec2,
    pub q: Rot,
}

impl Transform {
    pub const IDENTITY: Transform = Transform {
        p: Vec2::ZERO,
        q: Rot::IDENTITY,
    };

    #[inline]
    pub fn new(p: Vec2, angle: Fixed) -> Transform {
        Transform {
            p,
            q: Rot::from_angle(angle),
        }
    }

    /// Local point → world point.
    #[inline]
    pub fn apply(&self, v: Vec2) -> Vec2 {
        self.q.apply(v) + self.p
    }

    /// World point → local point.
    #[inline]
    pub fn apply_inv(&self, v: Vec2) -> Vec2 {
        self.q.apply_inv(v - self.p)
    }
}

/// The body origin of a body whose centre of mass is at `center`, rotated by `q`, with the
/// centre of mass at `local_center` in body coordinates: `center − q·local_center`. When the
/// centre of mass is the origin the rotation is skipped, which changes no bit (rotating the zero
/// vector gives exactly zero in fixed point, and subtracting zero changes nothing).
#[inline]
pub(crate) fn body_origin(center: Vec2, q: Rot, local_center: Vec2) -> Vec2 {
    if local_center == Vec2::ZERO {
        center
    } else {
        center - q.apply(local_center)
    }
}

/// The motion of a body's centre of mass and angle over one step, for continuous collision:
/// from (`c0`, `a0`) at t = 0 to (`c`, `a`) at t = 1.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Sweep {
    /// Centre of mass in body coordinates.
    pub local_center: Vec2,
    pub c0: Vec2,
    pub c: Vec2,
    pub a0: Fixed,
    pub a: Fixed,
}

impl Sweep {
    /// The body transform at fraction `t` ∈ [0, 1] of the step (linear interpolation).
    pub fn transform_at(&self, t: Fixed) -> Transform {
        self.transform_at_from(t, Rot::from_angle(self.a0))
    }

    /// [`Sweep::transform_at`] given `q0`, the rotation of `a0` (`Rot::from_angle(a0)`):
    /// where the interpolated angle is `a0` (at t = 0, or when the sweep does not turn) it is
    /// used instead of evaluating sin/cos again. Same bits as `transform_at`.
    #[inline]
    pub fn transform_at_from(&self, t: Fixed, q0: Rot) -> Transform {
        let c = self.c0 + (self.c - self.c0).scale(t);
        let a = self.a0 + (self.a - self.a0) * t;
        let q = if a == self.a0 { q0 } else { Rot::from_angle(a) };
        Transform {
            p: body_origin(c, q, self.local_center),
            q,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Deterministic sin/cos.
//
// Range reduction and polynomial evaluation run in Q2.62 on i128, so the only error that reaches
// the Q32.32 result is the final rounding (< 2^-33) plus the Taylor remainder (< 2e-14 on
// [−π/4, π/4]). The coefficients below are round(2^62 / n!), committed as integers.

const Q: u32 = 62;
/// round(π/2 · 2^62).
const HALF_PI_Q62: i128 = 7_244_019_458_077_122_842;
/// round(2^62 / n!) for the odd n = 3 … 11 (sine) and even n = 2 … 12 (cosine). The first
/// omitted terms are below r^13/13! ≈ 7e-12 and r^14/14! ≈ 4e-13 on [−π/4, π/4], far under the
/// final rounding to Q32.32 (1.2e-10).
const SIN_COEFFS: [i64; 5] = [
    768_614_336_404_564_651,
    38_430_716_820_228_233,
    915_017_067_148_291,
    12_708_570_377_060,
    115_532_457_973,
];
const COS_COEFFS: [i64; 6] = [
    2_305_843_009_213_693_952,
    192_153_584_101_141_163,
    6_405_119_470_038_039,
    114_377_133_393_536,
    1_270_857_037_706,
    9_627_704_831,
];

/// `round(a·b / 2^62)` for Q2.62 operands that fit in i64 (all of them here: |r| ≤ π/4 and
/// every partial sum stays below 2 in magnitude), so the product is one 64×64→128 multiply.
#[inline]
fn q62_mul(a: i64, b: i64) -> i64 {
    let p = (a as i128).wrapping_mul(b as i128);
    (p.wrapping_add(1i128 << (Q - 1)) >> Q) as i64
}

/// Alternating series 1 − c0·r² + c1·r⁴ − … evaluated by Horner in Q2.62.
#[inline]
fn alternating_series(r2: i64, coeffs: &[i64]) -> i64 {
    let mut acc: i64 = 0;
    for (i, &c) in coeffs.iter().enumerate().rev() {
        let term = if i % 2 == 0 { -c } else { c };
        acc = q62_mul(acc + term, r2);
    }
    // acc = Σ ±c_i r^(2i+2); add the leading 1.
    (1i64 << Q) + acc
}

#[inline]
fn q62_to_fixed(v: i64) -> Fixed {
    let shift = Q - crate::fixed::FRAC_BITS;
    Fixed::from_raw((v + (1i64 << (shift - 1))) >> shift)
}

/// The nearest quadrant `k = ⌊(x + H/2) / H⌋` of `x = angle · 2^62` (H = π/2 in Q2.62) and the
/// remainder `x − k·H ∈ [−H/2, H/2)`, exactly as the 128-bit division gives them: a 64-bit
/// estimate of k is corrected by exact comparisons, so no 128-bit division is needed.
#[inline]
fn quadrant(angle: Fixed) -> (i64, i64) {
    let x = (angle.raw() as i128) << (Q - crate::fixed::FRAC_BITS);
    // H / 2^30 ≈ 6.7e9; the estimate is within one of the exact k.
    const H_HI: i64 = (HALF_PI_Q62 >> (Q - crate::fixed::FRAC_BITS)) as i64;
    let mut k = angle.raw().div_euclid(H_HI);
    // |k| < 2^34 and |x| < 2^94: these products and differences cannot overflow i128.
    let mut r = x.wrapping_sub((k as i128).wrapping_mul(HALF_PI_Q62));
    let half = HALF_PI_Q62 / 2;
    while r < -half {
        k -= 1;
        r += HALF_PI_Q62;
    }
    while r >= half {
        k += 1;
        r -= HALF_PI_Q62;
    }
    (k, r as i64)
}

/// Sine and cosine of `angle` (radians). Deterministic on every platform; maximum error
/// against the exact values ≈ 1.2e-10 (one rounding to Q32.32) for any representable angle.
pub fn sin_cos(angle: Fixed) -> (Fixed, Fixed) {
    // Nearest quadrant k and remainder r ∈ [−π/4, π/4] in Q2.62.
    let (k, r) = quadrant(angle);
    let r2 = q62_mul(r, r);
    let sin_r = q62_mul(r, alternating_series(r2, &SIN_COEFFS[..]));
    let cos_r = alternating_series(r2, &COS_COEFFS[..]);
    let (s, c) = match k & 3 {
        0 => (sin_r, cos_r),
        1 => (cos_r, -sin_r),
        2 => (-sin_r, -cos_r),
        _ => (-cos_r, sin_r),
    };
    (q62_to_fixed(s), q62_to_fixed(c))
}

/// [`Vec2::length`] from [`Vec2::length_squared_exact`]: the floor of the exact square root,
/// saturated. Monotone, so a shorter exact square never gives a longer length.
#[inline]
pub fn length_of_squared(sq: u128) -> Fixed {
    let r = sq.isqrt();
    Fixed::from_raw(if r > i64::MAX as u128 {
        i64::MAX
    } else {
        r as i64
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_turn_is_the_cross_product_with_one() {
        let edges = [
            i64::MIN,
            i64::MIN + 1,
            -(1 << 32) - 1,
            -1,
            0,
            1,
            1 << 31,
            (1 << 32) + 7,
            i64::MAX,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as i64
        };
        let values: Vec<i64> = edges
            .into_iter()
            .chain((0..10_000).map(|_| random()))
            .collect();
        for pair in values.windows(2) {
            let v = Vec2::new(Fixed::from_raw(pair[0]), Fixed::from_raw(pair[1]));
            assert_eq!(v.cross_v1(), v.cross_vs(Fixed::ONE), "{v:?}");
        }
    }

    /// The first implementation of [`sin_cos`] (all in i128, quadrant by 128-bit division),
    /// kept as the reference the faster one must equal bit for bit.
    fn sin_cos_i128(angle: Fixed) -> (Fixed, Fixed) {
        let mul = |a: i128, b: i128| (a * b + (1i128 << (Q - 1))) >> Q;
        let series = |r2: i128, coeffs: &[i64]| {
            let mut acc: i128 = 0;
            for (i, &c) in coeffs.iter().enumerate().rev() {
                let term = if i % 2 == 0 { -(c as i128) } else { c as i128 };
                acc = mul(acc + term, r2);
            }
            (1i128 << Q) + acc
        };
        let to_fixed = |v: i128| {
            let shift = Q - crate::fixed::FRAC_BITS;
            Fixed::from_raw(((v + (1i128 << (shift - 1))) >> shift) as i64)
        };
        let x = (angle.raw() as i128) << (Q - crate::fixed::FRAC_BITS);
        let k = (x + HALF_PI_Q62 / 2).div_euclid(HALF_PI_Q62);
        let r = x - k * HALF_PI_Q62;
        let r2 = mul(r, r);
        let sin_r = mul(r, series(r2, &SIN_COEFFS[..]));
        let cos_r = series(r2, &COS_COEFFS[..]);
        let (s, c) = match k.rem_euclid(4) {
            0 => (sin_r, cos_r),
            1 => (cos_r, -sin_r),
            2 => (-sin_r, -cos_r),
            _ => (-cos_r, sin_r),
        };
        (to_fixed(s), to_fixed(c))
    }

    #[test]
    fn sin_cos_equals_the_i128_reference_bit_for_bit() {
        let check = |a: Fixed| assert_eq!(sin_cos(a), sin_cos_i128(a), "angle raw {}", a.raw());
        for raw in [0, 1, -1, i64::MAX, i64::MIN, i64::MAX - 1, i64::MIN + 1] {
            check(Fixed::from_raw(raw));
        }
        // The quadrant boundaries x = (2k + 1)·H/2 (and their neighbours) for the first and
        // the thousand around k = 2^32, where the nearest-quadrant choice flips.
        let h = HALF_PI_Q62 / 2;
        for k in (-1000i128..1000).chain((1i128 << 32) - 1000..(1i128 << 32) + 1000) {
            for sign in [1i128, -1] {
                let edge = (sign * (2 * k + 1) * h) >> (Q - crate::fixed::FRAC_BITS);
                for d in -2..=2 {
                    let raw = (edge + d).clamp(i64::MIN as i128, i64::MAX as i128) as i64;
                    check(Fixed::from_raw(raw));
                }
            }
        }
        // A deterministic scatter over the whole range and over ±100 rad.
        let mut z = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            check(Fixed::from_raw(z as i64));
            check(Fixed::from_raw((z as i64) % (100i64 << 32)));
        }
    }

    #[allow(clippy::float_arithmetic)]
    #[test]
    fn sin_cos_error_below_1e8_over_100_rad() {
        let mut worst: f64 = 0.0;
        // Walk ±100 rad with an irregular stride so every quadrant offset is sampled.
        let step = Fixed::from_raw(35_791_394 + 7); // ≈ 0.00833 rad
        let mut a = Fixed::from_int(-100);
        let end = Fixed::from_int(100);
        while a <= end {
            let (s, c) = sin_cos(a);
            let af = a.to_f64();
            worst = worst.max((s.to_f64() - af.sin()).abs());
            worst = worst.max((c.to_f64() - af.cos()).abs());
            a += step;
        }
        assert!(worst < 1e-8, "worst error {worst}");
        // And it is in fact at the level of one Q32.32 rounding.
        assert!(worst < 5e-10, "worst error {worst}");
    }

    #[test]
    fn sin_cos_exact_points() {
        assert_eq!(sin_cos(Fixed::ZERO), (Fixed::ZERO, Fixed::ONE));
        let (s, c) = sin_cos(Fixed::FRAC_PI_2);
        assert!(s == Fixed::ONE && c.abs().raw() <= 1);
        let (s, c) = sin_cos(-Fixed::PI);
        assert!(s.abs().raw() <= 1 && c == -Fixed::ONE);
    }

    #[test]
    fn rotation_roundtrip_and_length() {
        let q = Rot::from_angle(Fixed::from_f64(0.7).unwrap());
        let v = Vec2::from_f64(3.0, -4.0).unwrap();
        let back = q.apply_inv(q.apply(v));
        assert!((back.x - v.x).abs().raw() < 16 && (back.y - v.y).abs().raw() < 16);
        assert_eq!(v.length(), Fixed::from_int(5));
        assert!(Vec2::ZERO.normalize_with_length().is_none());
        // Short vectors normalise to within a few ulps of unit length.
        let short = Vec2::from_f64(0.0057, -0.0103).unwrap();
        let (n, _) = short.normalize_with_length().unwrap();
        let err = (n.length() - Fixed::ONE).raw().abs();
        assert!(err <= 2, "unit length off by {err} ulps");
        let big = Vec2::from_f64(30000.0, -40000.0).unwrap();
        let (n, len) = big.normalize_with_length().unwrap();
        assert_eq!(len, Fixed::from_int(50000));
        assert!((n.x - Fixed::from_f64(0.6).unwrap()).raw().abs() <= 1);
    }
}
