//! The original's symbolic representation of a scene, as JSON.
//!
//! Phy-Q's game answers an agent's ground-truth request with a GeoJSON-like list of objects
//! (`SymbolicGameState.cs`, `GTObject.cs`): per object an id, a label (in its developer mode the
//! sprite's name: `wood_rect_big_1`, `pig_basic_small_1`, `bird_red_1`, `Platform`, `TNT`,
//! `Slingshot`; otherwise `Object`), its contours (ordered vertices in **screen pixels**,
//! rounded, x right and y down from the screen's top-left corner, a contour after the first a
//! hole) and its colour map (`[{color, percent}]`, [`crate::colours`]); the ground as the screen
//! row of its surface (`yindex`). [`Symbolic`] says the same of a rephyre [`Scene`], with more:
//!
//! * `type`: the developer-mode label; `kind` and `material`: the prefab and the level's
//!   material;
//! * `x`, `y`, `angle` (degrees) of the body, and each contour both in **world units**
//!   (`world`, the catalogue's points posed, [`crate::scene`]) and in **screen pixels**
//!   (`screen`, the picture's framing, [`crate::picture::Framing::pixel`]); a bird is a circle
//!   (`circle`: centre and radius, world and screen);
//! * the slingshot's colour map is empty, as the original writes it (it passes none);
//! * `birds_left` (launch order) and the `slingshot` position; the `ground` as world y and
//!   screen row;
//! * objects in the scene's order (slingshot, the level's objects in document order, birds), with
//!   `index` their place in that list; world numbers rounded to 1e-6 units.
//!
//! The original adds a random offset of up to 2 pixels to every vertex and jitters the colour
//! fractions unless its noise is off; rephyre's representation is the noise-free one.

use crate::catalogue::{Kind, Material};
use crate::colours::{colour_map, map_name, sprite_label};
use crate::picture::{Framing, HEIGHT, WIDTH};
use crate::scene::{Outline, Scene, Source};
use engine::{Fixed, Vec2};
use serde::Serialize;

/// The `format` field.
pub const FORMAT_NAME: &str = "rephyre-phyq-symbolic";
/// The version this crate writes.
pub const FORMAT_VERSION: u32 = 1;

/// A scene's symbolic representation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Symbolic {
    pub format: &'static str,
    pub version: u32,
    /// The task's id, when it has one.
    pub id: Option<String>,
    pub screen: Screen,
    pub ground: Ground,
    pub slingshot: Point,
    pub birds_left: Vec<&'static str>,
    pub objects: Vec<SymObject>,
}

/// The picture the screen coordinates refer to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Screen {
    pub width: usize,
    pub height: usize,
    /// World x of the picture's left edge, world y of its top edge, world units across it.
    pub left: f64,
    pub top: f64,
    pub world_width: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ground {
    pub y: f64,
    /// The screen row of the surface (the original's `yindex`).
    pub screen_y: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Circle {
    pub x: f64,
    pub y: f64,
    pub r: f64,
    pub screen_x: i64,
    pub screen_y: i64,
    pub screen_r: f64,
}

/// One colour of a colour map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MapEntry {
    pub color: u8,
    pub percent: f64,
}

/// One object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SymObject {
    pub index: usize,
    /// `slingshot`, `object N` (the level's N-th object) or `bird N` (launch order).
    pub source: String,
    #[serde(rename = "type")]
    pub label: String,
    pub kind: &'static str,
    pub material: Option<&'static str>,
    pub x: f64,
    pub y: f64,
    /// Degrees, counter-clockwise.
    pub angle: f64,
    /// Contours in world units (first the outline, then holes); empty for a circle.
    pub world: Vec<Vec<[f64; 2]>>,
    /// The same contours in screen pixels.
    pub screen: Vec<Vec<[i64; 2]>>,
    pub circle: Option<Circle>,
    pub colormap: Vec<MapEntry>,
}

/// A Q32.32 value rounded to 1e-6 (exact integer rounding, then the nearest `f64`).
fn micro(v: Fixed) -> f64 {
    let m = (i128::from(v.raw()) * 1_000_000 * 2 + (1i128 << 32)).div_euclid(1i128 << 33);
    m as f64 / 1e6
}

fn source_text(s: Source) -> String {
    match s {
        Source::Slingshot => "slingshot".into(),
        Source::Object(i) => format!("object {i}"),
        Source::Bird(i) => format!("bird {i}"),
        Source::Egg(i) => format!("egg of bird {i}"),
    }
}

