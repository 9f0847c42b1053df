//! Q32.32 fixed-point numbers: the only number type of the simulation path.
//!
//! Written by hand rather than taken from the `fixed` crate so that every rounding and overflow
//! rule is ours, documented here, and identical in every build profile:
//!
//! * **add / sub / neg / mul wrap** (two's complement) at the ends of the range, explicitly, so
//!   they never panic and behave the same with or without overflow checks. Saturating instead
//!   cost 40 % of the solver's time; wrapping cannot happen in a valid world because
//!   [`crate::World::add_body`] bounds positions, sizes and velocities (see `world.rs`) and a step
//!   moves a body by at most 2 m;
//! * **mul** computes the exact 128-bit product and rounds to nearest, ties toward +∞
//!   (`(a·b + 2^31) >> 32`);
//! * **div** computes `(a << 32) / b` exactly in 128 bits, truncated toward zero, then saturates;
//!   division by zero gives `MAX`, `MIN` or `ZERO` by the sign of the dividend (no panic);
//! * **sqrt** is the floor of the exact square root; negative input gives zero.
//!
//! Floats appear only in [`Fixed::from_f64`] and [`Fixed::to_f64`], the boundary conversions.

use core::cmp::Ordering;
use core::fmt;
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// Number of fractional bits.
pub const FRAC_BITS: u32 = 32;
const ONE_RAW: i64 = 1 << FRAC_BITS;

/// A signed Q32.32 fixed-point number (`raw / 2^32`).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fixed(i64);

/// Error of a boundary conversion from a float.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FromFloatError {
    /// The input was NaN.
    NaN,
    /// The input was infinite or outside the Q32.32 range.
    OutOfRange,
}

impl fmt::Display for FromFloatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromFloatError::NaN => f.write_str("value is NaN"),
            FromFloatError::OutOfRange => f.write_str("value is infinite or outside ±2^31"),
        }
    }
}

impl std::error::Error for FromFloatError {}

impl Fixed {
    pub const ZERO: Fixed = Fixed(0);
    pub const ONE: Fixed = Fixed(ONE_RAW);
    pub const HALF: Fixed = Fixed(ONE_RAW / 2);
    pub const TWO: Fixed = Fixed(2 * ONE_RAW);
    pub const MAX: Fixed = Fixed(i64::MAX);
    pub const MIN: Fixed = Fixed(i64::MIN);
    /// The smallest positive value, 2^-32.
    pub const EPSILON: Fixed = Fixed(1);
    /// π rounded to nearest.
    pub const PI: Fixed = Fixed(13_493_037_705);
    /// π/2 rounded to nearest.
    pub const FRAC_PI_2: Fixed = Fixed(6_746_518_852);
    /// 2π rounded to nearest.
    pub const TAU: Fixed = Fixed(26_986_075_409);

    /// The value whose raw bits are `raw` (i.e. `raw / 2^32`).
    #[inline]
    pub const fn from_raw(raw: i64) -> Fixed {
        Fixed(raw)
    }

    /// The raw bits (`value · 2^32`).
    #[inline]
    pub const fn raw(self) -> i64 {
        self.0
    }

    /// An integer value (exact: every i32 is representable).
    #[inline]
    pub const fn from_int(v: i32) -> Fixed {
        Fixed((v as i64) << FRAC_BITS)
    }

    /// The exact ratio `num / den` rounded toward zero (`den` ≠ 0; zero gives 0).
    #[inline]
    pub const fn ratio(num: i64, den: i64) -> Fixed {
        if den == 0 {
            return Fixed::ZERO;
        }
        let q = ((num as i128) << FRAC_BITS) / den as i128;
        Fixed(saturate(q))
    }

