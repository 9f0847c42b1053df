//! The logic of every fuzz target, as plain functions: libFuzzer binaries in `fuzz_targets/`
//! call them, and `tests/corpus.rs` replays the committed corpora through them in CI.

use engine::testbed::{ball_shape, box_shape, px};
use engine::{BodyDef, BodyKind, Fixed, Polygon, Shape, Vec2, World};

/// A cursor over fuzz input that yields zeros once exhausted (so every input decodes).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    fn i16(&mut self) -> i16 {
        self.u16() as i16
    }
}

/// Decode arbitrary bytes into a scene of up to 24 bodies of every kind (balls, boxes, convex
/// polygons, jars, crossed sticks; static or dynamic; with initial velocities), anywhere in
/// and around the 256 px box. Bodies the engine refuses are skipped.
pub fn scene_from_bytes(data: &[u8]) -> World {
    let mut b = Bytes(data);
    let mut w = World::new();
    let n = b.u8() % 25;
    for _ in 0..n {
        let kind = b.u8();
        // Position: −64 … 320 px in 1/64 px steps.
        let x = Fixed::ratio(b.u16() as i64 * 6 - 64 * 64 * 6, 64 * 36);
        let y = Fixed::ratio(b.u16() as i64 * 6 - 64 * 64 * 6, 64 * 36);
        let size = 1 + (b.u8() as i64) % 64;
        let angle = Fixed::ratio(b.i16() as i64, 1000);
        let parts = match kind % 5 {
            0 => vec![ball_shape(size, 2)],
            1 => vec![box_shape(size + 1, 1 + (b.u8() as i64 % 20))],
            2 => {
                let pts: Vec<Vec2> = (0..3 + b.u8() % 6)
                    .map(|_| Vec2::new(px(b.i16() as i64 % 400, 10), px(b.i16() as i64 % 400, 10)))
                    .collect();
                match Polygon::new(&pts) {
                    Ok(p) => vec![Shape::Polygon(p)],
                    Err(_) => continue,
                }
            }
            3 => engine::testbed::jar_shapes(),
            _ => {
                let stick = |a| {
                    Polygon::new_box(px(size, 2), px(1, 1), Vec2::ZERO, Fixed::ratio(a, 100))
                        .map(Shape::Polygon)
                };
                match (stick(135), stick(-135)) {
                    (Ok(s1), Ok(s2)) => vec![s1, s2],
                    _ => continue,
                }
            }
        };
        let dynamic = kind & 0x80 != 0;
        let mut def = BodyDef::new(
            if dynamic {
                BodyKind::Dynamic
            } else {
                BodyKind::Static
            },
            Vec2::new(x, y),
            angle,
            parts,
        );
        def.linear_velocity = Vec2::new(
            Fixed::ratio(b.i16() as i64, 100),
            Fixed::ratio(b.i16() as i64, 100),
        );
        def.angular_velocity = Fixed::ratio(b.i16() as i64, 100);
        let _ = w.add_body(&def);
    }
    w
}

/// Target (a): build a scene, step it 200 times; the run must not panic (overflow checks are
/// on), must give the same per-step hash chain twice, and a snapshot taken at step 100 must
/// continue bit for bit.
pub fn scene_step(data: &[u8]) {
    let world = scene_from_bytes(data);
    let run = |mut w: World, steps: u32| {
        let mut h = 0;
        for _ in 0..steps {
            w.step();
            h = engine::chain_hash(h, w.state_hash());
        }
        (h, w)
    };
    let (h1, _) = run(world.clone(), 200);
    let (h_mid, mid) = run(world.clone(), 100);
    let (h2, _) = run(world, 200);
    assert_eq!(h1, h2, "two runs of the same scene differ");
    let (h_rest, _) = run(mid.clone(), 100);
    let (h_rest2, _) = run(mid, 100);
    assert_eq!(h_rest, h_rest2, "a snapshot does not continue identically");
    let _ = h_mid;
}

