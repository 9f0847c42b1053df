//! Ground truth as the original server sends it: the level now as a GeoJSON-like feature
//! collection in screen pixels, and the 640 × 480 screenshot.
//!
//! The shape is the Phy-Q game's (`SymbolicGameState.cs`), as the original framework's readers
//! take it (`StateReader/SymbolicStateReader.py`, `SymbolicStateDevReader.py`): a list holding one
//! `FeatureCollection`; its features are the ground (`yindex`: the screen row of its surface),
//! the slingshot, then every object, each with `geometry.coordinates` (contours of `[x, y]`
//! screen points, x right, y down, the outline first) and `properties` (`id`, `label`,
//! `colormap` as `[{color, percent}]`). Labels are the developer mode's sprite names
//! ([`phyq::colours::sprite_label`]: `pig_basic_small_1`, `wood_rect_big_1`, `Platform`, …), as
//! Phy-Q ran the game, or with [`Labels::Plain`] `Object` for every object but the ground and
//! the slingshot, as its normal mode writes them. An object entirely off the screen (left,
//! right, above it, or below the ground) is left out, as the game leaves it out. Ids are stable
//! through a level: 1 the ground, 2 the slingshot, 100 + i the level's i-th object, 10,000 + i
//! the i-th bird, 20,000 + i its egg.
//!
//! The slingshot is the rectangle the game makes of its two sprites' bounds
//! (`SymbolicGameState.cs`: x from `slingshot_front`'s left to `slingshot_back`'s right, y from
//! the back's bottom to the front's top), [`SLING_BOUNDS`] from the level's slingshot point: the
//! agents' trajectory planner measures its reference point and its scale from this rectangle, so
//! it must be the game's, not the slingshot's collider.
//!
//! Differences from the original, each for a reason: a bird's circle is written as the polygon
//! of 16 points on it (the game gives its polygon collider's points); no `Trajectory` feature
//! (rephyre draws no trajectory dots); no `currentLife` property.
//!
//! Noise ([`Noise`], the noisy requests) is the game's: every contour of a pig, block, TNT or
//! platform moves rigidly by one offset drawn uniformly from the disc of radius 2 pixels
//! (`Random.insideUnitCircle * 2`) before its points are rounded; the ground, the slingshot and
//! the birds do not move; each colour map is renormalised to sum to 1 (the game's colour noise
//! is zero: an integer division). The draws come from a counter-based generator: the same seed
//! and draw number give the same noise everywhere.

use engine::{chain_hash, mix64, sin_cos, Fixed, Vec2};
use phyq::catalogue::Kind;
use phyq::colours::{colour_map, map_name, palette, sprite_label};
use phyq::picture::{render, Framing, HEIGHT, WIDTH};
use phyq::scene::{Outline, Scene, Source};
use raster::canvas::ONE;
use serde_json::{json, Value};

/// How objects are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// The sprite's name (the game's `--dev` mode, as Phy-Q ran it).
    Developer,
    /// `Object` (the game's normal mode: agents classify objects by their colour maps).
    Plain,
}

/// The noise of a noisy ground truth: a seed and the number of this draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Noise {
    pub seed: u64,
    pub draw: u64,
}

/// The noise's radius, in pixels.
pub const NOISE_PIXELS: i64 = 2;

/// The slingshot's rectangle from the level's slingshot point (world units: x from, x to, y
/// from, y to): the sprites' bounds. `slingshot_back` (`effects_19`, 40 × 201 px at 100 px a
/// unit, pivot centred, at (0, 0)) spans x −0.2..0.2, y −1.005..1.005; `slingshot_front`
/// (`effects_20`, 45 × 126 px, at (−0.26, 0.42)) spans x −0.485..−0.035, y −0.21..1.05 (the
/// Phy-Q game's `Slingshot.prefab` and `Sprites/Effects/effects.png.meta`).
pub const SLING_BOUNDS: [(i32, i32); 4] = [(-485, 1000), (200, 1000), (-1005, 1000), (1050, 1000)];

/// Points on a bird's circle in its ground truth.
const CIRCLE_POINTS: i32 = 16;

/// A deterministic stream of numbers for one noisy ground truth.
struct Draws {
    state: u64,
}

impl Draws {
    fn new(n: Noise) -> Draws {
        Draws {
            state: chain_hash(mix64(n.seed), mix64(n.draw ^ 0x006e_6f69_7365)),
        }
    }
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.state)
    }
    /// A point uniform in the disc of radius [`NOISE_PIXELS`], in picture units (1/65,536 px):
    /// a point of the square's 2^16 × 2^16 grid, drawn again until it lies in the disc.
    fn offset(&mut self) -> (i64, i64) {
        let r = NOISE_PIXELS * ONE;
        loop {
            let v = self.next();
            let x = ((v & 0xffff) as i64 * 2 - 0xffff) * r / 0xffff;
            let y = (((v >> 16) & 0xffff) as i64 * 2 - 0xffff) * r / 0xffff;
            if x * x + y * y <= r * r {
                return (x, y);
            }
        }
    }
}

/// The stable id of a scene object (module doc).
fn id_of(source: Source) -> u64 {
    match source {
        Source::Slingshot => 2,
        Source::Object(i) => 100 + i as u64,
        Source::Bird(i) => 10_000 + i as u64,
        Source::Egg(i) => 20_000 + i as u64,
    }
}