    /// Boundary conversion: the nearest Q32.32 value to `v` (ties to even), or an error for NaN,
    /// infinities and values outside the range. Exact for every f64 with at most 32 fractional
    /// bits inside the range.
    #[allow(clippy::float_arithmetic)]
    pub fn from_f64(v: f64) -> Result<Fixed, FromFloatError> {
        if v.is_nan() {
            return Err(FromFloatError::NaN);
        }
        // 2^31 itself is out of range; multiplying by a power of two is exact.
        let scaled = v * 4_294_967_296.0;
        if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&scaled) {
            return Err(FromFloatError::OutOfRange);
        }
        Ok(Fixed(scaled.round_ties_even() as i64))
    }

    /// Boundary conversion to f64 (exact while |raw| < 2^53, else rounded to nearest).
    #[allow(clippy::float_arithmetic)]
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / 4_294_967_296.0
    }

    #[inline]
    pub const fn abs(self) -> Fixed {
        Fixed(self.0.saturating_abs())
    }

    #[inline]
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }

    #[inline]
    pub const fn is_positive(self) -> bool {
        self.0 > 0
    }

    #[inline]
    pub fn min(self, o: Fixed) -> Fixed {
        if self.0 <= o.0 {
            self
        } else {
            o
        }
    }

    #[inline]
    pub fn max(self, o: Fixed) -> Fixed {
        if self.0 >= o.0 {
            self
        } else {
            o
        }
    }

    #[inline]
    pub fn clamp(self, lo: Fixed, hi: Fixed) -> Fixed {
        self.max(lo).min(hi)
    }

    /// Multiplication by an integer (saturating, exact).
    #[inline]
    pub const fn mul_int(self, k: i64) -> Fixed {
        Fixed(saturate(self.0 as i128 * k as i128))
    }

    /// Division by an integer, truncated toward zero; by zero gives zero.
    #[inline]
    pub const fn div_int(self, k: i64) -> Fixed {
        if k == 0 {
            return Fixed::ZERO;
        }
        Fixed(self.0 / k)
    }

    /// Floor of the exact square root; zero for negative input.
    #[inline]
    pub fn sqrt(self) -> Fixed {
        if self.0 <= 0 {
            return Fixed::ZERO;
        }
        // sqrt(raw / 2^32) · 2^32 = sqrt(raw · 2^32).
        let r = ((self.0 as u128) << FRAC_BITS).isqrt();
        Fixed(r as i64)
    }

    /// Truncation toward −∞ to an integer.
    #[inline]
    pub const fn floor_int(self) -> i64 {
        self.0 >> FRAC_BITS
    }

    /// `self · a / b` with a single rounding (exact 192-bit intermediate not needed: the
    /// 128-bit product is divided directly), truncated toward zero; `b == 0` saturates by sign.
    #[inline]
    pub fn mul_div(self, a: Fixed, b: Fixed) -> Fixed {
        let p = self.0 as i128 * a.0 as i128;
        if b.0 == 0 {
            return sign_saturate(p);
        }
        Fixed(saturate(p / b.0 as i128))
    }
}

#[inline]
const fn saturate(v: i128) -> i64 {
    // One comparison on the common path: does v survive the round trip through i64?
    let r = v as i64;
    if r as i128 == v {
        r
    } else if v < 0 {
        i64::MIN
    } else {
        i64::MAX
    }
}

#[inline]
fn sign_saturate(v: i128) -> Fixed {
    match v.cmp(&0) {
        Ordering::Greater => Fixed::MAX,
        Ordering::Less => Fixed::MIN,
        Ordering::Equal => Fixed::ZERO,
    }
}

impl Add for Fixed {
    type Output = Fixed;
    #[inline]
    fn add(self, o: Fixed) -> Fixed {
        Fixed(self.0.wrapping_add(o.0))
    }
}

impl Sub for Fixed {
    type Output = Fixed;
    #[inline]
    fn sub(self, o: Fixed) -> Fixed {
        Fixed(self.0.wrapping_sub(o.0))
    }
}

impl Neg for Fixed {
    type Output = Fixed;
    #[inline]
    fn neg(self) -> Fixed {
        Fixed(self.0.wrapping_neg())
    }
}

impl Mul for Fixed {
    type Output = Fixed;
    #[inline]
    fn mul(self, o: Fixed) -> Fixed {
        #[cfg(feature = "count-multiplies")]
        MULTIPLIES.with(|n| n.set(n.get() + 1));
        Fixed(mul_raw(self.0, o.0))
    }
}

#[cfg(feature = "count-multiplies")]
thread_local! {
    static MULTIPLIES: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// The `Fixed × Fixed` multiplies this thread has made so far (feature `count-multiplies`).
#[cfg(feature = "count-multiplies")]
pub fn multiplies() -> u64 {
    MULTIPLIES.with(|n| n.get())
}

/// `(a·b + 2^31) >> 32`, truncated to 64 bits: the exact 128-bit product rounded to nearest.
///
/// Portable form: |a·b| ≤ 2^126 and the rounding term is tiny, so these i128 operations cannot
/// overflow; they are written as wrapping to spare the overflow checks kept on in every profile.
#[cfg(any(test, not(any(target_arch = "x86_64", target_arch = "wasm32"))))]
#[inline]
const fn mul_raw_i128(a: i64, b: i64) -> i64 {
    let p = (a as i128)
        .wrapping_mul(b as i128)
        .wrapping_add(1i128 << (FRAC_BITS - 1));
    (p >> FRAC_BITS) as i64
}

/// [`mul_raw_i128`] from the processor's 64×64 → 128-bit signed multiply. Inside large inlined
/// code the optimiser sometimes loses track of the operands being sign-extended 64-bit values
/// and emits a full 128×128-bit multiply (three multiplications) for the portable form; this
/// one is always a single `imul`. Same integer result, so the same bits on every platform
/// (`mul_matches_the_portable_form` checks it).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn mul_raw(a: i64, b: i64) -> i64 {
    let lo: u64;
    let hi: i64;
    // SAFETY: `imul r64` only reads its operands and writes rax, rdx and the flags, which the
    // operand list declares; it touches no memory and cannot fault.
    unsafe {
        core::arch::asm!(
            "imul {b}",
            b = in(reg) b,
            inout("rax") a => lo,
            out("rdx") hi,
            options(pure, nomem, nostack),
        );
    }
    // (hi:lo + 2^31) >> 32, keeping the low 64 bits: with hi:lo = 2^32·q + r (0 ≤ r < 2^32) that
    // is q + [r ≥ 2^31], i.e. the product shifted down plus its bit 31, which shortens the
    // dependency chain behind the multiply (no carry through the high word).
    let shifted = ((hi as u64) << 32 | lo >> 32) as i64;
    shifted.wrapping_add(((lo >> 31) & 1) as i64)
}

