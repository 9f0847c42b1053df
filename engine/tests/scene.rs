//! Shared scenes (`SceneRecording`) on a scene of the engine's own: runs of extra balls against a
//! recorded scene must give `run`'s outcome bit for bit (final state hash included), in full and
//! status-only runs, whether the balls meet a moving scene body early, late or never. Run in
//! both profiles (CI runs the engine's tests in debug too, where the merge's debug assertions —
//! sorted pairs, contacts equal to pairs — are checked).

use engine::testbed::{add_floor, add_side_walls, ball_shape, box_shape, px, px2};
use engine::{run, BodyDef, BodyId, BodyKind, Fixed, Goal, RunOptions, SceneRecording, TouchRule};
use engine::{RunOutcome, World};

/// Walls, a tilted static bar, a stack of two dynamic boxes on the floor, a ball rolling down
/// the bar towards them, and a dynamic bar resting on a static ledge.
fn scene() -> World {
    let mut w = World::new();
    add_floor(&mut w);
    add_side_walls(&mut w);
    let dynamic = |w: &mut World, at, angle, shape| {
        w.add_body(&BodyDef::new(BodyKind::Dynamic, at, angle, vec![shape]))
            .expect("body")
    };
    let fixed = |w: &mut World, at, angle, shape| {
        w.add_body(&BodyDef::new(BodyKind::Static, at, angle, vec![shape]))
            .expect("body")
    };
    fixed(
        &mut w,
        px2(70, 110),
        Fixed::ratio(-2, 10),
        box_shape(120, 6),
    );
    dynamic(&mut w, px2(170, 22), Fixed::ZERO, box_shape(24, 24));
    dynamic(&mut w, px2(170, 47), Fixed::ZERO, box_shape(24, 24));
    dynamic(&mut w, px2(30, 140), Fixed::ZERO, ball_shape(8, 1));
    fixed(&mut w, px2(215, 150), Fixed::ZERO, box_shape(60, 5));
    dynamic(&mut w, px2(215, 158), Fixed::ZERO, box_shape(50, 6));
    w
}

/// The scene with user balls `(x, y, r)` in px after it.
fn with_balls(balls: &[(i64, i64, i64)]) -> World {
    let mut w = scene();
    for &(x, y, r) in balls {
        w.add_body(&BodyDef::new(
            BodyKind::Dynamic,
            px2(x, y),
            Fixed::ZERO,
            vec![ball_shape(r, 1)],
        ))
        .expect("ball");
    }
    w
}

fn ids(w: &World) -> (BodyId, BodyId, BodyId) {
    // Body order of `scene`: floor, 2 walls, tilted bar, lower box, upper box, ball, ledge, bar.
    let n = w.bodies().len() as u32;
    assert!(n >= 9);
    (BodyId(4), BodyId(6), BodyId(8))
}

#[test]
fn runs_against_a_recorded_scene_equal_plain_runs() {
    let (lower_box, rolling_ball, bar) = ids(&scene());
    let goals = [
        Goal {
            body_a: lower_box,
            body_b: rolling_ball,
            rule: TouchRule::Contact,
        },
        Goal {
            body_a: bar,
            body_b: rolling_ball,
            rule: TouchRule::CentreDistance { margin: px(1, 1) },
        },
    ];
    let actions: Vec<Vec<(i64, i64, i64)>> = vec![
        vec![(40, 230, 6)],   // lands on the tilted bar, behind the rolling ball
        vec![(170, 230, 10)], // falls onto the stack
        vec![(215, 240, 8)],  // falls onto the bar on the ledge
        vec![(120, 60, 5)],   // lands on the floor between things
        vec![(245, 30, 4)],   // lands near a wall, never meets anything moving
        vec![(100, 200, 12), (200, 220, 7)], // two balls
        vec![(170, 70, 9)],   // starts right above the stack: meets it at once
        vec![(60, 250, 3), (62, 235, 3)], // two balls that meet each other first
    ];
    let mut merged_late = 0;
    let mut runs = 0;
    for goal in goals {
        let rec = SceneRecording::record(&scene(), goal, 500).expect("a fresh scene");
        assert!(rec.recorded_steps() > 0);
        for balls in &actions {
            for opts in [
                RunOptions::new(60, 500),
                RunOptions {
                    status_only: true,
                    ..RunOptions::new(60, 500)
                },
            ] {
                let world = with_balls(balls);
                let plain: RunOutcome = run(&mut world.clone(), &goal, opts, |_, _| {});
                let (shared, from_recording) = rec
                    .run(&world, &goal, opts)
                    .expect("the world extends the scene");
                assert_eq!(shared, plain, "balls {balls:?}, goal {goal:?}, {opts:?}");
                runs += 1;
                merged_late += u32::from(from_recording >= 20 && from_recording < plain.steps);
            }
        }
    }
    assert_eq!(runs, 32);
    // Most runs used the recording for a while and then merged (both halves compared).
    assert!(
        merged_late >= 12,
        "only {merged_late} runs merged after step 20"
    );
}

#[test]
fn recorded_scenes_decline_what_they_cannot_run() {
    let (lower_box, rolling_ball, _) = ids(&scene());
    let goal = Goal {
        body_a: lower_box,
        body_b: rolling_ball,
        rule: TouchRule::Contact,
    };
    let rec = SceneRecording::record(&scene(), goal, 300).expect("a fresh scene");
    let opts = RunOptions::new(60, 300);
    let world = with_balls(&[(100, 200, 8)]);
    // Another goal, another length, a hash chain, a world that is not the scene plus balls, a
    // world already stepped, a static extra body: `None` (the caller runs it plainly).
    let other_goal = Goal {
        body_b: BodyId(5),
        ..goal
    };
    assert!(rec.run(&world, &other_goal, opts).is_none());
    assert!(rec.run(&world, &goal, RunOptions::new(60, 299)).is_none());
    let chained = RunOptions {
        chain_hashes: true,
        ..opts
    };
    assert!(rec.run(&world, &goal, chained).is_none());
    assert!(rec.run(&scene(), &goal, opts).is_none(), "no extra body");
    let mut moved = with_balls(&[(100, 200, 8)]);
    moved.step();
    assert!(rec.run(&moved, &goal, opts).is_none());
    let mut with_static = scene();
    with_static
        .add_body(&BodyDef::new(
            BodyKind::Static,
            px2(100, 200),
            Fixed::ZERO,
            vec![ball_shape(8, 1)],
        ))
        .expect("static ball");
    assert!(rec.run(&with_static, &goal, opts).is_none());
    let mut stepped_scene = scene();
    stepped_scene.step();
    assert!(SceneRecording::record(&stepped_scene, goal, 300).is_none());
    // And what it runs, it runs like `run`.
    let (shared, _) = rec.run(&world, &goal, opts).expect("runs");
    assert_eq!(shared, run(&mut world.clone(), &goal, opts, |_, _| {}));
}
