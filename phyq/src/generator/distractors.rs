//! Random blocks on the ground (the original's `place_random_blocks_on_ground`): after the
//! template's objects have moved, up to [`COUNT`] blocks of a random kind and material are
//! set on the ground, unrotated, at random x in the reachable x range, clear of everything
//! already standing low.
//!
//! The original tries up to 100 random x per block and drops the block when none is clear;
//! here the clear x form a set of intervals computed exactly, and x is drawn uniformly from
//! their union, so a block is left out only when no clear x exists at all (which a test
//! counts).

use super::geometry::{bounds_at, decimal_of, extent, q, Bounds, Coord};
use super::reach;
use super::rng::Draws;
use crate::catalogue::{BlockShape, Material};
use crate::level::{Object, ObjectKind};
use crate::number::Decimal;

/// Blocks added to every task (`NUM_OF_RANDOM_BLOCKS_TO_PLACE`).
pub const COUNT: usize = 3;
/// The ground's height (`GROUND_LEVEL`): a distractor's bottom rests on it.
pub const GROUND: Coord = q("-3.5");
/// Objects whose bottom is below this occupy the ground (the original: −2.5, "the height of
/// the tallest block").
pub const LOW: Coord = q("-2.5");
/// A distractor's x keeps this far from every occupied span (half the longest block).
pub const CLEARANCE: Coord = q("1.05");
/// The x a distractor may take.
pub const X_RANGE: (Coord, Coord) = (reach::X_MIN, reach::X_MAX);

/// The original's distractor kinds: its `blocks` table (the twelve block shapes, then the
/// 0.64 platform, written as a `Platform` of scale 1).
pub const KINDS: [Option<BlockShape>; 13] = [
    Some(BlockShape::SquareHole),
    Some(BlockShape::RectFat),
    Some(BlockShape::SquareSmall),
    Some(BlockShape::SquareTiny),
    Some(BlockShape::RectTiny),
    Some(BlockShape::RectSmall),
    Some(BlockShape::RectMedium),
    Some(BlockShape::RectBig),
    Some(BlockShape::TriangleHole),
    Some(BlockShape::Triangle),
    Some(BlockShape::Circle),
    Some(BlockShape::CircleSmall),
    None,
];

/// The materials, drawn uniformly (`['ice', 'wood', 'stone']`).
pub const MATERIALS: [Material; 3] = [Material::Ice, Material::Wood, Material::Stone];

/// Draw numbers: distractor `i` uses `FIRST_DRAW + 3i` (kind), `+1` (material), `+2` (x).
pub const FIRST_DRAW: u64 = 16;

/// The clear x for a new distractor: `X_RANGE` less, for every box whose bottom is below
/// [`LOW`], its x span widened by [`CLEARANCE`] on each side (open: its ends stay clear).
/// Closed integer intervals, sorted, disjoint.
pub fn clear_spans(occupied: &[Bounds]) -> Vec<(Coord, Coord)> {
    let mut blocked: Vec<(Coord, Coord)> = occupied
        .iter()
        .filter(|b| b.y_lo < LOW)
        .map(|b| (b.x_lo - CLEARANCE, b.x_hi + CLEARANCE))
        .collect();
    blocked.sort_unstable();
    let mut free = Vec::new();
    let mut next = X_RANGE.0;
    for (lo, hi) in blocked {
        // Open interval (lo, hi): lo itself is still clear.
        if lo >= next {
            free.push((next, lo.min(X_RANGE.1)));
        }
        next = next.max(hi);
        if next > X_RANGE.1 {
            break;
        }
    }
    if next <= X_RANGE.1 {
        free.push((next, X_RANGE.1));
    }
    free.retain(|(a, b)| a <= b);
    free
}

