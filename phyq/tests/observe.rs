//! Observations of Phy-Q tasks: golden pictures and symbolic representations of three tasks,
//! the symbolic JSON of a template checked by hand, every task of the tier framed, and the
//! scene of a game in play (what pictures, agents and the player draw).

use phyq::game::{Game, Shot};
use phyq::generator::{builtin_task, builtin_tasks};
use phyq::picture::{self, Framing, HEIGHT, WIDTH};
use phyq::scene::{Outline, Scene, Source};
use phyq::symbolic;
use phyq::{BirdKind, Kind, LevelId, PigKind};
use std::path::PathBuf;

mod common;

fn fnv64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Three tasks: a circle block, a pig on platforms (1.1); a triangle with a hole and three
/// birds (1_2_6); a square with a hole (2_2_3), the tier's last index.
const GOLDEN_IDS: [&str; 3] = ["phyq:1_1_4:00001", "phyq:1_2_6:00042", "phyq:2_2_3:00100"];

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/observe.golden")
}

/// Hashes of the pictures' pixels (640 × 480 codes, row 0 at the top) and of their symbolic
/// JSON. A change to the scene, framing, rasterisation, colours or JSON changes them: re-bless
/// with `REPHYRE_BLESS=1 cargo test -p phyq --test observe golden`.
#[test]
fn golden_pictures_and_symbolic_representations() {
    let mut text = String::from(
        "# id pixels_fnv1a64 symbolic_json_fnv1a64 (REPHYRE_BLESS=1 cargo test -p phyq --test observe golden to regenerate)\n",
    );
    for id in GOLDEN_IDS {
        let id: LevelId = id.parse().unwrap();
        let entry = builtin_task(&id).expect("a task of the tier");
        let img = picture::render_level(&entry.level);
        assert_eq!((img.width, img.height), (WIDTH, HEIGHT));
        let json = symbolic::to_json(&symbolic::of_level(&entry.level, Some(id.to_string())));
        text.push_str(&format!(
            "{id} {:016x} {:016x}\n",
            fnv64(&img.pixels),
            fnv64(json.as_bytes())
        ));
        // The PNG holds the same pixels in the 256-code palette.
        let png = picture::png_bytes(&img).unwrap();
        let mut r = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Indexed);
        assert_eq!(&buf[..info.buffer_size()], &img.pixels[..]);
        assert_eq!(r.info().palette.as_ref().unwrap().len(), 256 * 3);
    }
    let path = golden_path();
    if std::env::var_os("REPHYRE_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(&path).expect("the golden file (bless it first)");
    assert_eq!(golden, text, "run with REPHYRE_BLESS=1 to regenerate");
}

/// Template 1.1 (1_1_4_1.xml): slingshot, 4 objects, 1 bird; its lower platform
/// (x −0.862, y −2.474, scale 2.089 × 0.763 of the 0.64 box) has the corners computed by hand.
#[test]
fn symbolic_json_of_a_template() {
    let level = phyq::templates::find("1.1").unwrap().level().unwrap();
    let sym = symbolic::of_level(&level, None);
    let v: serde_json::Value = serde_json::from_str(&symbolic::to_json(&sym)).unwrap();
    assert_eq!(v["format"], "rephyre-phyq-symbolic");
    let objects = v["objects"].as_array().unwrap();
    assert_eq!(objects.len(), 1 + 4 + 1);
    assert_eq!(objects[0]["type"], "Slingshot");
    assert_eq!(objects[0]["colormap"].as_array().unwrap().len(), 0);
    assert_eq!(objects[1]["type"], "wood_circle_1");
    assert_eq!(objects[1]["colormap"][0]["color"], 136);
    assert_eq!(objects[1]["colormap"][0]["percent"], 0.203125);
    assert_eq!(objects[2]["type"], "pig_basic_small_1");
    assert_eq!(objects[5]["type"], "bird_red_1");
    assert!(objects[5]["circle"].is_object());
    assert_eq!(v["birds_left"], serde_json::json!(["BirdRed"]));
    let platform = &objects[3];
    assert_eq!(platform["source"], "object 2");
    assert_eq!(platform["type"], "Platform");
    assert_eq!(platform["kind"], "Platform");
    let (hw, hh) = (0.32 * 2.089, 0.32 * 0.763);
    let (x, y) = (-0.862, -2.474);
    // GetWorldCorners' order: bottom-left, top-left, top-right, bottom-right.
    let want = [
        (x - hw, y - hh),
        (x - hw, y + hh),
        (x + hw, y + hh),
        (x + hw, y - hh),
    ];
    let world = platform["world"][0].as_array().unwrap();
    let screen = platform["screen"][0].as_array().unwrap();
    assert_eq!((world.len(), screen.len()), (4, 4));
    for (i, (wx, wy)) in want.iter().enumerate() {
        let gx = world[i][0].as_f64().unwrap();
        let gy = world[i][1].as_f64().unwrap();
        assert!(
            (gx - wx).abs() < 3e-6 && (gy - wy).abs() < 3e-6,
            "{i}: {gx} {gy}"
        );
        // Screen: 640/35 px per unit from (−17.5, 12.125), rounded.
        let sx = ((wx + 17.5) * 640.0 / 35.0).round() as i64;
        let sy = ((12.125 - wy) * 640.0 / 35.0).round() as i64;
        assert_eq!(screen[i], serde_json::json!([sx, sy]), "{i}");
    }
    assert_eq!(screen[0], serde_json::json!([292, 271]));
    // The ground's row: (12.125 + 3.5) · 640/35 = 285.71 → 286.
    assert_eq!(v["ground"]["screen_y"], 286);
    // The same bytes every time.
    assert_eq!(
        symbolic::to_json(&sym),
        symbolic::to_json(&symbolic::of_level(&level, None))
    );
}

