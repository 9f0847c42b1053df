//! The variation rule of each of the 75 templates, as data.
//!
//! Each rule says what the original generator (`generate_variations.py`, one function per
//! template, `generate_levels_from_template` choosing it) does, read as facts rather than code:
//! which point or object is the *anchor*, where it may go ([`Place`]), and what moves with it
//! ([`Moves`]). Every template of the 75 has a function in the original's dispatch; several
//! share one (`template_1_1_2` serves 1_1_2, 1_1_4 and 1_1_5, …). Numbers are the original's,
//! written as it computes them (`X_MIN_REACHABLE + 5` → `reach::X_MIN + q("5")`), rounded to
//! 1e-5 where it has more digits.
//!
//! After the move every rule places [`super::distractors::COUNT`] random blocks on the ground
//! (the original's `place_random_blocks_on_ground`, with no restricted areas for any of the
//! 75).

use super::geometry::{q, Coord};
use super::reach::{self, X_HIGH, X_LOW, X_MAX, X_MAX_UNREACHABLE, X_MIN, Y_HIGH, Y_LOW};
use super::rng::Draws;
use crate::catalogue::{BlockShape, Material};

/// A closed range of coordinates (`lo` ≤ `hi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub lo: Coord,
    pub hi: Coord,
}

/// The range between two bounds in either order (the original's `random.uniform(a, b)`).
pub const fn span(a: Coord, b: Coord) -> Range {
    if a <= b {
        Range { lo: a, hi: b }
    } else {
        Range { lo: b, hi: a }
    }
}

impl Range {
    /// The lower half (`lo` to the midpoint, floored).
    pub const fn lower_half(self) -> Range {
        Range {
            lo: self.lo,
            hi: self.lo + (self.hi - self.lo) / 2,
        }
    }

    /// Whether `v` is above the midpoint (strictly, as the original compares).
    pub fn above_middle(self, v: Coord) -> bool {
        2 * v > self.lo + self.hi
    }
}

/// Which object of a kind, when a template has several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The first in document order.
    First,
    /// The template has exactly one.
    Only,
    HighestY,
    LowestY,
    HighestX,
}

/// The point a rule places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The first pig (document order).
    Pig,
    Block {
        shape: BlockShape,
        material: Material,
        pick: Pick,
    },
    Platform {
        pick: Pick,
    },
    /// A point of the structure (the original's `reachable_point`: an object's centre, an
    /// opening, an edge), in template coordinates.
    Point {
        x: Coord,
        y: Coord,
    },
}

/// What moves with the anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moves {
    /// Every template object, by the anchor's shift (the structure moves as one).
    All,
    /// Only the anchor object; the rest stays.
    AnchorOnly,
}

/// Where the anchor goes. `x`, `y`: uniform draws (draw 0 and draw 1 of the attempt).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Nothing moves (only distractors are added).
    Stay,
    /// x uniform in the range; y unchanged.
    XRange { x: Range },
    /// x and y uniform in the box.
    Box { x: Range, y: Range },
    /// x uniform in the range cut at the line's x for height `y`; the anchor's y unchanged
    /// (`get_reachable_x_location_using_reachability_line`).
    LeftOfLine { x: Range, y: Coord },
    /// x uniform in the range cut where the line drops below `y.lo`, then y uniform in the
    /// range cut at the line's height there (`get_reachable_location_using_reachability_line`).
    UnderLine { x: Range, y: Range },
    /// x uniform along the line, y on it (`get_location_in_reachability_line`).
    OnLine,
    /// x uniform; y uniform in `y_right` if x is right of the middle, else in `y_left`
    /// (`get_location_in_reachable_space`, `…_2`).
    SplitX {
        x: Range,
        y_right: Range,
        y_left: Range,
    },
    /// y uniform; x uniform in `x_high` if y is above the middle, else in `x_low`
    /// (`get_location_in_unreachable_space`, `…_2`).
    SplitY {
        y: Range,
        x_high: Range,
        x_low: Range,
    },
}

