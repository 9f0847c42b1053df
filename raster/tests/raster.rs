//! The raster's contract: exact pixel coverage, painter's order, SIMD = scalar on random scenes,
//! object features, frame steps, and picture files.

use engine::testbed::{ball_shape, box_shape, jar_shapes, px, px2};
use engine::{
    BodyDef, BodyId, BodyKind, Circle, Fixed, Goal, Polygon, Shape, TouchRule, Vec2, World,
};
use proptest::prelude::*;
use raster::*;

/// `tenths / 10` px in metres, to the nearest Q32.32 value.
fn tenths_px(tenths: i64) -> Fixed {
    Fixed::ratio(tenths, 60)
}

fn add(w: &mut World, kind: BodyKind, pos: Vec2, angle: Fixed, parts: Vec<Shape>) -> BodyId {
    w.add_body(&BodyDef::new(kind, pos, angle, parts)).unwrap()
}

/// The painter's rule, pixel by pixel, from `covers` (the specification of a single pixel).
fn reference_pixel(w: &World, colours: &[u8], x: usize, y: usize) -> u8 {
    let mut v = 0;
    for (b, &c) in w.bodies().iter().zip(colours) {
        if c != 0 && b.parts().iter().any(|p| covers(p, b.transform(), x, y)) {
            v = c;
        }
    }
    v
}

#[test]
fn ball_at_89_6_58_7_radius_7_5_covers_exactly_the_pixels_whose_centres_are_inside() {
    let mut w = World::new();
    let circle = Shape::Circle(Circle {
        center: Vec2::ZERO,
        radius: tenths_px(75),
    });
    add(
        &mut w,
        BodyKind::Dynamic,
        Vec2::new(tenths_px(896), tenths_px(587)),
        Fixed::ZERO,
        vec![circle],
    );
    let obs = render(&w, &[colour::RED]);
    let (mut rows, mut cols, mut ties) = (Vec::new(), Vec::new(), 0);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let filled = obs.get(x, y) == colour::RED;
            // Exactly, in tenths of a pixel: (10x + 5 − 896)² + (10y + 5 − 587)² vs 75².
            let (dx, dy) = (10 * x as i64 + 5 - 896, 10 * y as i64 + 5 - 587);
            let d2 = dx * dx + dy * dy;
            if d2 == 75 * 75 {
                // A centre exactly on the circle (e.g. (87.5, 51.5): 2.1² + 7.2² = 7.5²): the
                // rule says inside, but 89.6 and 58.7 px are not representable in Q32.32 so the
                // stored circle passes a hair to one side; the renderer must agree with the
                // stored geometry.
                ties += 1;
                assert_eq!(
                    filled,
                    covers(&w.bodies()[0].parts()[0], w.bodies()[0].transform(), x, y)
                );
            } else {
                assert_eq!(filled, d2 < 75 * 75, "pixel ({x}, {y})");
            }
            if filled {
                rows.push(y);
                cols.push(x);
            }
        }
    }
    assert!(ties > 0, "the test should exercise boundary ties");
    let span = |v: &[usize]| (*v.iter().min().unwrap(), *v.iter().max().unwrap());
    assert_eq!(span(&rows), (51, 65));
    assert_eq!(span(&cols), (82, 96));
    // Nothing else is drawn.
    assert_eq!(obs.histogram()[colour::RED as usize], rows.len());
    assert_eq!(obs.histogram()[0], PIXELS - rows.len());
}

#[test]
fn painters_order_colour_zero_and_compound_bodies() {
    let mut w = World::new();
    add(
        &mut w,
        BodyKind::Static,
        px2(100, 100),
        Fixed::ZERO,
        vec![box_shape(40, 40)],
    );
    add(
        &mut w,
        BodyKind::Dynamic,
        px2(100, 100),
        Fixed::ZERO,
        vec![ball_shape(10, 1)],
    );
    // A jar (three quads), tilted, overlapping both.
    add(
        &mut w,
        BodyKind::Dynamic,
        px2(110, 90),
        Fixed::ratio(3, 10),
        jar_shapes(),
    );
    // An invisible wall across everything.
    add(
        &mut w,
        BodyKind::Static,
        px2(128, 95),
        Fixed::ZERO,
        vec![box_shape(256, 6)],
    );
    let colours = [colour::BLACK, colour::RED, colour::BLUE, 0];
    let obs = render(&w, &colours);
    assert_eq!(
        obs.get(100, 108),
        colour::RED,
        "the ball paints over the box"
    );
    assert_eq!(obs.get(84, 115), colour::BLACK);
    for y in 0..SIZE {
        for x in 0..SIZE {
            assert_eq!(
                obs.get(x, y),
                reference_pixel(&w, &colours, x, y),
                "({x}, {y})"
            );
        }
    }
    let jar_pixels = obs.histogram()[colour::BLUE as usize];
    assert!(jar_pixels > 100, "all three jar parts drawn: {jar_pixels}");
    // Reordering the colours changes which body ends on top, never the union.
    let hidden = render(&w, &[0, colour::RED]);
    assert_eq!(hidden.get(84, 115), 0);
    assert_eq!(hidden.get(100, 108), colour::RED);
    // A shorter colour slice hides the bodies it does not reach.
    assert_eq!(render(&w, &[]), Observation::new());
}

