//! Every Phy-Q object kind with the original's numbers (`data/catalogue.csv`, one row per
//! number naming its source file and field; parsed once, at first use).
//!
//! Units are Unity's world units (1 unit = 1 m for its Box2D), seconds, degrees for angles.
//!
//! # What the sources say, and how Unity uses it
//!
//! * **Mass.** A prefab's `Rigidbody2D.m_Mass` is only the editor's cached value. Every object
//!   with a game script (birds, pigs, blocks, TNT, the egg) runs `ABGameObject.Start()`, which
//!   sets `_collider.density = _density` and `useAutoMass = true`: at run time the mass is the
//!   sum over the body's *enabled* colliders of area × that collider's density (Box2D's
//!   density). `_collider` is `GetComponent<Collider2D>()`, the *first* collider in the
//!   prefab's component order (`collider0` here): only it gets the script's density, the others
//!   keep their `m_Density` of 1. Consequences, all checked against the cached `m_Mass` (which
//!   equals the enabled colliders' area at density 1 and the prefab's scale, see the tests):
//!   - `Circle`, `CircleSmall` and the three pigs have a *disabled* circle collider first and an
//!     enabled polygon after it: their mass is the polygon's area × 1, whatever their material
//!     (blocks) or `_density` (pigs, 2);
//!   - `SquareHole` has a box (first: material density) and a polygon with a hole (density 1):
//!     mass = box area × material density + polygon area;
//!   - boxes, `Triangle`, `TriangleHole`: area × material density; birds: circle area ×
//!     `_density`; TNT (prefab `m_UseAutoMass` 0, turned on by `Start`) and the egg: area × 1;
//!   - the platform and the slingshot are kinematic bodies (no mass in collisions).
//! * **Polygon paths.** A `PolygonCollider2D` path after the first one is a hole in it: the
//!   cached masses of `SquareHole` and `TriangleHole` are outer area − inner area. Unity splits
//!   a path into convex pieces for Box2D; this catalogue keeps the paths as written.
//! * **Scale.** `ABGameWorld.AddBlock` sets every block's, pig's, platform's and TNT's local
//!   scale to the level's `scaleX`/`scaleY` (1 for all but platforms), replacing the prefab's
//!   (so `BasicSmall`'s 0.9479 × 0.9837 is *not* used). Birds and the egg keep the prefab's
//!   scale (`BirdBlue` 1.5): collider sizes, offsets and radii scale with it.
//! * **Materials.** A block's material comes from the level (`ABBlock.SetMaterial` puts the
//!   `Wood`, `Stone` or `Ice` physics material on its first collider and its rigid body, and
//!   takes density and defence from `ABConstants` and life from `_woodLife`/…); an enabled
//!   collider without a material of its own uses the rigid body's. The reference has no
//!   `.meta` files, so material guids were matched by use: `3745cec9…` is `Wood` (Science
//!   Birds' `Wood.physicsMaterial2D.meta` says so), each bird's guid is used only by that bird,
//!   `0e814849…` only by `BasicBig` (`PigBig`), `a36a4425…` by `BasicMedium` (`PigMedium`) and
//!   `BasicSmall`'s rigid body, `b19872fb…` only by `BasicSmall`'s disabled circle
//!   (`PigSmall`). The three pig materials are identical (friction 0.7, bounciness 0.05), so
//!   the guess cannot change a number. TNT, egg, platform and slingshot name no material:
//!   Unity's default (friction 0.4, bounciness 0; `Physics2DSettings.m_DefaultMaterial` is
//!   empty).
//! * **Life and defence.** `_currentLife` starts at 10000 and becomes `_life` after
//!   `LEVEL_IMMORTAL_TIME` (2 s). Blocks: `_life` = `_woodLife`/`_stoneLife`/`_iceLife`,
//!   defence = `DEFENSE_*` of the material (the prefab's 0 is replaced). Pigs, birds, TNT and
//!   the egg: the prefab's `_life` and `_defense`.
//! * **Gravity.** `m_GravityScale` 0.48 for birds, pigs and blocks, 1 for TNT and the egg; a
//!   bird waiting at the slingshot has 0 and gets `_launchGravity` (0.48) when launched.
//! * **Layers.** The prefab's `m_Layer` is kept; the layer names are not in the reference (no
//!   `TagManager.asset`), `m_LayerCollisionMatrix` of `Physics2DSettings.asset` says which
//!   layers meet. A launched bird changes to the layer named `Birds`.

