//! The original's colours: the sprites' colour maps and the palette of Phy-Q pictures.
//!
//! # What the original has
//!
//! Phy-Q's symbolic representation (`SymbolicGameState.cs` of the benchmark's game) gives each
//! object a *colour map*: the colours of its sprite as 8-bit codes with the fraction of the
//! sprite's pixels of each, looked up by sprite name in `StreamingAssets/ColorCodes/BaseMap.json`
//! (`ColorMap.cs` reads it: a list of `{type, colormap: [{x: colour, y: fraction}]}`). The codes
//! are 3 bits of red, 3 of green and 2 of blue (`RRRGGGBB`), as their values show: the ice
//! sprites' 19 = 000 100 11 is blue, the pigs' 125 = 011 111 01 green, the yellow bird's
//! 248 = 111 110 00 yellow, wood's 136 = 100 010 00 brown.
//!
//! `data/colormaps.csv` holds the maps of the 48 sprites Phy-Q draws, undamaged (`…_1`), from the
//! benchmark's `BaseMapFiltered/BaseMap.json` (each sprite's colours of at least about 5 %; the
//! full `BaseMap.json` also lists the rarer ones). Sprite names: `ground`, `Slingshot`,
//! `bird_red_1` …, `pig_basic_small_1` …, `effects_21` (platform), `effects_34` (TNT),
//! `wood_rect_big_1` … (material, then the shape's sprite stem, [`block_stem`]). The prefab →
//! sprite assignment is read from the names (the reference has no sprite `.meta` files).
//!
//! # The palette of rephyre's pictures
//!
//! A picture's pixel values *are* these 8-bit codes: the palette is the 256 codes, each decoded
//! by scaling its fields to 0–255 ([`rgb`]). Each kind is filled with one code ([`FILLS`]):
//! where the reference says it, the most frequent colour of the kind's colour map (summed over a
//! material's twelve block sprites), or the next one where that colour is already another kind's
//! (so that kinds stay apart); where it has nothing, rephyre's choice. Each row of [`FILLS`] says
//! which, and a test checks every claim against the data.

use crate::catalogue::{BirdKind, BlockShape, Kind, Material, PigKind};
use std::collections::BTreeMap;
use std::sync::OnceLock;

const CSV: &str = include_str!("../data/colormaps.csv");

/// One colour of a colour map: the 8-bit code and the fraction of the sprite's pixels (the
/// source's text and its value).
#[derive(Clone, Debug, PartialEq)]
pub struct ColourEntry {
    pub colour: u8,
    pub percent: f64,
    pub text: &'static str,
}

/// Every embedded colour map by sprite name, entries in the source's order.
pub fn colour_maps() -> &'static BTreeMap<&'static str, Vec<ColourEntry>> {
    static CELL: OnceLock<BTreeMap<&'static str, Vec<ColourEntry>>> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut maps: BTreeMap<&'static str, Vec<ColourEntry>> = BTreeMap::new();
        for line in CSV.lines().filter(|l| !l.starts_with('#')).skip(1) {
            let mut f = line.split(',');
            let (Some(sprite), Some(c), Some(p), None) = (f.next(), f.next(), f.next(), f.next())
            else {
                panic!("data/colormaps.csv: a row without three fields: {line}");
            };
            // The tests parse every row: a failure here is a defect of the embedded data.
            let colour: u8 = c.parse().unwrap_or_else(|_| panic!("colour {c:?}"));
            let percent: f64 = p.parse().unwrap_or_else(|_| panic!("fraction {p:?}"));
            maps.entry(sprite).or_default().push(ColourEntry {
                colour,
                percent,
                text: p,
            });
        }
        maps
    })
}

/// The colour map of a sprite (empty for an unknown name).
pub fn colour_map(sprite: &str) -> &'static [ColourEntry] {
    colour_maps().get(sprite).map_or(&[], Vec::as_slice)
}

