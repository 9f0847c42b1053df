//! The generic features beyond PHYRE's configuration: step settings at run time, per-body
//! gravity scale, damping and bullets, bodies added and removed during a run, impulses and
//! velocities set between steps, and contact begin/end events. (PHYRE's own results staying
//! bit-identical is the golden tests' job, in `determinism.rs`.)
#![allow(clippy::float_arithmetic)]

use std::collections::BTreeSet;

use engine::settings::{self, StepSettings};
use engine::testbed::{self, add_floor, ball_shape, box_shape, px2};
use engine::{
    chain_hash, BodyDef, BodyId, BodyKind, Circle, ContactBegin, ContactEnd, Falloff, Fixed,
    Polygon, RadialImpulse, Shape, Vec2, World, WorldError,
};

fn f(x: f64) -> Fixed {
    Fixed::from_f64(x).unwrap()
}

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(f(x), f(y))
}

fn ball(r: f64) -> Shape {
    Shape::Circle(Circle {
        center: Vec2::ZERO,
        radius: f(r),
    })
}

fn rect(hx: f64, hy: f64) -> Shape {
    Shape::Polygon(Polygon::new_box(f(hx), f(hy), Vec2::ZERO, Fixed::ZERO).unwrap())
}

fn dynamic(at: Vec2, shape: Shape) -> BodyDef {
    BodyDef::new(BodyKind::Dynamic, at, Fixed::ZERO, vec![shape])
}

fn fixed_body(at: Vec2, shape: Shape) -> BodyDef {
    BodyDef::new(BodyKind::Static, at, Fixed::ZERO, vec![shape])
}

/// Hash chain of `steps` steps.
fn chain(w: &mut World, steps: u32) -> u64 {
    let mut h = 0;
    for _ in 0..steps {
        w.step();
        h = chain_hash(h, w.state_hash());
    }
    h
}

fn fifty_hertz() -> StepSettings {
    StepSettings::default()
        .with_steps_per_second(50)
        .with_iterations(30, 30)
        .with_gravity(Vec2::new(Fixed::ZERO, Fixed::ratio(-981, 100)))
}

// ---------------------------------------------------------------------------------------------
// 1. Step settings.

#[test]
fn default_settings_are_phyres_constants() {
    let s = StepSettings::default();
    assert_eq!(s.dt(), settings::DT);
    assert_eq!(s.dt(), Fixed::ratio(1, 60));
    assert_eq!(i64::from(s.steps_per_second()), settings::STEPS_PER_SECOND);
    assert_eq!(s.velocity_iterations, settings::VELOCITY_ITERATIONS);
    assert_eq!(s.velocity_iterations, 15);
    assert_eq!(s.position_iterations, settings::POSITION_ITERATIONS);
    assert_eq!(s.position_iterations, 20);
    assert_eq!(s.gravity, Vec2::new(Fixed::ZERO, settings::GRAVITY_Y));
    assert_eq!(*World::new().settings(), s);
    assert_eq!(World::new().gravity(), s.gravity);
}

#[test]
fn a_world_with_default_settings_steps_as_a_new_world() {
    for (name, w) in testbed::named_scenes() {
        let mut a = w.clone();
        let mut b = World::with_settings(StepSettings::default()).unwrap();
        for body in w.bodies() {
            let mut def = BodyDef::new(
                body.kind(),
                body.position(),
                body.angle(),
                body.parts().to_vec(),
            );
            def.linear_velocity = body.linear_velocity();
            def.angular_velocity = body.angular_velocity();
            b.add_body(&def).unwrap();
        }
        // (The testbed's scenes use the default material, so the rebuilt bodies are equal.)
        assert_eq!(a.bodies(), b.bodies(), "{name}");
        assert_eq!(chain(&mut a, 300), chain(&mut b, 300), "{name}");
        // set_settings with the same settings changes nothing either.
        let mut c = w.clone();
        c.set_settings(StepSettings::default()).unwrap();
        assert_eq!(chain(&mut c, 300), chain(&mut w.clone(), 300), "{name}");
    }
}

#[test]
fn fifty_hertz_is_an_exact_fiftieth_and_free_fall_follows_it() {
    let s = fifty_hertz();
    assert_eq!(s.dt(), Fixed::ratio(1, 50));
    assert_eq!(s.steps_per_second(), 50);
    let mut w = World::with_settings(s).unwrap();
    let id = w.add_body(&dynamic(v(0.0, 100.0), ball(0.5))).unwrap();
    for _ in 0..50 {
        w.step();
    }
    // Semi-implicit Euler: after n steps the drop is g·dt²·n(n+1)/2 and the speed g·dt·n.
    let b = w.body(id).unwrap();
    let drop = 100.0 - b.position().y.to_f64();
    let want = 9.81 / 2500.0 * 50.0 * 51.0 / 2.0;
    assert!((drop - want).abs() < 1e-6, "drop {drop} against {want}");
    assert!((b.linear_velocity().y.to_f64() + 9.81).abs() < 1e-6);
}

/// Steps until a box dropped 1 cm onto the floor is asleep.
fn steps_to_sleep(settings: StepSettings) -> u32 {
    let mut w = World::with_settings(settings).unwrap();
    add_floor(&mut w);
    let top = testbed::px(10, 1);
    let id = w
        .add_body(&dynamic(
            Vec2::new(f(2.0), top + f(0.25 + 0.01 + 0.01)),
            rect(0.25, 0.25),
        ))
        .unwrap();
    for n in 1..=600 {
        w.step();
        if !w.body(id).unwrap().is_awake() {
            return n;
        }
    }
    panic!("never slept");
}

#[test]
fn the_sleep_timer_counts_seconds_at_any_rate() {
    let at_60 = steps_to_sleep(StepSettings::default());
    let at_50 = steps_to_sleep(StepSettings::default().with_steps_per_second(50));
    let at_120 = steps_to_sleep(StepSettings::default().with_steps_per_second(120));
    // Settling takes a few steps, then TIME_TO_SLEEP = 0.5 s of slow motion: 30, 25, 60 steps.
    let secs = |n: u32, hz: f64| f64::from(n) / hz;
    for (n, hz) in [(at_60, 60.0), (at_50, 50.0), (at_120, 120.0)] {
        assert!(
            secs(n, hz) >= 0.5 && secs(n, hz) < 0.75,
            "{n} steps at {hz} Hz"
        );
    }
    assert!(at_50 < at_60 && at_60 < at_120);
}

