//! Determinism: per-step hash chains are identical across runs, processes, snapshots and build
//! profiles (committed golden values), and the early exit changes no result.

use engine::testbed::{self, ball_shape, box_shape, px, px2};
use engine::{chain_hash, run, Goal, RunOptions, TouchRule};
use engine::{BodyDef, BodyId, BodyKind, Fixed, Shape, Vec2, World};
use proptest::prelude::*;

const GOLDEN: &str = include_str!("golden/scenes.txt");

/// Runs of 1000 steps that end once the goal held for 180 consecutive steps (PHYRE's numbers,
/// `tasks::PHYRE_RUN`, which the engine does not know).
const RUN: RunOptions = RunOptions::new(180, 1000);

/// Hash chain over `steps` steps and the final state hash.
fn chain_of(mut w: World, steps: u32) -> (u64, u64) {
    let mut h = 0;
    for _ in 0..steps {
        w.step();
        h = chain_hash(h, w.state_hash());
    }
    (h, w.state_hash())
}

fn golden_lines() -> Vec<String> {
    testbed::named_scenes()
        .into_iter()
        .map(|(name, w)| {
            let (c, f) = chain_of(w, 1000);
            format!("{name} 1000 {c:016x} {f:016x}")
        })
        .collect()
}

#[test]
fn golden_hashes_match() {
    let got = golden_lines();
    if std::env::var_os("REPHYRE_BLESS").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/scenes.txt");
        let header = "# name steps hash_chain final_hash (REPHYRE_BLESS=1 cargo test -p engine --test determinism golden to regenerate)\n";
        std::fs::write(path, header.to_string() + &got.join("\n") + "\n").unwrap();
        return;
    }
    let want: Vec<&str> = GOLDEN
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    // Both lists whole: a scene added to or dropped from the testbed must not pass unseen.
    assert_eq!(want.len(), 5, "golden file should list 5 scenes");
    assert_eq!(got.len(), want.len(), "testbed scenes against golden lines");
    let mut compared = 0;
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(
            g, w,
            "scene hash chain differs from the committed golden value"
        );
        compared += 1;
    }
    assert_eq!(compared, 5);
}

#[test]
fn two_runs_give_identical_per_step_hashes() {
    for (name, w) in testbed::named_scenes() {
        let mut a = w.clone();
        let mut b = w;
        for step in 0..400 {
            a.step();
            b.step();
            assert_eq!(
                a.state_hash(),
                b.state_hash(),
                "{name}: diverged at step {step}"
            );
        }
    }
}

/// Runs in a child process (see below) and prints the chains.
#[test]
fn child_process_prints_chains() {
    if std::env::var_os("REPHYRE_CHILD").is_none() {
        return;
    }
    for line in golden_lines() {
        println!("CHAIN {line}");
    }
}