/// A block shape's sprite stem (`wood_` + stem + `_1`).
pub const fn block_stem(shape: BlockShape) -> &'static str {
    match shape {
        BlockShape::Circle => "circle",
        BlockShape::CircleSmall => "circle_small",
        BlockShape::RectBig => "rect_big",
        BlockShape::RectFat => "rect_fat",
        BlockShape::RectMedium => "rect_medium",
        BlockShape::RectSmall => "rect_small",
        BlockShape::RectTiny => "rect_tiny",
        BlockShape::SquareHole => "square_hole",
        BlockShape::SquareSmall => "square_small",
        BlockShape::SquareTiny => "square_tiny",
        BlockShape::Triangle => "triang",
        BlockShape::TriangleHole => "triang_hole",
    }
}

/// The sprite of a kind, undamaged: the label the original's symbolic representation gives it
/// in its developer mode (`wood_rect_big_1`, `pig_basic_small_1`, `bird_red_1`, `Platform`,
/// `TNT`, `Slingshot`), and the name of its colour map. Platforms and TNT are labelled
/// `Platform` and `TNT` but their maps are the sprites `effects_21` and `effects_34`
/// ([`map_name`]).
pub fn sprite_label(kind: Kind, material: Option<Material>) -> String {
    match kind {
        Kind::Bird(b) => format!(
            "bird_{}_1",
            match b {
                BirdKind::Red => "red",
                BirdKind::Blue => "blue",
                BirdKind::Yellow => "yellow",
                BirdKind::Black => "black",
                BirdKind::White => "white",
            }
        ),
        Kind::Pig(p) => format!(
            "pig_basic_{}_1",
            match p {
                PigKind::Small => "small",
                PigKind::Medium => "medium",
                PigKind::Big => "big",
            }
        ),
        Kind::Block(s) => format!(
            "{}_{}_1",
            material.unwrap_or(Material::Wood).name(),
            block_stem(s)
        ),
        Kind::Platform => "Platform".into(),
        Kind::Tnt => "TNT".into(),
        Kind::Egg => "Egg".into(),
        Kind::Slingshot => "Slingshot".into(),
    }
}

/// The colour map's name of a sprite label (`Platform` → `effects_21`, `TNT` → `effects_34`).
pub fn map_name(label: &str) -> &str {
    match label {
        "Platform" => "effects_21",
        "TNT" => "effects_34",
        other => other,
    }
}

/// The display colour of an 8-bit code `RRRGGGBB`: each field scaled to 0–255, rounded
/// (`r·255/7`, `g·255/7`, `b·85`). The original only encodes; this decoding is rephyre's.
pub const fn rgb(code: u8) -> [u8; 3] {
    let r = (code >> 5) as u32;
    let g = ((code >> 2) & 7) as u32;
    let b = (code & 3) as u32;
    [
        ((r * 255 + 3) / 7) as u8,
        ((g * 255 + 3) / 7) as u8,
        (b * 85) as u8,
    ]
}

/// The 256 display colours of the codes: the palette of every Phy-Q picture.
pub fn palette() -> Vec<[u8; 3]> {
    (0..=255u8).map(rgb).collect()
}

/// What a fill is drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Painted {
    /// The sky behind everything.
    Background,
    Ground,
    Slingshot,
    /// Every block of a material.
    Block(Material),
    /// Every pig.
    Pigs,
    Tnt,
    Platform,
    Bird(BirdKind),
}

/// Where a fill comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// The `rank`-th most frequent colour (1 = the most frequent) of the named sprites' colour
    /// maps, fractions summed over them; a rank above 1 because the more frequent ones are
    /// other kinds' fills.
    Map {
        sprites: &'static [&'static str],
        rank: usize,
    },
    /// Not in the reference: rephyre's choice.
    Rephyre,
}