/// The symbolic representation of a scene in a framing (module doc).
pub fn symbolic(scene: &Scene, framing: &Framing, id: Option<String>) -> Symbolic {
    let world = |v: Vec2| [micro(v.x), micro(v.y)];
    let screen = |v: Vec2| {
        let (x, y) = framing.pixel(v);
        [x, y]
    };
    let mut objects = Vec::with_capacity(scene.objects.len());
    for (index, o) in scene.objects.iter().enumerate() {
        let label = sprite_label(o.kind, o.material);
        let colormap = if o.kind == Kind::Slingshot {
            Vec::new()
        } else {
            colour_map(map_name(&label))
                .iter()
                .map(|e| MapEntry {
                    color: e.colour,
                    percent: e.percent,
                })
                .collect()
        };
        let mut sym = SymObject {
            index,
            source: source_text(o.source),
            label,
            kind: o.kind.name(),
            material: o.material.map(Material::name),
            x: micro(o.position.x),
            y: micro(o.position.y),
            angle: micro(o.angle.mul_div(Fixed::from_int(180), Fixed::PI)),
            world: Vec::new(),
            screen: Vec::new(),
            circle: None,
            colormap,
        };
        for outline in o.outlines() {
            match outline {
                Outline::Polygon { paths } => {
                    for p in &paths {
                        sym.world.push(p.iter().map(|&v| world(v)).collect());
                        sym.screen.push(p.iter().map(|&v| screen(v)).collect());
                    }
                }
                Outline::Circle { centre, radius } => {
                    let [screen_x, screen_y] = screen(centre);
                    let r_units = framing.length_units(radius);
                    sym.circle = Some(Circle {
                        x: micro(centre.x),
                        y: micro(centre.y),
                        r: micro(radius),
                        screen_x,
                        screen_y,
                        screen_r: (r_units * 1000 + raster::canvas::ONE / 2)
                            .div_euclid(raster::canvas::ONE)
                            as f64
                            / 1000.0,
                    });
                }
            }
        }
        objects.push(sym);
    }
    let (_, ground_row) = framing.pixel(Vec2::new(framing.left, scene.ground_y));
    Symbolic {
        format: FORMAT_NAME,
        version: FORMAT_VERSION,
        id,
        screen: Screen {
            width: WIDTH,
            height: HEIGHT,
            left: micro(framing.left),
            top: micro(framing.top),
            world_width: micro(framing.width),
        },
        ground: Ground {
            y: micro(scene.ground_y),
            screen_y: ground_row,
        },
        slingshot: Point {
            x: micro(scene.slingshot.x),
            y: micro(scene.slingshot.y),
        },
        birds_left: scene.birds_left.iter().map(|b| b.name()).collect(),
        objects,
    }
}

/// The symbolic representation of a level's initial state in the game's framing of it.
pub fn of_level(level: &crate::level::Level, id: Option<String>) -> Symbolic {
    symbolic(&Scene::initial(level), &Framing::of_level(level), id)
}

/// The JSON text: one field a line, each object on one line, a final newline; the same bytes
/// for the same scene everywhere.
pub fn to_json(s: &Symbolic) -> String {
    // Plain structs of numbers and strings: serialising them cannot fail.
    let j = |v: &dyn erased::Json| v.text();
    let mut out = String::from("{\n");
    for (name, value) in [
        ("format", j(&s.format)),
        ("version", j(&s.version)),
        ("id", j(&s.id)),
        ("screen", j(&s.screen)),
        ("ground", j(&s.ground)),
        ("slingshot", j(&s.slingshot)),
        ("birds_left", j(&s.birds_left)),
    ] {
        out.push_str(&format!("  \"{name}\": {value},\n"));
    }
    out.push_str("  \"objects\": [\n");
    let objects: Vec<String> = s.objects.iter().map(|o| format!("    {}", j(o))).collect();
    out.push_str(&objects.join(",\n"));
    out.push_str("\n  ]\n}\n");
    out
}

mod erased {
    /// Anything serialisable, as compact JSON text.
    pub trait Json {
        fn text(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn text(&self) -> String {
            serde_json::to_string(self).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micro_rounds_to_six_places() {
        assert_eq!(micro(Fixed::from_f64(-3.5).unwrap()), -3.5);
        assert_eq!(micro(Fixed::from_f64(0.1).unwrap()), 0.1);
        assert_eq!(micro(Fixed::from_f64(-12.15).unwrap()), -12.15);
        assert_eq!(micro(Fixed::from_raw(1)), 0.0);
    }
}
