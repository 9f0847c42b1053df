//! The built-in task store: contents, invariants, geometry against SPEC §3, equality with a
//! fresh import of the original file.

use std::path::PathBuf;

use engine::settings::PX_PER_METRE;
use engine::{BodyKind, Fixed, TouchRule};
use tasks::checksum::{template_checksum, Checksums};
use tasks::{geometry, import, Colour, Part, ShapeType, TaskId, TaskSet, Tier};

/// The original's task file, committed unchanged (tests/data/tasks.bin.lzma, see
/// ../data/NOTICE), so these tests never depend on files outside the repository.
fn original_task_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tasks.bin.lzma")
}

#[test]
fn builtin_has_50_templates_of_100_tasks_matching_checksums() {
    let set = TaskSet::builtin();
    assert_eq!(set.len(), 5000);
    let templates = set.templates();
    let expected: Vec<u32> = (0..25).chain(100..125).collect();
    assert_eq!(templates, expected);
    let checksums = Checksums::builtin();
    for t in templates {
        let tasks = set.template(t);
        assert_eq!(tasks.len(), 100, "template {t}");
        let ids: Vec<TaskId> = tasks.iter().map(|t| t.id()).collect();
        assert_eq!(
            Some(template_checksum(&ids).as_str()),
            checksums.get(t),
            "template {t}"
        );
        let tier = if t < 100 { Tier::Ball } else { Tier::TwoBalls };
        assert!(tasks.iter().all(|task| task.tier() == tier));
    }
    assert_eq!(set.tier(Tier::Ball).count(), 2500);
    assert_eq!(set.tier(Tier::TwoBalls).count(), 2500);
}

#[test]
fn lookups_reject_unknown_and_malformed_ids() {
    let set = TaskSet::builtin();
    let t = set.lookup("00012:034").unwrap();
    assert_eq!(t.id().to_string(), "00012:034");
    assert!(matches!(
        set.lookup("00025:000"),
        Err(tasks::LookupError::Unknown(_))
    ));
    assert!(matches!(
        set.lookup("00012:34"),
        Err(tasks::LookupError::Malformed(_))
    ));
    assert!(set.get(&TaskId::new(101, 99).unwrap()).is_some());
    assert!(set.get(&TaskId::new(101, 100).unwrap()).is_none());
}

#[test]
fn every_task_has_6_to_65_bodies_walls_first() {
    let walls = geometry::walls();
    let (mut lo, mut hi) = (usize::MAX, 0);
    for t in TaskSet::builtin().tasks() {
        let n = t.bodies().len();
        lo = lo.min(n);
        hi = hi.max(n);
        assert_eq!(&t.bodies()[..4], &walls[..], "{}", t.id());
        assert!(t.bodies()[4..]
            .iter()
            .all(|b| b.shape_type != ShapeType::Undefined));
        let g = t.goal();
        assert!(g.body1 >= 4 && g.body2 >= 4);
        assert_eq!(t.colour(g.body1), Colour::Green);
    }
    assert!(lo >= 6 && hi <= 65, "{lo}..{hi}");
    // The extremes are reached: the range in SPEC §6 is the data's, not a loose bound.
    assert_eq!((lo, hi), (6, 65));
}

#[test]
fn builds_a_world_for_every_task() {
    for t in TaskSet::builtin().tasks() {
        let setup = t
            .build_world(&[])
            .unwrap_or_else(|e| panic!("{}: {e}", t.id()));
        let n = t.bodies().len();
        assert_eq!(setup.world.bodies().len(), n);
        assert_eq!(setup.colours.len(), n);
        assert_eq!(setup.scene_bodies, n);
        assert_eq!(&setup.colours[..4], &[0, 0, 0, 0]);
        assert_eq!(setup.objects.len(), n - 4);
        for (i, b) in t.bodies().iter().enumerate() {
            assert_eq!(setup.world.bodies()[i].kind(), b.kind);
            assert_eq!(setup.colours[i], t.colour(i).code());
        }
        let g = t.goal();
        let balls = t.bodies()[g.body1].shape_type == ShapeType::Ball
            && t.bodies()[g.body2].shape_type == ShapeType::Ball;
        assert_eq!(
            matches!(setup.goal.rule, TouchRule::CentreDistance { .. }),
            balls
        );
        assert_eq!(setup.goal.body_a.index(), g.body1);
        assert_eq!(setup.goal.body_b.index(), g.body2);
    }
}