/// A random body for the scene proptest.
#[derive(Clone, Debug)]
enum Part {
    Ball { r_tenths: i64 },
    Box { w: i64, h: i64 },
    Jar,
    Hull { points: Vec<(i64, i64)> },
}

#[derive(Clone, Debug)]
struct RandomBody {
    parts: Vec<Part>,
    x_tenths: i64,
    y_tenths: i64,
    angle_milli: i64,
    colour: u8,
}

fn part_strategy() -> impl Strategy<Value = Part> {
    prop_oneof![
        (5i64..400).prop_map(|r_tenths| Part::Ball { r_tenths }),
        (1i64..260, 1i64..30).prop_map(|(w, h)| Part::Box { w, h }),
        Just(Part::Jar),
        prop::collection::vec((-60i64..60, -60i64..60), 3..8)
            .prop_map(|points| Part::Hull { points }),
    ]
}

/// Positions in tenths of a pixel; half the time on the half-pixel grid, where box edges of
/// unrotated boxes pass exactly through pixel centres (the boundary ties of the pixel rule).
fn coordinate() -> impl Strategy<Value = i64> {
    prop_oneof![-600i64..3200, (-120i64..640).prop_map(|h| 5 * h)]
}

/// Angles in thousandths of a radian; often exactly 0 (axis-aligned, exact ties possible).
fn angle() -> impl Strategy<Value = i64> {
    prop_oneof![Just(0i64), Just(1571), -7000i64..7000]
}

fn body_strategy() -> impl Strategy<Value = RandomBody> {
    (
        prop::collection::vec(part_strategy(), 1..3),
        coordinate(),
        coordinate(),
        angle(),
        0u8..7,
    )
        .prop_map(
            |(parts, x_tenths, y_tenths, angle_milli, colour)| RandomBody {
                parts,
                x_tenths,
                y_tenths,
                angle_milli,
                colour,
            },
        )
}

fn build(bodies: &[RandomBody]) -> (World, Vec<u8>) {
    let mut w = World::new();
    let mut colours = Vec::new();
    for b in bodies {
        let mut shapes = Vec::new();
        for p in &b.parts {
            match p {
                Part::Ball { r_tenths } => shapes.push(Shape::Circle(Circle {
                    center: Vec2::new(px(3, 1), Fixed::ZERO),
                    radius: tenths_px(*r_tenths),
                })),
                Part::Box { w, h } => shapes.push(box_shape(*w, *h)),
                Part::Jar => shapes.extend(jar_shapes()),
                Part::Hull { points } => {
                    let pts: Vec<Vec2> = points.iter().map(|&(x, y)| px2(x, y)).collect();
                    if let Ok(poly) = Polygon::new(&pts) {
                        shapes.push(Shape::Polygon(poly));
                    }
                }
            }
        }
        if shapes.is_empty() {
            continue;
        }
        shapes.truncate(engine::MAX_PARTS);
        let pos = Vec2::new(tenths_px(b.x_tenths), tenths_px(b.y_tenths));
        add(
            &mut w,
            BodyKind::Static,
            pos,
            Fixed::ratio(b.angle_milli, 1000),
            shapes,
        );
        colours.push(b.colour);
    }
    (w, colours)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every SIMD span filler renders the same bytes as the scalar reference, and the reference
    /// follows the per-pixel rule with painter's order (checked on a lattice of pixels).
    #[test]
    fn simd_and_scalar_render_identical_bytes(bodies in prop::collection::vec(body_strategy(), 1..30)) {
        let (w, colours) = build(&bodies);
        let mut reference = Observation::new();
        render_into(&w, &colours, &mut reference, SpanFiller::Scalar);
        let fillers = SpanFiller::available();
        prop_assert!(fillers.len() >= 2, "at least one wide path besides the scalar one");
        for filler in fillers {
            // Start from garbage: render_into must clear.
            let mut o = Observation::from_bytes(&[9u8; PIXELS]).unwrap();
            render_into(&w, &colours, &mut o, filler);
            prop_assert!(o == reference, "{:?} differs from the scalar reference", filler);
        }
        for y in (0..SIZE).step_by(3) {
            for x in (1..SIZE).step_by(4) {
                prop_assert_eq!(reference.get(x, y), reference_pixel(&w, &colours, x, y), "({}, {})", x, y);
            }
        }
    }
}

