//! Raster checks: exact coverage, SIMD = scalar, features, frames and picture files.
#![allow(clippy::float_arithmetic)]

use engine::testbed::{ball_shape, box_shape, px};
use engine::{BodyDef, BodyId, BodyKind, Fixed, Goal, RunOptions, Shape, TouchRule, Vec2, World};
use proptest::prelude::*;
use raster::*;

fn metres(px_value: f64) -> Fixed {
    Fixed::from_f64(px_value / 6.0).unwrap()
}

#[test]
fn ball_covers_exactly_the_pixels_whose_centres_are_inside() {
    let mut w = World::new();
    let circle = Shape::Circle(engine::Circle {
        center: Vec2::ZERO,
        radius: metres(7.5),
    });
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        Vec2::new(metres(89.6), metres(58.7)),
        Fixed::ZERO,
        vec![circle],
    ))
    .unwrap();
    let obs = render(&w, &[colour::GREEN]);
    let (mut rows, mut cols) = (Vec::new(), Vec::new());
    for y in 0..SIZE {
        for x in 0..SIZE {
            let filled = obs.get(x, y) == colour::GREEN;
            let (dx, dy) = (x as f64 + 0.5 - 89.6, y as f64 + 0.5 - 58.7);
            let d2 = dx * dx + dy * dy;
            // Pixel centres exactly on the circle (e.g. (87.5, 51.5): 2.1² + 7.2² = 7.5²) are
            // ties that depend on how 89.6 and 58.7 round; every other pixel must follow the rule.
            if (d2 - 56.25).abs() > 1e-6 {
                assert_eq!(filled, d2 < 56.25, "pixel ({x}, {y})");
            }
            if filled {
                rows.push(y);
                cols.push(x);
            }
        }
    }
    assert_eq!(
        (*rows.iter().min().unwrap(), *rows.iter().max().unwrap()),
        (51, 65)
    );
    assert_eq!(
        (*cols.iter().min().unwrap(), *cols.iter().max().unwrap()),
        (82, 96)
    );
}

#[test]
fn later_bodies_paint_over_earlier_ones_and_colour_zero_is_hidden() {
    let mut w = World::new();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        engine::testbed::px2(100, 100),
        Fixed::ZERO,
        vec![box_shape(40, 40)],
    ))
    .unwrap();
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        engine::testbed::px2(100, 100),
        Fixed::ZERO,
        vec![ball_shape(10, 1)],
    ))
    .unwrap();
    let obs = render(&w, &[colour::BLACK, colour::RED]);
    assert_eq!(obs.get(100, 100), colour::RED);
    assert_eq!(obs.get(85, 85), colour::BLACK);
    let hidden = render(&w, &[0, colour::RED]);
    assert_eq!(hidden.get(85, 85), 0);
    // A rotated box: every filled pixel passes the exact centre test and vice versa.
    let mut r = World::new();
    r.add_body(&BodyDef::new(
        BodyKind::Static,
        engine::testbed::px2(128, 128),
        Fixed::ratio(7, 10),
        vec![box_shape(120, 9)],
    ))
    .unwrap();
    let obs = render(&r, &[colour::PURPLE]);
    let b = &r.bodies()[0];
    for y in 0..SIZE {
        for x in 0..SIZE {
            assert_eq!(
                obs.get(x, y) == colour::PURPLE,
                covers(&b.parts()[0], b.transform(), x, y),
                "({x}, {y})"
            );
        }
    }
}

#[derive(Clone, Debug)]
struct RandomBody {
    ball: bool,
    x: i64,
    y: i64,
    w: i64,
    h: i64,
    angle: i64,
    colour: u8,
}