/// [`mul_raw_i128`] from four 32 × 32-bit products in 64-bit integers, for wasm32, whose
/// portable form is a call to a 128 × 128-bit multiply routine (wasm has 64-bit multiplies
/// only). With a = ah·2^32 + al and b = bh·2^32 + bl (ah, bh the signed high halves, al, bl the
/// unsigned low ones), a·b + 2^31 = ah·bh·2^64 + (ah·bl + al·bh)·2^32 + (al·bl + 2^31), so the
/// result, shifted down by 32 and kept to 64 bits, is ah·bh·2^32 + ah·bl + al·bh +
/// ⌊(al·bl + 2^31) / 2^32⌋ modulo 2^64: each product fits in 64 bits (|ah·bl| < 2^63,
/// al·bl + 2^31 < 2^64) and the sum wraps exactly as the truncation does. The same integer
/// (`mul_matches_the_portable_form` checks it), so the same bits.
#[cfg(any(test, target_arch = "wasm32"))]
#[inline(always)]
const fn mul_raw_halves(a: i64, b: i64) -> i64 {
    let (ah, al) = (a >> 32, a & 0xffff_ffff);
    let (bh, bl) = (b >> 32, b & 0xffff_ffff);
    let low = ((al as u64).wrapping_mul(bl as u64).wrapping_add(1 << 31) >> 32) as i64;
    (ah.wrapping_mul(bh) << 32)
        .wrapping_add(ah.wrapping_mul(bl))
        .wrapping_add(al.wrapping_mul(bh))
        .wrapping_add(low)
}

#[cfg(target_arch = "wasm32")]
#[inline(always)]
fn mul_raw(a: i64, b: i64) -> i64 {
    mul_raw_halves(a, b)
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "wasm32")))]
#[inline(always)]
fn mul_raw(a: i64, b: i64) -> i64 {
    mul_raw_i128(a, b)
}

impl Div for Fixed {
    type Output = Fixed;
    #[inline]
    fn div(self, o: Fixed) -> Fixed {
        if o.0 == 0 {
            return sign_saturate(self.0 as i128);
        }
        Fixed(saturate(((self.0 as i128) << FRAC_BITS) / o.0 as i128))
    }
}

impl AddAssign for Fixed {
    #[inline]
    fn add_assign(&mut self, o: Fixed) {
        *self = *self + o;
    }
}

impl SubAssign for Fixed {
    #[inline]
    fn sub_assign(&mut self, o: Fixed) {
        *self = *self - o;
    }
}

impl MulAssign for Fixed {
    #[inline]
    fn mul_assign(&mut self, o: Fixed) {
        *self = *self * o;
    }
}

impl fmt::Debug for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self)
    }
}