/// One template's rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The template's hierarchy code.
    pub code: &'static str,
    /// The original's function that generates it.
    pub source: &'static str,
    /// What the anchor is, in words.
    pub target: &'static str,
    pub anchor: Anchor,
    pub moves: Moves,
    pub place: Place,
}

/// A rule that cannot be applied (a defect of the table, caught by the tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Infeasible(pub &'static str);

impl Place {
    /// Whether the rule keeps its anchor reachable (checked again on every variation).
    pub fn keeps_reachable(&self) -> bool {
        matches!(
            self,
            Place::LeftOfLine { .. } | Place::UnderLine { .. } | Place::OnLine
        )
    }

    /// The anchor's new position from its old one.
    pub fn sample(&self, d: &Draws, from: (Coord, Coord)) -> Result<(Coord, Coord), Infeasible> {
        const X: u64 = 0;
        const Y: u64 = 1;
        let cut = |r: Range, hi: Option<Coord>| match hi {
            Some(h) if h.min(r.hi) >= r.lo => Ok(Range {
                lo: r.lo,
                hi: h.min(r.hi),
            }),
            _ => Err(Infeasible("the range lies beyond the reachability line")),
        };
        Ok(match *self {
            Place::Stay => from,
            Place::XRange { x } => (d.uniform(X, x.lo, x.hi), from.1),
            Place::Box { x, y } => (d.uniform(X, x.lo, x.hi), d.uniform(Y, y.lo, y.hi)),
            Place::LeftOfLine { x, y } => {
                let x = cut(x, reach::last_x_at(y))?;
                (d.uniform(X, x.lo, x.hi), from.1)
            }
            Place::UnderLine { x, y } => {
                let x = cut(x, reach::last_x_at(y.lo))?;
                let nx = d.uniform(X, x.lo, x.hi);
                let y = cut(y, Some(reach::height_at(nx)))?;
                (nx, d.uniform(Y, y.lo, y.hi))
            }
            Place::OnLine => {
                let (first, last) = (reach::LINE[0].0, reach::LINE[reach::LINE.len() - 1].0);
                let nx = d.uniform(X, first, last);
                (nx, reach::height_at(nx))
            }
            Place::SplitX { x, y_right, y_left } => {
                let nx = d.uniform(X, x.lo, x.hi);
                let y = if x.above_middle(nx) { y_right } else { y_left };
                (nx, d.uniform(Y, y.lo, y.hi))
            }
            Place::SplitY { y, x_high, x_low } => {
                let ny = d.uniform(Y, y.lo, y.hi);
                let x = if y.above_middle(ny) { x_high } else { x_low };
                (d.uniform(X, x.lo, x.hi), ny)
            }
        })
    }
}

// Builders that say which of the original's helpers a row uses.

const fn left_of_line(x: Range, y: Coord) -> Place {
    Place::LeftOfLine { x, y }
}

const fn under_line(x: Range, y: Range) -> Place {
    Place::UnderLine { x, y }
}

/// `get_location_in_reachable_space`: right of the middle, the full y range; left, its lower
/// half.
const fn space(x: Range, y: Range) -> Place {
    Place::SplitX {
        x,
        y_right: y,
        y_left: y.lower_half(),
    }
}

/// `get_location_in_reachable_space_2`: right of the middle, the lower half; left, the full
/// range.
const fn space_2(x: Range, y: Range) -> Place {
    Place::SplitX {
        x,
        y_right: y.lower_half(),
        y_left: y,
    }
}

/// `get_location_in_unreachable_space(a, b, …)` (`back` 7) and `…_2` (`back` 3): above the
/// middle of y, x in [a − back, a]; below, x between a and b.
const fn beyond(a: Coord, b: Coord, y: Range, back: Coord) -> Place {
    Place::SplitY {
        y,
        x_high: span(a - back, a),
        x_low: span(a, b),
    }
}

