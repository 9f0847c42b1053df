//! Writes the hand-made seed entries of the fuzz corpora (run once; fuzzing adds more):
//! `cargo run -p rephyre-fuzz --example make_seeds`.
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let set = tasks::TaskSet::builtin();
    let two: Vec<tasks::Task> = set.tasks()[..2].to_vec();
    let files = root.join("task_files");
    let store_plain = tasks::store::encode(&two, tasks::store::Compression::None);
    let store_zlib = tasks::store::encode(&two, tasks::store::Compression::Zlib);
    std::fs::write(files.join("seed-store-plain"), &store_plain).unwrap();
    std::fs::write(files.join("seed-store-zlib"), &store_zlib).unwrap();
    std::fs::write(
        files.join("seed-store-truncated"),
        &store_plain[..store_plain.len() / 2],
    )
    .unwrap();
    std::fs::write(files.join("seed-empty"), b"").unwrap();
    // An xz stream header followed by garbage, and a Thrift struct claiming a 2^31-element list.
    std::fs::write(
        files.join("seed-xz-header"),
        [
            0xfd, b'7', b'z', b'X', b'Z', 0x00, 0x00, 0x04, 0xe6, 0xd6, 0xb4, 0x46, 1, 2, 3,
        ],
    )
    .unwrap();
    std::fs::write(
        files.join("seed-thrift-huge-list"),
        [0x0f, 0x00, 0x01, 0x0c, 0x7f, 0xff, 0xff, 0xff, 0x00],
    )
    .unwrap();
    let actions = root.join("actions");
    let f = |v: f64| v.to_le_bytes();
    let mut cases: Vec<(u16, u8, u8, Vec<f64>)> = vec![
        (0, 0, 2, vec![0.5, 0.5, 0.3]),
        (7, 0, 3, vec![f64::NAN, 0.5, 0.5]),
        (9, 0, 4, vec![f64::INFINITY, -0.0, 1.0]),
        (2600, 1, 2, vec![0.2, 0.8, 0.1, 0.8, 0.8, 0.1]),
        (3000, 1, 3, vec![0.5, 0.5, 0.1, 0.5, 0.5, 0.1]),
        (11, 0, 2, vec![1.0000001, 0.5, 0.5]),
        (12, 0, 2, vec![f64::from_bits(1), 0.5, 0.5]),
        (4999, 1, 1, vec![0.5; 7]),
        (123, 0, 2, vec![0.1, 0.9, 0.05]),
    ];
    for (i, (task, tier, len_sel, vals)) in cases.drain(..).enumerate() {
        let mut bytes = task.to_le_bytes().to_vec();
        bytes.push(tier);
        bytes.push(len_sel);
        for v in vals {
            bytes.extend_from_slice(&f(v));
        }
        std::fs::write(actions.join(format!("seed-{i:02}")), bytes).unwrap();
    }
    phyq_level_xml(&root.join("phyq_level_xml"));
    phyq_shots(&root.join("phyq_shots"));
    phyq_level_sets(&root.join("phyq_level_sets"));
    phyq_server_wire(&root.join("phyq_server_wire"));
}

/// Writes `name` in the folder `dir` (made if missing).
fn put(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(name), bytes).unwrap();
}

fn templates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../phyq/data/templates")
}

/// A small valid level (UTF-8) with these `GameObjects` and birds.
fn small_level(birds: &str, objects: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Level width=\"2\">\n\
         <Camera x=\"0\" y=\"-1\" minWidth=\"25\" maxWidth=\"35\"/>\n<Score highScore=\"0\"/>\n\
         <Birds>{birds}</Birds>\n<Slingshot x=\"-12.0\" y=\"-2.5\"/>\n\
         <GameObjects>\n{objects}\n</GameObjects>\n</Level>\n"
    )
}

const RED: &str = r#"<Bird type="BirdRed"/>"#;
const PIG: &str = r#"<Pig type="BasicSmall" x="0" y="-3.2"/>"#;

