//! Templates: the builder's order and errors, and rephyre's own example templates build valid
//! tasks that simulate (and can be solved).

use engine::run;
use engine::BodyKind::{Dynamic, Static};
use tasks::checksum::md5_hex;
use tasks::geometry::{ball, bar, jar};
use tasks::template::{examples, Scene, Template, TemplateError};
use tasks::{store, validate_action, Task, TaskError, Tier, PHYRE_RUN};

#[test]
fn examples_are_deterministic_and_numbered_in_grid_order() {
    let a = examples::ball_off_ledge().unwrap();
    let b = examples::ball_into_jar().unwrap();
    assert_eq!(a.len(), 108);
    assert_eq!(b.len(), 36);
    for (i, t) in a.iter().enumerate() {
        assert_eq!(t.id().to_string(), format!("50000:{i:03}"));
        assert_eq!(t.tier(), Tier::Ball);
    }
    for (i, t) in b.iter().enumerate() {
        assert_eq!(t.id().to_string(), format!("50100:{i:03}"));
        assert_eq!(t.tier(), Tier::TwoBalls);
    }
    assert_eq!(examples::all().unwrap(), [a, b].concat());
    // Stable across builds and platforms: the tasks' exact bits are pinned. (The geometry
    // uses only correctly rounded float operations and the engine's fixed-point sine, so a
    // change here means the template definitions or the vocabulary changed.)
    let digest = md5_hex(&store::encode_payload(&examples::all().unwrap()));
    println!("example templates digest {digest}");
    assert_eq!(digest, PINNED_DIGEST);
}

const PINNED_DIGEST: &str = "12b1c69ba67cb556b435440d785e1bbf";

#[test]
fn first_axis_is_outermost_and_none_skips() {
    let t = Template::new(60_000, Tier::Ball, "order")
        .axis("a", &[1.0, 2.0])
        .axis("b", &[10.0, 20.0, 30.0]);
    assert_eq!(t.grid_size(), 6);
    let seen = std::cell::RefCell::new(Vec::new());
    let tasks = t
        .build(|p| {
            seen.borrow_mut().push((p["a"], p["b"]));
            if p["b"] == 20.0 {
                return Ok(None);
            }
            let mut s = Scene::new();
            let g = s.add(ball(0.1)?, 50.0 + p["b"], 100.0 * p["a"], 0.0, Dynamic)?;
            let f = s.add(bar(1.0)?, 128.0, 2.56, 0.0, Static)?;
            s.goal(g, f);
            Ok(Some(s))
        })
        .unwrap();
    assert_eq!(
        *seen.borrow(),
        [
            (1.0, 10.0),
            (1.0, 20.0),
            (1.0, 30.0),
            (2.0, 10.0),
            (2.0, 20.0),
            (2.0, 30.0)
        ]
    );
    assert_eq!(tasks.len(), 4);
    assert_eq!(tasks[3].id().to_string(), "60000:003");
    // No axes: one grid point.
    let one = Template::new(60_001, Tier::Ball, "").build(|_| {
        let mut s = Scene::new();
        let g = s.add(ball(0.1)?, 50.0, 50.0, 0.0, Dynamic)?;
        let f = s.add(bar(1.0)?, 128.0, 2.56, 0.0, Static)?;
        s.goal(g, f);
        Ok(Some(s))
    });
    assert_eq!(one.unwrap().len(), 1);
}