const fn rule(
    code: &'static str,
    source: &'static str,
    target: &'static str,
    anchor: Anchor,
    moves: Moves,
    place: Place,
) -> Rule {
    Rule {
        code,
        source,
        target,
        anchor,
        moves,
        place,
    }
}

const fn point(x: &str, y: &str) -> Anchor {
    Anchor::Point { x: q(x), y: q(y) }
}

const fn block(shape: BlockShape, material: Material, pick: Pick) -> Anchor {
    Anchor::Block {
        shape,
        material,
        pick,
    }
}

/// The structure around a point moves as one, the point under the line.
const fn structure(
    code: &'static str,
    source: &'static str,
    target: &'static str,
    (x, y): (&str, &str),
    xs: Range,
    ys: Range,
) -> Rule {
    rule(
        code,
        source,
        target,
        point(x, y),
        Moves::All,
        under_line(xs, ys),
    )
}

/// The whole level moves with its first pig.
const fn with_pig(code: &'static str, source: &'static str, place: Place) -> Rule {
    rule(code, source, "the pig", Anchor::Pig, Moves::All, place)
}

const fn r(lo: &str, hi: &str) -> Range {
    span(q(lo), q(hi))
}

const fn c(v: &str) -> Coord {
    q(v)
}

use BlockShape::{CircleSmall, RectBig, SquareHole};
use Material::{Stone, Wood};