/// The `i`-th distractor for the objects' boxes so far, or `None` if no x is clear.
pub fn distractor(d: &Draws, i: usize, occupied: &[Bounds]) -> Option<Object> {
    let free = clear_spans(occupied);
    let total: u64 = free.iter().map(|(a, b)| (b - a) as u64 + 1).sum();
    if total == 0 {
        return None;
    }
    let base = FIRST_DRAW + 3 * i as u64;
    let kind = match KINDS[d.below(base, KINDS.len() as u64) as usize] {
        Some(shape) => ObjectKind::Block {
            shape,
            material: MATERIALS[d.below(base + 1, MATERIALS.len() as u64) as usize],
        },
        None => ObjectKind::Platform {
            scale_x: one(),
            scale_y: one(),
        },
    };
    let mut k = d.below(base + 2, total) as Coord;
    let mut x = X_RANGE.0;
    for (a, b) in free {
        let n = b - a + 1;
        if k < n {
            x = a + k;
            break;
        }
        k -= n;
    }
    let rotation = Decimal::parse("0").unwrap_or_else(|_| unreachable!());
    let y = GROUND - extent(&kind, &rotation).y_lo;
    Some(Object {
        kind,
        x: decimal_of(x),
        y: decimal_of(y),
        rotation,
    })
}

fn one() -> Decimal {
    Decimal::parse("1").unwrap_or_else(|_| unreachable!())
}

/// The box of a distractor made by [`distractor`] (its numbers are exact units).
pub fn bounds_of(o: &Object) -> Option<Bounds> {
    let x = super::geometry::coord_of(&o.x)?;
    let y = super::geometry::coord_of(&o.y)?;
    Some(bounds_at(o, x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x_lo: Coord, x_hi: Coord, y_lo: Coord) -> Bounds {
        Bounds {
            x_lo,
            x_hi,
            y_lo,
            y_hi: y_lo + q("1"),
        }
    }

    #[test]
    fn clear_spans_cut_out_low_objects() {
        assert_eq!(clear_spans(&[]), vec![X_RANGE]);
        // A high object does not count.
        assert_eq!(clear_spans(&[b(q("-1"), q("1"), q("0"))]), vec![X_RANGE]);
        let spans = clear_spans(&[b(q("-1"), q("1"), q("-3.5")), b(q("0"), q("3"), q("-3"))]);
        assert_eq!(spans, vec![(X_RANGE.0, q("-2.05")), (q("4.05"), X_RANGE.1)]);
        // Everything covered: nothing clear.
        assert!(clear_spans(&[b(q("-15"), q("15"), q("-3.5"))]).is_empty());
        // A bottom exactly at LOW is not below it.
        assert_eq!(clear_spans(&[b(q("-1"), q("1"), LOW)]), vec![X_RANGE]);
        // One span ends exactly at the range's end, the next one covers it: that end is
        // blocked, not a clear point of its own.
        let end = b(
            X_RANGE.1 - CLEARANCE - q("0.3"),
            X_RANGE.1 - CLEARANCE,
            q("-3"),
        );
        let over = b(q("9"), q("10"), q("-3"));
        assert_eq!(
            clear_spans(&[end, over]),
            vec![(X_RANGE.0, end.x_lo - CLEARANCE)]
        );
    }

    #[test]
    fn a_distractor_stands_on_the_ground_at_a_clear_x() {
        // Two clear points: the range's start, and 1.05 (right of one box, left of another).
        let left = b(X_RANGE.0 + CLEARANCE, q("0"), q("-3"));
        let right = b(q("2.1"), q("10"), q("-3"));
        assert_eq!(
            clear_spans(&[left, right]),
            vec![(X_RANGE.0, X_RANGE.0), (q("1.05"), q("1.05"))]
        );
        let mut seen = Vec::new();
        for attempt in 0..16 {
            let d = Draws {
                seed: 7,
                template: 1_001_001,
                index: 1,
                attempt,
            };
            let o = distractor(&d, 0, &[left, right]).expect("a clear x");
            let at = bounds_of(&o).expect("exact units");
            assert_eq!(at.y_lo, GROUND, "{o:?} rests on the ground");
            let x = super::super::geometry::coord_of(&o.x).expect("exact");
            assert!(x == X_RANGE.0 || x == q("1.05"), "x {x}");
            seen.push(x);
        }
        assert!(seen.contains(&X_RANGE.0) && seen.contains(&q("1.05")));
        // No clear x: no distractor.
        let d = Draws {
            seed: 7,
            template: 1_001_001,
            index: 1,
            attempt: 0,
        };
        assert_eq!(distractor(&d, 0, &[b(q("-15"), q("15"), q("-3.5"))]), None);
    }
}
