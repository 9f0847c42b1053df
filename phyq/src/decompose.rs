//! A collider outline (with holes) as convex engine polygons of at most
//! [`engine::MAX_POLYGON_VERTICES`] vertices: what Unity does to a `PolygonCollider2D` before its
//! Box2D sees it. Pigs, the round blocks and the egg have concave outlines of up to 24 points;
//! `SquareHole` and `TriangleHole` have a hole.
//!
//! Written here rather than taken from a crate: the well-kept triangulators (`earcutr`,
//! `spade`) work in floats, and a piece list that could change with a platform's rounding would
//! break rephyre's bit-reproducibility. Every test below is exact: coordinates are Q32.32 raw
//! integers and orientations are i128 cross products.
//!
//! Steps, each deterministic (ties broken by index): holes are bridged into the outline (each
//! hole's rightmost vertex to the nearest outline vertex it sees), the one resulting ring is
//! triangulated by ear clipping, and neighbouring pieces are merged while the union stays convex
//! and within the vertex limit (Hertel–Mehlhorn).

use engine::{Fixed, Polygon, PolygonError, Vec2, MAX_POLYGON_VERTICES};

/// Why an outline has no decomposition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecomposeError {
    #[error("an outline needs at least 3 distinct points, got {0}")]
    TooFewPoints(usize),
    #[error("the outline has no area")]
    NoArea,
    #[error("a hole has no vertex that sees the outline")]
    HoleNotBridged,
    #[error("the outline is not a simple polygon (no ear to clip)")]
    NotSimple,
}

type P = (i64, i64);

fn cross(o: P, a: P, b: P) -> i128 {
    let (ax, ay) = (i128::from(a.0 - o.0), i128::from(a.1 - o.1));
    let (bx, by) = (i128::from(b.0 - o.0), i128::from(b.1 - o.1));
    ax * by - ay * bx
}

/// Twice the signed area (positive: counter-clockwise).
fn signed_area2(ring: &[P]) -> i128 {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            i128::from(a.0) * i128::from(b.1) - i128::from(b.0) * i128::from(a.1)
        })
        .sum()
}

/// Consecutive duplicates and collinear points dropped.
fn cleaned(path: &[P]) -> Vec<P> {
    let mut ring: Vec<P> = Vec::with_capacity(path.len());
    for &p in path {
        if ring.last() != Some(&p) {
            ring.push(p);
        }
    }
    while ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    loop {
        let n = ring.len();
        if n < 3 {
            return ring;
        }
        let flat = (0..n).find(|&i| cross(ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]) == 0);
        match flat {
            Some(i) => {
                ring.remove(i);
            }
            None => return ring,
        }
    }
}

/// Whether segments ab and cd share a point other than a common endpoint.
fn segments_touch(a: P, b: P, c: P, d: P) -> bool {
    if a == c || a == d || b == c || b == d {
        return false;
    }
    let (d1, d2) = (cross(a, b, c), cross(a, b, d));
    let (d3, d4) = (cross(c, d, a), cross(c, d, b));
    if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
        return true;
    }
    let on = |p: P, q: P, r: P, side: i128| side == 0 && within(p, q, r);
    on(a, b, c, d1) || on(a, b, d, d2) || on(c, d, a, d3) || on(c, d, b, d4)
}

/// Whether r (collinear with pq) lies on the closed segment pq.
fn within(p: P, q: P, r: P) -> bool {
    r.0 >= p.0.min(q.0) && r.0 <= p.0.max(q.0) && r.1 >= p.1.min(q.1) && r.1 <= p.1.max(q.1)
}

fn dist2(a: P, b: P) -> i128 {
    let (dx, dy) = (i128::from(a.0 - b.0), i128::from(a.1 - b.1));
    dx * dx + dy * dy
}

