//! Exact coordinates and bounding boxes for the generator.
//!
//! Every position the generator computes is an integer number of 1e-5 world units ([`Coord`]):
//! the templates write at most five decimals, so a template position is exact in it, a shift is
//! an integer subtraction, and a result prints back as a decimal text without rounding. No
//! floating point is involved; the one trigonometric step (an object's rotated bounding box)
//! uses [`engine::sin_cos`] on [`Fixed`] and is rounded outward to whole units once.

use crate::catalogue::{catalogue, Shape};
use crate::level::{Object, ObjectKind};
use crate::number::Decimal;
use engine::Fixed;

/// A length or position in 1e-5 world units.
pub type Coord = i64;

/// Coordinate units per world unit.
pub const PER_UNIT: i64 = 100_000;

/// Parses a decimal text (`[+-]digits[.digits]`) into units, rounding half away from zero
/// beyond the fifth decimal; `exact` says whether nothing was rounded. `None` for any other
/// text or a whole part over 10,000 (values stay within about ±10^9 units).
const fn parse(s: &[u8]) -> Option<(Coord, bool)> {
    let mut i = 0;
    let mut negative = false;
    if i < s.len() && (s[i] == b'-' || s[i] == b'+') {
        negative = s[i] == b'-';
        i += 1;
    }
    let mut whole: i64 = 0;
    let mut digits = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        whole = whole * 10 + (s[i] - b'0') as i64;
        digits += 1;
        i += 1;
        if whole > 10_000 {
            return None;
        }
    }
    let mut frac: i64 = 0;
    let mut places = 0;
    let mut exact = true;
    let mut round_up = false;
    if i < s.len() && s[i] == b'.' {
        i += 1;
        while i < s.len() && s[i].is_ascii_digit() {
            let d = (s[i] - b'0') as i64;
            if places < 5 {
                frac = frac * 10 + d;
                places += 1;
            } else {
                if places == 5 && d >= 5 {
                    round_up = true;
                }
                if d != 0 {
                    exact = false;
                }
                places += 1;
            }
            digits += 1;
            i += 1;
        }
    }
    if i != s.len() || digits == 0 {
        return None;
    }
    let mut p = places;
    while p < 5 {
        frac *= 10;
        p += 1;
    }
    let mut v = whole * PER_UNIT + frac + if round_up { 1 } else { 0 };
    if negative {
        v = -v;
    }
    Some((v, exact))
}

/// A constant's units, for the rule tables (`q("-9.96")`); rounds beyond five decimals. A text
/// that is not a plain decimal fails the build.
pub const fn q(s: &str) -> Coord {
    match parse(s.as_bytes()) {
        Some((v, _)) => v,
        None => panic!("not a decimal constant"),
    }
}

/// A level number's exact units, or `None` if it has more than five decimals, an exponent or
/// is out of range.
pub fn coord_of(d: &Decimal) -> Option<Coord> {
    match parse(d.text().as_bytes()) {
        Some((v, true)) => Some(v),
        _ => None,
    }
}

/// The decimal text of a coordinate: no trailing zeros, no `-0`, at least one digit.
pub fn text_of(c: Coord) -> String {
    let sign = if c < 0 { "-" } else { "" };
    let a = c.unsigned_abs();
    let (whole, frac) = (a / PER_UNIT as u64, a % PER_UNIT as u64);
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let digits = format!("{frac:05}");
    format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
}

/// The [`Decimal`] of a coordinate (its text as [`text_of`] writes it).
pub fn decimal_of(c: Coord) -> Decimal {
    // text_of writes a plain decimal within the position range: it always parses.
    Decimal::parse(&text_of(c)).unwrap_or_else(|_| unreachable!("coordinate text {c}"))
}

/// An axis-aligned box in units (`lo` ≤ `hi` on both axes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub x_lo: Coord,
    pub y_lo: Coord,
    pub x_hi: Coord,
    pub y_hi: Coord,
}

impl Bounds {
    /// The box moved by (dx, dy).
    pub fn shifted(self, dx: Coord, dy: Coord) -> Bounds {
        Bounds {
            x_lo: self.x_lo + dx,
            y_lo: self.y_lo + dy,
            x_hi: self.x_hi + dx,
            y_hi: self.y_hi + dy,
        }
    }

    /// Whether the interiors intersect (boxes that only touch do not overlap).
    pub fn overlaps(&self, o: &Bounds) -> bool {
        self.x_lo < o.x_hi && o.x_lo < self.x_hi && self.y_lo < o.y_hi && o.y_lo < self.y_hi
    }
}

fn floor_units(f: Fixed) -> Coord {
    let p = f.raw() as i128 * PER_UNIT as i128;
    p.div_euclid(1i128 << engine::FRAC_BITS) as Coord
}

fn ceil_units(f: Fixed) -> Coord {
    -floor_units(-f)
}