#[test]
fn template_errors() {
    let ok_scene = |_: &tasks::template::Params| {
        let mut s = Scene::new();
        let g = s.add(ball(0.1)?, 50.0, 50.0, 0.0, Dynamic)?;
        let f = s.add(bar(1.0)?, 128.0, 2.56, 0.0, Static)?;
        s.goal(g, f);
        Ok(Some(s))
    };
    let build = |t: Template| t.build(ok_scene).err();
    assert_eq!(
        build(Template::new(100_000, Tier::Ball, "")),
        Some(TemplateError::BadNumber(100_000))
    );
    assert_eq!(
        build(
            Template::new(1, Tier::Ball, "")
                .axis("a", &[1.0])
                .axis("a", &[2.0])
        ),
        Some(TemplateError::BadAxis("a".into()))
    );
    assert_eq!(
        build(Template::new(1, Tier::Ball, "").axis("a", &[])),
        Some(TemplateError::BadAxis("a".into()))
    );
    let many: Vec<f64> = (0..1001).map(f64::from).collect();
    assert_eq!(
        build(Template::new(1, Tier::Ball, "").axis("k", &many)),
        Some(TemplateError::TooManyTasks)
    );
    let no_goal = Template::new(1, Tier::Ball, "").build(|_| Ok(Some(Scene::new())));
    assert!(matches!(no_goal, Err(TemplateError::NoGoal { .. })));
    let static_goal = Template::new(1, Tier::Ball, "")
        .axis("x", &[40.0])
        .build(|p| {
            let mut s = Scene::new();
            let g = s.add(ball(0.1)?, p["x"], 50.0, 0.0, Static)?;
            let f = s.add(bar(1.0)?, 128.0, 2.56, 0.0, Static)?;
            s.goal(g, f);
            Ok(Some(s))
        });
    assert_eq!(
        static_goal.err(),
        Some(TemplateError::Task {
            point: vec![40.0],
            error: TaskError::GoalBody1Static
        })
    );
    let bad_scale = Template::new(1, Tier::Ball, "").build(|_| {
        let mut s = Scene::new();
        s.add(jar(f64::NAN)?, 10.0, 10.0, 0.0, Static)?;
        Ok(Some(s))
    });
    assert!(matches!(bad_scale, Err(TemplateError::Shape(_))));
}

/// The first valid action of a fixed coarse grid for `task`'s tier.
fn some_valid_action(task: &Task) -> tasks::ValidAction {
    for i in 0..1000u32 {
        let a = [
            (i % 10) as f64 / 10.0 + 0.05,
            0.95 - (i / 10 % 10) as f64 / 20.0,
            0.1,
        ];
        let action: Vec<f64> = match task.tier() {
            Tier::Ball => a.to_vec(),
            Tier::TwoBalls => [a, [0.95 - a[0], 0.92, 0.05]].concat(),
        };
        if let Ok(v) = validate_action(task, task.tier(), &action) {
            return v;
        }
    }
    panic!("no valid action for {}", task.id());
}

#[test]
fn every_example_task_builds_and_some_simulate_deterministically() {
    let all = examples::all().unwrap();
    for t in &all {
        let v = some_valid_action(t);
        let setup = t.build_world(v.balls()).unwrap();
        assert_eq!(
            setup.world.bodies().len(),
            t.bodies().len() + t.tier().ball_count()
        );
    }
    for t in all.iter().step_by(37) {
        let v = some_valid_action(t);
        let mut a = t.build_world(v.balls()).unwrap();
        let mut b = t.build_world(v.balls()).unwrap();
        let ra = run(&mut a.world, &a.goal, PHYRE_RUN, |_, _| {});
        let rb = run(&mut b.world, &b.goal, PHYRE_RUN, |_, _| {});
        assert_eq!(ra, rb, "{}", t.id());
        assert!(ra.steps > 0 && ra.steps <= 1000);
    }
}

#[test]
fn the_ledge_template_is_solvable_and_not_trivial() {
    let tasks = examples::ball_off_ledge().unwrap();
    let t = &tasks[0];
    // Without help the green ball stays on its ledge: a ball dropped far away does not solve.
    let far = validate_action(t, Tier::Ball, &[0.9, 0.9, 0.0]).unwrap();
    let mut s = t.build_world(far.balls()).unwrap();
    assert!(!run(&mut s.world, &s.goal, PHYRE_RUN, |_, _| {}).solved);
    // Dropping a big ball on the ledge beside the green ball pushes it off.
    let mut solved = 0;
    for k in 0..10 {
        let x = k as f64 / 10.0;
        let Ok(v) = validate_action(t, Tier::Ball, &[x, 0.8, 0.6]) else {
            continue;
        };
        let mut s = t.build_world(v.balls()).unwrap();
        if run(&mut s.world, &s.goal, PHYRE_RUN, |_, _| {}).solved {
            solved += 1;
        }
    }
    println!("{solved} of 10 probe actions solve {}", t.id());
    assert!(solved > 0);
}
