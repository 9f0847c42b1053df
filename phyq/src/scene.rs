//! What there is to see: a scene of bodies, each a kind (and material) at a pose, drawn by its
//! catalogue outline.
//!
//! A [`Scene`] is what observations are made of ([`crate::picture`], [`crate::symbolic`]). Today
//! [`Scene::initial`] builds it from a level's initial state: the XML's positions and rotations,
//! the slingshot, the birds where the game puts them before the first shot. A simulation fills
//! it from its engine bodies instead: one [`SceneObject`] per body with the body's position and
//! angle ([`SceneObject::at`]), and every outline follows from the catalogue.
//!
//! # Outlines: what the original reports
//!
//! The original's symbolic representation (`SymbolicGameState.cs`) reports, per object, the
//! paths of its `PolygonCollider2D` when it has one (pigs, birds in its build, the circle and
//! triangle blocks, `SquareHole`; a path after the first is a hole), and the four corners of
//! the sprite's rectangle for the rectangular blocks, TNT and platforms. rephyre's catalogue has
//! the same polygon paths; for the rectangles it has the box collider, whose corners are given
//! in Unity's `GetWorldCorners` order (bottom-left, top-left, top-right, bottom-right); the
//! birds of the reference's prefabs have circle colliders only, so a bird is a circle. The
//! slingshot (the original reports its sprites' bounding box, whose size the reference does not
//! have) is the `slingshot_back` polygon collider.
//!
//! [`SceneObject::outlines`] gives them in world coordinates: the collider's points scaled by
//! the body's scale (platforms' `scaleX`/`scaleY`, the birds' prefab scale), offset, rotated by
//! the body's angle ([`engine::Transform`], the engine's own fixed-point rotation) and moved to
//! its position.
//!
//! # Where the birds wait
//!
//! `ABGameWorld.AddBird`: the first bird at the slingshot less `SLING_SELECT_POS`
//! (−12.15, −1.7 for the templates' slingshot); each next one at the slingshot's height, 1.75
//! sprite widths further left. The sprite's width is not in the reference: rephyre uses the
//! bird's collider diameter (at its scale). The original also jitters every fifth bird's place
//! at random; the templates have at most three birds, and rephyre does not jitter. Before the
//! first shot the queued birds (gravity scale 0.48) fall onto the ground; the initial scene
//! shows them where they are created.

use crate::catalogue::{catalogue, BirdKind, Kind, Material, Shape};
use crate::level::{Level, ObjectKind};
use crate::number::radians;
use engine::{Fixed, Transform, Vec2};

/// Where a scene object comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// `level.objects[i]`.
    Object(usize),
    /// The `i`-th bird, in launch order (0 is on the slingshot); in a simulation also the birds
    /// the blue one splits into.
    Bird(usize),
    /// The egg the `i`-th bird (a white one) dropped.
    Egg(usize),
    Slingshot,
}

/// One body to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneObject {
    pub source: Source,
    pub kind: Kind,
    /// A block's material.
    pub material: Option<Material>,
    /// The body's origin (world units).
    pub position: Vec2,
    /// Counter-clockwise, radians.
    pub angle: Fixed,
    /// The body's local scale (1 × 1 but for platforms and birds with a prefab scale).
    pub scale: Vec2,
}

/// An outline in world coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outline {
    /// The first path is the outline, any further one a hole in it; points in the catalogue's
    /// order (Unity's `GetPath`) or, for a box, `GetWorldCorners`' order.
    Polygon {
        paths: Vec<Vec<Vec2>>,
    },
    Circle {
        centre: Vec2,
        radius: Fixed,
    },
}

impl SceneObject {
    /// A body of `kind` at `position`, turned by `angle` radians, at the scale the game gives
    /// the kind (the prefab's for birds and the egg, 1 otherwise; platforms take
    /// [`SceneObject::scale`] from their level object). What a simulation makes of each body.
    pub fn at(
        source: Source,
        kind: Kind,
        material: Option<Material>,
        position: Vec2,
        angle: Fixed,
    ) -> SceneObject {
        let e = catalogue().entry(kind);
        let scale = match kind {
            Kind::Bird(_) | Kind::Egg => Vec2::new(e.scale.0.value(), e.scale.1.value()),
            _ => Vec2::new(Fixed::ONE, Fixed::ONE),
        };
        SceneObject {
            source,
            kind,
            material,
            position,
            angle,
            scale,
        }
    }

