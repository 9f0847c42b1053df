//! Pictures: `render` raw observations and PNGs (the same scene, row 0 at the bottom), `tasks
//! show --png`, `simulate --gif` frames, and render's bad input.

use std::path::Path;

use crate::common::{fails, ok, s, simulate_json};

fn render_raw(args: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("obs.bin");
    let mut a = vec!["render", "--raw", "--out", s(&out)];
    a.extend_from_slice(args);
    ok(&a);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), 65536);
    assert!(bytes.iter().all(|&b| b <= 6));
    bytes
}

/// Mean row of the pixels of value `v` (row 0 = bottom in a raw observation).
fn mean_row(obs: &[u8], v: u8) -> f64 {
    let rows: Vec<usize> = (0..obs.len())
        .filter(|&i| obs[i] == v)
        .map(|i| i / 256)
        .collect();
    assert!(!rows.is_empty(), "no pixel of value {v}");
    rows.iter().sum::<usize>() as f64 / rows.len() as f64
}

fn decode_png(path: &Path) -> (u32, Vec<u8>) {
    let dec = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Indexed);
    assert_eq!(info.width, info.height);
    buf.truncate(info.buffer_size());
    (info.width, buf)
}

#[test]
fn render_observations_and_pictures() {
    // 00001:000: a green ball falls onto a floor; user balls are red (1).
    let scene = render_raw(&["00001:000"]);
    assert_eq!(scene, render_raw(&["00001:000", "--step", "0"]));
    assert!(!scene.contains(&1), "no user ball without an action");
    let action = "0.6397238684805773,0.6794866332003704,0.8309523899446835";
    let with_ball = render_raw(&["00001:000", "--action", action]);
    assert!(with_ball.contains(&1));
    let later = render_raw(&["00001:000", "--action", action, "--step", "60"]);
    assert_ne!(with_ball, later);
    // Row 0 is the bottom: the falling green ball's rows go down.
    assert!(mean_row(&later, 2) < mean_row(&with_ball, 2) - 1.0);
    // The PNG is the same picture, up at the top, scaled.
    let dir = tempfile::tempdir().unwrap();
    let png_path = dir.path().join("scene.png");
    ok(&[
        "render",
        "00001:000",
        "--action",
        action,
        "--out",
        s(&png_path),
        "--scale",
        "2",
    ]);
    let (w, img) = decode_png(&png_path);
    assert_eq!(w, 512);
    for y in 0..256 {
        for x in 0..256 {
            assert_eq!(img[(2 * y) * 512 + 2 * x], with_ball[(255 - y) * 256 + x]);
        }
    }
    // tasks show --png draws the initial scene.
    let show = dir.path().join("show.png");
    let text = ok(&["tasks", "show", "00001:000", "--png", s(&show)]);
    assert!(text.contains("png:"), "{text}");
    let (w, img) = decode_png(&show);
    assert_eq!(w, 256);
    for y in 0..256 {
        for x in 0..256 {
            assert_eq!(img[y * 256 + x], scene[(255 - y) * 256 + x]);
        }
    }
    fails(&[
        "tasks",
        "show",
        "00001:000",
        "--png",
        "/nonexistent-dir/s.png",
    ]);
}

#[test]
fn simulate_writes_a_gif_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let gif_path = dir.path().join("run.gif");
    let v = simulate_json(&[
        "00001:000",
        "--action",
        "0.5,0.5,0.3",
        "--gif",
        s(&gif_path),
        "--scale",
        "2",
    ]);
    assert_eq!(v["gif"], s(&gif_path));
    let steps = v["steps"].as_u64().unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut dec = opts
        .read_info(std::fs::File::open(&gif_path).unwrap())
        .unwrap();
    assert_eq!((dec.width(), dec.height()), (512, 512));
    let mut frames = 0;
    while dec.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    // Frames after steps 1, 61, 121, … and the last step when it is not one of those.
    let expected = (steps - 1).div_ceil(60) + 1;
    assert_eq!(frames, expected, "{v}");
    // An invalid action writes no GIF.
    let bad = dir.path().join("bad.gif");
    let v = simulate_json(&["00001:000", "--action", "1.5,0.5,0.3", "--gif", s(&bad)]);
    assert_eq!(v["status"], "INVALID");
    assert!(!bad.exists());
}

#[test]
fn render_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.bin");
    let o = s(&out);
    fails(&[
        "render",
        "00000:000",
        "--raw",
        "--out",
        "/nonexistent-dir/x.bin",
    ]);
    fails(&["render", "00000:000", "--raw", "--out", s(dir.path())]);
    fails(&["render", "00000:000", "--raw", "--step", "1001", "--out", o]);
    fails(&["render", "00000:000", "--scale", "0", "--out", o]);
    fails(&["render", "00000:000", "--scale", "9", "--out", o]);
    fails(&[
        "render",
        "00000:000",
        "--raw",
        "--action",
        "0.5,y,0.1",
        "--out",
        o,
    ]);
    assert!(fails(&[
        "render",
        "00000:000",
        "--raw",
        "--action",
        "2,0.5,0.1",
        "--out",
        o
    ])
    .contains("invalid"));
    fails(&["render", "99999:999", "--raw", "--out", o]);
    assert!(!out.exists());
}