#[test]
fn user_balls_come_last_in_red() {
    let t = TaskSet::builtin().lookup("00100:000").unwrap();
    let balls = [
        tasks::UserBall::from_int(30, 200, 5),
        tasks::UserBall::from_int(90, 200, 7),
    ];
    let s = t.build_world(&balls).unwrap();
    let n = t.bodies().len();
    assert_eq!(s.world.bodies().len(), n + 2);
    assert_eq!(&s.colours[n..], &[1, 1]);
    let users: Vec<_> = s.user_bodies().collect();
    assert_eq!(users.len(), 2);
    let last = s.objects.last().unwrap();
    assert_eq!(
        (last.shape_type, last.diameter, last.colour),
        (ShapeType::Ball, Fixed::from_int(14), Colour::Red)
    );
    let b = &s.world.bodies()[n + 1];
    assert!(b.is_dynamic());
    assert_eq!(b.position().x, Fixed::from_int(15)); // 90 px = 15 m
    assert!(matches!(
        t.build_world(&[tasks::UserBall::from_int(30, 30, 0)]),
        Err(tasks::BuildError::UserBallRadius { ball: 0 })
    ));
}

fn close(a: Fixed, b: f64, tol: f64) -> bool {
    #[allow(clippy::float_arithmetic)]
    let d = (a.to_f64() - b).abs();
    d <= tol
}

#[test]
#[allow(clippy::float_arithmetic)]
fn jar_at_scale_0_35_matches_spec_geometry() {
    // 320 · 0.35 = 112 px: the jars of that scale.
    let set = TaskSet::builtin();
    let (task, body) = set
        .tasks()
        .iter()
        .find_map(|t| {
            t.bodies()
                .iter()
                .position(|b| b.shape_type == ShapeType::Jar && close(b.diameter, 112.0, 1e-9))
                .map(|i| (t, i))
        })
        .expect("a jar of scale 0.35");
    let jar = &task.bodies()[body];
    let spec = geometry::jar(0.35).unwrap();
    assert_eq!(jar.parts.len(), 3);
    for (got, want) in jar.parts.iter().zip(&spec.parts) {
        let (Part::Polygon { vertices: g }, Part::Polygon { vertices: w }) = (got, want) else {
            panic!("jar parts are polygons")
        };
        assert_eq!(g.len(), w.len());
        for (a, b) in g.iter().zip(w) {
            assert!(
                (a.x - b.x).abs() < Fixed::ratio(1, 1_000_000),
                "{a:?} vs {b:?}"
            );
            assert!(
                (a.y - b.y).abs() < Fixed::ratio(1, 1_000_000),
                "{a:?} vs {b:?}"
            );
        }
    }
    // H 89.6, W 74.667, B 59.733, t 5.3018 read off the file's vertices.
    let Part::Polygon { vertices: base } = &jar.parts[0] else {
        unreachable!()
    };
    let Part::Polygon { vertices: left } = &jar.parts[1] else {
        unreachable!()
    };
    let t = base[0].y - base[2].y;
    let b = base[0].x - base[1].x;
    let w = -left[0].x.mul_int(2);
    let h = left[0].y + t.div_int(2);
    assert!(
        close(t, 5.3018, 1e-4)
            && close(b, 59.733, 1e-3)
            && close(w, 74.667, 1e-3)
            && close(h, 89.6, 1e-9)
    );
    // Centre of mass 31.70 px above the base-plate origin, as the engine computes it.
    let setup = task.build_world(&[]).unwrap();
    let com = setup.world.bodies()[body].local_center();
    let com_px = com.y.mul_int(PX_PER_METRE);
    assert!(close(com_px, 31.70, 0.005), "{com_px}");
    assert!(close(com.x, 0.0, 1e-9));
    assert!(setup
        .objects
        .iter()
        .any(|o| o.body.index() == body && o.position_is_centre_of_mass));
}