/// The level XML corpus: the 75 templates as written, then hostile variations.
fn phyq_level_xml(dir: &Path) {
    let mut names: Vec<_> = std::fs::read_dir(templates_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 75);
    for n in &names {
        let bytes = std::fs::read(templates_dir().join(n)).unwrap();
        put(dir, &format!("template-{n}"), bytes);
    }
    let t = std::fs::read_to_string(templates_dir().join("2_1_2_1.xml")).unwrap();
    // Encodings: UTF-16 LE with a BOM, UTF-16 BE without, UTF-8 with a BOM, UTF-32, odd UTF-16.
    let mut le = vec![0xFF, 0xFE];
    le.extend(t.encode_utf16().flat_map(u16::to_le_bytes));
    put(dir, "seed-utf16le-bom", &le);
    let be: Vec<u8> = t.encode_utf16().flat_map(u16::to_be_bytes).collect();
    put(dir, "seed-utf16be-no-bom", &be);
    put(dir, "seed-utf16-odd", &be[..be.len() - 1]);
    put(
        dir,
        "seed-utf8-bom",
        [&[0xEF, 0xBB, 0xBF][..], t.as_bytes()].concat(),
    );
    put(dir, "seed-utf32", [0xFF, 0xFE, 0, 0, b'<', 0, 0, 0]);
    put(
        dir,
        "seed-bad-utf8",
        [b"<Level>".as_slice(), &[0xC3, 0x28]].concat(),
    );
    put(dir, "seed-empty", b"");
    // Truncated in the middle of an element, and just before the end.
    put(dir, "seed-truncated-half", &t.as_bytes()[..t.len() / 2]);
    put(dir, "seed-truncated-end", &t.as_bytes()[..t.len() - 3]);
    // A DTD with nested entities (the "billion laughs"), and entities used without one.
    let laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE Level [\n<!ENTITY a \"aaaaaaaaaa\">\n\
                  <!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n\
                  <!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">\n]>\n";
    put(
        dir,
        "seed-dtd-entities",
        format!(
            "{laughs}{}",
            small_level(RED, PIG).replace("BirdRed", "&c;")
        ),
    );
    put(
        dir,
        "seed-dtd-external",
        format!(
            "<!DOCTYPE Level SYSTEM \"file:///etc/passwd\">{}",
            small_level(RED, PIG)
        ),
    );
    put(
        dir,
        "seed-undefined-entity",
        small_level(r#"<Bird type="&red;"/>"#, PIG),
    );
    put(
        dir,
        "seed-char-references",
        small_level(r#"<Bird type="&#66;ird&#x52;ed"/>"#, PIG),
    );
    // Nesting far deeper than the schema's three levels.
    let deep = format!("{}{}", "<Level>".repeat(2000), "</Level>".repeat(2000));
    put(dir, "seed-deep-nesting", deep);
    put(
        dir,
        "seed-deep-in-objects",
        small_level(
            RED,
            &format!("{PIG}{}{}", "<Block>".repeat(100), "</Block>".repeat(100)),
        ),
    );
    // Numbers: huge, tiny, too long, not decimal, at the edge of the ranges.
    for (name, x) in [
        ("seed-number-huge", "1e400"),
        ("seed-number-tiny", "-1e-400"),
        ("seed-number-long", &"9".repeat(5000)),
        ("seed-number-nan", "NaN"),
        ("seed-number-inf", "-Infinity"),
        ("seed-number-hex", "0x10"),
        ("seed-number-edge", "1000"),
        ("seed-number-over", "1000.0000001"),
    ] {
        let pig = format!(r#"<Pig type="BasicSmall" x="{x}" y="-3.2" rotation="3600"/>"#);
        put(dir, name, small_level(RED, &pig));
    }
    // Platforms at the largest and smallest scales, and everything at the edges of the world.
    put(
        dir,
        "seed-platform-scales",
        small_level(
            RED,
            &format!(
                r#"{PIG}<Platform type="" x="1000" y="-1000" scaleX="1000" scaleY="1000" rotation="45"/>
<Platform type="" x="0" y="0" scaleX="0.0000000001" scaleY="-1"/>
<TNT type="" x="-1000" y="1000" rotation="-3600"/>"#
            ),
        ),
    );
    // Sixteen objects on one spot (the world pushes them apart in its first steps).
    let pile: String = (0..15)
        .map(|i| {
            let m = ["wood", "stone", "ice"][i % 3];
            format!(r#"<Block type="SquareHole" material="{m}" x="0" y="0" rotation="{i}"/>"#)
        })
        .collect();
    put(dir, "seed-pile", small_level(RED, &format!("{PIG}{pile}")));
    // Too many birds; no pig; no bird; an unknown type; text, CDATA, a processing instruction.
    put(
        dir,
        "seed-too-many-birds",
        small_level(&RED.repeat(101), PIG),
    );
    put(dir, "seed-no-pig", small_level(RED, ""));
    put(dir, "seed-no-bird", small_level("", PIG));
    put(
        dir,
        "seed-unknown-type",
        small_level(
            RED,
            r#"<Block type="RectHuge" material="gold" x="0" y="0"/>"#,
        ),
    );
    put(
        dir,
        "seed-text-cdata-pi",
        small_level(RED, &format!("{PIG}text<![CDATA[x]]><?pi x?>")),
    );
    put(
        dir,
        "seed-repeated-attribute",
        small_level(RED, r#"<Pig type="BasicSmall" x="0" x="1" y="0"/>"#),
    );
}

/// The shot-list corpus: shots as the witness file and the docs write them, then hostile text.
fn phyq_shots(dir: &Path) {
    let cases: &[(&str, &str)] = &[
        ("seed-one", "-17.28,-5.98,0"),
        (
            "seed-three",
            "-14.11,-11.63,0;-15.87,-9.08,0;-15.88,-9.07,0",
        ),
        ("seed-tap", "-15.37,-9.9,1.52"),
        ("seed-spaces-trailing", " -60 , 20 , 0.5 ;"),
        ("seed-limits", "-10000,10000,60;10000,-10000,0.02"),
        ("seed-exponents", "-1.5e1,2E-1,1e0"),
        ("seed-negative-zero", "-0,-0.0,0"),
        ("seed-tiny", "1e-400,-5e-324,0.0000000001"),
        ("seed-empty", ""),
        ("seed-semicolons", ";;;"),
        ("seed-arity", "1,2;1,2,3,4"),
        ("seed-nan", "NaN,0,0"),
        ("seed-inf", "0,inf,0"),
        ("seed-infinity", "0,0,-infinity"),
        ("seed-overflow", "1e309,0,0"),
        ("seed-out-of-range", "10000.000001,0,0"),
        ("seed-tap-negative", "0,0,-0.01"),
        ("seed-tap-late", "0,0,60.000001"),
        ("seed-hex", "0x10,0,0"),
        ("seed-underscore", "1_000,0,0"),
        ("seed-fullwidth", "\u{ff11},0,0"),
        ("seed-nbsp", "\u{a0}1,0,0"),
        ("seed-plus", "+1,+2,+0.5"),
    ];
    for (name, text) in cases {
        put(dir, name, text);
    }
    put(dir, "seed-101-shots", "0,0,0;".repeat(101));
    put(dir, "seed-100-shots", "-17.28,-5.98,0.5;".repeat(100));
    put(
        dir,
        "seed-long-number",
        format!("1.{},0,0", "1".repeat(4000)),
    );
    put(dir, "seed-not-utf8", [b'1', b',', 0xFF, b',', b'0']);
}

/// The level-set corpus: sets imported from templates, then broken variations of one.
fn phyq_level_sets(dir: &Path) {
    let t = templates_dir();
    let three = phyq::import_paths(&[
        t.join("1_1_1_1.xml"),
        t.join("2_4_4_1.xml"),
        t.join("3_9_8_1.xml"),
    ])
    .unwrap()
    .to_bytes();
    put(dir, "seed-three-templates", &three);
    let one = phyq::import_paths(&[t.join("1_1_1_1.xml")])
        .unwrap()
        .to_bytes();
    put(dir, "seed-one-template", &one);
    let text = String::from_utf8(one.clone()).unwrap();
    let three_text = String::from_utf8(three.clone()).unwrap();
    let edit = |old: &str, new: &str| {
        assert!(text.contains(old), "{old}");
        text.replacen(old, new, 1)
    };
    put(
        dir,
        "seed-wrong-format",
        edit("rephyre-phyq-levels", "rephyre-tasks"),
    );
    put(
        dir,
        "seed-version-2",
        edit("\"version\": 1", "\"version\": 2"),
    );
    put(
        dir,
        "seed-version-negative",
        edit("\"version\": 1", "\"version\": -1"),
    );
    put(
        dir,
        "seed-version-huge",
        edit("\"version\": 1", "\"version\": 1e30"),
    );
    put(dir, "seed-number-nan", edit("\"-0.00044\"", "\"NaN\""));
    put(dir, "seed-number-huge", edit("\"-0.00044\"", "\"1e400\""));
    put(dir, "seed-number-bare", edit("\"-0.00044\"", "-0.00044"));
    put(dir, "seed-number-range", edit("\"-0.00044\"", "\"-5000\""));
    put(
        dir,
        "seed-unknown-field",
        edit("\"version\": 1", "\"version\": 1, \"extra\": true"),
    );
    put(
        dir,
        "seed-bad-id",
        edit("phyq:1_1_1:00001", "phyq:1_01_1:00001"),
    );
    put(dir, "seed-unknown-pig", edit("BasicSmall", "BasicHuge"));
    put(dir, "seed-truncated", &three[..three.len() / 2]);
    put(dir, "seed-empty", b"");
    put(dir, "seed-empty-object", b"{}");
    put(
        dir,
        "seed-no-levels",
        "{\"format\": \"rephyre-phyq-levels\", \"version\": 1, \"levels\": []}",
    );
    // Ids out of order and repeated: the second and third levels' ids swapped, then one twice.
    let (a, b) = ("phyq:2_4_4:00001", "phyq:3_9_8:00001");
    assert!(three_text.contains(a) && three_text.contains(b));
    let swapped = three_text.replace(a, "@").replace(b, a).replace('@', b);
    put(dir, "seed-unsorted", swapped);
    put(dir, "seed-duplicate-id", three_text.replace(b, a));
    // Nesting deep enough to test the JSON reader's recursion limit.
    let deep = format!(
        "{{\"format\": \"rephyre-phyq-levels\", \"version\": 1, \"levels\": {}{}}}",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    put(dir, "seed-deep-nesting", deep);
    put(dir, "seed-not-json", [0x00, 0xFF, b'{', 0x80]);
}

/// The agent-protocol corpus: every request as the original client packs it, a session's
/// stream of them, then hostile bytes (unknown codes, huge or negative length fields, a shot
/// sequence holding another code, truncations).
fn phyq_server_wire(dir: &Path) {
    use phyq_server::wire::{code, encode, Aim, NoveltyReport, Request, ShotArgs};
    let shot = ShotArgs {
        a: -180,
        b: 40,
        t1: 0,
        t2: 1200,
    };
    let requests = [
        (
            "configure",
            Request::Configure {
                agent_id: 2004,
                mode: 1,
            },
        ),
        ("speed", Request::SetSimulationSpeed(50)),
        ("screenshot", Request::Screenshot),
        ("state", Request::GetState),
        ("current-level", Request::GetCurrentLevel),
        ("level-count", Request::GetNumberOfLevels),
        ("scores", Request::GetAllLevelScores),
        (
            "shoot",
            Request::Shoot {
                aim: Aim::Cartesian,
                fast: false,
                shot,
            },
        ),
        (
            "shoot-polar-fast",
            Request::Shoot {
                aim: Aim::Polar,
                fast: true,
                shot: ShotArgs {
                    a: 4500,
                    b: 100,
                    t1: 0,
                    t2: 0,
                },
            },
        ),
        (
            "shoot-record",
            Request::ShootRecordingGroundTruth { shot, every: 5 },
        ),
        (
            "sequence",
            Request::ShootSequence {
                fast: true,
                shots: vec![(Aim::Cartesian, shot), (Aim::Polar, shot)],
            },
        ),
        ("zoom-out", Request::FullyZoomOut),
        ("zoom-in", Request::FullyZoomIn),
        ("click", Request::ClickInCentre),
        ("load", Request::LoadLevel(7)),
        ("restart", Request::RestartLevel),
        ("next", Request::LoadNextAvailableLevel),
        (
            "truth",
            Request::GroundTruth {
                noisy: false,
                screenshot: false,
            },
        ),
        (
            "truth-noisy-screenshot",
            Request::GroundTruth {
                noisy: true,
                screenshot: true,
            },
        ),
        ("level-score", Request::GetCurrentLevelScore),
        (
            "novelty-likelihood",
            Request::ReportNoveltyLikelihood(NoveltyReport {
                likelihood: 0.25,
                non_likelihood: 0.75,
                ids: vec![3, 9],
                level: 1,
                description: b"a new bird".to_vec(),
            }),
        ),
        (
            "novelty-description",
            Request::ReportNoveltyDescription(b"heavier pigs".to_vec()),
        ),
        ("ready", Request::ReadyForNewSet),
        ("novelty-info", Request::NoveltyInfo),
    ];
    for (name, r) in &requests {
        put(dir, &format!("seed-{name}"), encode(r));
    }
    // What the pig shooter sends for one level: configure, load, truth, shoot, state.
    let session: Vec<u8> = [0, 14, 17, 7, 3]
        .iter()
        .flat_map(|&i| encode(&requests[i].1))
        .collect();
    put(dir, "seed-session", &session);
    put(dir, "seed-session-truncated", &session[..session.len() - 3]);
    put(dir, "seed-empty", b"");
    put(dir, "seed-unknown-code", [0u8]);
    put(dir, "seed-unknown-code-255", [255u8, 1, 2, 3]);
    // Novelty reports whose length fields claim too much, or less than nothing.
    let novelty = |count: i32, len: i32| {
        let mut b = vec![code::REPORT_NOVELTY_LIKELIHOOD];
        b.extend_from_slice(&0.5f32.to_bits().to_be_bytes());
        b.extend_from_slice(&f32::NAN.to_bits().to_be_bytes());
        b.extend_from_slice(&count.to_be_bytes());
        b.extend_from_slice(&1i32.to_be_bytes());
        b.extend_from_slice(&len.to_be_bytes());
        b
    };
    put(dir, "seed-novelty-count-huge", novelty(i32::MAX, 0));
    put(dir, "seed-novelty-count-negative", novelty(-1, 0));
    put(dir, "seed-novelty-text-huge", novelty(0, 64 * 1024 + 1));
    let mut text_negative = vec![code::REPORT_NOVELTY_DESCRIPTION];
    text_negative.extend_from_slice(&(-5i32).to_be_bytes());
    put(dir, "seed-description-negative", text_negative);
    // A sequence of 255 shots, and one whose second entry is a fast shot's code.
    let mut long = vec![code::SHOT_SEQUENCE, 255];
    for _ in 0..255 {
        long.extend(encode(&Request::Shoot {
            aim: Aim::Cartesian,
            fast: false,
            shot,
        }));
    }
    put(dir, "seed-sequence-255", long);
    let mut bad = vec![code::SHOT_SEQUENCE_FAST, 2];
    bad.extend(encode(&Request::Shoot {
        aim: Aim::Polar,
        fast: false,
        shot,
    }));
    bad.extend(encode(&Request::Shoot {
        aim: Aim::Cartesian,
        fast: true,
        shot,
    }));
    put(dir, "seed-sequence-bad-code", bad);
}