/// Target (b): arbitrary bytes as an original PHYRE task file (xz + Thrift), as a bare Thrift
/// payload, and as rephyre's own task format. Every outcome must be a value (tasks or an
/// error), never a panic; the readers cap decompressed sizes and check every length field
/// against the bytes left before allocating, so memory stays bounded.
pub fn task_files(data: &[u8]) {
    let _ = tasks::import::import_phyre(data);
    let _ = tasks::import::import_phyre_thrift(data);
    if let Ok(decoded) = tasks::store::decode(data) {
        // Whatever decodes must re-encode to something that decodes to the same tasks.
        let again = tasks::store::decode(&tasks::store::encode(
            &decoded,
            tasks::store::Compression::None,
        ));
        assert_eq!(
            again.as_ref().ok(),
            Some(&decoded),
            "store round trip changed the tasks"
        );
    }
}

/// Target (c): arbitrary f64 actions (any bit pattern: NaN, ±inf, −0.0, subnormals, out of
/// range) of any length on any built-in task and tier. Validation must return a reason or a
/// valid action, and a valid action must simulate to an outcome; never a panic.
pub fn actions(data: &[u8]) {
    let set = tasks::TaskSet::builtin();
    let mut b = Bytes(data);
    let task = &set.tasks()[b.u16() as usize % set.len()];
    let tier = if b.u8() & 1 == 0 {
        tasks::Tier::Ball
    } else {
        tasks::Tier::TwoBalls
    };
    let len = match b.u8() % 8 {
        0 => 0,
        1 => 7,
        n if n < 5 => tier.action_len(),
        n => n as usize,
    };
    let action: Vec<f64> = (0..len)
        .map(|_| {
            let bits = u64::from_le_bytes([
                b.u8(),
                b.u8(),
                b.u8(),
                b.u8(),
                b.u8(),
                b.u8(),
                b.u8(),
                b.u8(),
            ]);
            // Mix raw bit patterns with in-range values so both paths get exercised.
            if bits >> 63 == 0 && bits & 1 == 0 {
                (bits >> 11) as f64 / (1u64 << 53) as f64
            } else {
                f64::from_bits(bits)
            }
        })
        .collect();
    if let Ok(valid) = tasks::validate_action(task, tier, &action) {
        assert!(
            action.iter().all(|v| (0.0..=1.0).contains(v)),
            "an out-of-range action was accepted"
        );
        let outcome = tasks::simulate(task, &valid, tasks::SimOptions::default())
            .expect("valid actions build");
        assert!(outcome.steps <= 1000);
    }
}

/// The built-in Phy-Q templates' levels, parsed once.
fn phyq_templates() -> &'static [phyq::Level] {
    static LEVELS: std::sync::OnceLock<Vec<phyq::Level>> = std::sync::OnceLock::new();
    LEVELS.get_or_init(|| {
        phyq::templates::templates()
            .iter()
            .map(|t| t.level().expect("a built-in template parses"))
            .collect()
    })
}

/// Most objects a fuzzed level may have for the target to step it (a pile of overlapping
/// bodies at 100 solver iterations is slow; building the world is tried at any size).
const PHYQ_STEP_OBJECTS: usize = 16;
/// Idle steps run on a fuzzed level that builds.
const PHYQ_IDLE_STEPS: u32 = 10;

