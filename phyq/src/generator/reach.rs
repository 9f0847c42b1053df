//! What a bird from the slingshot can reach: the original generator's reachability line and
//! its x and y ranges (`constants.py`), and the samplers built on them.
//!
//! The line is the upper edge of the reachable region: 30 points measured in Science Birds
//! (highest trajectory envelope from the slingshot at (−12, −2.5)), x rising and y falling. A
//! point is *reachable* when it lies on or under it. The original looks the line up at the
//! nearest measured point; here it is the polyline through them, interpolated exactly in
//! units (floor), clamped to the end points' heights beyond them. The two differ by at most
//! half a point spacing (≈ 0.35 units), and the polyline makes "under the line" and "left of
//! the line" the same test, so a sampler never draws a point its own check refuses.

use super::geometry::{q, Coord};

/// The line's points (x, y), as measured by the original.
pub const LINE: [(Coord, Coord); 30] = [
    (q("-6.51"), q("7.1")),
    (q("-5.84"), q("6.91")),
    (q("-5.274"), q("6.643")),
    (q("-4.65"), q("6.544")),
    (q("-4.037"), q("6.292")),
    (q("-3.43"), q("5.96")),
    (q("-2.97"), q("5.82")),
    (q("-2.48"), q("5.62")),
    (q("-1.98"), q("5.37")),
    (q("-1.385"), q("5.034")),
    (q("-0.86"), q("4.71")),
    (q("-0.394"), q("4.413")),
    (q("0.025"), q("4.229")),
    (q("0.617"), q("3.94")),
    (q("1.027"), q("3.66")),
    (q("1.559"), q("3.266")),
    (q("2.025"), q("2.904")),
    (q("2.63"), q("2.411")),
    (q("3.293"), q("2.005")),
    (q("3.97"), q("1.487")),
    (q("4.648"), q("1.039")),
    (q("5.231"), q("0.489")),
    (q("5.824"), q("0.004")),
    (q("6.24"), q("-0.453")),
    (q("6.91"), q("-1.005")),
    (q("7.53"), q("-1.574")),
    (q("7.999"), q("-2.0")),
    (q("8.496"), q("-2.481")),
    (q("8.996"), q("-3.0183")),
    (q("9.459"), q("-3.494")),
];

/// The x range a target on the ground can be reached in (`X_MIN_REACHABLE`,
/// `X_MAX_REACHABLE`).
pub const X_MIN: Coord = q("-9.96");
pub const X_MAX: Coord = q("9.397");
/// Beyond this x nothing is reachable directly (`X_MAX_UNREACHABLE`).
pub const X_MAX_UNREACHABLE: Coord = q("17");
/// The box of the reachable space (`X_LOW_REACHABLE` … `Y_HIGH_REACHABLE`).
pub const X_LOW: Coord = q("-10");
pub const X_HIGH: Coord = q("6");
pub const Y_LOW: Coord = q("-3.4");
pub const Y_HIGH: Coord = q("4");

/// The line's height at `x` (the end heights beyond its ends).
pub fn height_at(x: Coord) -> Coord {
    let (first, last) = (LINE[0], LINE[LINE.len() - 1]);
    if x <= first.0 {
        return first.1;
    }
    if x >= last.0 {
        return last.1;
    }
    for w in LINE.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if x <= x1 {
            let num = (y1 - y0) as i128 * (x - x0) as i128;
            return y0 + num.div_euclid((x1 - x0) as i128) as Coord;
        }
    }
    last.1
}

/// Whether (x, y) is on or under the line.
pub fn reachable(x: Coord, y: Coord) -> bool {
    y <= height_at(x)
}

/// The largest x (within ±20 units) whose line height is at least `y`: every x up to it can be
/// reached at height `y`. `None` if none can.
pub fn last_x_at(y: Coord) -> Option<Coord> {
    let (mut lo, mut hi) = (q("-20"), q("20"));
    if height_at(lo) < y {
        return None;
    }
    if height_at(hi) >= y {
        return Some(hi);
    }
    // height_at is non-increasing: height_at(lo) ≥ y > height_at(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if height_at(mid) >= y {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_is_monotone_and_inverse_agrees() {
        for w in LINE.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 > w[1].1);
        }
        for &(x, y) in &LINE {
            assert_eq!(height_at(x), y);
        }
        for y in [q("-3.4"), q("-3.263795"), q("0"), q("4.27"), q("7.1")] {
            let x = last_x_at(y).unwrap();
            assert!(height_at(x) >= y && height_at(x + 1) < y, "{y}");
        }
        assert_eq!(last_x_at(q("7.2")), None);
        assert!(reachable(q("0"), q("4")) && !reachable(q("9"), q("-3")));
    }
}