/// The outline with every hole spliced in through a bridge edge (walked both ways), as one ring.
fn bridged(mut ring: Vec<P>, mut holes: Vec<Vec<P>>) -> Result<Vec<P>, DecomposeError> {
    // Rightmost holes first, so that a later hole's bridge can reach the outline through the
    // bridges already made; ties by the hole's order.
    let rightmost = |h: &Vec<P>| {
        (0..h.len())
            .max_by_key(|&i| (h[i].0, std::cmp::Reverse(h[i].1), std::cmp::Reverse(i)))
            .expect("a cleaned hole has 3 points")
    };
    let mut order: Vec<usize> = (0..holes.len()).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(holes[k][rightmost(&holes[k])].0), k));
    for k in order {
        let hole = std::mem::take(&mut holes[k]);
        let m = rightmost(&hole);
        let mp = hole[m];
        let edges_of = |r: &[P]| -> Vec<(P, P)> {
            (0..r.len()).map(|i| (r[i], r[(i + 1) % r.len()])).collect()
        };
        let mut blockers = edges_of(&ring);
        blockers.extend(edges_of(&hole));
        for other in holes.iter().filter(|h| !h.is_empty()) {
            blockers.extend(edges_of(other));
        }
        let sees = |p: P| {
            let d = (mp.0 - p.0, mp.1 - p.1);
            // The bridge must leave the hole outwards (the hole runs clockwise).
            let (prev, next) = (
                hole[(m + hole.len() - 1) % hole.len()],
                hole[(m + 1) % hole.len()],
            );
            let outwards = {
                let q = (mp.0 - d.0, mp.1 - d.1);
                let into_prev = cross(prev, mp, q);
                let into_next = cross(mp, next, q);
                into_prev < 0 || into_next < 0
            };
            outwards
                && blockers.iter().all(|&(a, b)| !segments_touch(mp, p, a, b))
                && ring
                    .iter()
                    .chain(hole.iter())
                    .all(|&v| v == mp || v == p || cross(mp, p, v) != 0 || !within(mp, p, v))
        };
        let best = (0..ring.len())
            .filter(|&i| sees(ring[i]))
            .min_by_key(|&i| (dist2(mp, ring[i]), i))
            .ok_or(DecomposeError::HoleNotBridged)?;
        let mut spliced = Vec::with_capacity(ring.len() + hole.len() + 2);
        spliced.extend_from_slice(&ring[..=best]);
        spliced.extend((0..=hole.len()).map(|j| hole[(m + j) % hole.len()]));
        spliced.extend_from_slice(&ring[best..]);
        ring = spliced;
    }
    Ok(ring)
}

/// Whether p lies inside or on the counter-clockwise triangle abc.
fn in_triangle(a: P, b: P, c: P, p: P) -> bool {
    cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0
}

/// Ear clipping of a counter-clockwise ring (bridges may repeat points): triangles, each
/// counter-clockwise.
fn triangles(ring: &[P]) -> Result<Vec<[P; 3]>, DecomposeError> {
    let mut rest: Vec<P> = ring.to_vec();
    let mut out = Vec::with_capacity(ring.len());
    while rest.len() > 3 {
        let n = rest.len();
        let ear = (0..n).find(|&i| {
            let (a, b, c) = (rest[(i + n - 1) % n], rest[i], rest[(i + 1) % n]);
            cross(a, b, c) > 0
                && rest
                    .iter()
                    .all(|&p| p == a || p == b || p == c || !in_triangle(a, b, c, p))
        });
        let i = ear.ok_or(DecomposeError::NotSimple)?;
        out.push([rest[(i + n - 1) % n], rest[i], rest[(i + 1) % n]]);
        rest.remove(i);
        // A clip can leave a straight or doubled-back point; drop it so that every later
        // triangle has area.
        rest = cleaned(&rest);
    }
    if rest.len() == 3 && cross(rest[0], rest[1], rest[2]) > 0 {
        out.push([rest[0], rest[1], rest[2]]);
    }
    Ok(out)
}

/// The union of two counter-clockwise convex pieces that share the edge a→b (in `x`) and b→a
/// (in `y`), if it is convex and within the vertex limit.
fn merged(x: &[P], y: &[P]) -> Option<Vec<P>> {
    let (nx, ny) = (x.len(), y.len());
    for i in 0..nx {
        let (a, b) = (x[i], x[(i + 1) % nx]);
        let Some(j) = (0..ny).find(|&j| y[j] == b && y[(j + 1) % ny] == a) else {
            continue;
        };
        // x from b round to a, then y from a round to b, without repeating a and b.
        let mut union: Vec<P> = (0..nx).map(|k| x[(i + 1 + k) % nx]).collect();
        union.extend((1..ny - 1).map(|k| y[(j + 1 + k) % ny]));
        let union = cleaned(&union);
        let n = union.len();
        let convex = (0..n).all(|k| cross(union[k], union[(k + 1) % n], union[(k + 2) % n]) > 0);
        return (convex && n <= MAX_POLYGON_VERTICES).then_some(union);
    }
    None
}

