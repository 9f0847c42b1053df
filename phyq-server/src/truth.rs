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
//! The contours, the slingshot's rectangle and what is off the screen are [`phyq::screen`]'s,
//! which the agents that plan as the original's read too.
//!
//! Differences from the original, each for a reason: a bird's circle is written as the polygon
//! of [`phyq::screen::CIRCLE_POINTS`] points on it (the game gives its polygon collider's points); no `Trajectory` feature
//! (rephyre draws no trajectory dots); no `currentLife` property.
//!
//! Noise ([`Noise`], the noisy requests) is the game's: every contour of a pig, block, TNT or
//! platform moves rigidly by one offset drawn uniformly from the disc of radius 2 pixels
//! (`Random.insideUnitCircle * 2`) before its points are rounded; the ground, the slingshot and
//! the birds do not move; each colour map is renormalised to sum to 1 (the game's colour noise
//! is zero: an integer division). The draws come from a counter-based generator: the same seed
//! and draw number give the same noise everywhere.

use engine::{chain_hash, mix64};
use phyq::catalogue::Kind;
use phyq::colours::{colour_map, map_name, palette, sprite_label};
use phyq::picture::{render, Framing, HEIGHT, WIDTH};
use phyq::scene::{Scene, Source};
use phyq::screen::{contour_units, ground_row, off_screen, round_units};
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

/// The feature collection of a scene, as the JSON text the server sends.
pub fn ground_truth(
    scene: &Scene,
    framing: &Framing,
    labels: Labels,
    noise: Option<Noise>,
) -> String {
    let mut draws = noise.map(Draws::new);
    let mut features: Vec<Value> = Vec::with_capacity(scene.objects.len() + 1);
    let ground_row = ground_row(scene, framing);
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
        // One offset per contour of a moving object, drawn in order, before the rounding.
        let contours: Vec<Vec<[i64; 2]>> = contour_units(o, framing)
            .into_iter()
            .map(|p| {
                let (dx, dy) = match draws.as_mut() {
                    Some(d) if moves => d.offset(),
                    _ => (0, 0),
                };
                p.into_iter()
                    .map(|(x, y)| [round_units(x + dx), round_units(y + dy)])
                    .collect()
            })
            .collect();
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