/// Every template's rule, in the order of the hierarchy codes.
#[rustfmt::skip] // One row per template: the table reads down, as the docs table does.
pub static RULES: [Rule; 75] = [
    // Scenario 1-2: single and multiple forces.
    rule("1_1_1", "template_1_1_1", "the pig (x only)", Anchor::Pig, Moves::AnchorOnly, left_of_line(span(X_MIN, X_MAX), c("-3.263795"))),
    with_pig("1_1_2", "template_1_1_2", under_line(span(c("-7"), X_HIGH), span(c("-2.829752"), Y_HIGH))),
    with_pig("1_1_4", "template_1_1_2", under_line(span(c("-7"), X_HIGH), span(c("-2.829752"), Y_HIGH))),
    with_pig("1_1_5", "template_1_1_2", under_line(span(c("-7"), X_HIGH), span(c("-2.829752"), Y_HIGH))),
    with_pig("1_1_6", "template_1_1_6", under_line(span(X_LOW + c("5"), X_HIGH - c("5")), span(Y_LOW + c("1"), Y_HIGH - c("4")))),
    rule("1_2_1", "template_1_2_1", "the pig (x only)", Anchor::Pig, Moves::AnchorOnly, Place::XRange { x: span(X_MIN + c("1"), X_MAX - c("1")), }),
    with_pig("1_2_2", "template_1_2_2", space(span(X_LOW + c("2"), X_HIGH - c("2")), span(Y_LOW + c("2"), Y_HIGH - c("2")))),
    with_pig("1_2_4", "template_1_2_2", space(span(X_LOW + c("2"), X_HIGH - c("2")), span(Y_LOW + c("2"), Y_HIGH - c("2")))),
    with_pig("1_2_5", "template_1_2_5", space(span(X_LOW + c("5"), X_HIGH - c("1.5")), span(Y_LOW + c("1"), Y_HIGH - c("1.5")))),
    with_pig("1_2_6", "template_1_1_6", under_line(span(X_LOW + c("5"), X_HIGH - c("5")), span(Y_LOW + c("1"), Y_HIGH - c("4")))),
    // Scenario 3: rolling.
    with_pig("2_1_2", "template_2_1_2", beyond(X_MAX + c("1"), X_MAX + c("5"), span(Y_LOW + c("1"), Y_HIGH), c("7"))),
    with_pig("2_1_3", "template_2_1_2", beyond(X_MAX + c("1"), X_MAX + c("5"), span(Y_LOW + c("1"), Y_HIGH), c("7"))),
    with_pig("2_1_5", "template_2_1_5", beyond(X_MAX + c("2"), X_MAX + c("1"), span(Y_LOW + c("1"), Y_HIGH), c("7"))),
    with_pig("2_1_6", "template_2_1_6", beyond(X_MAX, X_MAX + c("3"), span(Y_LOW + c("1"), Y_HIGH - c("5")), c("3"))),
    with_pig("2_1_8", "template_2_1_8", space(span(X_MIN + c("5"), X_MAX - c("3")), span(Y_LOW + c("1"), Y_HIGH - c("2")))),
    with_pig("2_1_9", "template_2_1_9", space(span(X_MIN + c("5"), X_MAX), span(Y_LOW + c("1"), Y_HIGH - c("5")))),
    // Scenario 4: falling.
    structure("2_2_1", "template_2_2_1", "the lower stone circle", ("-5.31003", "-0.7899181"), r("-8.747027", "1.549163"), r("-0.5899642", "1.23003")),
    with_pig("2_2_2", "template_2_2_2", space_2(span(X_MIN + c("5"), X_MAX - c("7")), span(Y_LOW + c("1"), Y_HIGH - c("3")))),
    with_pig("2_2_3", "template_2_2_2", space_2(span(X_MIN + c("5"), X_MAX - c("7")), span(Y_LOW + c("1"), Y_HIGH - c("3")))),
    with_pig("2_2_6", "template_2_2_2", space_2(span(X_MIN + c("5"), X_MAX - c("7")), span(Y_LOW + c("1"), Y_HIGH - c("3")))),
    with_pig("2_2_8", "template_2_2_8", space_2(span(X_MIN + c("5"), X_MAX - c("7")), span(Y_LOW + c("1"), Y_HIGH - c("3")))),
    // Scenario 5: sliding.
    rule("2_3_1", "template_2_3_1", "the square hole", point("2.44", "1.71176"), Moves::All, Place::OnLine),
    structure("2_3_2", "template_2_3_2", "the lower square hole", ("-5.59846", "1.02442"), span(X_MIN + c("5"), X_MAX), span(Y_LOW + c("1"), c("100"))),
    rule("2_3_3", "template_2_3_3", "the pig (x only)", Anchor::Pig, Moves::All, Place::XRange { x: span(X_MAX + c("1"), X_MAX_UNREACHABLE - c("4")), }),
    rule("2_3_4", "template_2_3_4", "the pig (x only)", Anchor::Pig, Moves::All, Place::XRange { x: span(X_MIN + c("3"), X_MAX), }),
    structure("2_3_5", "template_2_3_5", "the wood square hole", ("-1.51509", "-1.64602"), span(X_MIN + c("5"), X_MAX), span(Y_LOW + c("2"), c("100"))),
    // Scenario 6: bouncing.
    with_pig("2_4_1", "template_2_4_1", under_line(span(X_MIN + c("5"), c("0")), span(Y_LOW + c("2"), c("4")))),
    with_pig("2_4_2", "template_2_4_1", under_line(span(X_MIN + c("5"), c("0")), span(Y_LOW + c("2"), c("4")))),
    with_pig("2_4_3", "template_2_4_3", under_line(span(X_MIN + c("5"), c("0")), span(Y_LOW + c("2"), c("2")))),
    with_pig("2_4_4", "template_2_4_4", under_line(span(X_MIN + c("5"), X_MAX - c("5")), span(Y_LOW + c("2"), c("1")))),
    with_pig("2_4_5", "template_2_4_4", under_line(span(X_MIN + c("5"), X_MAX - c("5")), span(Y_LOW + c("2"), c("1")))),
    with_pig("2_4_6", "template_2_4_6", under_line(span(X_MIN + c("5"), c("0")), span(Y_LOW + c("2"), c("0")))),
    // Scenario 7: relative weight.
    rule("3_1_1", "template_3_1_1", "the stone square hole", block(SquareHole, Stone, Pick::Only), Moves::All, under_line(r("-7.5", "5"), r("2.3", "5.3"))),
    structure("3_1_2", "template_3_1_2", "the lower wood square hole", ("3.48", "1.410032"), r("3.3", "3.5"), r("1.47", "3.3")),
    rule("3_1_3", "template_3_1_3", "the small stone circle", block(CircleSmall, Stone, Pick::Only), Moves::All, under_line(r("-7", "0"), r("2.3", "4"))),
    rule("3_1_4", "template_3_1_4", "the small stone circle", block(CircleSmall, Stone, Pick::Only), Moves::All, under_line(r("-5", "0"), r("0.3", "4"))),
    rule("3_1_6", "template_3_1_6", "the wood square hole", block(SquareHole, Wood, Pick::Only), Moves::All, under_line(r("-5", "0"), r("-0.5", "2"))),
    // Scenario 8: relative height.
    rule("3_2_1", "template_3_2_1", "the big stone rectangle", block(RectBig, Stone, Pick::Only), Moves::All, Place::OnLine),
    rule("3_2_2", "template_3_2_2", "the higher stone square hole (x only)", block(SquareHole, Stone, Pick::HighestY), Moves::All, left_of_line(span(c("-8"), X_MAX), c("4.27"))),
    rule("3_2_3", "template_3_2_3", "the lower stone square hole", block(SquareHole, Stone, Pick::LowestY), Moves::All, under_line(span(c("-6"), X_MAX), span(c("0.9341"), Y_HIGH))),
    rule("3_2_4", "template_3_2_4", "the bouncing platform (rightmost)", Anchor::Platform { pick: Pick::HighestX, }, Moves::All, under_line(r("-2", "2.6"), r("-0.97782", "1.3"))),
    // Scenario 9: relative width.
    structure("3_3_1", "template_3_3_1", "the wide opening", ("-4.89", "0.95"), span(X_MIN + c("3"), X_MAX), span(c("0.95"), Y_HIGH)),
    structure("3_3_2", "template_3_3_2", "the small stone circle", ("-6.21018", "2.18042"), span(c("-9.850999"), X_MAX), span(c("3.319321"), Y_HIGH)),
    structure("3_3_3", "template_3_3_3", "the wide opening", ("-0.986", "2.635"), span(c("-5"), X_MAX), r("-0.97", "2.8")),
    structure("3_3_4", "template_3_3_4", "the wide opening", ("-0.831", "2.684"), span(c("-5"), X_MAX), r("-0.363", "2.8")),
    // Scenario 10: shape difference.
    structure("3_4_1", "template_3_4_1", "the stone circle", ("2.25871", "1.39156"), span(c("-7.94429"), X_MAX), r("1.39156", "2.8")),
    structure("3_4_2", "template_3_4_2", "the lower stone triangle with a hole", ("-6.912", "1.2258"), span(c("-8.729"), X_MAX), span(c("1.2258"), Y_HIGH)),
    structure("3_4_3", "template_3_4_3", "the ice triangle", ("-4.795", "-1.19961"), span(c("-7.485002"), X_MAX), span(c("-1.19961"), Y_HIGH)),
    structure("3_4_4", "template_3_4_4", "the edge of the upper stone block", ("-5.048", "1.88"), r("-8", "-4"), r("1.88", "2.8")),
    // Scenario 11: non-greedy actions.
    structure("3_5_1", "template_3_5_1", "the furthest pig", ("2.820013", "1.026101"), span(c("-0.89"), X_MAX), r("-0.7995539", "2.8")),
    structure("3_5_2", "template_3_5_2", "the top of the antenna", ("-2.4", "5.8"), span(c("-6.45"), X_MAX), span(c("3.68"), Y_HIGH)),
    structure("3_5_3", "template_3_5_3", "the topmost pig", ("-3.379822", "-2.420288"), r("-6", "1.558355"), r("-0.9386116", "1.5")),
    structure("3_5_4", "template_3_5_4", "the pig in the bucket", ("-6.1519", "-2.8896"), r("-6.1519", "4"), r("-3.174598", "0.3")),
    structure("3_5_5", "template_3_5_5", "the topmost pig", ("-1.20842", "2.02951"), span(c("-3.914959"), X_MAX), span(c("2.02951"), Y_HIGH)),
    // Scenario 12: structural analysis.
    structure("3_6_1", "template_3_6_1", "the left ice block", ("-3.709073", "-2.15922"), span(c("-7.66196"), X_MAX), span(c("-2.417462"), Y_HIGH - c("2"))),
    structure("3_6_3", "template_3_6_3", "the rightmost pig", ("-2.219439", "-0.03752904"), r("-5.379386", "-0.03903953"), r("-0.03752904", "0.29331")),
    structure("3_6_4", "template_3_6_4", "the topmost pig", ("-3.399167", "0.2950496"), r("-4.354696", "1.563726"), r("0.2950496", "1.565926")),
    structure("3_6_5", "template_3_6_5", "the rightmost pig", ("-2.170179", "-1.350999"), r("-4.354696", "-1.353722"), r("-1.350999", "0.4000222")),
    structure("3_6_6", "template_3_6_6", "the rightmost pig", ("-2.221663", "-0.5047105"), r("-7.040801", "-0.7267894"), r("-1.064094", "0.5543331")),
    structure("3_6_7", "template_3_6_7", "the rightmost pig", ("-2.384823", "-0.1313629"), r("-5.755874", "5.775358"), r("-0.575754", "1.737329")),
    // Scenario 13: clearing paths.
    structure("3_7_1", "template_3_7_1", "the pig", ("-1.11452", "0.0996229"), span(c("-4.312766"), X_MAX), r("0.7", "2.8")),
    structure("3_7_2", "template_3_7_2", "the pig", ("-0.1495501", "0.7360905"), r("-4.70958", "4.69"), r("0.7360905", "2.8")),
    structure("3_7_3", "template_3_7_3", "the pig", ("-0.09999022", "0.3341722"), r("-4.70958", "4.69"), r("0.3341722", "2.8")),
    structure("3_7_4", "template_3_7_4", "the stone circle", ("-3.74237", "2.16261"), span(c("-9.347918"), X_MAX - c("2")), span(c("2.16261"), Y_HIGH)),
    structure("3_7_5", "template_3_7_5", "the stone circle", ("-3.06", "4.45124"), span(c("-7.828814"), X_MAX - c("5")), span(c("3.999"), Y_HIGH)),
    // Scenario 14: adequate timing. Nothing moves: only distractors.
    rule("3_8_1", "template_3_8_1", "nothing", Anchor::Pig, Moves::All, Place::Stay),
    rule("3_8_2", "template_3_8_1", "nothing", Anchor::Pig, Moves::All, Place::Stay),
    // Scenario 15: manoeuvring.
    with_pig("3_9_1", "template_3_9_1", Place::Box { x: span(X_MAX + c("4"), X_MAX_UNREACHABLE), y: span(Y_LOW, Y_HIGH), }),
    with_pig("3_9_2", "template_3_9_2", Place::Box { x: span(X_MAX + c("1"), X_MAX_UNREACHABLE), y: span(Y_LOW, Y_HIGH), }),
    structure("3_9_3", "template_3_9_3", "the furthest pig", ("1.90999", "-0.05851"), span(c("-2.910033"), X_MAX), r("-0.05851", "2.8")),
    structure("3_9_4", "template_3_9_4", "the top of the divider", ("0.97", "2.33"), span(c("-2.910033"), X_MAX - c("5")), span(c("2.33"), Y_HIGH)),
    structure("3_9_5", "template_3_9_5", "the pig", ("3.35", "0.1286316"), span(c("-5.369997"), X_MAX), r("-1.421352", "2.8")),
    structure("3_9_6", "template_3_9_6", "the middle of the bridge", ("-0.8199974", "-1.90136"), span(c("-6.249995"), X_MAX - c("5")), span(c("-2.330358"), Y_HIGH)),
    structure("3_9_7", "template_3_9_7", "the opening", ("-0.32", "-1.43"), span(c("-8.876295"), X_MAX - c("5")), span(c("-1.43"), Y_HIGH)),
    structure("3_9_8", "template_3_9_8", "the topmost pig", ("0.2198468", "0.8202759"), span(c("-5.219497"), X_MAX - c("5")), span(c("0.8202759"), Y_HIGH)),
];