    /// The outlines in world coordinates (module doc): the enabled polygon collider's paths if
    /// the kind has one, else its enabled solid boxes, else its enabled solid circles.
    pub fn outlines(&self) -> Vec<Outline> {
        let e = catalogue().entry(self.kind);
        let solid: Vec<_> = e
            .colliders
            .iter()
            .filter(|c| c.enabled && !c.trigger)
            .collect();
        let xf = Transform::new(self.position, self.angle);
        let place = |x: Fixed, y: Fixed| xf.apply(Vec2::new(x * self.scale.x, y * self.scale.y));
        let polygons: Vec<Outline> = solid
            .iter()
            .filter_map(|c| match &c.shape {
                Shape::Polygon { paths } => {
                    let (ox, oy) = (c.offset.0.value(), c.offset.1.value());
                    Some(Outline::Polygon {
                        paths: paths
                            .iter()
                            .map(|p| {
                                p.iter()
                                    .map(|(x, y)| place(ox + x.value(), oy + y.value()))
                                    .collect()
                            })
                            .collect(),
                    })
                }
                _ => None,
            })
            .collect();
        if !polygons.is_empty() {
            return polygons;
        }
        let boxes: Vec<Outline> = solid
            .iter()
            .filter_map(|c| match &c.shape {
                Shape::Box { width, height } => {
                    let (ox, oy) = (c.offset.0.value(), c.offset.1.value());
                    let (hw, hh) = (width.value() * Fixed::HALF, height.value() * Fixed::HALF);
                    let corners = [(-hw, -hh), (-hw, hh), (hw, hh), (hw, -hh)];
                    Some(Outline::Polygon {
                        paths: vec![corners
                            .iter()
                            .map(|&(dx, dy)| place(ox + dx, oy + dy))
                            .collect()],
                    })
                }
                _ => None,
            })
            .collect();
        if !boxes.is_empty() {
            return boxes;
        }
        solid
            .iter()
            .filter_map(|c| match &c.shape {
                Shape::Circle { radius } => Some(Outline::Circle {
                    centre: place(c.offset.0.value(), c.offset.1.value()),
                    radius: radius.value() * self.scale.x.abs().max(self.scale.y.abs()),
                }),
                _ => None,
            })
            .collect()
    }
}

/// Everything to draw, in painting order, and the level's other visible facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// The slingshot, then the level's objects in document order, then the birds in launch
    /// order (later ones are painted over earlier ones).
    pub objects: Vec<SceneObject>,
    /// Birds not yet shot, in launch order.
    pub birds_left: Vec<BirdKind>,
    /// The slingshot's position (`Slingshot@x,y`).
    pub slingshot: Vec2,
    /// The ground's surface (`GROUND_LEVEL`, −3.5): everything below it is ground.
    pub ground_y: Fixed,
}

impl Scene {
    /// The scene of a level's initial state (module doc).
    pub fn initial(level: &Level) -> Scene {
        let slingshot = Vec2::new(level.slingshot.x.value(), level.slingshot.y.value());
        let mut objects = vec![SceneObject::at(
            Source::Slingshot,
            Kind::Slingshot,
            None,
            slingshot,
            Fixed::ZERO,
        )];
        for (i, o) in level.objects.iter().enumerate() {
            let material = match &o.kind {
                ObjectKind::Block { material, .. } => Some(*material),
                _ => None,
            };
            let mut so = SceneObject::at(
                Source::Object(i),
                o.kind.catalogue_kind(),
                material,
                Vec2::new(o.x.value(), o.y.value()),
                radians(o.rotation.value()),
            );
            if let ObjectKind::Platform { scale_x, scale_y } = &o.kind {
                so.scale = Vec2::new(scale_x.value(), scale_y.value());
            }
            objects.push(so);
        }
        let select = catalogue().world_numbers("sling_select_pos");
        let (sx, sy) = match select[..] {
            [x, y] => (x, y),
            _ => (Fixed::ZERO, Fixed::ZERO),
        };
        let mut x = slingshot.x;
        for (i, &b) in level.birds.iter().enumerate() {
            let pos = if i == 0 {
                Vec2::new(slingshot.x - sx, slingshot.y - sy)
            } else {
                x -= bird_width(b).mul_div(Fixed::from_int(7), Fixed::from_int(4));
                Vec2::new(x, slingshot.y)
            };
            objects.push(SceneObject::at(
                Source::Bird(i),
                Kind::Bird(b),
                None,
                pos,
                Fixed::ZERO,
            ));
        }
        let ground_y = catalogue()
            .world_numbers("ground_level")
            .first()
            .copied()
            .unwrap_or(Fixed::ZERO);
        Scene {
            objects,
            birds_left: level.birds.clone(),
            slingshot,
            ground_y,
        }
    }
}