const WOOD: &[&str] = &[
    "wood_circle_1",
    "wood_circle_small_1",
    "wood_rect_big_1",
    "wood_rect_fat_1",
    "wood_rect_medium_1",
    "wood_rect_small_1",
    "wood_rect_tiny_1",
    "wood_square_hole_1",
    "wood_square_small_1",
    "wood_square_tiny_1",
    "wood_triang_1",
    "wood_triang_hole_1",
];
const STONE: &[&str] = &[
    "stone_circle_1",
    "stone_circle_small_1",
    "stone_rect_big_1",
    "stone_rect_fat_1",
    "stone_rect_medium_1",
    "stone_rect_small_1",
    "stone_rect_tiny_1",
    "stone_square_hole_1",
    "stone_square_small_1",
    "stone_square_tiny_1",
    "stone_triang_1",
    "stone_triang_hole_1",
];
const ICE: &[&str] = &[
    "ice_circle_1",
    "ice_circle_small_1",
    "ice_rect_big_1",
    "ice_rect_fat_1",
    "ice_rect_medium_1",
    "ice_rect_small_1",
    "ice_rect_tiny_1",
    "ice_square_hole_1",
    "ice_square_small_1",
    "ice_square_tiny_1",
    "ice_triang_1",
    "ice_triang_hole_1",
];
const PIGS: &[&str] = &["pig_basic_small_1", "pig_basic_medium_1", "pig_basic_big_1"];

/// The fill code of everything drawn, and where it comes from.
pub const FILLS: &[(Painted, u8, Provenance)] = &[
    // 101 110 11: a light sky blue. The background sprite has no colour map.
    (Painted::Background, 187, Provenance::Rephyre),
    (
        Painted::Ground,
        36,
        Provenance::Map {
            sprites: &["ground"],
            rank: 1,
        },
    ),
    (
        Painted::Slingshot,
        32,
        Provenance::Map {
            sprites: &["Slingshot"],
            rank: 1,
        },
    ),
    (
        Painted::Block(Material::Wood),
        136,
        Provenance::Map {
            sprites: WOOD,
            rank: 1,
        },
    ),
    (
        Painted::Block(Material::Stone),
        73,
        Provenance::Map {
            sprites: STONE,
            rank: 1,
        },
    ),
    (
        Painted::Block(Material::Ice),
        19,
        Provenance::Map {
            sprites: ICE,
            rank: 1,
        },
    ),
    (
        Painted::Pigs,
        125,
        Provenance::Map {
            sprites: PIGS,
            rank: 1,
        },
    ),
    (
        Painted::Tnt,
        205,
        Provenance::Map {
            sprites: &["effects_34"],
            rank: 1,
        },
    ),
    // Its most frequent, 36, is the ground's.
    (
        Painted::Platform,
        68,
        Provenance::Map {
            sprites: &["effects_21"],
            rank: 2,
        },
    ),
    // The red bird's map has no red: black outline (0), belly (250), beak (244), shadow (36).
    // 111 000 00, pure red.
    (Painted::Bird(BirdKind::Red), 224, Provenance::Rephyre),
    (
        Painted::Bird(BirdKind::Blue),
        119,
        Provenance::Map {
            sprites: &["bird_blue_1"],
            rank: 1,
        },
    ),
    (
        Painted::Bird(BirdKind::Yellow),
        248,
        Provenance::Map {
            sprites: &["bird_yellow_1"],
            rank: 1,
        },
    ),
    // 73 is stone's, 36 the ground's: black.
    (
        Painted::Bird(BirdKind::Black),
        0,
        Provenance::Map {
            sprites: &["bird_black_1"],
            rank: 3,
        },
    ),
    // 36 is the ground's: white.
    (
        Painted::Bird(BirdKind::White),
        255,
        Provenance::Map {
            sprites: &["bird_white_1"],
            rank: 2,
        },
    ),
];

/// The fill code of a painted thing.
pub fn fill(p: Painted) -> u8 {
    FILLS
        .iter()
        .find(|(q, _, _)| *q == p)
        .map_or(0, |&(_, code, _)| code)
}