/// The rule of a template code.
pub fn rule_of(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code == code)
}

fn range_text(r: Range) -> String {
    use super::geometry::text_of;
    format!("[{}, {}]", text_of(r.lo), text_of(r.hi))
}

impl Place {
    /// The rule in words with its numbers (for the docs' table).
    pub fn describe(&self) -> String {
        match *self {
            Place::Stay => "stays (distractors only)".to_owned(),
            Place::XRange { x } => format!("x in {}", range_text(x)),
            Place::Box { x, y } => format!("x in {}, y in {}", range_text(x), range_text(y)),
            Place::LeftOfLine { x, y } => format!(
                "x in {}, left of the line at y {}",
                range_text(x),
                super::geometry::text_of(y)
            ),
            Place::UnderLine { x, y } => {
                format!(
                    "under the line: x in {}, y in {}",
                    range_text(x),
                    range_text(y)
                )
            }
            Place::OnLine => "on the line".to_owned(),
            Place::SplitX { x, y_right, y_left } => format!(
                "x in {}; y in {} right of its middle, {} left",
                range_text(x),
                range_text(y_right),
                range_text(y_left)
            ),
            Place::SplitY { y, x_high, x_low } => format!(
                "y in {}; x in {} above its middle, {} below",
                range_text(y),
                range_text(x_high),
                range_text(x_low)
            ),
        }
    }
}

