//! A Science Birds level as Phy-Q uses it: everything its XML carries.
//!
//! The elements and attributes that occur in the 75 templates, the generator's inputs and what
//! the generator and the original level editor write: `Level@width`, `Camera@x,y,minWidth,
//! maxWidth`, `Score@highScore`, `Birds/Bird@type`, `Slingshot@x,y`, and in `GameObjects`:
//! `Block@type,material,x,y,rotation`, `Pig@type,x,y,rotation`, `TNT@type,x,y,rotation`,
//! `Platform@type,x,y,rotation,scaleX,scaleY` (the generator also writes an empty `material` on
//! pigs and platforms, and an empty `type` on TNT). There is no `forceMagnitude` or any other
//! attribute.
//!
//! What the original does with them (`LevelLoader.cs`, `ABGameWorld.cs`):
//! * `rotation` is in **degrees** (`Quaternion.Euler(0, 0, rotation)`), default 0;
//! * `scaleX`/`scaleY` are read for platforms only (default 1) and become the platform's local
//!   scale, scaling its 0.64 × 0.64 box; every other object gets scale 1;
//! * `width` (default 1) sets the level's width, `width` × 17.5: an object whose collider
//!   bounds leave `±width·17.5/2` in x is destroyed (`IsObjectOutOfWorld`), so it is physical;
//! * the camera and the score do not touch the physics; they are kept for a faithful round
//!   trip;
//! * the first bird waits on the slingshot, the others queue behind it, in the XML's order;
//! * the game creates the objects grouped by kind, not in document order: all pigs, then all
//!   blocks, then all platforms, then all TNT, each group in document order
//!   ([`Level::creation_order`]); Box2D's results depend on that order.

use crate::catalogue::{BirdKind, BlockShape, Material, PigKind};
use crate::number::Decimal;
use serde::{Deserialize, Serialize};

/// Most objects in one level (a template has at most a few dozen; the generator adds three).
pub const MAX_OBJECTS: usize = 10_000;
/// Most birds in one level (templates have 1-3).
pub const MAX_BIRDS: usize = 100;
/// Largest `width` accepted (the templates use 2).
pub const MAX_WIDTH: u32 = 100;

/// A level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// `Level@width`: 1 when absent.
    pub width: u32,
    pub camera: Camera,
    /// `Score@highScore`.
    pub high_score: Decimal,
    /// In launch order.
    pub birds: Vec<BirdKind>,
    /// `Slingshot@x,y`.
    pub slingshot: Point,
    /// `GameObjects`' children in document order.
    pub objects: Vec<Object>,
}

/// `Camera@x,y,minWidth,maxWidth`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Camera {
    pub x: Decimal,
    pub y: Decimal,
    pub min_width: Decimal,
    pub max_width: Decimal,
}

/// A position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub x: Decimal,
    pub y: Decimal,
}

/// One object of `GameObjects`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Object {
    pub kind: ObjectKind,
    pub x: Decimal,
    pub y: Decimal,
    /// Degrees, counter-clockwise; "0" when the XML has none.
    pub rotation: Decimal,
}

/// What an object is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "element", deny_unknown_fields)]
pub enum ObjectKind {
    Pig {
        #[serde(rename = "type")]
        pig: PigKind,
    },
    Block {
        #[serde(rename = "type")]
        shape: BlockShape,
        material: Material,
    },
    /// Scale "1" when the XML has none.
    Platform { scale_x: Decimal, scale_y: Decimal },
    #[serde(rename = "TNT")]
    Tnt,
}

impl ObjectKind {
    /// The XML element's name.
    pub fn element(&self) -> &'static str {
        match self {
            ObjectKind::Pig { .. } => "Pig",
            ObjectKind::Block { .. } => "Block",
            ObjectKind::Platform { .. } => "Platform",
            ObjectKind::Tnt => "TNT",
        }
    }

    /// Its catalogue kind.
    pub fn catalogue_kind(&self) -> crate::catalogue::Kind {
        use crate::catalogue::Kind;
        match self {
            ObjectKind::Pig { pig } => Kind::Pig(*pig),
            ObjectKind::Block { shape, .. } => Kind::Block(*shape),
            ObjectKind::Platform { .. } => Kind::Platform,
            ObjectKind::Tnt => Kind::Tnt,
        }
    }
}

/// What a number is, for its allowed range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// Object, slingshot and camera positions: |v| ≤ 1000 (the templates stay within ±20).
    Position,
    /// Degrees: |v| ≤ 3600.
    Rotation,
    /// Platform scale: 0 < |v| ≤ 1000. A zero scale makes no body; a negative one mirrors the
    /// box, which leaves it the same box (two templates, 2_4_6 and 3_8_1, have some).
    Scale,
    /// Camera widths: 0 < v ≤ 1000.
    CameraWidth,
    /// `highScore`: 0 ≤ v ≤ 10^9.
    Score,
}