/// Target (d): arbitrary bytes as a Phy-Q / Science Birds level XML file. The reader must
/// return a level or an error, never panic (DTDs, entities, deep nesting, huge or non-decimal
/// numbers, truncations are refused with an error). What it accepts must be a valid level that
/// round-trips through a level-set file unchanged, build into a game (or be refused with an
/// error) and, when small, run a few idle steps.
pub fn phyq_level_xml(data: &[u8]) {
    let Ok(level) = phyq::parse_level(data) else {
        return;
    };
    assert_eq!(
        level.validate(),
        Ok(()),
        "the reader accepted an invalid level"
    );
    let entry = phyq::levelset::Entry {
        id: phyq::LevelId::Named("fuzz".into()),
        source: "fuzz.xml".into(),
        level: level.clone(),
    };
    let set = phyq::LevelSet::new(vec![entry]).expect("a valid level makes a set");
    let back = phyq::LevelSet::from_bytes(&set.to_bytes()).expect("a written set reads back");
    assert_eq!(back, set, "the level-set round trip changed the level");
    if let Ok(mut game) = phyq::game::Game::new(&level) {
        if level.objects.len() <= PHYQ_STEP_OBJECTS {
            for _ in 0..PHYQ_IDLE_STEPS {
                game.step_idle();
            }
        }
    }
}

/// Target (e): arbitrary text as a shot list (`x,y,tap;…`, what `--shots`, the Python package
/// and the web player take). Parsing must return shots or an error, never panic; parsed shots
/// must print to text that parses to the same shots, and convert into the game's units on a
/// built-in template (chosen by the input's length), as must the grid shot nearest to each.
pub fn phyq_shots(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(shots) = phyq::game::parse_shots(text) else {
        return;
    };
    let again = phyq::game::parse_shots(&phyq::game::format_shots(&shots));
    assert_eq!(
        again.as_ref().ok(),
        Some(&shots),
        "format/parse changed the shots"
    );
    let levels = phyq_templates();
    let level = &levels[data.len() % levels.len()];
    for s in shots {
        let shot = s.to_shot(level);
        let grid = phyq::game::PixelShot::nearest(&shot, level);
        let _ = grid.to_shot(level);
    }
}

/// Target (f): arbitrary bytes as a Phy-Q level-set file (JSON). Reading must return a set or
/// an error, never panic (wrong format name or version, bad ids, unsorted or repeated ids,
/// invalid levels, deep nesting, huge numbers); a set read must write and read back to itself,
/// and its first levels build into games or are refused with an error.
pub fn phyq_level_sets(data: &[u8]) {
    let Ok(set) = phyq::LevelSet::from_bytes(data) else {
        return;
    };
    let back = phyq::LevelSet::from_bytes(&set.to_bytes()).expect("a written set reads back");
    assert_eq!(back, set, "the level-set round trip changed the set");
    for e in set.entries().iter().take(4) {
        let _ = phyq::game::Game::new(&e.level);
    }
}

/// Target (g): arbitrary bytes as what an agent sends `rephyre phyq-server`, decoded request
/// after request as the server reads its socket. Decoding must return a request, "read more"
/// or an error, never panic or allocate beyond its limits (huge length fields, unknown codes,
/// a shot sequence holding something else, truncation anywhere); a decoded request takes at
/// least one byte and no more than there are, encodes back to exactly those bytes, and every
/// shorter prefix of them (for requests under 512 bytes) asks for more.
pub fn phyq_server_wire(data: &[u8]) {
    use phyq_server::wire::{decode, encode, Decoded};
    let mut rest = data;
    // Bounded so an input of many one-byte requests stays fast.
    for _ in 0..64 {
        match decode(rest) {
            Ok(Decoded::Request(request, taken)) => {
                assert!(
                    taken > 0 && taken <= rest.len(),
                    "took {taken} of {}",
                    rest.len()
                );
                let bytes = &rest[..taken];
                assert_eq!(encode(&request), bytes, "{request:?} encodes otherwise");
                if taken < 512 {
                    for cut in 0..taken {
                        assert_eq!(
                            decode(&bytes[..cut]),
                            Ok(Decoded::NeedMore),
                            "a prefix of {cut} bytes of {request:?}"
                        );
                    }
                }
                rest = &rest[taken..];
            }
            Ok(Decoded::NeedMore) => return,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                return;
            }
        }
    }
}