/// The box of an object's solid colliders relative to its position (rotation and, for
/// platforms, scale applied), rounded outward to whole units.
pub fn extent(kind: &ObjectKind, rotation: &Decimal) -> Bounds {
    let (sx, sy) = match kind {
        ObjectKind::Platform { scale_x, scale_y } => (scale_x.value(), scale_y.value()),
        _ => (Fixed::ONE, Fixed::ONE),
    };
    let radians = crate::number::radians(rotation.value());
    let (sin, cos) = engine::sin_cos(radians);
    let turn = |px: Fixed, py: Fixed| {
        let (x, y) = (px * sx, py * sy);
        (cos * x - sin * y, sin * x + cos * y)
    };
    let mut pts: Vec<(Fixed, Fixed)> = Vec::new();
    let entry = catalogue().entry(kind.catalogue_kind());
    for c in entry.colliders.iter().filter(|c| c.enabled && !c.trigger) {
        let (ox, oy) = (c.offset.0.value(), c.offset.1.value());
        match &c.shape {
            Shape::Box { width, height } => {
                let (hw, hh) = (width.value() * Fixed::HALF, height.value() * Fixed::HALF);
                let (x0, x1, y0, y1) = (ox - hw, ox + hw, oy - hh, oy + hh);
                for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
                    pts.push(turn(x, y));
                }
            }
            Shape::Polygon { paths } => {
                for (px, py) in &paths[0] {
                    pts.push(turn(ox + px.value(), oy + py.value()));
                }
            }
            Shape::Circle { radius } => {
                pts.extend(circle_corners(turn(ox, oy), radius.value(), (sx, sy)));
            }
        }
    }
    let mut lo = (Fixed::MAX, Fixed::MAX);
    let mut hi = (Fixed::MIN, Fixed::MIN);
    for (x, y) in pts {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    Bounds {
        x_lo: floor_units(lo.0),
        y_lo: floor_units(lo.1),
        x_hi: ceil_units(hi.0),
        y_hi: ceil_units(hi.1),
    }
}

/// The lowest and highest corners of the box of a circle at `center` (turned) whose radius is
/// scaled by the larger of the scales. No object a level holds has an enabled solid circle
/// collider (the catalogue's are the birds' and the slingshot's trigger): this is for a
/// catalogue that gains one.
fn circle_corners(
    center: (Fixed, Fixed),
    radius: Fixed,
    (sx, sy): (Fixed, Fixed),
) -> [(Fixed, Fixed); 2] {
    let r = radius * sx.abs().max(sy.abs());
    [(center.0 - r, center.1 - r), (center.0 + r, center.1 + r)]
}

/// An object's box at its position (`x`, `y` in units).
pub fn bounds_at(o: &Object, x: Coord, y: Coord) -> Bounds {
    extent(&o.kind, &o.rotation).shifted(x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        assert_eq!(q("-9.96"), -996_000);
        assert_eq!(q("17"), 1_700_000);
        assert_eq!(q("-3.263795"), -326_380);
        assert_eq!(q("0.03752904"), 3_753);
        assert_eq!(q(".5"), 50_000);
        // Not a number: nothing, a sign alone, no digits.
        for t in ["", "-", "+", ".", "-.", "1.2.3", "1x"] {
            assert_eq!(parse(t.as_bytes()), None, "{t:?}");
        }
        // A whole part of 10,000 at most.
        assert_eq!(parse(b"-10000.5"), Some((-1_000_050_000, true)));
        for t in ["10001", "-10001.5", "100000", "123456789"] {
            assert_eq!(parse(t.as_bytes()), None, "{t:?}");
        }
        for (c, t) in [
            (0, "0"),
            (-85_426, "-0.85426"),
            (1_700_000, "17"),
            (-5, "-0.00005"),
            (123_450, "1.2345"),
        ] {
            assert_eq!(text_of(c), t);
            assert_eq!(coord_of(&Decimal::parse(t).unwrap()), Some(c));
        }
        assert_eq!(coord_of(&Decimal::parse("0.123456").unwrap()), None);
        assert_eq!(coord_of(&Decimal::parse("1e3").unwrap()), None);
        assert_eq!(
            coord_of(&Decimal::parse("0.1234500").unwrap()),
            Some(12_345)
        );
    }

    #[test]
    fn boxes_that_only_touch_do_not_overlap() {
        let b = |x_lo, y_lo, x_hi, y_hi| Bounds {
            x_lo,
            y_lo,
            x_hi,
            y_hi,
        };
        let a = b(0, 0, 10, 10);
        // Sharing an edge on either axis, or apart: no overlap, in either order.
        for o in [
            b(10, 0, 20, 10),
            b(0, 10, 10, 20),
            b(-10, -10, 0, 0),
            b(20, 20, 30, 30),
        ] {
            assert!(!a.overlaps(&o) && !o.overlaps(&a), "{o:?}");
        }
        // One unit into it on each side, or inside it: overlap.
        for o in [
            b(9, 0, 20, 10),
            b(-10, 0, 1, 10),
            b(0, 9, 10, 20),
            b(0, -10, 10, 1),
            b(2, 2, 3, 3),
        ] {
            assert!(a.overlaps(&o) && o.overlaps(&a), "{o:?}");
        }
    }

    #[test]
    fn boxes() {
        use crate::catalogue::{BlockShape, Material};
        let block = ObjectKind::Block {
            shape: BlockShape::RectBig,
            material: Material::Wood,
        };
        // Half of 1.886 × 0.184, rounded outward (the catalogue's numbers are f32 values).
        let near = |a: Coord, b: Coord| (a - b).abs() <= 1;
        let flat = extent(&block, &Decimal::parse("0").unwrap());
        assert!(
            near(flat.x_lo, -94_300) && near(flat.x_hi, 94_300),
            "{flat:?}"
        );
        assert!(
            near(flat.y_lo, -9_200) && near(flat.y_hi, 9_200),
            "{flat:?}"
        );
        let upright = extent(&block, &Decimal::parse("90").unwrap());
        assert!(
            near(upright.x_hi, 9_200) && near(upright.y_hi, 94_300),
            "{upright:?}"
        );
        let platform = ObjectKind::Platform {
            scale_x: Decimal::parse("2").unwrap(),
            scale_y: Decimal::parse("-0.5").unwrap(),
        };
        let p = extent(&platform, &Decimal::parse("0").unwrap());
        assert_eq!(
            (p.x_lo, p.x_hi, p.y_lo, p.y_hi),
            (-64_000, 64_000, -16_000, 16_000)
        );
    }
}