use crate::number::Decimal;
use engine::{Fixed, Vec2};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

mod parse;
mod table;

pub use table::markdown_table;

const CSV: &str = include_str!("../../data/catalogue.csv");

/// The five birds (XML `type` = prefab name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BirdKind {
    Red,
    Blue,
    Yellow,
    Black,
    White,
}

/// The three pigs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PigKind {
    Small,
    Medium,
    Big,
}

/// The twelve block shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BlockShape {
    Circle,
    CircleSmall,
    RectBig,
    RectFat,
    RectMedium,
    RectSmall,
    RectTiny,
    SquareHole,
    SquareSmall,
    SquareTiny,
    Triangle,
    TriangleHole,
}

/// A block's material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Material {
    Wood,
    Stone,
    Ice,
}

/// Every kind of body the game makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Bird(BirdKind),
    Pig(PigKind),
    Block(BlockShape),
    Platform,
    Tnt,
    Egg,
    Slingshot,
}

macro_rules! named {
    ($t:ty, $all:ident, [$($v:path => $n:literal),* $(,)?]) => {
        impl $t {
            /// Every value, in the original's enum order.
            pub const $all: &'static [$t] = &[$($v),*];
            /// The name the XML and the prefab use.
            pub const fn name(self) -> &'static str {
                match self { $($v => $n),* }
            }
            /// The value of an XML name (exact, case-sensitive, as Unity's lookups are).
            pub fn from_name(s: &str) -> Option<$t> {
                match s { $($n => Some($v),)* _ => None }
            }
        }
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named!(BirdKind, ALL, [
    BirdKind::Red => "BirdRed", BirdKind::Blue => "BirdBlue", BirdKind::Yellow => "BirdYellow",
    BirdKind::Black => "BirdBlack", BirdKind::White => "BirdWhite",
]);
named!(PigKind, ALL, [
    PigKind::Small => "BasicSmall", PigKind::Medium => "BasicMedium", PigKind::Big => "BasicBig",
]);
named!(BlockShape, ALL, [
    BlockShape::Circle => "Circle", BlockShape::CircleSmall => "CircleSmall",
    BlockShape::RectBig => "RectBig", BlockShape::RectFat => "RectFat",
    BlockShape::RectMedium => "RectMedium", BlockShape::RectSmall => "RectSmall",
    BlockShape::RectTiny => "RectTiny", BlockShape::SquareHole => "SquareHole",
    BlockShape::SquareSmall => "SquareSmall", BlockShape::SquareTiny => "SquareTiny",
    BlockShape::Triangle => "Triangle", BlockShape::TriangleHole => "TriangleHole",
]);
named!(Material, ALL, [Material::Wood => "wood", Material::Stone => "stone", Material::Ice => "ice"]);

impl Material {
    /// The physics material's name in the catalogue (`material:Wood`, …).
    pub const fn physics_name(self) -> &'static str {
        match self {
            Material::Wood => "Wood",
            Material::Stone => "Stone",
            Material::Ice => "Ice",
        }
    }
}

impl Kind {
    /// Every kind: birds, pigs, blocks, then platform, TNT, egg, slingshot.
    pub fn all() -> Vec<Kind> {
        let mut v: Vec<Kind> = BirdKind::ALL.iter().map(|&b| Kind::Bird(b)).collect();
        v.extend(PigKind::ALL.iter().map(|&p| Kind::Pig(p)));
        v.extend(BlockShape::ALL.iter().map(|&s| Kind::Block(s)));
        v.extend([Kind::Platform, Kind::Tnt, Kind::Egg, Kind::Slingshot]);
        v
    }

    /// The prefab's name (the catalogue's `kind` column).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Bird(b) => b.name(),
            Kind::Pig(p) => p.name(),
            Kind::Block(s) => s.name(),
            Kind::Platform => "Platform",
            Kind::Tnt => "TNT",
            Kind::Egg => "Egg",
            Kind::Slingshot => "Slingshot",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Dynamic (moved by forces) or kinematic (moved only by code: infinite mass in contacts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyType {
    Dynamic,
    Kinematic,
}

/// A collider's shape, in the body's frame before scaling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    Circle {
        radius: Decimal,
    },
    /// Full width and height (`BoxCollider2D.m_Size`), centred on the offset.
    Box {
        width: Decimal,
        height: Decimal,
    },
    /// The first path is the outline, any further path a hole in it; points in source order.
    Polygon {
        paths: Vec<Vec<(Decimal, Decimal)>>,
    },
}