/// The rules as a Markdown table (docs/phyq-tasks.md; a test checks it).
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| paper | code | original function | anchor | moves | where the anchor goes |\n\
         |---|---|---|---|---|---|\n",
    );
    for t in crate::templates::templates() {
        let Some(r) = rule_of(&t.code) else { continue };
        let moves = match (r.place, r.moves) {
            (Place::Stay, _) => "nothing",
            (_, Moves::All) => "everything",
            (_, Moves::AnchorOnly) => "the anchor",
        };
        out.push_str(&format!(
            "| {} | {} | `{}` | {} | {} | {} |\n",
            t.paper,
            t.code,
            r.source,
            r.target,
            moves,
            r.place.describe()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_middle_itself_is_not_above_it() {
        let r = span(q("0"), q("10"));
        assert!(!r.above_middle(q("5")));
        assert!(r.above_middle(q("5.00001")));
        assert!(!r.above_middle(q("4.99999")));
    }

    #[test]
    fn a_range_beyond_the_line_is_infeasible() {
        let d = Draws {
            seed: 0,
            template: 1,
            index: 1,
            attempt: 0,
        };
        // The line drops below 6 well left of x = 5: no x in 5..9 is under it at that height.
        let beyond = Place::LeftOfLine {
            x: span(q("5"), q("9")),
            y: q("6"),
        };
        assert!(beyond.sample(&d, (q("7"), q("6"))).is_err());
        // Nor anywhere at 8, above the line's highest point (7.1).
        let above = Place::LeftOfLine {
            x: span(X_MIN, X_MAX),
            y: q("8"),
        };
        assert!(above.sample(&d, (q("0"), q("8"))).is_err());
        // Cut, it is kept: x no further right than the line's at that height.
        let cut = Place::LeftOfLine {
            x: span(q("-9"), q("9")),
            y: q("6"),
        };
        for attempt in 0..20 {
            let d = Draws { attempt, ..d };
            let (x, y) = cut.sample(&d, (q("0"), q("6"))).unwrap();
            assert!(x >= q("-9") && x <= reach::last_x_at(q("6")).unwrap() && y == q("6"));
        }
    }
}