#[test]
fn a_second_process_computes_the_same_chains() {
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            "child_process_prints_chains",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("REPHYRE_CHILD", "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let theirs: Vec<&str> = text
        .lines()
        .filter_map(|l| l.find("CHAIN ").map(|i| &l[i + 6..]))
        .collect();
    assert_eq!(
        theirs,
        golden_lines()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
}

#[test]
fn snapshot_restore_continues_bit_for_bit() {
    for (name, mut w) in testbed::named_scenes() {
        for _ in 0..300 {
            w.step();
        }
        let snapshot = w.clone();
        let (c1, f1) = chain_of(w, 700);
        let mut restored = World::new();
        restored.clone_from(&snapshot);
        let (c2, f2) = chain_of(restored, 700);
        assert_eq!((c1, f1), (c2, f2), "{name}");
    }
}

fn goal_scenes() -> Vec<(World, Goal)> {
    let contact = |a, b| Goal {
        body_a: BodyId(a),
        body_b: BodyId(b),
        rule: TouchRule::Contact,
    };
    vec![
        (testbed::ball_in_jar(), contact(2, 1)),
        (testbed::bounce(), contact(1, 0)),
        (testbed::pyramid(4), contact(10, 0)),
        (testbed::pyramid(4), contact(1, 0)),
        (testbed::seesaw(), contact(5, 0)),
        (testbed::pile(), contact(5, 0)),
        (testbed::pile(), contact(4, 9)),
    ]
}

#[test]
fn early_exit_changes_no_result() {
    let mut decided_early = 0;
    for (w, goal) in goal_scenes() {
        for chain_hashes in [false, true] {
            let full = run(
                &mut w.clone(),
                &goal,
                RunOptions {
                    early_exit: false,
                    chain_hashes,
                    ..RUN
                },
                |_, _| {},
            );
            let fast = run(
                &mut w.clone(),
                &goal,
                RunOptions {
                    early_exit: true,
                    chain_hashes,
                    ..RUN
                },
                |_, _| {},
            );
            assert_eq!(full.stepped, full.steps);
            if fast.stepped < fast.steps {
                decided_early += 1;
            }
            assert_eq!(
                RunOutcomeCmp::from(full),
                RunOutcomeCmp::from(fast),
                "{goal:?}"
            );
        }
    }
    assert!(
        decided_early >= 4,
        "the early exit should shortcut most of these scenes ({decided_early})"
    );
}

#[derive(Debug, PartialEq, Eq)]
struct RunOutcomeCmp(bool, u32, Option<u32>, Option<u32>, u64, u64);

impl From<engine::RunOutcome> for RunOutcomeCmp {
    fn from(o: engine::RunOutcome) -> Self {
        RunOutcomeCmp(
            o.solved,
            o.steps,
            o.first_touch_step,
            o.solved_step,
            o.final_hash,
            o.hash_chain,
        )
    }
}

// ---- Property tests over random scenes -------------------------------------------------------

#[derive(Clone, Debug)]
struct RandomBody {
    kind: u8,
    x: i64,
    y: i64,
    size: i64,
    angle: i64,
    dynamic: bool,
}

fn body_strategy() -> impl Strategy<Value = RandomBody> {
    (
        0u8..4,
        10i64..246,
        10i64..246,
        2i64..40,
        -31i64..32,
        prop::bool::weighted(0.75),
    )
        .prop_map(|(kind, x, y, size, angle, dynamic)| RandomBody {
            kind,
            x,
            y,
            size,
            angle,
            dynamic,
        })
}

fn build(bodies: &[RandomBody]) -> World {
    let mut w = World::new();
    testbed::add_floor(&mut w);
    testbed::add_side_walls(&mut w);
    for b in bodies {
        let parts = match b.kind {
            0 => vec![ball_shape(b.size.min(30), 2)],
            1 => vec![box_shape(b.size * 2 + 4, 5)],
            2 => testbed::jar_shapes(),
            _ => {
                // Standing-sticks-like cross of two thin quads.
                let a = Shape::Polygon(
                    engine::Polygon::new_box(
                        px(b.size, 1),
                        px(1, 1),
                        Vec2::ZERO,
                        Fixed::ratio(135, 100),
                    )
                    .unwrap(),
                );
                let c = Shape::Polygon(
                    engine::Polygon::new_box(
                        px(b.size, 1),
                        px(1, 1),
                        Vec2::ZERO,
                        Fixed::ratio(-135, 100),
                    )
                    .unwrap(),
                );
                vec![a, c]
            }
        };
        let kind = if b.dynamic {
            BodyKind::Dynamic
        } else {
            BodyKind::Static
        };
        w.add_body(&BodyDef::new(
            kind,
            px2(b.x, b.y),
            Fixed::ratio(b.angle, 10),
            parts,
        ))
        .unwrap();
    }
    w
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_scenes_are_deterministic_and_restorable(bodies in prop::collection::vec(body_strategy(), 1..20)) {
        let w = build(&bodies);
        let (c1, f1) = chain_of(w.clone(), 200);
        let (c2, f2) = chain_of(w.clone(), 200);
        prop_assert_eq!((c1, f1), (c2, f2));
        let mut a = w;
        for _ in 0..100 { a.step(); }
        let snap = a.clone();
        let (c3, _) = chain_of(a, 100);
        let (c4, _) = chain_of(snap, 100);
        prop_assert_eq!(c3, c4);
    }

    #[test]
    fn early_exit_equals_full_stepping_on_random_scenes(
        bodies in prop::collection::vec(body_strategy(), 1..12),
        pick in (0u32..64, 0u32..64),
    ) {
        let w = build(&bodies);
        let n = w.bodies().len() as u32;
        let (a, b) = (pick.0 % n, pick.1 % n);
        prop_assume!(a != b);
        let goal = Goal { body_a: BodyId(a), body_b: BodyId(b), rule: TouchRule::Contact };
        let opts = RunOptions { chain_hashes: true, ..RUN };
        let full = run(&mut w.clone(), &goal, RunOptions { early_exit: false, ..opts }, |_, _| {});
        let fast = run(&mut w.clone(), &goal, opts, |_, _| {});
        prop_assert_eq!(RunOutcomeCmp::from(full), RunOutcomeCmp::from(fast));
    }
}

#[test]
fn fast_thrown_bodies_stay_finite() {
    // Extreme but valid inputs: huge velocities are capped per step, nothing overflows.
    let mut w = World::new();
    testbed::add_floor(&mut w);
    let mut def = BodyDef::new(
        BodyKind::Dynamic,
        px2(128, 128),
        Fixed::ZERO,
        vec![box_shape(10, 10)],
    );
    def.linear_velocity = Vec2::new(Fixed::from_int(60_000), Fixed::from_int(-60_000));
    def.angular_velocity = Fixed::from_int(60_000);
    w.add_body(&def).unwrap();
    for _ in 0..200 {
        w.step();
    }
    let b = &w.bodies()[1];
    assert!(b.position().x.abs() < Fixed::from_int(1000));
}

#[test]
fn out_of_range_bodies_are_refused_not_wrapped() {
    let mut w = World::new();
    let far = BodyDef::new(
        BodyKind::Dynamic,
        Vec2::new(Fixed::from_int(1 << 21), Fixed::ZERO),
        Fixed::ZERO,
        vec![ball_shape(5, 1)],
    );
    assert!(matches!(
        w.add_body(&far),
        Err(engine::WorldError::OutOfRange(_))
    ));
    let mut fast = BodyDef::new(
        BodyKind::Dynamic,
        px2(10, 10),
        Fixed::ZERO,
        vec![ball_shape(5, 1)],
    );
    fast.linear_velocity = Vec2::new(Fixed::from_int(1 << 17), Fixed::ZERO);
    assert!(matches!(
        w.add_body(&fast),
        Err(engine::WorldError::OutOfRange(_))
    ));
    let huge = BodyDef::new(
        BodyKind::Static,
        px2(10, 10),
        Fixed::ZERO,
        vec![ball_shape(1 << 20, 1)],
    );
    assert!(matches!(
        w.add_body(&huge),
        Err(engine::WorldError::OutOfRange(_))
    ));
    assert!(matches!(
        w.add_body(&BodyDef::new(
            BodyKind::Static,
            px2(1, 1),
            Fixed::ZERO,
            vec![]
        )),
        Err(engine::WorldError::NoParts)
    ));
    assert_eq!(w.bodies().len(), 0);
}

#[test]
fn traced_steps_equal_plain_steps_and_locate_phases() {
    let mut a = testbed::pile();
    let mut b = a.clone();
    let mut last = engine::StepTrace::default();
    for _ in 0..200 {
        a.step();
        let t = b.step_traced();
        assert_eq!(a.state_hash(), t.state);
        assert_ne!(t, last, "phase hashes should change while the pile moves");
        last = t;
    }
}