#[test]
fn standing_sticks_and_balls_match_spec_vocabulary() {
    let set = TaskSet::builtin();
    let t = set.lookup("00111:000").unwrap();
    let sticks = t
        .bodies()
        .iter()
        .find(|b| b.shape_type == ShapeType::StandingSticks)
        .unwrap();
    let spec = geometry::standing_sticks(0.6).unwrap();
    assert_eq!(sticks.diameter, spec.diameter);
    for (got, want) in sticks.parts.iter().zip(&spec.parts) {
        let (Part::Polygon { vertices: g }, Part::Polygon { vertices: w }) = (got, want) else {
            panic!("stick parts are polygons")
        };
        for (a, b) in g.iter().zip(w) {
            assert!(
                (a.x - b.x).abs() < Fixed::ratio(1, 1_000_000)
                    && (a.y - b.y).abs() < Fixed::ratio(1, 1_000_000)
            );
        }
    }
    // Every scene ball: radius trunc(128·s) + 0.5 (a half-integer) and diameter 2r.
    for t in set.tasks() {
        for b in t
            .bodies()
            .iter()
            .filter(|b| b.shape_type == ShapeType::Ball)
        {
            let [Part::Circle { radius, .. }] = b.parts[..] else {
                panic!("ball")
            };
            assert_eq!(radius.raw() & 0xffff_ffff, 1 << 31, "{}", t.id());
            assert_eq!(b.diameter, radius.mul_int(2));
        }
        for b in t.bodies().iter().filter(|b| b.shape_type == ShapeType::Bar) {
            let [Part::Polygon { vertices: ref v }] = b.parts[..] else {
                panic!("bar")
            };
            assert_eq!(v.len(), 4);
        }
    }
}

#[test]
fn store_round_trips() {
    // Its load time is a benchmark (`cargo bench -p rephyre-benches -- load`), not a test.
    let bytes =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/phyre-b-2b.rpts"))
            .unwrap();
    let set = TaskSet::from_store_bytes(&bytes).unwrap();
    // Re-encoding gives the same payload (the format is deterministic).
    let again = TaskSet::from_store_bytes(&set.to_store_bytes(false)).unwrap();
    assert_eq!(again, set);
    assert_eq!(&set, TaskSet::builtin());
    assert!(bytes.len() < 2 << 20, "store is {} bytes", bytes.len());
}

#[test]
fn user_task_files_load_and_merge() {
    let mine = tasks::template::examples::all().unwrap();
    let set = TaskSet::from_tasks(mine.clone()).unwrap();
    let dir = std::env::temp_dir().join(format!("rephyre-tasks-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.rpts");
    set.save(&path, true).unwrap();
    let loaded = TaskSet::load(&path).unwrap();
    assert_eq!(loaded, set);
    let both = TaskSet::builtin().union(&loaded).unwrap();
    assert_eq!(both.len(), 5000 + mine.len());
    assert!(matches!(
        both.union(&loaded),
        Err(tasks::LoadError::DuplicateTask(_))
    ));
    // Clear errors for a missing file and for a file of another kind.
    assert!(matches!(
        TaskSet::load(&dir.join("absent.rpts")),
        Err(tasks::LoadError::Io { .. })
    ));
    std::fs::write(&path, b"task_id,tier\n").unwrap();
    let e = TaskSet::load(&path).unwrap_err();
    assert!(matches!(
        e,
        tasks::LoadError::Store(tasks::StoreError::NotAStore)
    ));
    // The message names the kind of failure; its cause is the source, not repeated.
    assert_eq!(e.to_string(), "invalid rephyre task file");
    let cause = std::error::Error::source(&e).expect("a source");
    assert!(cause.to_string().contains("not a rephyre task file"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn store_equals_a_fresh_import_of_the_original() {
    let tasks = import::import_phyre_file(&original_task_file()).unwrap();
    let fresh = TaskSet::from_tasks(tasks).unwrap();
    assert_eq!(&fresh, TaskSet::builtin());
}

#[test]
fn scene_bodies_are_static_or_dynamic_as_in_the_original() {
    // Spot check one known task: 00000:000 = walls, green ball (dynamic), blue ball (dynamic).
    let t = TaskSet::builtin().lookup("00000:000").unwrap();
    assert_eq!(t.bodies().len(), 6);
    assert_eq!(t.bodies()[4].kind, BodyKind::Dynamic);
    assert_eq!(t.bodies()[4].position.x, Fixed::from_f64(89.6).unwrap());
    assert_eq!(t.colour(5), Colour::Blue);
    assert_eq!(
        t.description(),
        "Make sure the green ball is touching the blue ball."
    );
}