impl fmt::Display for Fixed {
    /// Exact decimal expansion, truncated to 10 fractional digits (display only).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let neg = self.0 < 0;
        let mag = (self.0 as i128).unsigned_abs();
        let int = mag >> FRAC_BITS;
        let frac = mag & ((1u128 << FRAC_BITS) - 1);
        let digits = (frac * 10_000_000_000u128) >> FRAC_BITS;
        write!(f, "{}{}.{:010}", if neg { "-" } else { "" }, int, digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fx(v: f64) -> Fixed {
        Fixed::from_f64(v).unwrap()
    }

    #[test]
    fn boundary_conversion_is_exact_and_rejects_bad_floats() {
        assert_eq!(fx(1.5).raw(), 3 << 31);
        assert_eq!(fx(-0.25).raw(), -(1 << 30));
        assert_eq!(fx(-0.0), Fixed::ZERO);
        assert_eq!(Fixed::from_f64(f64::NAN), Err(FromFloatError::NaN));
        assert_eq!(
            Fixed::from_f64(f64::INFINITY),
            Err(FromFloatError::OutOfRange)
        );
        assert_eq!(
            Fixed::from_f64(2147483648.0),
            Err(FromFloatError::OutOfRange)
        );
        assert!(Fixed::from_f64(-2147483648.0).is_ok());
        assert_eq!(
            fx(1.2345).to_f64(),
            (1.2345f64 * 4294967296.0).round() / 4294967296.0
        );
    }

    #[test]
    fn mul_matches_the_portable_form() {
        let edges = [
            0,
            1,
            -1,
            2,
            -2,
            (1 << 31) - 1,
            1 << 31,
            -(1 << 31),
            (1 << 32) - 1,
            1 << 32,
            -(1 << 32),
            (1 << 32) + 1,
            i64::MAX,
            i64::MIN,
            i64::MAX - 1,
            i64::MIN + 1,
            0x7fff_ffff_8000_0000,
            -0x7fff_ffff_8000_0000,
        ];
        for &a in &edges {
            for &b in &edges {
                assert_eq!(mul_raw(a, b), mul_raw_i128(a, b), "{a} * {b}");
                assert_eq!(mul_raw_halves(a, b), mul_raw_i128(a, b), "{a} * {b}");
            }
        }
        // A fixed-seed xorshift stream over all magnitudes.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..1_000_000 {
            let (r1, r2, r3) = (next(), next(), next());
            let a = (r1 as i64) >> (r3 % 64);
            let b = (r2 as i64) >> ((r3 >> 8) % 64);
            assert_eq!(mul_raw(a, b), mul_raw_i128(a, b), "{a} * {b}");
            assert_eq!(mul_raw_halves(a, b), mul_raw_i128(a, b), "{a} * {b}");
        }
    }

    #[test]
    fn mul_rounds_to_nearest_and_wraps() {
        // 2^-32 · 0.5 = 2^-33: a tie, rounds toward +inf to 2^-32.
        assert_eq!((Fixed::EPSILON * Fixed::HALF).raw(), 1);
        assert_eq!((-Fixed::EPSILON * Fixed::HALF).raw(), 0);
        assert_eq!(fx(3.0) * fx(-2.5), fx(-7.5));
        // Out of range: two's complement wrap of the rounded product, never a panic.
        assert_eq!(Fixed::MAX * Fixed::TWO, Fixed::from_raw(-2));
        assert_eq!(
            Fixed::from_int(1 << 20) * Fixed::from_int(1 << 11),
            Fixed::MIN
        );
    }

    #[test]
    fn div_truncates_and_never_panics() {
        assert_eq!(Fixed::ONE / fx(3.0), Fixed::from_raw(1_431_655_765));
        assert_eq!(-Fixed::ONE / fx(3.0), Fixed::from_raw(-1_431_655_765));
        assert_eq!(Fixed::ONE / Fixed::ZERO, Fixed::MAX);
        assert_eq!(-Fixed::ONE / Fixed::ZERO, Fixed::MIN);
        assert_eq!(Fixed::ZERO / Fixed::ZERO, Fixed::ZERO);
        assert_eq!(Fixed::MIN / -Fixed::EPSILON, Fixed::MAX);
    }

    #[test]
    fn add_sub_neg_wrap() {
        assert_eq!(Fixed::MAX + Fixed::EPSILON, Fixed::MIN);
        assert_eq!(Fixed::MIN - Fixed::EPSILON, Fixed::MAX);
        assert_eq!(-Fixed::MIN, Fixed::MIN);
    }

    #[test]
    fn sqrt_is_floor_of_exact_root() {
        assert_eq!(fx(4.0).sqrt(), fx(2.0));
        assert_eq!(fx(2.0).sqrt().raw(), 6_074_000_999); // floor(sqrt(2)·2^32)
        assert_eq!(fx(-1.0).sqrt(), Fixed::ZERO);
        assert_eq!(Fixed::MAX.sqrt().raw(), 199_032_864_766_430); // floor(sqrt((2^63 - 1)·2^32))
    }

    #[test]
    fn constants_match_their_definitions() {
        assert!((Fixed::PI.to_f64() - std::f64::consts::PI).abs() < 2.4e-10);
        assert!((Fixed::TAU.to_f64() - std::f64::consts::TAU).abs() < 2.4e-10);
        assert!((Fixed::FRAC_PI_2.to_f64() - std::f64::consts::FRAC_PI_2).abs() < 2.4e-10);
        assert_eq!(Fixed::ratio(1, 60).raw(), 71_582_788);
    }

    #[test]
    fn display_is_exact_decimal() {
        assert_eq!(fx(-1.5).to_string(), "-1.5000000000");
        assert_eq!(Fixed::EPSILON.to_string(), "0.0000000002");
    }
}
