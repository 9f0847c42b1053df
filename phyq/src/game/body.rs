//! A catalogue kind as an engine body: its enabled, solid colliders as convex parts (scaled,
//! offset), its run-time mass (the catalogue's auto-mass rule) spread evenly over the parts, its
//! contact material, drag and gravity scale, and the layer filter.

use crate::catalogue::{catalogue, BodyType, Kind, Material, Shape as ColliderShape};
use crate::decompose::convex_pieces;
use engine::{BodyDef, BodyKind, Circle, CollisionFilter, Fixed, Polygon, Shape, Vec2};
use std::sync::Arc;

/// Why a kind could not be made into a body (a defect of the embedded data, or a level whose
/// scale makes a collider degenerate).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}: {reason}")]
pub struct BodyError {
    kind: &'static str,
    reason: String,
}

/// The engine's collision categories. Science Birds' layer matrix
/// (`Physics2DSettings.m_LayerCollisionMatrix`) lets everything meet everything except: a
/// launched bird (layer `Birds`), the egg (the same layer) and the slingshot never meet one
/// another; the slingshot is not simulated here, so one rule is left: birds and eggs do not
/// collide with birds and eggs (the blue bird's three birds start at one point).
pub(crate) const CATEGORY_BIRDS: u32 = 1 << 1;
const CATEGORY_WORLD: u32 = 1;

/// The filter of a kind's bodies.
pub(crate) fn filter(kind: Kind) -> CollisionFilter {
    match kind {
        Kind::Bird(_) | Kind::Egg => CollisionFilter {
            category: CATEGORY_BIRDS,
            mask: !CATEGORY_BIRDS,
        },
        _ => CollisionFilter {
            category: CATEGORY_WORLD,
            mask: u32::MAX,
        },
    }
}

/// The convex parts of a kind at `scale` (the level's for platforms, the prefab's for birds
/// and the egg, 1 otherwise), in body coordinates: enabled non-trigger colliders in component
/// order, a polygon with holes as its convex pieces; each with the index of its collider.
fn parts(kind: Kind, scale: Vec2) -> Result<Vec<(u8, Shape)>, BodyError> {
    let e = catalogue().entry(kind);
    let err = |reason: String| BodyError {
        kind: kind.name(),
        reason,
    };
    let mut out = Vec::new();
    for (i, c) in e.colliders.iter().enumerate() {
        if !c.enabled || c.trigger {
            continue;
        }
        let collider = u8::try_from(i).map_err(|_| err(format!("collider {i}: over 255")))?;
        // A point of the collider in body coordinates: the collider's offset added, then the
        // object's scale (Unity scales offsets with the shape).
        let (ox, oy) = (c.offset.0.value(), c.offset.1.value());
        let at = |x: Fixed, y: Fixed| Vec2::new((x + ox) * scale.x, (y + oy) * scale.y);
        let offset = at(Fixed::ZERO, Fixed::ZERO);
        match &c.shape {
            ColliderShape::Circle { radius } => {
                // Unity scales a circle by the larger of |scale.x| and |scale.y|.
                let r = radius.value() * scale.x.abs().max(scale.y.abs());
                out.push((
                    collider,
                    Shape::Circle(Circle {
                        center: offset,
                        radius: r,
                    }),
                ));
            }
            ColliderShape::Box { width, height } => {
                let hx = (width.value() * scale.x).abs() * Fixed::HALF;
                let hy = (height.value() * scale.y).abs() * Fixed::HALF;
                let p = Polygon::new_box(hx, hy, offset, Fixed::ZERO)
                    .map_err(|e| err(format!("collider {i}: box {e:?}")))?;
                out.push((collider, Shape::Polygon(p)));
            }
            ColliderShape::Polygon { paths } => {
                let paths: Vec<Vec<Vec2>> = paths
                    .iter()
                    .map(|p| p.iter().map(|(x, y)| at(x.value(), y.value())).collect())
                    .collect();
                let pieces =
                    convex_pieces(&paths).map_err(|e| err(format!("collider {i}: {e}")))?;
                out.extend(pieces.into_iter().map(|p| (collider, Shape::Polygon(p))));
            }
        }
    }
    if out.is_empty() {
        return Err(err("no solid collider".into()));
    }
    Ok(out)
}

/// One object's body as the engine takes it, and the collider each of its parts comes from
/// (the original's collision callbacks come per pair of colliders, not per convex part).
pub(crate) struct ObjectBody {
    pub def: BodyDef,
    /// The kind's collider index of each part, in part order.
    pub colliders: Arc<[u8]>,
}