/// One collider of a prefab, in component order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collider {
    pub shape: Shape,
    pub offset: (Decimal, Decimal),
    pub enabled: bool,
    pub trigger: bool,
    /// `m_Density` (1 everywhere; the first collider's is replaced at run time).
    pub density: Decimal,
    /// The physics material it names, if any.
    pub material: Option<String>,
}

/// Life: one number, or one per material (blocks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Life {
    One(Decimal),
    PerMaterial {
        wood: Decimal,
        stone: Decimal,
        ice: Decimal,
    },
}

/// A physics material (and, for block materials, the game's density and defence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhysicsMaterial {
    pub friction: Decimal,
    pub bounciness: Decimal,
    pub density: Option<Decimal>,
    pub defense: Option<Decimal>,
}

/// One kind's entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kind: Kind,
    pub layer: u32,
    /// The prefab's local scale (used at run time for birds and the egg only).
    pub scale: (Decimal, Decimal),
    pub body_type: BodyType,
    /// The prefab's `m_UseAutoMass` (run time turns it on for every scripted body).
    pub prefab_auto_mass: bool,
    /// The prefab's cached `m_Mass`.
    pub prefab_mass: Decimal,
    pub linear_drag: Decimal,
    pub angular_drag: Decimal,
    pub gravity_scale: Decimal,
    /// Continuous collision detection (`m_CollisionDetection` 1).
    pub continuous: bool,
    /// The rigid body's physics material, if it names one.
    pub body_material: Option<String>,
    pub colliders: Vec<Collider>,
    /// The script's `_density` (None for blocks, whose material decides, and script-less kinds).
    pub density: Option<Decimal>,
    pub life: Option<Life>,
    /// The script's `_defense` (None for blocks and script-less kinds).
    pub defense: Option<Decimal>,
    /// Kind-specific numbers: `launch_gravity`, `drag_radius`, `damage_wood|stone|ice`,
    /// `explosion_area|power|damage`, `power.*`.
    pub extra: BTreeMap<String, Decimal>,
}

/// The whole catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalogue {
    entries: Vec<Entry>,
    materials: BTreeMap<String, PhysicsMaterial>,
    world: BTreeMap<String, String>,
}

/// A defect of the embedded data (a bug: the tests parse it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("data/catalogue.csv: {0}")]
pub struct CatalogueError(String);

fn err<T>(msg: impl Into<String>) -> Result<T, CatalogueError> {
    Err(CatalogueError(msg.into()))
}

/// The catalogue, parsed at first use.
pub fn catalogue() -> &'static Catalogue {
    static CELL: OnceLock<Catalogue> = OnceLock::new();
    CELL.get_or_init(|| match Catalogue::parse(CSV) {
        Ok(c) => c,
        // The embedded file is part of the build and parsed by the tests: failing here is a
        // bug in this crate, not bad input.
        Err(e) => panic!("{e}"),
    })
}

impl Catalogue {
    /// Every entry, in [`Kind::all`]'s order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// One kind's entry.
    pub fn entry(&self, kind: Kind) -> &Entry {
        // `parse` made one entry per kind in `Kind::all()`'s order; a lookup by kind cannot miss.
        self.entries
            .iter()
            .find(|e| e.kind == kind)
            .unwrap_or(&self.entries[0])
    }

    /// A physics material by name (`Wood`, `RedBird`, `PigSmall`, `Default`, …).
    pub fn physics_material(&self, name: &str) -> Option<&PhysicsMaterial> {
        self.materials.get(name)
    }

    /// Every physics material by name.
    pub fn physics_materials(&self) -> &BTreeMap<String, PhysicsMaterial> {
        &self.materials
    }

    /// A world constant's text (`gravity` = "0 -9.81", `fixed_timestep` = "0.02", …).
    pub fn world(&self, name: &str) -> Option<&str> {
        self.world.get(name).map(String::as_str)
    }

