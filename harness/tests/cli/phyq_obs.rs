//! Phy-Q observations: `render`, `tasks show` (summary, `--json`, `--png`) and `tasks sheet
//! --tier phyq` on Phy-Q ids, and their bad input.

use std::path::Path;

use crate::common::{fails, ok, s};

const ID: &str = "phyq:1_1_4:00001";

/// A PNG's width, height, palette length and indices.
fn decode_png(path: &Path) -> (u32, u32, usize, Vec<u8>) {
    let dec = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Indexed);
    buf.truncate(info.buffer_size());
    let palette = r.info().palette.as_ref().map_or(0, |p| p.len() / 3);
    (info.width, info.height, palette, buf)
}

#[test]
fn render_draws_a_phyq_task() {
    let dir = tempfile::tempdir().unwrap();
    let png_path = dir.path().join("level.png");
    let text = ok(&["render", ID, "--out", s(&png_path)]);
    assert!(text.starts_with(ID), "{text}");
    let (w, h, palette, pixels) = decode_png(&png_path);
    assert_eq!((w, h, palette), (640, 480, 256));
    // Sky (187), ground (36), pig green (125), wood (136), platform (68) and the red bird (224).
    for code in [187u8, 36, 125, 136, 68, 224] {
        assert!(pixels.contains(&code), "no pixel of code {code}");
    }
    // --raw: the same codes, row 0 at the top; --scale 2 doubles each pixel.
    let raw_path = dir.path().join("level.bin");
    ok(&["render", ID, "--raw", "--out", s(&raw_path)]);
    let raw = std::fs::read(&raw_path).unwrap();
    assert_eq!(raw, pixels);
    let big = dir.path().join("big.png");
    ok(&["render", ID, "--scale", "2", "--out", s(&big)]);
    let (w2, h2, _, big_pixels) = decode_png(&big);
    assert_eq!((w2, h2), (1280, 960));
    for y in (0..480).step_by(7) {
        for x in (0..640).step_by(5) {
            assert_eq!(big_pixels[(2 * y) * 1280 + 2 * x + 1], pixels[y * 640 + x]);
        }
    }
    // The same bytes every time.
    let again = dir.path().join("again.png");
    ok(&["render", ID, "--out", s(&again)]);
    assert_eq!(
        std::fs::read(&png_path).unwrap(),
        std::fs::read(&again).unwrap()
    );
}

#[test]
fn tasks_show_describes_a_phyq_task() {
    let out = ok(&["tasks", "show", ID]);
    assert!(out.contains(&format!("task:        {ID}")), "{out}");
    assert!(
        out.contains("template:    1_1_4 (paper 1.1, scenario 1"),
        "{out}"
    );
    assert!(out.contains("wood_circle_1"), "{out}");
    assert!(out.contains("pig_basic_small_1"), "{out}");
    assert!(out.contains("Slingshot"), "{out}");
    assert!(out.contains("bird_red_1"), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["tasks", "show", ID, "--json"])).expect("one JSON document");
    assert_eq!(json["id"], ID);
    assert_eq!(json["format"], "rephyre-phyq-symbolic");
    let objects = json["objects"].as_array().unwrap();
    // The slingshot, the template's four objects and up to three distractors, one bird.
    assert!((6..=9).contains(&objects.len()), "{}", objects.len());
    assert_eq!(objects[0]["type"], "Slingshot");
    assert_eq!(objects.last().unwrap()["type"], "bird_red_1");
    let dir = tempfile::tempdir().unwrap();
    let png_path = dir.path().join("show.png");
    let text = ok(&["tasks", "show", ID, "--png", s(&png_path)]);
    assert!(text.contains("png:"), "{text}");
    let rendered = dir.path().join("render.png");
    ok(&["render", ID, "--out", s(&rendered)]);
    assert_eq!(
        std::fs::read(&png_path).unwrap(),
        std::fs::read(&rendered).unwrap()
    );
}

#[test]
fn tasks_sheet_tiles_phyq_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sheet.png");
    let text = ok(&[
        "tasks",
        "sheet",
        "--tier",
        "phyq",
        "--templates",
        "1.1,2_1_3",
        "--per-template",
        "2",
        "--columns",
        "2",
        "--shrink",
        "4",
        "--out",
        s(&out),
    ]);
    assert!(text.starts_with("4 scenes"), "{text}");
    let (w, h, palette, pixels) = decode_png(&out);
    // Tiles of 160 × 120, 4-pixel gaps, a 9-pixel label strip under each.
    assert_eq!((w, h, palette), (2 * 164 + 4, 2 * (120 + 9 + 4) + 4, 256));
    // The first tile's label (dark grey text, 73) on its white strip (rows 124..133).
    let strip: Vec<u8> = (126..131)
        .flat_map(|y| pixels[y * w as usize + 4..y * w as usize + 164].to_vec())
        .collect();
    assert!(
        strip.iter().filter(|&&p| p == 73).count() > 20,
        "label text"
    );
    assert!(strip.contains(&255));
}

#[test]
fn phyq_ids_fail_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.png");
    let err = fails(&["render", "phyq:1_1_4:00101", "--out", s(&out)]);
    assert!(err.contains("unknown Phy-Q task phyq:1_1_4:00101"), "{err}");
    let err = fails(&["render", "phyq:9_9_9:00001", "--out", s(&out)]);
    assert!(err.contains("unknown Phy-Q task"), "{err}");
    let err = fails(&["tasks", "show", "phyq:1_1_4:1"]);
    assert!(err.contains("not a canonical level id"), "{err}");
    let err = fails(&["render", ID, "--step", "10", "--out", s(&out)]);
    assert!(
        err.contains("--action and --step are for PHYRE tasks"),
        "{err}"
    );
    let err = fails(&["tasks", "show", "00000:000", "--json"]);
    assert!(err.contains("--json is for Phy-Q tasks"), "{err}");
    let err = fails(&[
        "tasks",
        "sheet",
        "--tier",
        "phyq",
        "--templates",
        "9.9",
        "--out",
        s(&out),
    ]);
    assert!(err.contains("no Phy-Q template"), "{err}");
    let err = fails(&["tasks", "sheet", "--shrink", "2", "--out", s(&out)]);
    assert!(err.contains("--shrink is for --tier phyq"), "{err}");
    assert!(!out.exists());
}