impl Quantity {
    /// Whether `d` lies in this quantity's range (`Err` says which range).
    pub fn check(self, d: &Decimal) -> Result<(), &'static str> {
        use engine::Fixed;
        let v = d.value();
        let (lo, lo_open, hi, msg) = match self {
            Quantity::Position => (-1000, false, 1000, "a position must lie within ±1000"),
            Quantity::Rotation => (
                -3600,
                false,
                3600,
                "a rotation must lie within ±3600 degrees",
            ),
            Quantity::Scale => {
                let ok = v != Fixed::ZERO && v.abs() <= Fixed::from_int(1000);
                return if ok {
                    Ok(())
                } else {
                    Err("a scale must be non-zero and within ±1000")
                };
            }
            Quantity::CameraWidth => (
                0,
                true,
                1000,
                "a camera width must be above 0 and at most 1000",
            ),
            Quantity::Score => (0, false, 1_000_000_000, "a score must lie in 0..=10^9"),
        };
        let (lo, hi) = (Fixed::from_int(lo), Fixed::from_int(hi));
        let above = if lo_open { v > lo } else { v >= lo };
        if above && v <= hi {
            Ok(())
        } else {
            Err(msg)
        }
    }
}

/// A defect of a level model (for one built by other means than the XML reader, e.g. a
/// level-set file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    #[error("width {0} is not in 1..={MAX_WIDTH}")]
    Width(u32),
    #[error("{field} = {value}: {problem}")]
    Range {
        field: &'static str,
        value: String,
        problem: &'static str,
    },
    #[error("the level has no birds")]
    NoBirds,
    #[error("the level has no pigs")]
    NoPigs,
    #[error("more than {MAX_BIRDS} birds")]
    TooManyBirds,
    #[error("more than {MAX_OBJECTS} objects")]
    TooManyObjects,
}

impl Level {
    /// Checks every rule the XML reader applies: ranges, counts, at least one bird and pig.
    pub fn validate(&self) -> Result<(), LevelError> {
        if !(1..=MAX_WIDTH).contains(&self.width) {
            return Err(LevelError::Width(self.width));
        }
        let check = |field: &'static str, q: Quantity, d: &Decimal| {
            q.check(d).map_err(|problem| LevelError::Range {
                field,
                value: d.text().to_owned(),
                problem,
            })
        };
        check("camera x", Quantity::Position, &self.camera.x)?;
        check("camera y", Quantity::Position, &self.camera.y)?;
        check(
            "camera minWidth",
            Quantity::CameraWidth,
            &self.camera.min_width,
        )?;
        check(
            "camera maxWidth",
            Quantity::CameraWidth,
            &self.camera.max_width,
        )?;
        check("highScore", Quantity::Score, &self.high_score)?;
        check("slingshot x", Quantity::Position, &self.slingshot.x)?;
        check("slingshot y", Quantity::Position, &self.slingshot.y)?;
        if self.birds.len() > MAX_BIRDS {
            return Err(LevelError::TooManyBirds);
        }
        if self.objects.len() > MAX_OBJECTS {
            return Err(LevelError::TooManyObjects);
        }
        for o in &self.objects {
            check("x", Quantity::Position, &o.x)?;
            check("y", Quantity::Position, &o.y)?;
            check("rotation", Quantity::Rotation, &o.rotation)?;
            if let ObjectKind::Platform { scale_x, scale_y } = &o.kind {
                check("scaleX", Quantity::Scale, scale_x)?;
                check("scaleY", Quantity::Scale, scale_y)?;
            }
        }
        if self.birds.is_empty() {
            return Err(LevelError::NoBirds);
        }
        if self.pigs().next().is_none() {
            return Err(LevelError::NoPigs);
        }
        Ok(())
    }

    /// The pigs, in document order.
    pub fn pigs(&self) -> impl Iterator<Item = &Object> {
        self.objects
            .iter()
            .filter(|o| matches!(o.kind, ObjectKind::Pig { .. }))
    }

    /// Indices into `objects` in the order the game creates them: pigs, blocks, platforms,
    /// TNT, each in document order (`ABGameWorld`'s loops over `ABLevel`'s lists).
    pub fn creation_order(&self) -> Vec<u32> {
        let group = |k: &ObjectKind| match k {
            ObjectKind::Pig { .. } => 0,
            ObjectKind::Block { .. } => 1,
            ObjectKind::Platform { .. } => 2,
            ObjectKind::Tnt => 3,
        };
        let mut idx: Vec<u32> = (0..self.objects.len() as u32).collect();
        // A stable sort keeps document order within a group.
        idx.sort_by_key(|&i| group(&self.objects[i as usize].kind));
        idx
    }
}

// The catalogue's kinds travel in level-set files by their XML names.
macro_rules! serde_by_name {
    ($t:ty, $what:literal) => {
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let s = String::deserialize(d)?;
                <$t>::from_name(&s).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        concat!("unknown ", $what, " \"{}\""),
                        crate::number::short(&s)
                    ))
                })
            }
        }
    };
}

serde_by_name!(BirdKind, "bird type");
serde_by_name!(PigKind, "pig type");
serde_by_name!(BlockShape, "block type");
serde_by_name!(Material, "material");