/// The fill code of a body of a kind (blocks by material; a block without one as wood).
pub fn fill_of(kind: Kind, material: Option<Material>) -> u8 {
    fill(match kind {
        Kind::Bird(b) => Painted::Bird(b),
        Kind::Pig(_) => Painted::Pigs,
        Kind::Block(_) => Painted::Block(material.unwrap_or(Material::Wood)),
        Kind::Platform => Painted::Platform,
        Kind::Tnt | Kind::Egg => Painted::Tnt,
        Kind::Slingshot => Painted::Slingshot,
    })
}

/// Label text, gaps and label strips of contact sheets: dark grey (010 010 01), light grey
/// (101 101 10) and white; rephyre's.
pub const SHEET_TEXT: u8 = 73;
pub const SHEET_GAP: u8 = 182;
pub const SHEET_STRIP: u8 = 255;

/// The colours of the named sprites' maps by summed fraction, most frequent first (ties by
/// code).
pub fn ranked(sprites: &[&str]) -> Vec<(u8, f64)> {
    let mut sum: BTreeMap<u8, f64> = BTreeMap::new();
    for s in sprites {
        for e in colour_map(s) {
            *sum.entry(e.colour).or_default() += e.percent;
        }
    }
    let mut v: Vec<(u8, f64)> = sum.into_iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Kind;

    #[test]
    fn every_drawn_kind_has_its_colour_map() {
        let maps = colour_maps();
        assert_eq!(maps.len(), 48);
        for (name, entries) in maps {
            let total: f64 = entries.iter().map(|e| e.percent).sum();
            assert!(total > 0.3 && total <= 1.0, "{name}: {total}");
            assert!(entries.iter().all(|e| e.percent > 0.0), "{name}");
        }
        for kind in Kind::all() {
            let mats: Vec<Option<Material>> = match kind {
                Kind::Block(_) => Material::ALL.iter().map(|&m| Some(m)).collect(),
                _ => vec![None],
            };
            for m in mats {
                let label = sprite_label(kind, m);
                if kind == Kind::Egg {
                    assert!(colour_map(map_name(&label)).is_empty());
                } else {
                    assert!(!colour_map(map_name(&label)).is_empty(), "{label}");
                }
            }
        }
        assert_eq!(
            sprite_label(Kind::Block(BlockShape::TriangleHole), Some(Material::Ice)),
            "ice_triang_hole_1"
        );
        assert_eq!(colour_map("wood_rect_big_1")[0].text, "0.2917127");
        assert!(colour_map("ground").len() == 4 && colour_map("nothing").is_empty());
    }

    #[test]
    fn fills_are_what_their_provenance_says_and_all_differ() {
        for &(what, code, prov) in FILLS {
            if let Provenance::Map { sprites, rank } = prov {
                let r = ranked(sprites);
                assert_eq!(r[rank - 1].0, code, "{what:?}: {r:?}");
                // The ones skipped are fills listed before it.
                for &(skipped, _) in &r[..rank - 1] {
                    let pos = FILLS.iter().position(|f| f.1 == skipped);
                    let me = FILLS.iter().position(|f| f.0 == what);
                    assert!(pos < me, "{what:?} skips {skipped}, not an earlier fill");
                }
            }
        }
        let mut codes: Vec<u8> = FILLS.iter().map(|f| f.1).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), FILLS.len());
        for s in [SHEET_TEXT, SHEET_GAP, SHEET_STRIP] {
            assert!(s != fill(Painted::Background));
        }
    }

    #[test]
    fn codes_decode_to_their_fields() {
        assert_eq!(rgb(0), [0, 0, 0]);
        assert_eq!(rgb(255), [255, 255, 255]);
        // 111 000 00, 000 111 00, 000 000 11.
        assert_eq!(rgb(224), [255, 0, 0]);
        assert_eq!(rgb(28), [0, 255, 0]);
        assert_eq!(rgb(3), [0, 0, 255]);
        assert_eq!(rgb(125), [109, 255, 85]);
        assert_eq!(palette().len(), 256);
    }
}
