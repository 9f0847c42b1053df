//! Decimal numbers as the sources write them, with their one conversion to [`Fixed`].
//!
//! A [`Decimal`] keeps the source's text (so a level-set file stores it unchanged, never
//! re-rounded) and the value the game would use. Unity reads every number of a level with
//! `(float)Convert.ToDouble(text)` and keeps floats in its transforms and components, so the
//! value is: the nearest `f64` to the text, then the nearest `f32` to that, then that `f32`
//! (exact in `f64`) rounded once to Q32.32 by [`Fixed::from_f64`]. The same rule serves the
//! catalogue's numbers, which Unity also holds as `f32`.

use engine::Fixed;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The longest number text accepted: far more digits than an `f32` holds, and it keeps every
/// message that quotes a number short.
pub const MAX_TEXT_LEN: usize = 40;

/// A number: its source text and its value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    text: String,
    value: Fixed,
}

/// Why a text is not a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Empty, or not the form `[+-]digits[.digits][(e|E)[+-]digits]` (this also refuses `NaN`,
    /// `Infinity`, hexadecimal and digit-group separators).
    Syntax,
    /// Longer than [`MAX_TEXT_LEN`].
    TooLong,
    /// Too large for an `f32` or for Q32.32.
    OutOfRange,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberError::Syntax => "not a decimal number",
            NumberError::TooLong => "number text too long",
            NumberError::OutOfRange => "number out of range",
        })
    }
}

impl std::error::Error for NumberError {}

/// Whether `s` is `[+-]digits[.digits][(e|E)[+-]digits]` with at least one mantissa digit.
/// Checked by hand because `str::parse::<f64>` also takes `inf`, `NaN` and `infinity`.
fn well_formed(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        digits += i - frac_start;
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        i += 1;
        if i < b.len() && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

impl Decimal {
    /// Parses a number; surrounding ASCII whitespace is dropped (.NET's `Convert.ToDouble`
    /// allows it), the rest is kept as the text.
    pub fn parse(text: &str) -> Result<Decimal, NumberError> {
        let t = text.trim_matches(|c: char| c.is_ascii_whitespace());
        if t.len() > MAX_TEXT_LEN {
            return Err(NumberError::TooLong);
        }
        if !well_formed(t) {
            return Err(NumberError::Syntax);
        }
        let wide: f64 = t.parse().map_err(|_| NumberError::Syntax)?;
        // The game's float; an f64 beyond f32's range becomes infinite here and is refused.
        let single = wide as f32;
        if !single.is_finite() {
            return Err(NumberError::OutOfRange);
        }
        let value = Fixed::from_f64(f64::from(single)).map_err(|_| NumberError::OutOfRange)?;
        Ok(Decimal {
            text: t.to_owned(),
            value,
        })
    }

    /// The source text (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The value (Q32.32).
    pub fn value(&self) -> Fixed {
        self.value
    }
}

/// Degrees (the levels' rotations, the catalogue's angles) to radians, exactly as
/// `degrees · π / 180` on the raw Q32.32 values.
pub fn radians(degrees: Fixed) -> Fixed {
    degrees.mul_div(Fixed::PI, Fixed::from_int(180))
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Stored as its text: the value follows from it by the one rule above.
impl Serialize for Decimal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        let text = String::deserialize(d)?;
        Decimal::parse(&text)
            .map_err(|e| serde::de::Error::custom(format!("\"{}\": {e}", short(&text))))
    }
}

/// At most 40 characters of `s`, escaped, for an error message about hostile input.
pub(crate) fn short(s: &str) -> String {
    let mut out: String = s.chars().take(40).flat_map(char::escape_debug).collect();
    if s.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        for ok in ["0", "-12.0", "+1.5", ".5", "5.", "1e3", "-2.5E-2", " 3 "] {
            assert!(Decimal::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "", "-", ".", "e5", "1e", "NaN", "inf", "Infinity", "0x10", "1,5", "1 2",
        ] {
            assert_eq!(Decimal::parse(bad), Err(NumberError::Syntax), "{bad}");
        }
        assert_eq!(Decimal::parse("1e39"), Err(NumberError::OutOfRange));
        assert_eq!(Decimal::parse("3e9"), Err(NumberError::OutOfRange));
        assert_eq!(Decimal::parse(&"1".repeat(41)), Err(NumberError::TooLong));
    }

    #[test]
    fn value_goes_through_f32() {
        let d = Decimal::parse("-12.0").unwrap();
        assert_eq!(d.value(), Fixed::from_int(-12));
        assert_eq!(d.text(), "-12.0");
        // 0.1 as f32 is 0.100000001490116…, whose Q32.32 rounding differs from 0.1's.
        let tenth = Decimal::parse("0.1").unwrap().value();
        assert_eq!(tenth, Fixed::from_f64(f64::from(0.1f32)).unwrap());
        assert_ne!(tenth, Fixed::from_f64(0.1).unwrap());
    }
}