/// The body of one object: `kinematic` kinds become static bodies (nothing moves them in a
/// level: the platform), the others dynamic with the catalogue's run-time mass.
pub(crate) fn body_def(
    kind: Kind,
    material: Option<Material>,
    scale: Vec2,
    position: Vec2,
    angle: Fixed,
) -> Result<ObjectBody, BodyError> {
    let cat = catalogue();
    let e = cat.entry(kind);
    let (colliders, parts): (Vec<u8>, Vec<Shape>) = parts(kind, scale)?.into_iter().unzip();
    let contact = cat.contact_material(kind, material);
    let body_kind = match e.body_type {
        BodyType::Kinematic => BodyKind::Static,
        BodyType::Dynamic => BodyKind::Dynamic,
    };
    let mut def = BodyDef::new(body_kind, position, angle, parts);
    def.friction = contact.friction.value();
    def.restitution = contact.bounciness.value();
    def.linear_damping = e.linear_drag.value();
    def.angular_damping = e.angular_drag.value();
    def.gravity_scale = e.gravity_scale.value();
    def.bullet = e.continuous;
    def.filter = filter(kind);
    if body_kind == BodyKind::Dynamic {
        let mass = cat.mass(kind, material, scale).ok_or_else(|| BodyError {
            kind: kind.name(),
            reason: "no run-time mass".into(),
        })?;
        // One density for the body: the catalogue's mass over the parts' area (the engine's
        // mass is density x area per part). Exact for every kind but SquareHole, whose two
        // colliders have different densities in the original; its centre of mass stays at its
        // centre (both colliders are centred), its inertia is the uniform one.
        let area = def
            .parts
            .iter()
            .fold(Fixed::ZERO, |a, p| a + p.mass(Fixed::ONE).mass);
        def.density = mass / area;
    }
    Ok(ObjectBody {
        def,
        colliders: colliders.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::BlockShape;

    /// Each part knows its collider: SquareHole has two enabled colliders (a box, then its
    /// outline with the hole as several convex pieces), so a hit can call back twice, once per
    /// collider, as in the original; a pig's one polygon is one collider however many parts.
    #[test]
    fn parts_carry_their_colliders_index() {
        let one = Vec2::new(Fixed::ONE, Fixed::ONE);
        let at = |kind, material| {
            body_def(kind, material, one, Vec2::ZERO, Fixed::ZERO)
                .unwrap()
                .colliders
                .to_vec()
        };
        let hole = at(Kind::Block(BlockShape::SquareHole), Some(Material::Wood));
        assert_eq!(hole[0], 0, "the box");
        assert!(hole.len() >= 3, "{hole:?}");
        assert!(hole[1..].iter().all(|&c| c == 1), "{hole:?}");
        let pig = at(Kind::Pig(crate::catalogue::PigKind::Big), None);
        assert_eq!(pig, vec![1; 12], "the circle (collider 0) is disabled");
    }

    fn fixed(text: &str) -> Fixed {
        crate::number::Decimal::parse(text).unwrap().value()
    }

    /// A collider's size and offset scale with its object: the blue bird (prefab scale 1.5) has
    /// its circle of radius 0.12 at offset (0.02, -0.01), so radius 0.18 at (0.03, -0.015); a
    /// platform (a 0.64 box) at the level's scale (2, 0.5) is a 1.28 × 0.32 box.
    #[test]
    fn colliders_scale_with_their_object() {
        let blue = parts(
            Kind::Bird(crate::catalogue::BirdKind::Blue),
            Vec2::new(fixed("1.5"), fixed("1.5")),
        )
        .unwrap();
        let [(0, Shape::Circle(c))] = blue.as_slice() else {
            panic!("one circle: {blue:?}");
        };
        assert_eq!(c.radius, fixed("0.12") * fixed("1.5"));
        assert_eq!(
            c.center,
            Vec2::new(fixed("0.02") * fixed("1.5"), fixed("-0.01") * fixed("1.5"))
        );
        // Within the rounding of the numbers to the game's f32 (a relative 6e-8).
        let near = |a: Fixed, b: &str| (a - fixed(b)).abs() <= Fixed::from_raw(256);
        for (got, want) in [
            (c.radius, "0.18"),
            (c.center.x, "0.03"),
            (c.center.y, "-0.015"),
        ] {
            assert!(
                near(got, want),
                "{} vs {want}: {}",
                got.to_f64(),
                (got - fixed(want)).raw()
            );
        }
        let platform = parts(Kind::Platform, Vec2::new(fixed("2"), fixed("0.5"))).unwrap();
        let [(0, Shape::Polygon(p))] = platform.as_slice() else {
            panic!("one box: {platform:?}");
        };
        let (hx, hy) = (fixed("0.64"), fixed("0.16"));
        assert_eq!(
            p.vertices(),
            [
                Vec2::new(hx, -hy),
                Vec2::new(hx, hy),
                Vec2::new(-hx, hy),
                Vec2::new(-hx, -hy)
            ]
        );
    }
}