fn body_strategy() -> impl Strategy<Value = RandomBody> {
    (
        any::<bool>(),
        -40i64..300,
        -40i64..300,
        1i64..120,
        1i64..40,
        -320i64..320,
        0u8..7,
    )
        .prop_map(|(ball, x, y, w, h, angle, colour)| RandomBody {
            ball,
            x,
            y,
            w,
            h,
            angle,
            colour,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn simd_and_scalar_span_fillers_render_identical_bytes(bodies in prop::collection::vec(body_strategy(), 1..25)) {
        let mut w = World::new();
        let mut colours = Vec::new();
        for b in &bodies {
            let shape = if b.ball { ball_shape(b.w.min(60), 2) } else { box_shape(b.w, b.h) };
            w.add_body(&BodyDef::new(BodyKind::Static, Vec2::new(px(b.x, 1), px(b.y, 1)), Fixed::ratio(b.angle, 100), vec![shape])).unwrap();
            colours.push(b.colour);
        }
        let mut reference = Observation::default();
        render_into(&w, &colours, &mut reference, SpanFiller::Scalar);
        for filler in SpanFiller::available() {
            let mut o = Observation::default();
            render_into(&w, &colours, &mut o, filler);
            prop_assert!(o == reference, "{filler:?} differs from the scalar reference");
        }
        // And the scalar reference is the exact per-pixel rule with painter's order.
        for y in (0..SIZE).step_by(7) {
            for x in (0..SIZE).step_by(5) {
                let mut want = 0;
                for (b, &c) in w.bodies().iter().zip(&colours) {
                    if c != 0 && covers(&b.parts()[0], b.transform(), x, y) {
                        want = c;
                    }
                }
                prop_assert_eq!(reference.get(x, y), want);
            }
        }
    }
}

#[test]
fn user_ball_features() {
    let mut w = World::new();
    let id = w
        .add_body(&BodyDef::new(
            BodyKind::Dynamic,
            engine::testbed::px2(100, 100),
            Fixed::ZERO,
            vec![ball_shape(5, 1)],
        ))
        .unwrap();
    let desc = ObjectDesc {
        body: id,
        shape: ShapeClass::Ball,
        diameter_px: Fixed::from_int(10),
        colour: colour::RED,
        use_centre_of_mass: false,
    };
    let f = object_features(&w, &[desc]);
    let want = [
        0.390625, 0.390625, 0.0, 0.0390625, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    ];
    for (a, b) in f[0].iter().zip(want) {
        assert!((*a as f64 - b).abs() < 1e-6, "{:?}", f[0]);
    }
    // Angles wrap into [0, 1): −π/2 is 0.75.
    let mut w2 = World::new();
    let id2 = w2
        .add_body(&BodyDef::new(
            BodyKind::Static,
            engine::testbed::px2(50, 60),
            -Fixed::FRAC_PI_2,
            vec![box_shape(30, 5)],
        ))
        .unwrap();
    let desc2 = ObjectDesc {
        body: id2,
        shape: ShapeClass::Bar,
        diameter_px: Fixed::from_int(30),
        colour: colour::BLACK,
        use_centre_of_mass: false,
    };
    let f2 = object_features(&w2, &[desc2]);
    assert!((f2[0][2] - 0.75).abs() < 1e-6);
    assert_eq!(f2[0][5], 1.0);
    assert_eq!(f2[0][13], 1.0);
}

#[test]
fn a_full_unsolved_run_gives_17_frames_at_stride_60() {
    let mut w = engine::testbed::bounce();
    // A body never touches itself: the run is unsolved and covers all 1000 steps.
    let goal = Goal {
        body_a: BodyId(1),
        body_b: BodyId(1),
        rule: TouchRule::Contact,
    };
    let mut steps_seen = Vec::new();
    let mut probe = w.clone();
    engine::run(&mut probe, &goal, RunOptions::default(), |s, _| {
        if s % FRAME_STRIDE == 1 {
            steps_seen.push(s)
        }
    });
    let (outcome, frames) = rollout_frames(
        &mut w,
        &goal,
        &[colour::BLACK, colour::RED],
        RunOptions::default(),
    );
    assert!(!outcome.solved);
    assert_eq!(frames.len(), 17);
    assert_eq!(steps_seen, (0..17).map(|k| k * 60 + 1).collect::<Vec<_>>());
    // The ball falls: its lowest red pixel moves down between the first two frames.
    let lowest = |o: &Observation| {
        (0..SIZE)
            .find(|&y| (0..SIZE).any(|x| o.get(x, y) == colour::RED))
            .unwrap()
    };
    assert!(lowest(&frames[1]) < lowest(&frames[0]));
}

#[test]
fn png_gif_and_sheet_files_decode_to_the_right_size() {
    let dir = std::env::temp_dir().join(format!("raster-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let w = engine::testbed::pile();
    let colours: Vec<u8> = (0..w.bodies().len())
        .map(|i| if i < 3 { colour::BLACK } else { colour::GRAY })
        .collect();
    let obs = render(&w, &colours);
    let png_path = dir.join("frame.png");
    write_observation_png(&png_path, &obs, 2).unwrap();
    let decoder = png::Decoder::new(std::fs::File::open(&png_path).unwrap());
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (512, 512));
    let mut img = Indexed::from_observation(&obs, 1);
    img.outline_circle(128.0, 128.0, 20.0, 1, picture::OUTLINE);
    let gif_path = dir.join("run.gif");
    write_gif(
        &gif_path,
        &[img.clone(), Indexed::from_observation(&obs, 1)],
        10,
    )
    .unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts
        .read_info(std::fs::File::open(&gif_path).unwrap())
        .unwrap();
    let mut n = 0;
    while let Some(f) = d.read_next_frame().unwrap() {
        assert_eq!((f.width, f.height), (256, 256));
        n += 1;
    }
    assert_eq!(n, 2);
    let sheet = contact_sheet(&[obs.clone(), obs.clone(), obs], 2);
    assert_eq!((sheet.width, sheet.height), (2 * 256 + 12, 2 * 256 + 12));
    // Unwritable paths are errors, not panics.
    let bad = dir.join("no-such-folder").join("x.png");
    assert!(matches!(write_png(&bad, &sheet), Err(PictureError::Io(..))));
    assert!(write_gif(&bad, &[sheet], 10).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