/// The convex pieces of the outline `paths[0]` with holes `paths[1..]` (any orientation).
pub fn convex_pieces(paths: &[Vec<Vec2>]) -> Result<Vec<Polygon>, DecomposeError> {
    let raw =
        |path: &Vec<Vec2>| -> Vec<P> { path.iter().map(|v| (v.x.raw(), v.y.raw())).collect() };
    let mut rings: Vec<Vec<P>> = Vec::with_capacity(paths.len());
    for path in paths {
        let ring = cleaned(&raw(path));
        if ring.len() < 3 {
            return Err(DecomposeError::TooFewPoints(ring.len()));
        }
        rings.push(ring);
    }
    let Some(mut outline) = (!rings.is_empty()).then(|| rings.remove(0)) else {
        return Err(DecomposeError::TooFewPoints(0));
    };
    match signed_area2(&outline) {
        0 => return Err(DecomposeError::NoArea),
        a if a < 0 => outline.reverse(),
        _ => {}
    }
    for hole in &mut rings {
        if signed_area2(hole) > 0 {
            hole.reverse();
        }
    }
    let ring = bridged(outline, rings)?;
    let mut pieces: Vec<Vec<P>> = triangles(&ring)?.iter().map(|t| t.to_vec()).collect();
    // Merge while any pair merges; the first pair in index order each time.
    'merging: loop {
        for i in 0..pieces.len() {
            for j in i + 1..pieces.len() {
                if let Some(u) = merged(&pieces[i], &pieces[j]) {
                    pieces[i] = u;
                    pieces.remove(j);
                    continue 'merging;
                }
            }
        }
        break;
    }
    let point = |&(x, y): &P| Vec2::new(Fixed::from_raw(x), Fixed::from_raw(y));
    let mut polygons = Vec::with_capacity(pieces.len());
    for piece in &pieces {
        match Polygon::new(&piece.iter().map(point).collect::<Vec<_>>()) {
            Ok(p) => polygons.push(p),
            // A sliver thinner than the engine's welding distance: Box2D drops it too.
            Err(PolygonError::Degenerate) => {}
            Err(PolygonError::TooManyVertices) => unreachable!("pieces are merged up to the limit"),
        }
    }
    if polygons.is_empty() {
        return Err(DecomposeError::NoArea);
    }
    Ok(polygons)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(Fixed::from_f64(x).unwrap(), Fixed::from_f64(y).unwrap())
    }

    fn area(polys: &[Polygon]) -> f64 {
        polys.iter().map(|p| p.mass(Fixed::ONE).mass.to_f64()).sum()
    }

    #[test]
    fn a_square_is_one_piece_and_a_square_with_a_hole_keeps_its_area() {
        let square = vec![v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)];
        let one = convex_pieces(std::slice::from_ref(&square)).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].count(), 4);
        // Clockwise input, and a hole given counter-clockwise: orientation does not matter.
        let mut cw = square.clone();
        cw.reverse();
        let hole = vec![v(-0.5, -0.5), v(0.5, -0.5), v(0.5, 0.5), v(-0.5, 0.5)];
        let holed = convex_pieces(&[cw, hole]).unwrap();
        assert!((area(&holed) - 3.0).abs() < 1e-6, "{}", area(&holed));
        assert!(holed.len() >= 4);
        // No piece covers the hole's centre.
        let centre_covered = holed.iter().any(|p| {
            let vs = p.vertices();
            (0..vs.len()).all(|i| {
                (vs[(i + 1) % vs.len()] - vs[i])
                    .cross(Vec2::ZERO - vs[i])
                    .raw()
                    > 0
            })
        });
        assert!(!centre_covered);
    }

    #[test]
    fn a_concave_outline_is_split_into_convex_pieces_within_the_limit() {
        // A 24-point star: every other point pulled in.
        let pts: Vec<Vec2> = (0..24)
            .map(|i| {
                let a = f64::from(i) * std::f64::consts::TAU / 24.0;
                let r = if i % 2 == 0 { 1.0 } else { 0.6 };
                v(r * a.cos(), r * a.sin())
            })
            .collect();
        let pieces = convex_pieces(std::slice::from_ref(&pts)).unwrap();
        assert!(pieces.iter().all(|p| p.count() <= MAX_POLYGON_VERTICES));
        let ring: Vec<P> = pts.iter().map(|p| (p.x.raw(), p.y.raw())).collect();
        let exact = signed_area2(&ring) as f64 / 2.0 / 2f64.powi(64);
        assert!(
            (area(&pieces) - exact).abs() < 1e-6,
            "{} vs {exact}",
            area(&pieces)
        );
        // The same input gives the same pieces.
        let again = convex_pieces(&[pts]).unwrap();
        let key = |ps: &[Polygon]| -> Vec<Vec<Vec2>> {
            ps.iter().map(|p| p.vertices().to_vec()).collect()
        };
        assert_eq!(key(&pieces), key(&again));
    }

    #[test]
    fn degenerate_outlines_are_errors() {
        assert_eq!(
            convex_pieces(&[vec![v(0.0, 0.0), v(1.0, 0.0)]]).unwrap_err(),
            DecomposeError::TooFewPoints(2)
        );
        assert_eq!(
            convex_pieces(&[vec![v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)]]).unwrap_err(),
            DecomposeError::TooFewPoints(2)
        );
        assert_eq!(
            convex_pieces(&[]).unwrap_err(),
            DecomposeError::TooFewPoints(0)
        );
    }
}