    /// A world constant's numbers (`"0.15 -0.8"` → [0.15, −0.8]; empty when there is none).
    pub fn world_numbers(&self, name: &str) -> Vec<Fixed> {
        self.world(name)
            .map(|t| {
                t.split(' ')
                    .filter_map(|p| Decimal::parse(p).ok().map(|d| d.value()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Every world constant, by name.
    pub fn world_constants(&self) -> &BTreeMap<String, String> {
        &self.world
    }

    /// The physics material a body of this kind touches with: the level's for a block, else
    /// the first enabled collider's own, else the rigid body's, else Unity's default.
    pub fn contact_material(&self, kind: Kind, block: Option<Material>) -> &PhysicsMaterial {
        let default = &self.materials["Default"];
        if let (Kind::Block(_), Some(m)) = (kind, block) {
            return self.materials.get(m.physics_name()).unwrap_or(default);
        }
        let e = self.entry(kind);
        e.colliders
            .iter()
            .find(|c| c.enabled)
            .and_then(|c| c.material.as_deref())
            .or(e.body_material.as_deref())
            .and_then(|n| self.materials.get(n))
            .unwrap_or(default)
    }

    /// The script density at run time (`_density`, or the block material's `DENSITY_*`).
    pub fn density(&self, kind: Kind, block: Option<Material>) -> Option<&Decimal> {
        match (kind, block) {
            (Kind::Block(_), Some(m)) => self.materials[m.physics_name()].density.as_ref(),
            (Kind::Block(_), None) => None,
            _ => self.entry(kind).density.as_ref(),
        }
    }

    /// Life at run time (after the 2 s of immortality), if the kind can be damaged.
    pub fn life(&self, kind: Kind, block: Option<Material>) -> Option<&Decimal> {
        match (&self.entry(kind).life, block) {
            (Some(Life::One(l)), _) => Some(l),
            (Some(Life::PerMaterial { wood, .. }), Some(Material::Wood)) => Some(wood),
            (Some(Life::PerMaterial { stone, .. }), Some(Material::Stone)) => Some(stone),
            (Some(Life::PerMaterial { ice, .. }), Some(Material::Ice)) => Some(ice),
            _ => None,
        }
    }

    /// Defence at run time (`_defense`, or the block material's `DEFENSE_*`).
    pub fn defense(&self, kind: Kind, block: Option<Material>) -> Option<&Decimal> {
        match (kind, block) {
            (Kind::Block(_), Some(m)) => self.materials[m.physics_name()].defense.as_ref(),
            (Kind::Block(_), None) => None,
            _ => self.entry(kind).defense.as_ref(),
        }
    }

    /// The mass at run time, by Unity's auto-mass rule (module doc): the enabled colliders'
    /// area at `scale`, the first collider at the script density, the others at their own.
    /// `None` for kinematic kinds and for a block without a material.
    pub fn mass(&self, kind: Kind, block: Option<Material>, scale: Vec2) -> Option<Fixed> {
        let e = self.entry(kind);
        if e.body_type == BodyType::Kinematic {
            return None;
        }
        let first_density = self.density(kind, block)?.value();
        Some(mass_with(e, first_density, scale))
    }
}

/// Σ over enabled colliders of area × scale × density (the first at `first_density`).
pub(crate) fn mass_with(e: &Entry, first_density: Fixed, scale: Vec2) -> Fixed {
    let mut total = Fixed::ZERO;
    for (i, c) in e.colliders.iter().enumerate() {
        if !c.enabled {
            continue;
        }
        let density = if i == 0 {
            first_density
        } else {
            c.density.value()
        };
        total += area(&c.shape) * scale.x.abs() * scale.y.abs() * density;
    }
    total
}

/// A shape's area before scaling (a polygon: its outline less its holes).
pub fn area(shape: &Shape) -> Fixed {
    match shape {
        Shape::Circle { radius } => Fixed::PI * radius.value() * radius.value(),
        Shape::Box { width, height } => width.value() * height.value(),
        Shape::Polygon { paths } => {
            let mut total = Fixed::ZERO;
            for (i, path) in paths.iter().enumerate() {
                let a = path_area(path).abs();
                total = if i == 0 { a } else { total - a };
            }
            total
        }
    }
}

/// The signed shoelace area of a closed path.
fn path_area(path: &[(Decimal, Decimal)]) -> Fixed {
    let mut twice = Fixed::ZERO;
    for (i, (x0, y0)) in path.iter().enumerate() {
        let (x1, y1) = &path[(i + 1) % path.len()];
        twice += x0.value() * y1.value() - x1.value() * y0.value();
    }
    twice * Fixed::HALF
}