#[test]
fn iterations_are_the_worlds_and_bad_settings_are_refused() {
    let mut base = testbed::pile();
    let mut more = testbed::pile();
    more.set_settings(StepSettings::default().with_iterations(40, 40))
        .unwrap();
    assert_ne!(chain(&mut base, 120), chain(&mut more, 120));
    // Changing them mid-run is allowed and deterministic.
    let run = || {
        let mut w = testbed::pile();
        let a = chain(&mut w, 60);
        w.set_settings(fifty_hertz()).unwrap();
        (a, chain(&mut w, 60))
    };
    assert_eq!(run(), run());

    let mut w = World::new();
    let before = *w.settings();
    for bad in [
        StepSettings::default().with_steps_per_second(0),
        StepSettings::default().with_steps_per_second(settings::MAX_STEPS_PER_SECOND + 1),
        StepSettings::default().with_iterations(settings::MAX_ITERATIONS + 1, 20),
        StepSettings::default().with_gravity(Vec2::new(Fixed::ZERO, Fixed::from_int(1 << 20))),
    ] {
        assert!(matches!(
            w.set_settings(bad),
            Err(WorldError::BadSettings(_))
        ));
        assert!(World::with_settings(bad).is_err());
        assert_eq!(*w.settings(), before);
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Gravity scale, damping, bullets.

#[test]
fn body_def_new_keeps_todays_defaults() {
    let d = dynamic(Vec2::ZERO, ball(1.0));
    assert_eq!(d.gravity_scale, Fixed::ONE);
    assert_eq!(d.linear_damping, settings::LINEAR_DAMPING);
    assert_eq!(d.angular_damping, settings::ANGULAR_DAMPING);
    assert!(!d.bullet);
    let mut w = World::new();
    let id = w.add_body(&d).unwrap();
    let b = w.body(id).unwrap();
    assert_eq!(b.gravity_scale(), Fixed::ONE);
    assert_eq!(b.linear_damping(), settings::LINEAR_DAMPING);
    assert_eq!(b.angular_damping(), settings::ANGULAR_DAMPING);
    assert!(!b.is_bullet() && !b.is_removed());
    // A static body is never a bullet.
    let mut s = fixed_body(Vec2::ZERO, ball(1.0));
    s.bullet = true;
    let sid = w.add_body(&s).unwrap();
    assert!(!w.body(sid).unwrap().is_bullet());
}

#[test]
fn gravity_scale_scales_gravity_per_body() {
    let mut w = World::with_settings(fifty_hertz()).unwrap();
    let mut ids = Vec::new();
    for (i, scale) in [0.0, 1.0, 2.0, -0.5].into_iter().enumerate() {
        let mut d = dynamic(v(10.0 * i as f64, 0.0), ball(0.5));
        d.gravity_scale = f(scale);
        ids.push((w.add_body(&d).unwrap(), scale));
    }
    w.step();
    for (id, scale) in ids {
        let vy = w.body(id).unwrap().linear_velocity().y.to_f64();
        assert!(
            (vy - scale * -9.81 / 50.0).abs() < 1e-8,
            "scale {scale}: {vy}"
        );
    }
    let mut bad = dynamic(Vec2::ZERO, ball(0.5));
    bad.gravity_scale = Fixed::MAX;
    assert!(matches!(w.add_body(&bad), Err(WorldError::OutOfRange(_))));
}

#[test]
fn damping_is_per_body() {
    let mut w = World::new();
    w.set_gravity(Vec2::ZERO);
    let mut plain = dynamic(v(0.0, 0.0), ball(0.5));
    plain.linear_velocity = v(4.0, 0.0);
    plain.angular_velocity = f(2.0);
    let mut damped = plain.clone();
    damped.position = v(0.0, 10.0);
    damped.linear_damping = f(1.5);
    damped.angular_damping = f(3.0);
    let a = w.add_body(&plain).unwrap();
    let b = w.add_body(&damped).unwrap();
    for _ in 0..60 {
        w.step();
    }
    let (a, b) = (w.body(a).unwrap(), w.body(b).unwrap());
    // Undamped linear motion (the default linear damping is zero); angular damping 0.01/s.
    assert_eq!(a.linear_velocity(), v(4.0, 0.0));
    let wa = 2.0 / (1.0f64 + 0.01 / 60.0).powi(60);
    assert!((a.angular_velocity().to_f64() - wa).abs() < 1e-6);
    // v / (1 + dt·c)^n.
    let vb = 4.0 / (1.0f64 + 1.5 / 60.0).powi(60);
    let wb = 2.0 / (1.0f64 + 3.0 / 60.0).powi(60);
    assert!((b.linear_velocity().x.to_f64() - vb).abs() < 1e-6);
    assert!((b.angular_velocity().to_f64() - wb).abs() < 1e-6);
    let mut bad = plain.clone();
    bad.linear_damping = f(-1.0);
    assert!(matches!(w.add_body(&bad), Err(WorldError::OutOfRange(_))));
}

/// A zero-gravity world: a 0.1 m thick, 2 m tall dynamic box centred at x = 0 and a 5 cm circle
/// at (−2.5, 0.3) flying at +60 m/s (1 m per step at 60 Hz: from x = −0.5 to 0.5 in the third
/// step, across the box's 0.12 m, skins included). Returns (box x, circle x, box vx, circle vx) after each
/// of 20 steps.
fn shoot_at_thin_box(bullet: bool) -> Vec<(f64, f64, f64, f64)> {
    let mut w = World::new();
    w.set_gravity(Vec2::ZERO);
    let target = w.add_body(&dynamic(Vec2::ZERO, rect(0.05, 1.0))).unwrap();
    let mut shot = dynamic(v(-2.5, 0.3), ball(0.05));
    shot.linear_velocity = v(60.0, 0.0);
    shot.bullet = bullet;
    let shot = w.add_body(&shot).unwrap();
    (0..20)
        .map(|_| {
            w.step();
            let (t, s) = (w.body(target).unwrap(), w.body(shot).unwrap());
            (
                t.position().x.to_f64(),
                s.position().x.to_f64(),
                t.linear_velocity().x.to_f64(),
                s.linear_velocity().x.to_f64(),
            )
        })
        .collect()
}

#[test]
fn a_bullet_does_not_tunnel_through_a_thin_dynamic_box() {
    let run = shoot_at_thin_box(true);
    for (i, &(bx, sx, ..)) in run.iter().enumerate() {
        // The circle's centre stays left of the box's left face (skin included) less the slop.
        assert!(
            sx <= bx - 0.05 - 0.01 - 0.05 + 0.005 + 1e-6,
            "step {}: circle at {sx}, box at {bx}",
            i + 1
        );
    }
    // It hit: the box moves right, the circle slowed; momentum is conserved (masses 0.025 kg
    // box: 0.1·2·0.25 = 0.05 kg; circle: π·0.05²·0.25 ≈ 0.00196 kg).
    let &(_, _, box_v, shot_v) = run.last().unwrap();
    assert!(box_v > 0.5, "box at {box_v} m/s");
    assert!(shot_v < 60.0 * 0.5, "circle still at {shot_v} m/s");
    let m_box = 0.1 * 2.0 * 0.25;
    let m_shot = std::f64::consts::PI * 0.05 * 0.05 * 0.25;
    let p = m_box * box_v + m_shot * shot_v;
    assert!(
        (p - m_shot * 60.0).abs() < 0.02 * m_shot * 60.0,
        "momentum {p}"
    );
    // Deterministic.
    assert_eq!(run, shoot_at_thin_box(true));
}

#[test]
fn without_the_bullet_flag_the_circle_passes_through() {
    // What a non-bullet does: continuous collision takes it against static bodies only, and
    // the discrete narrow phase never sees it overlap the box (it jumps from 0.39 m before the
    // box's face to 0.39 m past the other), so it flies on through, untouched, and the box
    // never moves.
    let run = shoot_at_thin_box(false);
    let &(bx, sx, box_v, shot_v) = run.last().unwrap();
    assert!(sx > bx + 1.0, "circle at {sx}, box at {bx}");
    assert_eq!((bx, box_v, shot_v), (0.0, 0.0, 60.0));
}

#[test]
fn a_bullet_wakes_a_sleeping_box_it_hits() {
    let mut w = World::new();
    add_floor(&mut w);
    let top = testbed::px(10, 1).to_f64();
    let target = w
        .add_body(&dynamic(v(2.0, top + 0.5 + 0.02), rect(0.05, 0.5)))
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    assert!(!w.body(target).unwrap().is_awake(), "the box should sleep");
    let mut shot = dynamic(v(0.6, top + 0.8), ball(0.05));
    shot.linear_velocity = v(90.0, 0.0);
    shot.gravity_scale = Fixed::ZERO;
    shot.bullet = true;
    let shot = w.add_body(&shot).unwrap();
    w.step();
    let (t, s) = (w.body(target).unwrap(), w.body(shot).unwrap());
    assert!(t.is_awake());
    assert!(t.linear_velocity().x.is_positive() || t.angular_velocity().is_negative());
    assert!(
        s.position().x.to_f64() < 2.0 - 0.05,
        "the circle passed the box"
    );
    // And the contact began in that step, during continuous collision.
    let begins: Vec<&ContactBegin> = w
        .contact_begins()
        .iter()
        .filter(|b| b.body_a == target && b.body_b == shot)
        .collect();
    assert_eq!(begins.len(), 1, "{:?}", w.contact_begins());
    assert!(begins[0].continuous);
    assert!(begins[0].normal_impulse.is_positive());
    assert!(begins[0].approach_speed.to_f64() > 80.0);
}

// ---------------------------------------------------------------------------------------------
// 3. Bodies added and removed during a run.

#[test]
fn bodies_added_after_steps_collide_and_rest() {
    let mut w = World::new();
    add_floor(&mut w);
    let a = w
        .add_body(&dynamic(px2(100, 40), box_shape(10, 10)))
        .unwrap();
    for _ in 0..200 {
        w.step();
    }
    assert!(w.is_at_rest());
    // A ball dropped onto the sleeping box, and a static ledge with a box on it, mid-run.
    let b = w
        .add_body(&dynamic(px2(100, 60), ball_shape(4, 1)))
        .unwrap();
    let ledge = w
        .add_body(&fixed_body(px2(200, 50), box_shape(40, 4)))
        .unwrap();
    let c = w.add_body(&dynamic(px2(200, 60), box_shape(8, 8))).unwrap();
    assert_eq!((b, ledge, c), (BodyId(2), BodyId(3), BodyId(4)));
    let mut touched = false;
    for _ in 0..400 {
        w.step();
        touched |= w.touching(a, b);
    }
    assert!(touched, "the ball never reached the box");
    assert!(w.touching(ledge, c), "the box fell through the new ledge");
    assert!(w.is_at_rest());
    // Deterministic, and a snapshot mid-run continues bit for bit, events included.
    let build = || {
        let mut w = World::new();
        add_floor(&mut w);
        w.add_body(&dynamic(px2(100, 40), box_shape(10, 10)))
            .unwrap();
        chain(&mut w, 30);
        w.add_body(&dynamic(px2(100, 60), ball_shape(4, 1)))
            .unwrap();
        w
    };
    let mut x = build();
    chain(&mut x, 10);
    let mut snapshot = x.clone();
    let cx = chain(&mut x, 100);
    assert_eq!(chain(&mut snapshot, 100), cx);
    assert_eq!(snapshot.contact_begins(), x.contact_begins());
    let mut y = build();
    chain(&mut y, 10);
    assert_eq!(chain(&mut y, 100), cx);
}

/// Keys of the touching contacts, as (body a, part a, body b, part b).
fn touching_set(w: &World) -> BTreeSet<(u32, u16, u32, u16)> {
    w.contacts()
        .filter(|c| c.point_count > 0)
        .map(|c| {
            let (a, pa, b, pb) = (c.body_a.0, c.part_a, c.body_b.0, c.part_b);
            if a < b {
                (a, pa, b, pb)
            } else {
                (b, pb, a, pa)
            }
        })
        .collect()
}

#[test]
fn a_removed_body_leaves_its_contacts_and_wakes_what_it_touched() {
    let mut w = testbed::pyramid(4);
    for _ in 0..300 {
        w.step();
    }
    assert!(w.is_at_rest());
    // Body 1 is the bottom row's first box; the row above rests on it.
    let gone = BodyId(1);
    let touched: BTreeSet<u32> = touching_set(&w)
        .into_iter()
        .filter(|k| k.0 == gone.0 || k.2 == gone.0)
        .map(|k| if k.0 == gone.0 { k.2 } else { k.0 })
        .collect();
    assert!(touched.len() >= 2, "{touched:?}");
    let frozen = w.body(gone).unwrap().clone();
    let contacts_before: Vec<_> = touching_set(&w)
        .into_iter()
        .filter(|k| k.0 == gone.0 || k.2 == gone.0)
        .collect();
    w.remove_body(gone).unwrap();
    assert!(w.is_removed(gone) && w.body(gone).unwrap().is_removed());
    assert!(w.contacts().all(|c| c.body_a != gone && c.body_b != gone));
    assert!(!w.touching(gone, BodyId(0)));
    for &other in &touched {
        let b = w.body(BodyId(other)).unwrap();
        assert!(!b.is_dynamic() || b.is_awake(), "body {other} still asleep");
    }
    // The ends come with the next step.
    assert!(w.contact_ends().is_empty() || w.step_count() > 0);
    w.step();
    let ends: Vec<(u32, u16, u32, u16)> = w
        .contact_ends()
        .iter()
        .filter(|e| e.body_a == gone || e.body_b == gone)
        .map(|e| (e.body_a.0, e.part_a, e.body_b.0, e.part_b))
        .collect();
    assert_eq!(ends, contacts_before);
    // The rest falls into the gap; the removed body never moves, touches or wakes again.
    for _ in 0..300 {
        w.step();
        assert!(w.contacts().all(|c| c.body_a != gone && c.body_b != gone));
        assert!(w
            .contact_begins()
            .iter()
            .all(|b| b.body_a != gone && b.body_b != gone));
        let b = w.body(gone).unwrap();
        assert!(!b.is_awake());
        assert_eq!(b.world_center(), frozen.world_center());
    }
    // Adding after a removal never reuses the id.
    let id = w
        .add_body(&dynamic(px2(30, 100), ball_shape(3, 1)))
        .unwrap();
    assert_eq!(id.index(), w.bodies().len() - 1);
    assert_eq!(id, BodyId(11));
}

#[test]
fn ends_of_removals_are_reported_in_order_whatever_the_order_removed() {
    // Two balls at rest on the floor (bodies 1 and 2), removed the higher id first: the next
    // step has no begin and both ends, sorted.
    let mut w = World::new();
    add_floor(&mut w);
    for x in [60, 180] {
        w.add_body(&dynamic(px2(x, 14), ball_shape(4, 1))).unwrap();
    }
    for _ in 0..200 {
        w.step();
    }
    assert_eq!(touching_set(&w).len(), 2);
    w.remove_body(BodyId(2)).unwrap();
    w.remove_body(BodyId(1)).unwrap();
    w.step();
    assert!(w.contact_begins().is_empty());
    let ends: Vec<_> = w.contact_ends().iter().map(end_key).collect();
    assert_eq!(ends, [(0, 0, 1, 0), (0, 0, 2, 0)]);
}

#[test]
fn removing_twice_or_an_unknown_body_is_an_error() {
    let mut w = testbed::pyramid(2);
    assert_eq!(
        w.remove_body(BodyId(99)),
        Err(WorldError::UnknownBody(BodyId(99)))
    );
    w.remove_body(BodyId(2)).unwrap();
    let hash = w.state_hash();
    assert_eq!(
        w.remove_body(BodyId(2)),
        Err(WorldError::RemovedBody(BodyId(2)))
    );
    assert_eq!(w.state_hash(), hash);
    // Nor can a removed body be pushed.
    assert_eq!(
        w.apply_linear_impulse(BodyId(2), v(1.0, 0.0), Vec2::ZERO),
        Err(WorldError::RemovedBody(BodyId(2)))
    );
}

#[test]
fn removing_a_static_body_lets_what_rested_on_it_fall() {
    let mut w = World::new();
    let ledge = w
        .add_body(&fixed_body(px2(128, 50), box_shape(60, 4)))
        .unwrap();
    let floor_id = BodyId(1);
    add_floor(&mut w);
    let b = w
        .add_body(&dynamic(px2(128, 60), box_shape(10, 10)))
        .unwrap();
    for _ in 0..200 {
        w.step();
    }
    assert!(w.is_at_rest() && w.touching(ledge, b));
    w.remove_body(ledge).unwrap();
    assert!(w.body(b).unwrap().is_awake());
    for _ in 0..200 {
        w.step();
    }
    assert!(w.touching(floor_id, b), "the box did not fall to the floor");
}

#[test]
fn a_removed_slot_hashes_the_same_whatever_it_held() {
    // Two worlds differ only in a body that is removed before it meets anything: from then on
    // their hashes agree, and the slot counts (a world without that slot hashes differently).
    let build = |third: BodyDef| {
        let mut w = World::new();
        add_floor(&mut w);
        w.add_body(&dynamic(px2(60, 40), ball_shape(5, 1))).unwrap();
        w.add_body(&third).unwrap();
        w.add_body(&dynamic(px2(160, 40), box_shape(10, 10)))
            .unwrap();
        w
    };
    let mut a = build(dynamic(px2(100, 200), ball_shape(7, 1)));
    let mut spinning = dynamic(px2(220, 120), box_shape(20, 3));
    spinning.angular_velocity = f(5.0);
    let mut b = build(spinning);
    chain(&mut a, 5);
    chain(&mut b, 5);
    assert_ne!(a.state_hash(), b.state_hash());
    a.remove_body(BodyId(2)).unwrap();
    b.remove_body(BodyId(2)).unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(chain(&mut a, 200), chain(&mut b, 200));
}

// ---------------------------------------------------------------------------------------------
// 4. Impulses and velocities.

/// A world with the floor and one dynamic body, `shape` at `at`, stepped until it sleeps.
fn asleep_on_the_floor(at: Vec2, shape: Shape) -> (World, BodyId) {
    let mut w = World::new();
    add_floor(&mut w);
    let id = w.add_body(&dynamic(at, shape)).unwrap();
    for _ in 0..200 {
        w.step();
    }
    assert!(!w.body(id).unwrap().is_awake());
    (w, id)
}

#[test]
fn a_linear_impulse_changes_velocity_and_spin_and_wakes() {
    let (mut w, id) = asleep_on_the_floor(px2(128, 16), box_shape(12, 12));
    let (m, inertia, c) = {
        let b = w.body(id).unwrap();
        (b.mass().to_f64(), b.inertia().to_f64(), b.world_center())
    };
    let j = v(0.3, 0.1);
    let point = c + v(0.0, 0.5);
    w.apply_linear_impulse(id, j, point).unwrap();
    let b = w.body(id).unwrap();
    assert!(b.is_awake());
    assert!((b.linear_velocity().x.to_f64() - 0.3 / m).abs() < 1e-6);
    assert!((b.linear_velocity().y.to_f64() - 0.1 / m).abs() < 1e-6);
    // r × J = (0, 0.5) × (0.3, 0.1) = −0.15.
    assert!((b.angular_velocity().to_f64() + 0.15 / inertia).abs() < 1e-5);
    // Errors change nothing.
    let h = w.state_hash();
    assert_eq!(
        w.apply_linear_impulse(BodyId(0), j, point),
        Err(WorldError::NotDynamic(BodyId(0)))
    );
    assert_eq!(
        w.apply_linear_impulse(BodyId(7), j, point),
        Err(WorldError::UnknownBody(BodyId(7)))
    );
    // 1000 N·s at 100 m from the centre: a spin beyond MAX_SPEED.
    assert!(matches!(
        w.apply_linear_impulse(id, v(0.0, 1000.0), c + v(100.0, 0.0)),
        Err(WorldError::OutOfRange(_))
    ));
    assert_eq!(w.state_hash(), h);
}

#[test]
fn set_velocity_sets_both_and_wakes_unless_zero() {
    let (mut w, id) = asleep_on_the_floor(px2(128, 14), ball_shape(4, 1));
    w.set_velocity(id, Vec2::ZERO, Fixed::ZERO).unwrap();
    assert!(!w.body(id).unwrap().is_awake());
    w.set_velocity(id, v(2.0, 3.0), f(-1.0)).unwrap();
    let b = w.body(id).unwrap();
    assert!(b.is_awake());
    assert_eq!(
        (b.linear_velocity(), b.angular_velocity()),
        (v(2.0, 3.0), f(-1.0))
    );
    assert!(matches!(
        w.set_velocity(id, v(1e6, 0.0), Fixed::ZERO),
        Err(WorldError::OutOfRange(_))
    ));
    assert_eq!(
        w.set_velocity(BodyId(0), v(1.0, 0.0), Fixed::ZERO),
        Err(WorldError::NotDynamic(BodyId(0)))
    );
}

#[test]
fn each_out_of_range_input_alone_is_refused_and_the_bounds_are_inclusive() {
    use engine::{MAX_POSITION, MAX_SPEED};
    let one_raw = Fixed::from_raw(1);
    let mut w = World::new();
    w.set_gravity(Vec2::ZERO);
    let id = w.add_body(&dynamic(Vec2::ZERO, ball(0.5))).unwrap();
    let out = |what| Err(WorldError::OutOfRange(what));
    // A linear impulse: the impulse alone, then the point alone, out of range.
    let big = Vec2::new(MAX_SPEED + one_raw, Fixed::ZERO);
    let far = Vec2::new(MAX_POSITION + one_raw, Fixed::ZERO);
    assert_eq!(
        w.apply_linear_impulse(id, big, Vec2::ZERO),
        out("impulse or point")
    );
    assert_eq!(
        w.apply_linear_impulse(id, v(0.0, 1e-6), far),
        out("impulse or point")
    );
    // Velocities: the angular one alone, at the bound and one raw unit past it, and Fixed::MIN.
    assert_eq!(w.set_velocity(id, Vec2::ZERO, MAX_SPEED), Ok(()));
    assert_eq!(w.set_velocity(id, Vec2::ZERO, -MAX_SPEED), Ok(()));
    assert_eq!(
        w.set_velocity(id, Vec2::ZERO, MAX_SPEED + one_raw),
        out("velocity")
    );
    assert_eq!(w.set_velocity(id, Vec2::ZERO, Fixed::MIN), out("velocity"));
    // Radial impulses: each bad field alone pushes nothing; a radius of exactly twice the
    // largest position (the farthest two valid points can be apart) is valid.
    let good = RadialImpulse {
        center: v(3.0, 0.0),
        radius: f(4.0),
        strength: f(1.0),
        falloff: Falloff::Constant,
    };
    assert_eq!(w.apply_radial_impulse(&good).len(), 1);
    let reach = MAX_POSITION + MAX_POSITION;
    let at_reach = RadialImpulse {
        radius: reach,
        ..good
    };
    assert_eq!(w.apply_radial_impulse(&at_reach).len(), 1);
    assert_eq!(
        w.apply_radial_impulse(&RadialImpulse {
            radius: MAX_POSITION + f(1.0),
            ..good
        })
        .len(),
        1
    );
    for strength in [MAX_SPEED, -MAX_SPEED] {
        let strongest = RadialImpulse { strength, ..good };
        assert_eq!(w.apply_radial_impulse(&strongest).len(), 1);
    }
    for bad in [
        RadialImpulse {
            radius: Fixed::ZERO,
            ..good
        },
        RadialImpulse {
            radius: f(-1.0),
            ..good
        },
        RadialImpulse {
            radius: reach + one_raw,
            ..good
        },
        RadialImpulse {
            center: far,
            ..good
        },
        RadialImpulse {
            center: Vec2::new(Fixed::ZERO, Fixed::MIN),
            ..good
        },
        RadialImpulse {
            strength: MAX_SPEED + one_raw,
            ..good
        },
        RadialImpulse {
            strength: Fixed::MIN,
            ..good
        },
    ] {
        assert!(w.apply_radial_impulse(&bad).is_empty(), "{bad:?}");
    }
}

#[test]
fn setting_either_velocity_alone_wakes_a_sleeping_body() {
    for (linear, angular) in [(v(1.0, 0.0), Fixed::ZERO), (Vec2::ZERO, f(1.0))] {
        let (mut w, id) = asleep_on_the_floor(px2(128, 14), ball_shape(4, 1));
        w.set_velocity(id, linear, angular).unwrap();
        assert!(w.body(id).unwrap().is_awake(), "{linear:?} {angular:?}");
    }
}

#[test]
fn a_radial_impulse_pushes_bodies_within_its_radius_away_from_its_centre() {
    let mut w = World::new();
    w.set_gravity(Vec2::ZERO);
    let wall = w
        .add_body(&fixed_body(v(1.0, 0.0), rect(0.1, 0.1)))
        .unwrap();
    let at = [
        v(2.0, 0.0),  // 2 m right
        v(0.0, -1.0), // 1 m below
        v(3.0, 4.0),  // 5 m away: outside
        v(0.0, 0.0),  // at the centre
        v(-0.6, 0.8), // 1 m up-left
    ];
    let ids: Vec<BodyId> = at
        .iter()
        .map(|&p| w.add_body(&dynamic(p, ball(0.1))).unwrap())
        .collect();
    let removed = w.add_body(&dynamic(v(0.5, 0.0), ball(0.1))).unwrap();
    w.remove_body(removed).unwrap();
    let mass = w.body(ids[0]).unwrap().mass().to_f64();
    let constant = RadialImpulse {
        center: Vec2::ZERO,
        radius: f(4.0),
        strength: f(2.0),
        falloff: Falloff::Constant,
    };
    let hits = w.apply_radial_impulse(&constant);
    let got: Vec<BodyId> = hits.iter().map(|h| h.body).collect();
    assert_eq!(got, vec![ids[0], ids[1], ids[3], ids[4]]);
    assert!(hits.iter().all(|h| h.body != wall));
    let near = |a: Vec2, b: Vec2| (a - b).length().to_f64() < 1e-6;
    assert!(near(hits[0].impulse, v(2.0, 0.0)));
    assert!(near(hits[1].impulse, v(0.0, -2.0)));
    // At the centre: +y.
    assert_eq!(hits[2].impulse, v(0.0, 2.0));
    assert!(near(hits[3].impulse, v(-1.2, 1.6)));
    for h in &hits {
        let b = w.body(h.body).unwrap();
        assert!(near(b.linear_velocity(), h.impulse.scale(f(1.0 / mass))));
        assert_eq!(b.angular_velocity(), Fixed::ZERO);
    }
    assert_eq!(w.body(ids[2]).unwrap().linear_velocity(), Vec2::ZERO);

    let mut w2 = World::new();
    w2.set_gravity(Vec2::ZERO);
    let ids2: Vec<BodyId> = at
        .iter()
        .map(|&p| w2.add_body(&dynamic(p, ball(0.1))).unwrap())
        .collect();
    let linear = RadialImpulse {
        falloff: Falloff::Linear,
        ..constant
    };
    let hits = w2.apply_radial_impulse(&linear);
    assert_eq!(hits.len(), 4);
    // 2 m of 4: half strength; 1 m: three quarters; the centre: full.
    assert!(near(hits[0].impulse, v(1.0, 0.0)));
    assert!(near(hits[1].impulse, v(0.0, -1.5)));
    assert_eq!(hits[2].body, ids2[3]);
    assert_eq!(hits[2].impulse, v(0.0, 2.0));
    assert!(near(hits[3].impulse, v(-0.9, 1.2)));
    // Nothing within a radius that is not positive.
    assert!(w2
        .apply_radial_impulse(&RadialImpulse {
            radius: Fixed::ZERO,
            ..linear
        })
        .is_empty());
}

#[test]
fn a_radial_impulse_wakes_what_it_pushes() {
    let mut w = testbed::pyramid(3);
    for _ in 0..300 {
        w.step();
    }
    assert!(w.is_at_rest());
    let centre = w.body(BodyId(1)).unwrap().world_center() - v(0.0, 1.0);
    let hits = w.apply_radial_impulse(&RadialImpulse {
        center: centre,
        radius: f(3.0),
        strength: f(0.5),
        falloff: Falloff::Linear,
    });
    assert!(!hits.is_empty());
    for h in &hits {
        assert!(w.body(h.body).unwrap().is_awake());
    }
    assert!(hits.windows(2).all(|p| p[0].body < p[1].body));
}

// ---------------------------------------------------------------------------------------------
// 5. Contact events.

fn begin_key(b: &ContactBegin) -> (u32, u16, u32, u16) {
    (b.body_a.0, b.part_a, b.body_b.0, b.part_b)
}

fn end_key(e: &ContactEnd) -> (u32, u16, u32, u16) {
    (e.body_a.0, e.part_a, e.body_b.0, e.part_b)
}

#[test]
fn a_ball_falling_on_the_floor_begins_once_with_what_a_damage_rule_needs() {
    // No gravity: the ball comes down at exactly 3 m/s and meets the floor at a step's narrow
    // phase (0.05 m per step: no continuous collision).
    let mut w = World::new();
    w.set_gravity(Vec2::ZERO);
    add_floor(&mut w);
    let top = testbed::px(10, 1).to_f64();
    let mut d = dynamic(v(2.0, top + 0.3 + 0.5), ball(0.3));
    d.linear_velocity = v(0.0, -3.0);
    let id = w.add_body(&d).unwrap();
    let mass = w.body(id).unwrap().mass();
    let mut begins = Vec::new();
    for step in 1..=60 {
        w.step();
        for b in w.contact_begins() {
            begins.push((step, *b));
        }
    }
    assert_eq!(begins.len(), 1, "{begins:?}");
    let (_, b) = begins[0];
    assert_eq!(
        (b.body_a, b.part_a, b.body_b, b.part_b),
        (BodyId(0), 0, id, 0)
    );
    assert!(!b.continuous);
    // From the floor (body a) up to the ball.
    assert!((b.normal.y.to_f64() - 1.0).abs() < 1e-8 && b.normal.x.to_f64().abs() < 1e-8);
    assert_eq!(b.approach_speed, Fixed::from_int(3));
    assert_eq!((b.mass_a, b.mass_b), (Fixed::ZERO, mass));
    // Restitution 0.2 above 1 m/s: the ball leaves at 0.6 m/s, an impulse of m · 3.6.
    let want = mass.to_f64() * 3.6;
    assert!(
        (b.normal_impulse.to_f64() - want).abs() < 1e-3 * want,
        "{} against {want}",
        b.normal_impulse
    );
    // It bounced off: one end, after the begin.
    assert!(w.body(id).unwrap().linear_velocity().y.to_f64() > 0.5);
}

#[test]
fn begins_and_ends_are_the_changes_of_the_touching_contacts() {
    // Without removals, the narrow-phase begins of a step are exactly the contacts touching
    // after it and not before, less those continuous collision reported in the step before
    // (confirmed now, not begun twice); the ends are the contacts touching before and not
    // after, plus those continuous begins that do not touch now. Both lists sorted.
    type Key = (u32, u16, u32, u16);
    let mut continuous_seen = 0;
    for (name, mut w) in testbed::named_scenes() {
        let mut before = touching_set(&w);
        let mut confirm: BTreeSet<Key> = BTreeSet::new();
        for _ in 0..400 {
            w.step();
            let after = touching_set(&w);
            let all: Vec<Key> = w.contact_begins().iter().map(begin_key).collect();
            let ends: Vec<Key> = w.contact_ends().iter().map(end_key).collect();
            let sorted = |v: &[Key]| {
                v.windows(2)
                    .all(|p| (p[0].0, p[0].2, p[0].1, p[0].3) < (p[1].0, p[1].2, p[1].1, p[1].3))
            };
            assert!(sorted(&all) && sorted(&ends), "{name}");
            let (cont, discrete): (Vec<&ContactBegin>, Vec<&ContactBegin>) =
                w.contact_begins().iter().partition(|b| b.continuous);
            continuous_seen += cont.len();
            let want_begins: BTreeSet<Key> = after
                .difference(&before)
                .filter(|k| !confirm.contains(k))
                .copied()
                .collect();
            let mut want_ends: BTreeSet<Key> = before.difference(&after).copied().collect();
            want_ends.extend(confirm.difference(&after));
            let got: BTreeSet<Key> = discrete.iter().map(|b| begin_key(b)).collect();
            assert_eq!(got, want_begins, "{name}");
            assert_eq!(
                ends.iter().copied().collect::<BTreeSet<_>>(),
                want_ends,
                "{name}"
            );
            for b in w.contact_begins() {
                assert!(b.body_a < b.body_b);
                assert!(!b.normal_impulse.is_negative());
                let n = b.normal.length().to_f64();
                assert!((n - 1.0).abs() < 1e-6, "{name}: normal {:?}", b.normal);
                let (ma, mb) = (
                    w.body(b.body_a).unwrap().mass(),
                    w.body(b.body_b).unwrap().mass(),
                );
                assert_eq!((b.mass_a, b.mass_b), (ma, mb));
            }
            // A continuous begin is of a contact not touching as of this step's narrow phase.
            for b in &cont {
                assert!(!after.contains(&begin_key(b)), "{name}: {b:?}");
            }
            confirm = cont.iter().map(|b| begin_key(b)).collect();
            before = after;
        }
    }
    assert!(continuous_seen > 0, "no scene had a continuous begin");
}

#[test]
fn a_contact_begun_in_continuous_collision_is_reported_in_its_step_once() {
    // A ball at 120 m/s onto a thin static bar (2 m per step): it reaches the bar within a
    // step, in continuous collision.
    let mut w = World::new();
    w.set_gravity(Vec2::ZERO);
    let bar = w
        .add_body(&fixed_body(px2(128, 100), box_shape(200, 5)))
        .unwrap();
    let mut d = dynamic(px2(128, 220), ball_shape(3, 1));
    d.linear_velocity = v(0.0, -120.0);
    let id = w.add_body(&d).unwrap();
    let mut log: Vec<(u32, &'static str, bool)> = Vec::new();
    for step in 1..=60 {
        w.step();
        for b in w.contact_begins() {
            assert_eq!((b.body_a, b.body_b), (bar, id));
            log.push((step, "begin", b.continuous));
            if b.continuous {
                assert!(b.approach_speed.to_f64() > 100.0, "{b:?}");
                assert!(b.normal_impulse.is_positive());
                assert!(b.normal.y.to_f64() > 0.99, "{b:?}");
            }
        }
        for _ in w.contact_ends() {
            log.push((step, "end", false));
        }
    }
    assert_eq!(
        log.first().map(|e| (e.1, e.2)),
        Some(("begin", true)),
        "{log:?}"
    );
    // Begins and ends alternate.
    for pair in log.windows(2) {
        assert_ne!(pair[0].1, pair[1].1, "{log:?}");
    }
}

#[test]
fn events_of_a_bullet_scene_alternate_per_pair() {
    // Bullets into a stack: for every pair of parts, begins and ends alternate, begin first,
    // over continuous and discrete begins alike.
    let mut w = testbed::pyramid(5);
    for (i, y) in [20, 35, 50].into_iter().enumerate() {
        let mut d = dynamic(px2(20 + 5 * i as i64, y), ball_shape(2, 1));
        d.linear_velocity = v(70.0, 0.0);
        d.bullet = true;
        w.add_body(&d).unwrap();
    }
    let mut state: std::collections::BTreeMap<(u32, u16, u32, u16), bool> = Default::default();
    let mut continuous = 0;
    for _ in 0..300 {
        w.step();
        // Within a step, ends are (narrow phase) before continuous begins, and discrete begins
        // are exclusive with ends of the same pair.
        for e in w.contact_ends() {
            let t = state.entry(end_key(e)).or_insert(false);
            assert!(*t, "end without a begin: {e:?}");
            *t = false;
        }
        for b in w.contact_begins() {
            continuous += usize::from(b.continuous);
            let t = state.entry(begin_key(b)).or_insert(false);
            assert!(!*t, "begin twice: {b:?}");
            *t = true;
        }
    }
    assert!(
        continuous > 0,
        "no bullet hit anything in continuous collision"
    );
    // Whatever touches now began and has not ended.
    for k in touching_set(&w) {
        assert_eq!(state.get(&k), Some(&true), "{k:?}");
    }
}

/// A ball at 120 m/s onto a thin static bar 40 px wide (2 m a step: it reaches the bar within a
/// step, in continuous collision), restitution 0 so that it stays on the bar under gravity: one
/// per pair, the bars added first (`bars_first`) or the balls. Returns each step's events.
fn balls_onto_bars(
    pairs: i64,
    bars_first: bool,
    remove_first_ball_after: Option<u32>,
) -> Vec<(u32, String)> {
    let ball = |i: i64| {
        let mut d = dynamic(px2(60 + 80 * i, 220), ball_shape(3, 1));
        d.linear_velocity = v(0.0, -120.0);
        d.restitution = Fixed::ZERO;
        d
    };
    let bar = |i: i64| {
        let mut d = fixed_body(px2(60 + 80 * i, 100), box_shape(40, 5));
        d.restitution = Fixed::ZERO;
        d
    };
    let (balls, bars): (Vec<BodyDef>, Vec<BodyDef>) = (
        (0..pairs).map(ball).collect(),
        (0..pairs).map(bar).collect(),
    );
    let order = if bars_first {
        [&bars, &balls]
    } else {
        [&balls, &bars]
    };
    let mut w = World::new();
    for d in order.into_iter().flatten() {
        w.add_body(d).unwrap();
    }
    let first_ball = BodyId(if bars_first { pairs as u32 } else { 0 });
    let mut log = Vec::new();
    for step in 1..=40 {
        w.step();
        for b in w.contact_begins() {
            let n = (b.normal.x.to_f64(), b.normal.y.to_f64());
            log.push((
                step,
                format!(
                    "begin {:?} continuous {} normal {n:?}",
                    begin_key(b),
                    b.continuous
                ),
            ));
        }
        for e in w.contact_ends() {
            log.push((step, format!("end {:?}", end_key(e))));
        }
        if remove_first_ball_after == Some(step) {
            w.remove_body(first_ball).unwrap();
        }
    }
    log
}

#[test]
fn a_continuous_begin_is_confirmed_by_the_next_narrow_phase_not_begun_again() {
    // The ball (body 0, the lower id: the continuous solve meets it as the moving body x with
    // x < y) comes to rest on the bar (body 1): one begin in the step of the hit, from the ball
    // to the bar (down), then nothing while it rests.
    let log = balls_onto_bars(1, false, None);
    assert_eq!(
        log,
        [(
            10,
            "begin (0, 0, 1, 0) continuous true normal (0.0, -1.0)".to_string()
        )]
    );
    // The bar first: the same events, the ids swapped and the normal with them.
    let log = balls_onto_bars(1, true, None);
    assert_eq!(
        log,
        [(
            10,
            "begin (0, 0, 1, 0) continuous true normal (0.0, 1.0)".to_string()
        )]
    );
}

#[test]
fn every_continuous_begin_of_a_step_is_reported_and_a_removed_body_ends_its_own() {
    // Two balls onto two bars in the same step: two continuous begins. The first ball removed
    // after that step: its contact ends in the next step (it never touched at a narrow phase);
    // the other ball rests on, with no event.
    for bars_first in [true, false] {
        let log = balls_onto_bars(2, bars_first, Some(10));
        let (ball0, ball1, bar0, bar1) = if bars_first {
            (2, 3, 0, 1)
        } else {
            (0, 1, 2, 3)
        };
        let normal = if bars_first {
            "(0.0, 1.0)"
        } else {
            "(0.0, -1.0)"
        };
        let key = |a: u32, b: u32| (a.min(b), 0, a.max(b), 0);
        let begin = |a, b| format!("begin {:?} continuous true normal {normal}", key(a, b));
        assert_eq!(
            log,
            [
                (10, begin(ball0, bar0)),
                (10, begin(ball1, bar1)),
                (11, format!("end {:?}", key(ball0, bar0))),
            ],
            "bars first: {bars_first}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Collision filters

#[test]
fn bodies_whose_filters_do_not_meet_pass_through_each_other() {
    use engine::CollisionFilter;
    let apart = CollisionFilter {
        category: 2,
        mask: !2,
    };
    let run = |filter_a: CollisionFilter, filter_b: CollisionFilter| {
        let mut w = World::new();
        w.set_gravity(Vec2::ZERO);
        let mut a = dynamic(v(0.0, 0.0), ball(0.2));
        a.linear_velocity = v(3.0, 0.0);
        a.filter = filter_a;
        let mut b = dynamic(v(1.0, 0.0), ball(0.2));
        b.filter = filter_b;
        let a = w.add_body(&a).unwrap();
        let b = w.add_body(&b).unwrap();
        let mut touched = false;
        for _ in 0..60 {
            w.step();
            touched |= w.touching(a, b) || !w.contact_begins().is_empty();
        }
        (touched, w.body(b).unwrap().position().x.to_f64())
    };
    // Both birds-like (category 2, mask without 2): they never meet; b does not move.
    let (touched, bx) = run(apart, apart);
    assert!(!touched);
    assert_eq!(bx, 1.0);
    // One of them default: category 1 is in the other's mask and 2 in the default mask.
    let (touched, bx) = run(apart, CollisionFilter::default());
    assert!(touched);
    assert!(bx > 1.5, "b was pushed: {bx}");
    assert!(apart.meets(CollisionFilter::default()));
    assert!(!apart.meets(apart));
}

#[test]
fn a_bullet_ignores_a_body_its_filter_does_not_meet() {
    use engine::CollisionFilter;
    let mut w = World::new();
    w.set_gravity(Vec2::ZERO);
    let mut wall = dynamic(v(1.0, 0.0), rect(0.05, 1.0));
    wall.filter = CollisionFilter {
        category: 4,
        mask: u32::MAX,
    };
    let wall = w.add_body(&wall).unwrap();
    let mut shot = dynamic(v(0.0, 0.0), ball(0.05));
    shot.bullet = true;
    shot.linear_velocity = v(60.0, 0.0);
    shot.filter = CollisionFilter {
        category: 1,
        mask: !4,
    };
    let shot = w.add_body(&shot).unwrap();
    for _ in 0..10 {
        w.step();
    }
    assert!(w.body(shot).unwrap().position().x.to_f64() > 5.0);
    assert_eq!(w.body(wall).unwrap().position().x.to_f64(), 1.0);
}