/// Whether a contour set is entirely off the screen: left of it, right of it, above it, or
/// below the ground's row (or the screen's bottom, if higher).
fn off_screen(contours: &[Vec<[i64; 2]>], ground_row: i64) -> bool {
    let pts = || contours.iter().flatten();
    let bottom = ground_row.min(HEIGHT as i64);
    pts().next().is_none()
        || pts().all(|p| p[0] < 0)
        || pts().all(|p| p[0] > WIDTH as i64)
        || pts().all(|p| p[1] < 0)
        || pts().all(|p| p[1] > bottom)
}

/// The feature collection of a scene, as the JSON text the server sends.
pub fn ground_truth(
    scene: &Scene,
    framing: &Framing,
    labels: Labels,
    noise: Option<Noise>,
) -> String {
    let mut draws = noise.map(Draws::new);
    let mut features: Vec<Value> = Vec::with_capacity(scene.objects.len() + 1);
    let (_, ground_row) = framing.pixel(Vec2::new(framing.left, scene.ground_y));
    features.push(json!({
        "type": "Feature",
        "geometry": {},
        "properties": {"id": "1", "label": "Ground", "yindex": ground_row, "colormap": []},
    }));
    // The slingshot first, then the rest in the scene's order.
    let mut order: Vec<usize> = (0..scene.objects.len()).collect();
    order.sort_by_key(|&i| (scene.objects[i].kind != Kind::Slingshot, i));
    for i in order {
        let o = &scene.objects[i];
        let sprite = sprite_label(o.kind, o.material);
        let label = match (labels, o.kind) {
            (_, Kind::Slingshot) => "Slingshot".to_string(),
            (Labels::Developer, _) => sprite.clone(),
            (Labels::Plain, _) => "Object".to_string(),
        };
        let moves = !matches!(o.kind, Kind::Slingshot | Kind::Bird(_));
        let mut contours: Vec<Vec<[i64; 2]>> = Vec::new();
        if o.kind == Kind::Slingshot {
            let b = SLING_BOUNDS.map(|(n, d)| Fixed::from_int(n).div_int(i64::from(d)));
            let corner = |x: Fixed, y: Fixed| {
                let (px, py) = framing.pixel(o.position + Vec2::new(x, y));
                [px, py]
            };
            contours.push(vec![
                corner(b[0], b[2]),
                corner(b[0], b[3]),
                corner(b[1], b[3]),
                corner(b[1], b[2]),
            ]);
        }
        for outline in o
            .outlines()
            .into_iter()
            .filter(|_| o.kind != Kind::Slingshot)
        {
            let paths = match outline {
                Outline::Polygon { paths } => paths,
                Outline::Circle { centre, radius } => vec![circle_points(centre, radius)],
            };
            for p in &paths {
                let (dx, dy) = match draws.as_mut() {
                    Some(d) if moves => d.offset(),
                    _ => (0, 0),
                };
                contours.push(
                    p.iter()
                        .map(|&v| {
                            let (x, y) = framing.units(v);
                            [round_units(x + dx), round_units(y + dy)]
                        })
                        .collect(),
                );
            }
        }
        if off_screen(&contours, ground_row) {
            continue;
        }
        let colormap: Vec<Value> = if o.kind == Kind::Slingshot {
            Vec::new()
        } else {
            let map = colour_map(map_name(&sprite));
            let total: f64 = map.iter().map(|e| e.percent).sum();
            map.iter()
                .map(|e| {
                    let percent = match draws {
                        Some(_) if total > 0.0 => e.percent / total,
                        _ => e.percent,
                    };
                    json!({"color": e.colour, "percent": percent})
                })
                .collect()
        };
        features.push(json!({
            "type": "Feature",
            "geometry": {"type": "Polygon", "coordinates": contours},
            "properties": {"id": id_of(o.source).to_string(), "label": label, "colormap": colormap},
        }));
    }
    json!([{"type": "FeatureCollection", "features": features}]).to_string()
}

/// Picture units to whole pixels, to nearest, ties up ([`Framing::pixel`]'s rounding).
fn round_units(u: i64) -> i64 {
    (u + ONE / 2).div_euclid(ONE)
}

/// A circle as [`CIRCLE_POINTS`] world points, counter-clockwise from angle 0.
fn circle_points(centre: Vec2, radius: Fixed) -> Vec<Vec2> {
    (0..CIRCLE_POINTS)
        .map(|k| {
            let angle = Fixed::PI
                .mul_int(2 * i64::from(k))
                .div_int(i64::from(CIRCLE_POINTS));
            let (s, c) = sin_cos(angle);
            centre + Vec2::new(c * radius, s * radius)
        })
        .collect()
}

/// The screenshot: `WIDTH × HEIGHT` pixels, 3 bytes (R, G, B) each, rows from the top.
pub fn screenshot(scene: &Scene, framing: &Framing) -> Vec<u8> {
    let img = render(scene, framing);
    let pal = palette();
    let mut out = Vec::with_capacity(WIDTH * HEIGHT * 3);
    for &code in &img.pixels {
        out.extend_from_slice(&pal[usize::from(code)]);
    }
    out
}

/// The five bytes after a ground truth's JSON, which the original client cuts off.
pub const TRAILER: &[u8; 5] = b"\n\n\n\n\n";