#[test]
fn user_ball_features_at_100_100_radius_5() {
    let mut w = World::new();
    // As the tasks crate builds a user ball: 100 px → m, radius 5 px.
    let id = add(
        &mut w,
        BodyKind::Dynamic,
        px2(100, 100),
        Fixed::ZERO,
        vec![ball_shape(5, 1)],
    );
    let ball = ObjectDesc {
        body: id,
        shape: ShapeKind::Ball,
        diameter_px: Fixed::from_int(10),
        colour: colour::RED,
    };
    let f = object_features(&w, &[ball]);
    let want: Features = [
        0.390625, 0.390625, 0.0, 0.0390625, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    ];
    assert_eq!(f, vec![want]);
}

#[test]
fn features_wrap_angles_move_jars_to_their_centre_of_mass_and_skip_walls() {
    let mut w = World::new();
    let bar = add(
        &mut w,
        BodyKind::Static,
        px2(50, 60),
        -Fixed::FRAC_PI_2,
        vec![box_shape(30, 5)],
    );
    let jar = add(
        &mut w,
        BodyKind::Dynamic,
        px2(128, 12),
        Fixed::ZERO,
        jar_shapes(),
    );
    let wall = add(
        &mut w,
        BodyKind::Static,
        px2(128, -3),
        Fixed::ZERO,
        vec![box_shape(256, 5)],
    );
    let desc = |body, shape, colour| ObjectDesc {
        body,
        shape,
        diameter_px: Fixed::from_int(32),
        colour,
    };
    let objects = [
        desc(bar, ShapeKind::Bar, colour::BLACK),
        desc(wall, ShapeKind::Bar, 0),
        desc(jar, ShapeKind::Jar, colour::GRAY),
        desc(BodyId(99), ShapeKind::Ball, colour::RED),
    ];
    let f = object_features(&w, &objects);
    assert_eq!(f.len(), 2, "the wall and the missing body have no features");
    // −π/2 wraps to 3π/2: 0.75.
    assert!((f[0][2] - 0.75).abs() < 1e-6, "{}", f[0][2]);
    assert_eq!(f[0][3], 0.125);
    assert_eq!(f[0][4..8], [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(f[0][8..14], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    // The jar's y is its centre of mass, above the base-plate origin at 12 px.
    let com = w.bodies()[jar.index()].world_center();
    assert!(com.y > px(12, 1));
    #[allow(clippy::float_arithmetic)]
    let com_y = com.y.to_f64() * 6.0 / 256.0;
    assert!((f64::from(f[1][1]) - com_y).abs() < 1e-7);
    assert!(f[1][1] > 12.0 / 256.0 + 0.01);
    assert_eq!(f[1][4..8], [0.0, 0.0, 1.0, 0.0]);
    assert_eq!(f[1][12], 1.0);
    // The same jar as a non-jar shape reports its origin.
    let as_bar = features_of(&w, &desc(jar, ShapeKind::Bar, colour::GRAY)).unwrap();
    assert_eq!(as_bar[1], 12.0 / 256.0);
}

/// A ball dropping onto a floor, with a goal that can never hold (a far, separate body).
fn unsolvable() -> (World, Goal, Vec<u8>) {
    let mut w = World::new();
    engine::testbed::add_floor(&mut w);
    add(
        &mut w,
        BodyKind::Dynamic,
        px2(60, 150),
        Fixed::ZERO,
        vec![ball_shape(8, 1)],
    );
    add(
        &mut w,
        BodyKind::Static,
        px2(220, 240),
        Fixed::ZERO,
        vec![box_shape(20, 4)],
    );
    let goal = Goal {
        body_a: BodyId(1),
        body_b: BodyId(2),
        rule: TouchRule::Contact,
    };
    (w, goal, vec![colour::BLACK, colour::GREEN, colour::PURPLE])
}

#[test]
fn a_full_unsolved_run_has_17_frames_after_steps_1_61_121() {
    let (w, goal, colours) = unsolvable();
    let mut run_world = w.clone();
    let rollout = rollout_frames(&mut run_world, &goal, &colours, tasks::PHYRE_RUN);
    assert!(!rollout.outcome.solved);
    assert_eq!(rollout.outcome.steps, 1000);
    assert_eq!(rollout.frames.len(), 17);
    assert_eq!(rollout.frames.len(), frame_count(rollout.outcome.steps));
    let steps: Vec<u32> = rollout.frames.iter().map(|f| f.step).collect();
    assert_eq!(steps, (0..17).map(|k| k * 60 + 1).collect::<Vec<_>>());
    // Each frame is the world after exactly that many steps, stepped here independently (the
    // run's early exit at rest must not change what is drawn).
    let mut replay = w;
    let mut done = 0;
    for f in &rollout.frames {
        while done < f.step {
            replay.step();
            done += 1;
        }
        assert_eq!(
            f.observation,
            render(&replay, &colours),
            "frame at step {}",
            f.step
        );
    }
    // The ball falls between the first two frames.
    let lowest_green = |o: &Observation| (0..SIZE).find(|&y| o.row(y).contains(&colour::GREEN));
    assert!(
        lowest_green(&rollout.frames[1].observation) < lowest_green(&rollout.frames[0].observation)
    );
}

#[test]
fn a_solved_run_stops_its_frames_at_the_solving_step() {
    let mut w = engine::testbed::ball_in_jar();
    // Ball (2) resting in the jar (1): touching from the start, solved after 180 steps.
    let goal = Goal {
        body_a: BodyId(2),
        body_b: BodyId(1),
        rule: TouchRule::Contact,
    };
    let r = rollout_frames(
        &mut w,
        &goal,
        &[colour::BLACK, colour::BLUE, colour::GREEN],
        tasks::PHYRE_RUN,
    );
    assert!(r.outcome.solved);
    assert_eq!(r.frames.len(), frame_count(r.outcome.steps));
    assert!(r
        .frames
        .iter()
        .all(|f| f.step <= r.outcome.steps && is_frame_step(f.step)));
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("raster-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn png_and_gif_files_decode_to_the_right_size_and_bad_paths_are_errors() {
    let dir = temp_dir("pictures");
    let (w, goal, colours) = unsolvable();
    let mut run_world = w.clone();
    let rollout = rollout_frames(&mut run_world, &goal, &colours, tasks::PHYRE_RUN);
    let frames = rollout.observations();

    // PNG: 3× scale, the display palette, the world's bottom row at the picture's bottom.
    let png_path = dir.join("frame.png");
    write_observation_png(&png_path, &frames[0], 3).unwrap();
    let decoder = png::Decoder::new(std::fs::File::open(&png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (768, 768));
    let palette = reader.info().palette.as_ref().unwrap().to_vec();
    assert_eq!(&palette[3..6], &[0xf3, 0x4f, 0x46]);
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    // The floor (black) is drawn in world rows 4–9 → picture rows (255 − y)·3.
    assert_eq!(buf[(255 - 6) * 3 * 768 + 300], colour::BLACK);
    assert_eq!(buf[(255 - 200) * 3 * 768 + 300], 0);

    // GIF: one frame per observation, 2× scale, the action outlined.
    let gif_path = dir.join("run.gif");
    let action = [ActionCircle {
        x: Fixed::from_int(60),
        y: Fixed::from_int(150),
        r: Fixed::from_int(8),
    }];
    write_rollout_gif(&gif_path, &frames, &action, 2, 25).unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts
        .read_info(std::fs::File::open(&gif_path).unwrap())
        .unwrap();
    assert_eq!((d.width(), d.height()), (512, 512));
    let mut n = 0;
    while let Some(f) = d.read_next_frame().unwrap() {
        assert_eq!((f.width, f.height), (512, 512));
        assert!(
            f.buffer.contains(&picture::OUTLINE),
            "frame {n} shows the action"
        );
        n += 1;
    }
    assert_eq!(n, frames.len());

    // Contact sheet of several scenes, labelled, as a PNG.
    let sheet = contact_sheet_labelled(&frames[..5], &["00000:000", "b", "c", "d", "e"], 3);
    let sheet_path = dir.join("sheet.png");
    write_png(&sheet_path, &sheet).unwrap();
    let reader = png::Decoder::new(std::fs::File::open(&sheet_path).unwrap())
        .read_info()
        .unwrap();
    assert_eq!(
        (reader.info().width as usize, reader.info().height as usize),
        (sheet.width, sheet.height)
    );
    assert_eq!(
        contact_sheet(&frames[..3], 2).width,
        2 * 256 + 3 * picture::SHEET_GAP
    );

    // Unwritable paths are errors, never panics.
    let bad = dir.join("no-such-folder").join("x.png");
    assert!(matches!(write_png(&bad, &sheet), Err(PictureError::Io(..))));
    assert!(matches!(
        write_observation_png(&bad, &frames[0], 1),
        Err(PictureError::Io(..))
    ));
    assert!(matches!(
        write_gif(&bad, std::slice::from_ref(&sheet), 10),
        Err(PictureError::Io(..))
    ));
    assert!(write_rollout_gif(&bad, &frames, &action, 1, 10).is_err());
    assert!(
        matches!(write_png(&dir, &sheet), Err(PictureError::Io(..))),
        "a directory"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