/// A bird's width for the queue: its circle collider's diameter at its prefab scale.
fn bird_width(b: BirdKind) -> Fixed {
    let e = catalogue().entry(Kind::Bird(b));
    let scale = e.scale.0.value().abs();
    e.colliders
        .iter()
        .find_map(|c| match &c.shape {
            Shape::Circle { radius } => Some(radius.value() * scale * Fixed::TWO),
            _ => None,
        })
        .unwrap_or(Fixed::ONE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::BlockShape;

    fn near(a: Fixed, b: f64) -> bool {
        (a.to_f64() - b).abs() < 1e-6
    }

    #[test]
    fn outlines_follow_pose_scale_and_the_original_rule() {
        // A wood RectBig turned 90°: its box corners, GetWorldCorners order, turned.
        let so = SceneObject::at(
            Source::Object(0),
            Kind::Block(BlockShape::RectBig),
            Some(Material::Wood),
            Vec2::new(Fixed::from_int(2), Fixed::from_int(1)),
            radians(Fixed::from_int(90)),
        );
        let Outline::Polygon { paths } = &so.outlines()[0] else {
            panic!("a box is a polygon")
        };
        assert_eq!(paths.len(), 1);
        // Local (−0.943, −0.092) turned by 90° is (0.092, −0.943).
        assert!(
            near(paths[0][0].x, 2.092) && near(paths[0][0].y, 1.0 - 0.943),
            "{paths:?}"
        );
        // SquareHole: the polygon with its hole, not the box.
        let sq = SceneObject::at(
            Source::Object(0),
            Kind::Block(BlockShape::SquareHole),
            Some(Material::Stone),
            Vec2::ZERO,
            Fixed::ZERO,
        );
        let outs = sq.outlines();
        assert!(matches!(&outs[..], [Outline::Polygon { paths }] if paths.len() == 2));
        // A blue bird: one circle, scaled 1.5.
        let bird = SceneObject::at(
            Source::Bird(0),
            Kind::Bird(BirdKind::Blue),
            None,
            Vec2::ZERO,
            Fixed::ZERO,
        );
        match &bird.outlines()[..] {
            [Outline::Circle { centre, radius }] => {
                assert!(near(*radius, 0.18) && near(centre.x, 0.03) && near(centre.y, -0.015));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_initial_scene_of_a_template() {
        let t = crate::templates::find("1.1").unwrap();
        let level = t.level().unwrap();
        let scene = Scene::initial(&level);
        assert_eq!(
            scene.objects.len(),
            1 + level.objects.len() + level.birds.len()
        );
        assert_eq!(scene.objects[0].kind, Kind::Slingshot);
        assert!(near(scene.ground_y, -3.5));
        let first_bird = scene
            .objects
            .iter()
            .find(|o| o.source == Source::Bird(0))
            .unwrap();
        assert!(near(first_bird.position.x, -12.15) && near(first_bird.position.y, -1.7));
        // A platform keeps its level scale.
        if let Some((i, o)) = level
            .objects
            .iter()
            .enumerate()
            .find(|(_, o)| matches!(o.kind, ObjectKind::Platform { .. }))
        {
            let ObjectKind::Platform { scale_x, .. } = &o.kind else {
                unreachable!()
            };
            assert_eq!(scene.objects[1 + i].scale.x, scale_x.value());
        }
    }
}