/// The framing shows the slingshot and every object of every template and of every task of
/// the tier whole, but for one wall beyond the level's edge; `builtin_task` makes the same
/// entries as the tier.
#[test]
fn every_task_is_framed_whole() {
    let mut levels: Vec<(String, phyq::Level)> = phyq::templates::templates()
        .iter()
        .map(|t| (t.code.clone(), t.level().unwrap()))
        .collect();
    for e in builtin_tasks().entries() {
        levels.push((e.id.to_string(), e.level.clone()));
    }
    for (name, level) in &levels {
        let framing = Framing::of_level(level);
        let scene = Scene::initial(level);
        for o in &scene.objects {
            for outline in o.outlines() {
                let pts: Vec<(i64, i64)> = match outline {
                    Outline::Polygon { paths } => {
                        paths[0].iter().map(|&p| framing.pixel(p)).collect()
                    }
                    Outline::Circle { centre, .. } => vec![framing.pixel(centre)],
                };
                // 1_2_1's object 1 is a wall right of the level's edge (x 17.86 ± 0.36, the
                // level ends at 17.5): outside the game's view too.
                let wall = name.contains("1_2_1") && o.source == Source::Object(1);
                for (x, y) in pts {
                    let inside =
                        (0..=WIDTH as i64).contains(&x) && (0..=HEIGHT as i64).contains(&y);
                    assert!(inside || wall, "{name}: {:?} at ({x}, {y})", o.source);
                    assert!(!wall || x >= WIDTH as i64, "{name}: the wall at ({x}, {y})");
                }
            }
        }
    }
    for id in GOLDEN_IDS {
        let id: LevelId = id.parse().unwrap();
        let alone = builtin_task(&id).unwrap();
        let in_tier = builtin_tasks()
            .entries()
            .iter()
            .find(|e| e.id == id)
            .unwrap();
        assert_eq!(&alone, in_tier);
    }
    for bad in [
        "phyq:1_1_4:00101",
        "phyq:9_9_9:00001",
        "phyq:1_1_4:00000",
        "phyq:x",
    ] {
        let id: Result<LevelId, _> = bad.parse();
        assert!(id.map_or(true, |id| builtin_task(&id).is_none()), "{bad}");
    }
}

/// A game's scene and positions follow the game, not the level: three pigs, two of them
/// dropped from 8 m (dead 50 steps after the opening: the rule test of `pig_life_left`), and a
/// red bird in flight with a yellow one waiting. The scene holds the live pig only, at its
/// body's pose; the waiting bird keeps its launch number (1) and sits on the slingshot's rest
/// point; the flying bird (0) is drawn where its body is.
#[test]
fn the_scene_of_a_game_in_play_follows_its_bodies() {
    let l = common::level(
        &["BirdRed", "BirdYellow"],
        r#"<Pig type="BasicSmall" x="0" y="0"/><Pig type="BasicSmall" x="3" y="8"/><Pig type="BasicSmall" x="6" y="8"/>"#,
    );
    let mut g = Game::new(&l).unwrap();
    g.settle();
    let shot = Shot {
        release: engine::Vec2::new(engine::Fixed::from_int(-1), engine::Fixed::ZERO),
        tap: None,
    };
    assert!(g.launch(&shot).unwrap());
    for _ in 0..50 {
        g.step_idle();
    }
    let body = |kind: Kind| {
        let (_, _, id) = g.objects().find(|(k, _, _)| *k == kind).unwrap();
        let b = g.world().body(id).unwrap();
        (b.position(), b.angle())
    };
    let pig = body(Kind::Pig(PigKind::Small));
    let red = body(Kind::Bird(BirdKind::Red));
    assert_eq!(g.positions(), [Some(pig.0), None, None]);
    let scene = g.scene(&l);
    let drawn: Vec<_> = scene
        .objects
        .iter()
        .map(|o| (o.source, o.kind, o.position, o.angle))
        .collect();
    let alone = common::level(&["BirdYellow"], r#"<Pig type="BasicSmall" x="0" y="0"/>"#);
    let waiting = Scene::initial(&alone).objects.last().unwrap().position;
    assert_eq!(waiting, g.rest_point(), "the next bird on the slingshot");
    assert_eq!(
        drawn[1..],
        [
            (Source::Object(0), Kind::Pig(PigKind::Small), pig.0, pig.1),
            (
                Source::Bird(1),
                Kind::Bird(BirdKind::Yellow),
                waiting,
                engine::Fixed::ZERO
            ),
            (Source::Bird(0), Kind::Bird(BirdKind::Red), red.0, red.1),
        ]
    );
    assert_eq!(drawn[0].0, Source::Slingshot);
    assert_eq!(scene.birds_left, [BirdKind::Yellow]);
    assert!(red.0.x > g.rest_point().x, "the red bird has flown");
}
