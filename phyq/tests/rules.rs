//! Every game rule against values computed by hand from the formula and the original's
//! constants (Science Birds' prefabs and `ABConstants.cs`, as `phyq/data/catalogue.csv` cites
//! them), each in a small level built here, so that changing a rule's number or its arithmetic
//! fails a test: the catalogue's numbers of the rules, the launch, the birds' powers at a tap
//! (yellow, white, blue, black), TNT, collision damage (once per pair of colliders), a bird's
//! damage by material, immortality, the pass rule and the aim.
//!
//! Shared arithmetic (Unity's fixed step h = 0.02 s, gravity 9.81 m/s², gravity scale 0.48 for
//! birds in flight, blocks and pigs, 1 for TNT and the egg):
//! * one step of gravity at scale 0.48: 9.81 · 0.48 · 0.02 = 0.094176 m/s (`G48`);
//! * the engine integrates v ← v + g·h, then x ← x + v·h, so after k steps from rest a body
//!   has v = −k·g·h and has fallen g·h²·k(k+1)/2: after the 100 steps of the 2 s opening,
//!   9.81 · 0.48 · 0.0004 · 5050 = 9.511776 m at scale 0.48, 9.81 · 0.0004 · 5050 = 19.8162 m
//!   at scale 1;
//! * the bird's rest point is the slingshot (−12, −2.5) less SLING_SELECT_POS (0.15, −0.8):
//!   (−12.15, −1.7); a shot released at (−1, 0) from it (a full drag) leaves from
//!   (−13.15, −1.7) at (10, 0) m/s.
//!
//! Expected values are decimals worked out from those numbers; the game runs in Q32.32, whose
//! rounding (of π, of sines, of 0.48) stays far under [`TOL`].

use engine::{Fixed, Vec2};
use phyq::game::aim::{aim, Arc, Reach};
use phyq::game::{play, Game, Shot, Status, MAX_SHOT_STEPS};
use phyq::{catalogue, BirdKind, BlockShape, Kind, Material, PigKind};

mod common;
use common::level;

/// How far a Q32.32 result may lie from the decimal worked out by hand: 10⁻⁵ (42,950 raw
/// units). The game's rounding (of 0.02, 0.48, π, square roots) adds up over the opening's 100
/// steps to a few 10⁻⁶ at most; every change of a rule tried moves a result by 10⁻² or more.
const TOL: f64 = 1e-5;
/// One step of gravity at scale 0.48 (m/s).
const G48: f64 = 0.094176;

fn f(x: f64) -> Fixed {
    Fixed::from_f64(x).unwrap()
}

#[track_caller]
fn close(actual: Fixed, expected: f64, what: &str) {
    let a = actual.to_f64();
    assert!(
        (a - expected).abs() <= TOL,
        "{what}: {a} (expected {expected}, off by {:e})",
        a - expected
    );
}

#[track_caller]
fn close_v(actual: Vec2, expected: (f64, f64), what: &str) {
    close(actual.x, expected.0, &format!("{what}.x"));
    close(actual.y, expected.1, &format!("{what}.y"));
}

/// A pig far to the right, out of every explosion's reach (a level needs one).
const FAR_PIG: &str = r#"<Pig type="BasicSmall" x="8" y="-3.2"/>"#;

/// The game after its 2 s opening with the first bird launched from `release` (m from the rest
/// point) and tapped `tap` s later; nothing has stepped since the launch.
fn launched(bird: &str, objects: &str, release: (f64, f64), tap: Option<f64>) -> Game {
    let mut g = Game::new(&level(&[bird], objects)).unwrap();
    g.settle();
    assert_eq!(g.steps(), 100, "the opening is 2 s of 50 steps");
    let shot = Shot {
        release: Vec2::new(f(release.0), f(release.1)),
        tap: tap.map(f),
    };
    assert!(g.launch(&shot).unwrap());
    g
}

/// A tap 0.30 s after the launch comes before the launch's 15th step: the first at which a
/// bird shot at (10, 0) from (−13.15, −1.7) is in front of the slingshot
/// (`ABBird.IsInFrontOfSlingshot`: x + its width > −12.15 + 2 · 1 = −10.15). After 14 steps
/// it is at x = −13.15 + 14 · 0.2 = −10.35 (a bird wider than 0.2 m is in front), y = −1.7 −
/// 0.00188352 · 14 · 15 / 2 = −1.8977696, moving at (10, −14 · 0.094176) = (10, −1.318464).
const TAP: f64 = 0.30;
const AT_TAP: (f64, f64) = (-10.35, -1.897_769_6);
const V_AT_TAP: (f64, f64) = (10.0, -1.318_464);

/// [`launched`] at a full drag straight back and tapped at [`TAP`], run to the step before the
/// tap (checked: the bird where [`AT_TAP`] says, untapped).
fn before_tap(bird: &str, objects: &str) -> Game {
    let mut g = launched(bird, objects, (-1.0, 0.0), Some(TAP));
    for _ in 0..14 {
        g.step_idle();
    }
    let birds = flying(&g);
    assert_eq!(birds.len(), 1, "one bird before the tap: {birds:?}");
    close_v(birds[0].1, AT_TAP, "bird before the tap");
    close_v(birds[0].2, V_AT_TAP, "bird's velocity before the tap");
    g
}

/// The birds (and the egg) in flight: (kind, position, velocity), in creation order.
fn flying(g: &Game) -> Vec<(Kind, Vec2, Vec2)> {
    g.objects()
        .filter(|(k, _, _)| matches!(k, Kind::Bird(_) | Kind::Egg))
        .map(|(k, _, body)| {
            let b = g.world().body(body).unwrap();
            (k, b.position(), b.linear_velocity())
        })
        .collect()
}

/// The numbers of the rules, as the original's prefabs and scripts give them (read by hand:
/// `unity/prefabs/Bird*.prefab` `_woodDamageMultiplier` …, `TNT.prefab` and `Egg.prefab`
/// `_explosion*`, `ABConstants.cs`).
#[test]
fn the_catalogue_holds_the_originals_rule_numbers() {
    let cat = catalogue();
    let extra = |k: Kind, name: &str| cat.entry(k).extra[name].text().to_string();
    // Per bird: wood, stone, ice multipliers.
    for (bird, wood, stone, ice) in [
        (BirdKind::Red, "1", "1", "1"),
        (BirdKind::Blue, "1", "1", "4"),
        (BirdKind::Yellow, "2.4", "1", "1.2"),
        (BirdKind::Black, "1", "2.5", "1"),
        (BirdKind::White, "0.8", "1", "0.8"),
    ] {
        let k = Kind::Bird(bird);
        assert_eq!(
            [
                extra(k, "damage_wood"),
                extra(k, "damage_stone"),
                extra(k, "damage_ice")
            ],
            [wood, stone, ice],
            "{bird:?}"
        );
        assert_eq!(extra(k, "drag_radius"), "1", "{bird:?}");
        assert_eq!(extra(k, "launch_gravity"), "0.48", "{bird:?}");
    }
    // The powers.
    assert_eq!(
        extra(Kind::Bird(BirdKind::Yellow), "power.attack_force"),
        "4"
    );
    assert_eq!(extra(Kind::Bird(BirdKind::Blue), "power.children"), "3");
    assert_eq!(
        extra(Kind::Bird(BirdKind::Blue), "power.angle_between"),
        "10"
    );
    assert_eq!(extra(Kind::Bird(BirdKind::White), "power.egg_force"), "6");
    assert_eq!(
        extra(Kind::Bird(BirdKind::White), "power.push_up_force"),
        "10"
    );
    // Explosions: area, power, damage.
    for (k, area, power, damage) in [
        (Kind::Bird(BirdKind::Black), "3", "4", "20"),
        (Kind::Tnt, "2.5", "4", "100"),
        (Kind::Egg, "2", "2", "200"),
    ] {
        assert_eq!(
            [
                extra(k, "explosion_area"),
                extra(k, "explosion_power"),
                extra(k, "explosion_damage")
            ],
            [area, power, damage],
            "{k}"
        );
    }
    // ABConstants: the damage multiplier, the immortal time, the launch speed; the materials'
    // defences (DEFENSE_WOOD, _STONE, _ICE).
    assert_eq!(cat.world("damage_multiplier"), Some("11.22"));
    assert_eq!(cat.world("immortal_time"), Some("2"));
    assert_eq!(cat.world("bird_max_launch_speed"), Some("10"));
    assert_eq!(cat.world("sling_select_pos"), Some("0.15 -0.8"));
    let rect_big = Kind::Block(BlockShape::RectBig);
    for (m, defence, life) in [
        (Material::Wood, "2.5", "100"),
        (Material::Stone, "15", "140"),
        (Material::Ice, "2", "65"),
    ] {
        assert_eq!(cat.defense(rect_big, Some(m)).unwrap().text(), defence);
        assert_eq!(cat.life(rect_big, Some(m)).unwrap().text(), life);
    }
    // Lives and defences of the rest: TNT 3 / 0, the egg 2 / 0, a small pig 1 / 1.
    assert_eq!(cat.life(Kind::Tnt, None).unwrap().text(), "3");
    assert_eq!(cat.defense(Kind::Tnt, None).unwrap().text(), "0");
    assert_eq!(cat.life(Kind::Egg, None).unwrap().text(), "2");
    let small = Kind::Pig(PigKind::Small);
    assert_eq!(cat.life(small, None).unwrap().text(), "1");
    assert_eq!(cat.defense(small, None).unwrap().text(), "1");
}

/// `ABBird.LaunchBird`: velocity = (rest − release) / drag radius · 10, the release clamped to
/// 1 m from the rest point; then the bird flies at gravity scale 0.48.
#[test]
fn a_launch_is_ten_times_the_drag_clamped_to_a_metre() {
    // Dragged (−0.5, 0): 0.5 · 10 = 5 m/s to the right. After one step: v = (5, −0.094176),
    // x = −12.15 − 0.5 + 5 · 0.02 = −12.55, y = −1.7 − 0.094176 · 0.02 = −1.70188352.
    let mut g = launched("BirdRed", FAR_PIG, (-0.5, 0.0), None);
    let at_launch = flying(&g);
    close_v(at_launch[0].1, (-12.65, -1.7), "released at");
    close_v(at_launch[0].2, (5.0, 0.0), "launch velocity");
    g.step_idle();
    let (_, p, v) = flying(&g)[0];
    close_v(v, (5.0, -G48), "velocity after a step");
    close_v(p, (-12.55, -1.701_883_52), "position after a step");
    // Dragged (−3, −4), 5 m: clamped to (−0.6, −0.8), full speed (6, 8); a step later
    // (6, 8 − 0.094176) at (−12.75 + 0.12, −2.5 + 0.15811648) = (−12.63, −2.34188352).
    let mut g = launched("BirdRed", FAR_PIG, (-3.0, -4.0), None);
    close_v(flying(&g)[0].1, (-12.75, -2.5), "clamped release");
    g.step_idle();
    let (_, p, v) = flying(&g)[0];
    close_v(v, (6.0, 8.0 - G48), "clamped velocity after a step");
    close_v(p, (-12.63, -2.341_883_52), "clamped position after a step");
}

/// `ABBirdYellow.SpecialAttack`: an impulse of `_specialAttackForce` 4 along the velocity.
#[test]
fn the_yellow_bird_gains_4_over_its_mass_along_its_flight() {
    // Its mass: circle r 0.16, density 6: π · 0.0256 · 6 = 0.482548632 kg; Δv = 4 /
    // 0.482548632 = 8.289319953 m/s along v = (10, −1.318464), |v| = 10.086542882: after the
    // step v + 8.289319953 · v/|v| + (0, −0.094176) = (18.218197305, −2.496179729).
    let mut g = before_tap("BirdYellow", FAR_PIG);
    g.step_idle();
    let birds = flying(&g);
    assert_eq!(birds.len(), 1);
    close_v(
        birds[0].2,
        (18.218_197_305, -2.496_179_729),
        "yellow bird after its tap",
    );
    // Untapped: just the launch and gravity, (10, −15 · 0.094176).
    let mut plain = launched("BirdYellow", FAR_PIG, (-1.0, 0.0), None);
    for _ in 0..15 {
        plain.step_idle();
    }
    close_v(
        flying(&plain)[0].2,
        (10.0, -15.0 * G48),
        "untapped yellow bird",
    );
}

/// A bird's power is used only before its first collision (`ABBird`'s `IsFlying` ends at its
/// first `OnCollisionEnter2D`): a yellow bird shot at 5 m/s into a standing block at x = −9
/// (its face at −9.092, reached at about 0.7 s, past the point in front of the slingshot,
/// −10.15) and tapped at 1 s plays exactly as the same shot untapped, step for step.
#[test]
fn a_tap_after_the_birds_first_collision_does_nothing() {
    let objects = format!(
        r#"{FAR_PIG}<Block type="RectBig" material="stone" x="-9" y="-2.557" rotation="90"/>"#
    );
    let mut tapped = launched("BirdYellow", &objects, (-0.5, 0.0), Some(1.0));
    let mut untapped = launched("BirdYellow", &objects, (-0.5, 0.0), None);
    let block = untapped.objects().nth(1).unwrap().2;
    let hit = step_until_hurt(&mut untapped, 1, block).1;
    assert!(
        (30..45).contains(&hit),
        "the block is hit {hit} steps after the launch"
    );
    for _ in 0..hit {
        tapped.step_idle();
    }
    for _ in 0..60 {
        assert_eq!(
            tapped.state_hash(),
            untapped.state_hash(),
            "step {}",
            tapped.steps()
        );
        tapped.step_idle();
        untapped.step_idle();
    }
}

/// `ABBird.IsInFrontOfSlingshot`, checked when a shot's tap comes: a tap before the bird is in
/// front is spent for nothing; a press ([`Game::tap_now`]) before then does nothing at all.
#[test]
fn a_tap_before_the_bird_is_in_front_of_the_slingshot_does_nothing() {
    // The yellow bird (0.32 m wide) after 13 steps: x = −13.15 + 2.6 = −10.55, and −10.55 +
    // 0.32 = −10.23 is not past −10.15; a tap at 0.28 s comes then. After 14 steps (−10.03) it
    // is.
    let mut g = launched("BirdYellow", FAR_PIG, (-1.0, 0.0), Some(0.28));
    for _ in 0..15 {
        g.step_idle();
    }
    close_v(flying(&g)[0].2, (10.0, -15.0 * G48), "a tap too early");
    assert!(!g.can_tap(), "the shot's tap was spent");
    // Untapped, pressed: not after 13 steps, then after 14.
    let mut g = launched("BirdYellow", FAR_PIG, (-1.0, 0.0), None);
    for _ in 0..13 {
        g.step_idle();
    }
    assert!(!g.can_tap(), "not in front after 13 steps");
    assert_eq!(g.tap_now(), None);
    g.step_idle();
    assert!(g.can_tap(), "in front after 14 steps");
    let tap = g.tap_now().expect("a press in front of the slingshot taps");
    close(
        tap,
        TAP,
        "the press is the shot's tap at 0.30 s (15 steps, 15 / 50 s)",
    );
    g.step_idle();
    close_v(
        flying(&g)[0].2,
        (18.218_197_305, -2.496_179_729),
        "yellow bird after a press",
    );
    // A 0.02 s tap, as early as a tap can be, does nothing either.
    let mut g = launched("BirdYellow", FAR_PIG, (-1.0, 0.0), Some(0.02));
    g.step_idle();
    close_v(flying(&g)[0].2, (10.0, -G48), "a tap at 0.02 s");
}

/// `ABBirdWhite.SpecialAttack`: an egg at the bird's position pushed down by `_eggForce` 6,
/// and the bird pushed up by `_pushUpForce` 10.
#[test]
fn the_white_bird_lays_an_egg_and_is_pushed_up() {
    // The tap at (−10.35, −1.8977696), v = (10, −1.318464). The bird: circle r 0.26,
    // density 4: π · 0.0676 · 4 = 0.849486654 kg; Δv = 10 / 0.849486654 = 11.771815317 up;
    // after the step (10, −1.318464 + 11.771815317 − 0.094176) = (10, 10.359175317).
    // The egg: its polygon's area (shoelace over the prefab's ten points) 0.248549999 m² at
    // density 1 (`useAutoMass`) = 0.248549999 kg; Δv = 6 / 0.248549999 = 24.140012237 down,
    // gravity scale 1: after the step (0, −24.140012237 − 0.1962) = (0, −24.336212237) at
    // y = −1.8977696 − 24.336212237 · 0.02 = −2.384493845.
    let mut g = before_tap("BirdWhite", FAR_PIG);
    g.step_idle();
    let things = flying(&g);
    assert_eq!(things.len(), 2, "the bird and its egg: {things:?}");
    let (bird, egg) = (things[0], things[1]);
    assert_eq!(bird.0, Kind::Bird(BirdKind::White));
    assert_eq!(egg.0, Kind::Egg);
    close_v(bird.2, (10.0, 10.359_175_317), "white bird after its tap");
    close_v(egg.2, (0.0, -24.336_212_237), "egg after a step");
    close_v(
        egg.1,
        (-10.35, -2.384_493_845),
        "egg's position after a step",
    );
}

/// `ABBBirdBlue.SpecialAttack`: the bird gives way to `_childrenAmount` 3 birds at its place
/// and speed, the first turned by `_angleBetweenBirds` · ½ · 3 = 15°, each next one 10° less.
#[test]
fn the_blue_bird_splits_into_three_at_15_5_and_minus_5_degrees() {
    // v = (10, −1.318464) at the tap, |v| = 10.086542882 at −7.510953° (atan2); children
    // |v| · (cos a, sin a) for a = 7.489047°, −2.510953°, −12.510953°, then a step of gravity
    // (−0.094176): (10.000501856, 1.220476022), (10.076858690, −0.536065419), (9.847035272,
    // −2.279180274); each from (−10.35, −1.8977696) moved by v · 0.02.
    let mut g = before_tap("BirdBlue", FAR_PIG);
    g.step_idle();
    let birds = flying(&g);
    assert_eq!(birds.len(), 3, "{birds:?}");
    for ((_, p, v), (vx, vy)) in birds.iter().zip([
        (10.000_501_856, 1.220_476_022),
        (10.076_858_690, -0.536_065_419),
        (9.847_035_272, -2.279_180_274),
    ]) {
        close_v(*v, (vx, vy), "child's velocity");
        close_v(
            *p,
            (AT_TAP.0 + vx * 0.02, AT_TAP.1 + vy * 0.02),
            "child's position",
        );
    }
}

/// A stone RectBig (1.886 × 0.184 m, density 4: 1.388096 kg, life 140) released at `x`,
/// y = 10.636928 falls freely until the tap (114 steps): it is then at y = 10.636928 −
/// 0.00188352 · 114 · 115 / 2 = 10.636928 − 12.3464736 = −1.7095456, 0.188224 above the bird
/// ([`AT_TAP`]), moving at (0, −114 · 0.094176) = (0, −10.736064).
fn falling_stone(x: f64) -> String {
    format!(r#"<Block type="RectBig" material="stone" x="{x}" y="10.636928"/>"#)
}

/// `ABBirdBlack` at a tap: `ABTNT.Explode` at its position with `_explosionArea` 3,
/// `_explosionPower` 4, `_explosionDamage` 20: damage 20 · (1 − d/3) and an impulse of
/// 4 · (1 − d/3) away from the centre.
#[test]
fn the_black_bird_explodes_with_area_3_power_4_damage_20() {
    // Centre (−10.35, −1.8977696); the falling stone at (−8.85, −1.7095456): offset
    // (1.5, 0.188224), d = √(2.25 + 0.035428274) = 1.511763300, falloff 1 − d/3 = 0.496078900.
    // Damage 20 · 0.496078900 = 9.921578002: life 140 − 9.921578002 = 130.078421998.
    // Impulse 4 · 0.496078900 · (1.5, 0.188224) / d = (1.968875287, 0.247059721); over
    // 1.388096 kg Δv = (1.418399943, 0.177984607); after the step
    // (1.418399943, −10.736064 + 0.177984607 − 0.094176) = (1.418399943, −10.652255393).
    // A platform 2.4 m above the centre is inside the blast and takes nothing from it: neither
    // damage (its life stays 10,000) nor a push (it never moves).
    let platform =
        r#"<Platform type="Platform" x="-10.35" y="0.5" rotation="0" scaleX="1" scaleY="1"/>"#;
    let objects = format!("{FAR_PIG}{}{platform}", falling_stone(-8.85));
    let mut g = before_tap("BirdBlack", &objects);
    let platform = g.objects().nth(2).unwrap().2;
    let platform_at = g.world().body(platform).unwrap().position();
    assert_eq!(
        g.lives()[1],
        Some(Fixed::from_int(140)),
        "immortal time over"
    );
    g.step_idle();
    assert!(flying(&g).is_empty(), "the black bird is gone");
    let lives = g.lives();
    close(lives[1].unwrap(), 130.078_421_998, "stone's life");
    assert_eq!(lives[0], Some(Fixed::ONE), "the far pig is out of reach");
    let stone = g.objects().nth(1).unwrap().2;
    let v = g.world().body(stone).unwrap().linear_velocity();
    close_v(v, (1.418_399_943, -10.652_255_393), "stone after the blast");
    assert_eq!(
        lives[2],
        Some(Fixed::from_int(10_000)),
        "the platform's life"
    );
    let p = g.world().body(platform).unwrap();
    assert_eq!(
        (p.position(), p.linear_velocity()),
        (platform_at, Vec2::ZERO)
    );
}

/// TNT destroyed explodes (`ABTNT.Die` → `Explode`, `_explosionArea` 2.5, `_explosionPower`
/// 4, `_explosionDamage` 100). A black bird's blast destroys it; the stone beyond the bird's
/// 3 m takes only the TNT's.
#[test]
fn tnt_explodes_with_area_2_5_power_4_damage_100() {
    // The TNT (gravity scale 1) released at (−8.35, 23.7078504): at the tap (step 114) at
    // y = 23.7078504 − 9.81 · 0.0004 · 6555 = 23.7078504 − 25.72182 = −2.0139696. From the
    // bird's centre (−10.35, −1.8977696): offset (2, −0.1162), d = 2.003372766, damage
    // 20 · (1 − d/3) = 6.644181559 ≥ its life 3: it explodes at (−8.35, −2.0139696).
    // The stone at (−6.35, −1.7095456) is 4.004426 m from the bird (> 3: nothing). From the
    // TNT: offset (2, 0.304424), d = √(4 + 0.092673972) = 2.023035831, falloff
    // 1 − d/2.5 = 0.190785668; damage 19.078566777: life 140 − 19.078566777 = 120.921433223.
    // Impulse 4 · 0.190785668 · (2, 0.304424) / d over 1.388096 kg: Δv = (0.543516404,
    // 0.082729719); after the step (0.543516404, −10.736064 + 0.082729719 − 0.094176) =
    // (0.543516404, −10.747510281).
    let objects = format!(
        r#"{FAR_PIG}{}<TNT type="" x="-8.35" y="23.7078504"/>"#,
        falling_stone(-6.35)
    );
    let mut g = before_tap("BirdBlack", &objects);
    assert_eq!(g.lives()[2], Some(Fixed::from_int(3)), "TNT's life");
    g.step_idle();
    let lives = g.lives();
    assert_eq!(lives[2], None, "the TNT exploded");
    // The damage is 100 / 2.5 = 40 times the distance's error: the TNT's 114 steps of
    // rounding at gravity scale 1 (≈ 5 · 10⁻⁷ m) make ≈ 2 · 10⁻⁵ of it, so this one value is
    // held to 10⁻⁴ (the rule's numbers move it by 10⁻¹ or more).
    let life = lives[1].unwrap().to_f64();
    assert!(
        (life - 120.921_433_223).abs() <= 1e-4,
        "stone's life: {life} (expected 120.921433223)"
    );
    let stone = g.objects().nth(1).unwrap().2;
    let v = g.world().body(stone).unwrap().linear_velocity();
    close_v(v, (0.543_516_404, -10.747_510_281), "stone after the TNT");
}

/// Steps until an object's life changes; returns the velocity that `watch` had before that
/// step (what the damage rule reads) and the steps taken.
fn step_until_hurt(g: &mut Game, object: usize, watch: engine::BodyId) -> (Vec2, u32) {
    let life = g.lives()[object];
    for n in 1..=200 {
        let before = g.world().body(watch).unwrap().linear_velocity();
        g.step_idle();
        if g.lives()[object] != life {
            return (before, n);
        }
    }
    panic!("object {object} never took damage");
}

/// `ABGameObject.OnCollisionEnter2D`: |v_rel| · m_attacker · 11.22 · ½ − defence, the
/// attacker a block falling on the ground being the block itself.
#[test]
fn a_block_landing_takes_half_its_momentum_times_11_22_less_its_defence() {
    // A wood RectBig (1.886 × 0.184 m, density 1.5: 0.520536 kg, life 100, defence 2.5)
    // released at y = 8 lands after the opening, when it has fallen k steps: v_rel =
    // k · 0.094176 m/s. Damage k · 0.094176 · 0.520536 · 11.22 · 0.5 − 2.5.
    let mut g = Game::new(&level(
        &["BirdRed"],
        &format!(r#"{FAR_PIG}<Block type="RectBig" material="wood" x="0" y="8"/>"#),
    ))
    .unwrap();
    g.settle();
    let block = g.objects().nth(1).unwrap().2;
    let (before, n) = step_until_hurt(&mut g, 1, block);
    // It touches ground within a dozen steps of the opening's end (1.896 m at ~10 m/s).
    let k = 100 + n - 1;
    assert!((101..=115).contains(&k), "landed after {k} steps");
    let speed = f64::from(k) * G48;
    close_v(before, (0.0, -speed), "falling block before it lands");
    let damage = speed * 0.520_536 * 11.22 * 0.5 - 2.5;
    // k = 109: after 109 steps its bottom is at 8 − 0.00188352 · 109 · 110 / 2 − 0.092 =
    // −3.3837, above the ground's top (−3.5); step 110 would take it to −3.5909, so the
    // contact begins in step 110 (at the time of impact), with the velocity of step 109:
    // 109 · 0.094176 = 10.265184 m/s, damage 10.265184 · 0.520536 · 5.61 − 2.5 =
    // 27.476461762, life 72.523538238.
    assert_eq!(k, 109);
    close(g.lives()[1].unwrap(), 100.0 - damage, "wood block's life");
    close(
        g.lives()[1].unwrap(),
        72.523_538_238,
        "wood block's life (decimal)",
    );
}

/// A game of one red bird, the far pig, `block` and a platform 2.56 m wide (scale 4 × 1 of
/// 0.64 m) centred at the origin, its top at 0.32: the objects in that order.
fn over_a_platform(block: &str) -> Game {
    let platform = r#"<Platform type="Platform" x="0" y="0" rotation="0" scaleX="4" scaleY="1"/>"#;
    Game::new(&level(&["BirdRed"], &format!("{FAR_PIG}{block}{platform}"))).unwrap()
}

/// A platform (kinematic, its prefab's mass 1 kg, never moving) hit by a falling block that
/// does not bounce is its attacker (its velocity's projection on the relative velocity, 0,
/// exceeds the block's after the step, still downward): the block takes |v_rel| · 1 · 11.22 ·
/// ½ − defence; the platform takes nothing and a hit by no bird gives no points.
#[test]
fn a_block_landing_on_a_platform_is_hit_by_the_platforms_prefab_mass() {
    // A wood RectBig released at y = 8 over a platform 2.56 m wide whose top is at 0.32 lands
    // in the opening (immortal: life 10,000 less the damage), after falling 7.588 m: k steps
    // with 0.00188352 · k(k+1)/2 ≥ 7.588, k = 89 (7.5434 m; 7.6277 after 90), the contact
    // beginning in step 90 with the velocity of step 89: 89 · 0.094176 = 8.381664 m/s.
    // Damage 8.381664 · 1 · 5.61 − 2.5 = 44.52113504.
    let mut g = over_a_platform(r#"<Block type="RectBig" material="wood" x="0" y="8"/>"#);
    let (_, material, block) = g.objects().nth(1).unwrap();
    assert_eq!(material, Some(Material::Wood));
    let (before, n) = step_until_hurt(&mut g, 1, block);
    let k = n - 1;
    assert_eq!(k, 89, "landed after {k} steps");
    let speed = f64::from(k) * G48;
    close_v(before, (0.0, -speed), "falling block before it lands");
    let damage = speed * 11.22 * 0.5 - 2.5;
    close(g.lives()[1].unwrap(), 10_000.0 - damage, "the block's life");
    close(
        g.lives()[1].unwrap(),
        10_000.0 - 44.521_135_04,
        "the block's life (decimal)",
    );
    assert_eq!(
        g.lives()[2],
        Some(Fixed::from_int(10_000)),
        "the platform's"
    );
    assert_eq!(g.score(), 0, "no bird, no points");
}

/// Each side of a hit between two dynamic bodies has its own attacker, by the velocities after
/// the step: a stone RectBig (1.388096 kg, defence 15) dropped from y = 2 onto an ice
/// SquareTiny lying on the ground bounces back, so the tiny block (pressed, not moving up) is
/// its own attacker and, light as it is, takes nothing, while the stone, its own attacker too,
/// takes |v| · 1.388096 · 5.61 − 15 (both from the opening's 10,000).
#[test]
fn in_a_hit_between_two_bodies_each_side_has_its_own_attacker() {
    let mut g = Game::new(&level(
        &["BirdRed"],
        &format!(
            r#"{FAR_PIG}<Block type="RectBig" material="stone" x="0" y="2"/><Block type="SquareTiny" material="ice" x="0" y="-3.4"/>"#
        ),
    ))
    .unwrap();
    let stone = g.objects().nth(1).unwrap().2;
    let (before, n) = step_until_hurt(&mut g, 1, stone);
    assert!(n < 100, "it lands in the opening (step {n})");
    let speed = f64::from(n - 1) * G48;
    close_v(before, (0.0, -speed), "the stone before it lands");
    close(
        g.lives()[1].unwrap(),
        10_000.0 - (speed * 1.388_096 * 5.61 - 15.0),
        "the stone",
    );
    assert_eq!(
        g.lives()[2],
        Some(Fixed::from_int(10_000)),
        "the tiny block"
    );
}

/// A destroyed block gives 500 points (`ABBlock.Die`), a hit by no bird none. A wood RectSmall
/// (life 50, defence 2.5) released at y = 10.5 over the platform of the test above lands after
/// the opening: its bottom (10.408) falls to the platform's top (0.32), 10.088 m, passed in step
/// 103 (10.0011 m after 102 steps, 10.1960 after 103), at 102 · 0.094176 = 9.605952 m/s: the
/// platform's hit, 9.605952 · 1 · 5.61 − 2.5 = 51.389 > 50, destroys it.
#[test]
fn a_destroyed_block_gives_500_points() {
    let mut g = over_a_platform(r#"<Block type="RectSmall" material="wood" x="0" y="10.5"/>"#);
    g.settle();
    let block = g.objects().nth(1).unwrap().2;
    let (before, n) = step_until_hurt(&mut g, 1, block);
    let k = 100 + n - 1;
    assert_eq!(k, 102, "landed after {k} steps");
    close_v(before, (0.0, -9.605_952), "falling block before it lands");
    assert_eq!(g.lives()[1], None, "destroyed");
    assert_eq!(g.score(), 500);
}

/// A body of two colliders is hit once per collider: a wood SquareHole (defence 2.5; a box
/// collider and the outline of its hole, `SquareHole.prefab`) landing flat on the ground
/// touches it with both at once and takes |v| · m · 11.22 · ½ − 2.5 twice (`OnCollisionEnter2D`
/// on each of its colliders), here from the 10,000 of the opening.
#[test]
fn a_body_of_two_colliders_landing_is_hit_once_per_collider() {
    let mut g = Game::new(&level(
        &["BirdRed"],
        &format!(r#"{FAR_PIG}<Block type="SquareHole" material="wood" x="0" y="2"/>"#),
    ))
    .unwrap();
    let block = g.objects().nth(1).unwrap().2;
    let mass = g.world().body(block).unwrap().mass().to_f64();
    let (before, n) = step_until_hurt(&mut g, 1, block);
    assert!(n < 100, "it lands in the opening (step {n})");
    let speed = f64::from(n - 1) * G48;
    close_v(before, (0.0, -speed), "falling block before it lands");
    let damage = speed * mass * 11.22 * 0.5 - 2.5;
    assert!(damage > 10.0, "{damage}");
    close(g.lives()[1].unwrap(), 10_000.0 - 2.0 * damage, "hit twice");
}

/// `OnCollisionEnter2D` comes once per pair of colliders as it begins to touch, however many
/// of the engine's convex parts touch: a BasicBig pig (one enabled collider, a polygon of 12
/// parts) lands with two parts at once and takes one damage, not two.
#[test]
fn a_hit_by_two_parts_of_one_collider_damages_once() {
    // Its mass is the prefab's 0.70186746 kg (Unity's auto mass at the collider's density 1:
    // the script's density 2 goes to the first Collider2D, the disabled circle). Released at
    // y = 8 it lands in the step after its 107th, at 107 · 0.094176 = 10.076832 m/s: damage
    // 10.076832 · 0.70186746 · 11.22 · ½ − 1 (its defence) = 38.677295, life 80 − that =
    // 41.322705; counted per part it would be 80 − 2 · 38.677295 = 2.645410.
    let mut g = Game::new(&level(
        &["BirdRed"],
        &format!(r#"{FAR_PIG}<Pig type="BasicBig" x="0" y="8"/>"#),
    ))
    .unwrap();
    g.settle();
    let pig = g.objects().nth(1).unwrap().2;
    let (before, n) = step_until_hurt(&mut g, 1, pig);
    let k = 100 + n - 1;
    assert_eq!(k, 107, "landed after {k} steps");
    close_v(before, (0.0, -107.0 * G48), "falling pig before it lands");
    let parts = g
        .world()
        .contact_begins()
        .iter()
        .filter(|c| c.body_b == pig || c.body_a == pig)
        .count();
    assert!(parts >= 2, "{parts} of the pig's parts began to touch");
    let damage = 107.0 * G48 * 0.701_867_46 * 11.22 * 0.5 - 1.0;
    close(g.lives()[1].unwrap(), 80.0 - damage, "pig's life");
    close(g.lives()[1].unwrap(), 41.322_705, "pig's life (decimal)");
}

/// `ABBlock.OnCollisionEnter2D` with a bird: |v_rel| · m_bird · multiplier(material) · 11.22
/// − defence (no ½). The yellow bird's multipliers are all different: wood 2.4, stone 1,
/// ice 1.2.
#[test]
fn a_bird_damages_a_block_by_its_multiplier_for_the_material() {
    // A yellow bird (0.482548632 kg) launched at (5, 0) from (−12.65, −1.7) into a standing
    // RectBig (asleep, velocity 0) 1.4 m ahead; it hits after k steps at
    // v_rel = (5, −k · 0.094176).
    // k = 13: the bird's right edge (centre offset 0.03, radius 0.16) starts at −12.46 and
    // moves 0.1 m a step; the block's face is at −11 − 0.092 = −11.092, crossed in step 14
    // (1.368 m), where the contact begins with the velocity after 13 steps:
    // |v_rel| = √(25 + 1.224288²) = 5.147706393. Damage 5.147706393 · 0.482548632 · m ·
    // 11.22 − defence: wood (m 2.4, defence 2.5) 64.389654900, life 100 − that =
    // 35.610345100; stone (1, 15) 12.870689542, life 127.129310458; ice (1.2, 2)
    // 31.444827450, life 33.555172550. The hit's points (`hit_points`): round(damage) · 10 when
    // the life left still exceeds the damage: wood none (35.6 < 64.4), stone 13 · 10, ice
    // 31 · 10 (33.56 − 31.44 > 0).
    for (material, multiplier, defence, life, left, points) in [
        ("wood", 2.4, 2.5, 100.0, 35.610_345_100, 0),
        ("stone", 1.0, 15.0, 140.0, 127.129_310_458, 130),
        ("ice", 1.2, 2.0, 65.0, 33.555_172_550, 310),
    ] {
        let objects = format!(
            r#"{FAR_PIG}<Block type="RectBig" material="{material}" x="-11" y="-2.557" rotation="90"/>"#
        );
        let mut g = launched("BirdYellow", &objects, (-0.5, 0.0), None);
        let block = g.objects().nth(1).unwrap().2;
        assert_eq!(
            g.world().body(block).unwrap().linear_velocity(),
            Vec2::ZERO,
            "{material}: the block is at rest"
        );
        let bird = g.objects().nth(2).unwrap().2;
        let (before, k) = step_until_hurt(&mut g, 1, bird);
        let k = k - 1;
        close_v(before, (5.0, -f64::from(k) * G48), "bird before the hit");
        let speed = (25.0 + (f64::from(k) * G48).powi(2)).sqrt();
        let damage = speed * 0.482_548_632 * multiplier * 11.22 - defence;
        close(
            g.lives()[1].unwrap(),
            life - damage,
            &format!("{material} block's life"),
        );
        close(
            g.lives()[1].unwrap(),
            left,
            &format!("{material} (decimal)"),
        );
        assert_eq!(g.score(), points, "{material}: the hit's points");
        assert_eq!(k, 13, "{material}");
    }
}

/// `ABGameObject`: life 10,000 for the level's first 2 s (`LEVEL_IMMORTAL_TIME`), then the
/// object's own; a pig whose landing would kill it survives when it lands before then.
#[test]
fn objects_are_immortal_for_their_first_2_seconds() {
    // A small pig (life 1, defence 1) dropped from y = 0 lands after about 1.2 s at about
    // 5.5 m/s, a hit of 5.5 · 0.15 · 11.22 · 0.5 − 1 ≈ 3.6 > 1; one from y = 8 lands at about
    // 2.2 s and dies.
    let l = level(
        &["BirdRed"],
        r#"<Pig type="BasicSmall" x="0" y="0"/><Pig type="BasicSmall" x="3" y="8"/>"#,
    );
    let mut g = Game::new(&l).unwrap();
    for _ in 0..99 {
        g.step_idle();
    }
    // Step 99: the first has landed, its hit taken from the 10,000 of the immortal time (it
    // would have killed it); the second still falls.
    let lives = g.lives();
    let hit = 10_000.0 - lives[0].unwrap().to_f64();
    assert!(hit > 1.0, "the landing took {hit}");
    assert_eq!(lives[1], Some(Fixed::from_int(10_000)), "step 99");
    g.step_idle();
    // Step 100: the catalogue's life, whatever the landing did.
    assert_eq!(
        g.lives(),
        vec![Some(Fixed::ONE), Some(Fixed::ONE)],
        "step 100"
    );
    for _ in 0..50 {
        g.step_idle();
    }
    assert_eq!(g.lives(), vec![Some(Fixed::ONE), None], "step 150");
    assert_eq!(g.pigs_left(), 1);
}

/// What a shot search measures a level by (the generator's and the soundness check's score):
/// the live pigs' life left, summed, and the level's objects destroyed. Three small pigs (life
/// 1): one dropped from y = 0 lands while immortal and lives, two from y = 8 land after the
/// opening and die (as above).
#[test]
fn pig_life_left_sums_the_live_pigs_and_destroyed_counts_the_dead() {
    let l = level(
        &["BirdRed"],
        r#"<Pig type="BasicSmall" x="0" y="0"/><Pig type="BasicSmall" x="3" y="8"/><Pig type="BasicSmall" x="6" y="8"/>"#,
    );
    let mut g = Game::new(&l).unwrap();
    assert_eq!(g.pig_life_left(), Fixed::from_int(30_000), "immortal");
    assert_eq!(g.destroyed(), 0);
    g.settle();
    assert_eq!(g.pig_life_left(), Fixed::from_int(3), "three lives of 1");
    for _ in 0..50 {
        g.step_idle();
    }
    assert_eq!(g.lives()[1..], [None, None], "the two from y = 8 are dead");
    assert_eq!(g.pig_life_left(), Fixed::ONE, "the one left");
    assert_eq!(g.destroyed(), 2);
}

/// `ABGameObject.DestroyIfOutScreen`: a body entirely beyond the level's edge dies. The test
/// level is 2 wide, 35 m: x within ±17.5. A RectSmall is 0.7636 m long (half 0.3818): lying at
/// x = ±18 it spans 17.62–18.38 m from the centre, entirely beyond, and dies at the first step;
/// at x = ±17.8 (origin beyond, but reaching back to ±17.42) it stays, as does a RectBig
/// (1.886 m) at x = 18.2 (from 17.257) and a platform, which nothing removes. The steps after a removal
/// pass over the dead body.
#[test]
fn a_body_entirely_beyond_the_level_edge_dies() {
    let block = |shape: &str, x: &str| {
        format!(r#"<Block type="{shape}" material="wood" x="{x}" y="-3.3" rotation="0"/>"#)
    };
    let objects = [
        FAR_PIG.to_string(),
        block("RectSmall", "18"),
        block("RectSmall", "-18"),
        block("RectSmall", "17.8"),
        block("RectBig", "18.2"),
        block("RectSmall", "-17.8"),
        r#"<Platform type="Platform" x="19" y="-3" rotation="0" scaleX="1" scaleY="1"/>"#
            .to_string(),
    ]
    .concat();
    let mut g = Game::new(&level(&["BirdRed"], &objects)).unwrap();
    g.step_idle();
    let immortal = Some(Fixed::from_int(10_000));
    let expected = [
        Some(Fixed::ONE),
        None,
        None,
        immortal,
        immortal,
        immortal,
        immortal,
    ];
    assert_eq!(g.lives()[1..], expected[1..], "after the first step");
    for _ in 0..149 {
        g.step_idle();
    }
    let lives = g.lives();
    assert_eq!(
        [lives[1], lives[2], lives[6]],
        [None, None, immortal],
        "step 150"
    );
    assert!(lives[3..6].iter().all(Option::is_some), "{lives:?}");
    assert_eq!(g.pigs_left(), 1);
}

/// `ABBird.CheckVelocityToDie`: 3 s after its first collision a bird checks its speed, then
/// every second, and dies at the first check that finds it under 0.001 m/s. A red bird shot
/// straight down (released 1 m above the rest point: (0, −10) m/s) bounces on the ground: still
/// bouncing at the first check (150 steps after its first collision), lying still well before
/// the second (200 steps after), which it does not outlive by a step.
#[test]
fn a_bird_at_rest_dies_at_the_first_speed_check_that_finds_it_still() {
    let mut g = launched("BirdRed", FAR_PIG, (0.0, 1.0), None);
    let v = |g: &Game| flying(g)[0].2;
    // The first collision: the step whose velocity turns up (the first bounce).
    let mut last = v(&g).y;
    while v(&g).y <= last {
        last = v(&g).y;
        g.step_idle();
        assert!(g.steps() < 200, "no bounce");
    }
    let collided = g.steps();
    assert!(collided > 101, "the bird left the slingshot first");
    while !flying(&g).is_empty() {
        let since = g.steps() - collided;
        let speed = v(&g).length().to_f64();
        if since == 150 {
            assert!(speed > 0.1, "bouncing at the first check: {speed}");
        }
        if since >= 180 {
            assert!(speed < 0.001, "still at +{since}: {speed}");
        }
        g.step_idle();
        assert!(g.steps() <= collided + 200, "alive after its second check");
    }
    assert_eq!(g.steps(), collided + 200, "gone at the second check");
}

/// A level is passed when every pig is destroyed, not before.
#[test]
fn a_level_is_passed_when_every_pig_is_destroyed() {
    // The red bird shot backwards (released at (1, 0): (−10, 0) m/s) hits nothing; the pig
    // from y = 8 lands after the opening and dies. Alone it was the last pig: passed; with a
    // pig resting on the ground beside it, one is left: not passed.
    let backwards = Shot {
        release: Vec2::new(Fixed::ONE, Fixed::ZERO),
        tap: None,
    };
    let falling = r#"<Pig type="BasicSmall" x="3" y="8"/>"#;
    let alone = play(&level(&["BirdRed"], falling), &[backwards]).unwrap();
    assert_eq!((alone.status, alone.pigs_left), (Status::Passed, 0));
    let resting = format!(r#"{falling}<Pig type="BasicSmall" x="-3" y="-3.2"/>"#);
    let two = play(&level(&["BirdRed"], &resting), &[backwards]).unwrap();
    assert_eq!((two.status, two.pigs_left), (Status::NotPassed, 1));
    // The outcome counts the shots taken: with two birds and two shots, the level passed by
    // the first takes one (the second is not shot), the one not passed takes both.
    let birds = ["BirdRed"; 2];
    let alone = play(&level(&birds, falling), &[backwards; 2]).unwrap();
    assert_eq!((alone.status, alone.shots), (Status::Passed, 1));
    let two = play(&level(&birds, &resting), &[backwards; 2]).unwrap();
    assert_eq!((two.status, two.shots), (Status::NotPassed, 2));
}

/// A shot ends on the first step after its launch at which the world is at rest (no body
/// awake), and then steps no more: the red bird shot backwards leaves the level and dies, the
/// pig far to the right lies asleep, the world rests, the shot ends (well before its 60 s).
#[test]
fn a_shot_ends_on_the_first_step_the_world_rests() {
    let mut g = launched("BirdRed", FAR_PIG, (1.0, 0.0), None);
    assert!(
        !g.world().is_at_rest(),
        "the launched bird's body starts awake"
    );
    assert!(g.shot_running(), "running at its launch");
    let mut steps = 0;
    while g.step_shot() {
        steps += 1;
        let at_rest = g.world().is_at_rest();
        assert_eq!(g.shot_running(), !at_rest, "after {steps} steps");
    }
    assert!(g.world().is_at_rest(), "ended at rest");
    assert!(0 < steps && steps < MAX_SHOT_STEPS / 10, "{steps} steps");
    assert!(!g.step_shot(), "an ended shot does not step");
    assert_eq!(g.steps(), 100 + steps);
}

/// A shot ends at the step its last pig dies, though the world still moves: the pig from
/// y = 8 lands after the opening and dies while the red bird shot backwards still flies.
#[test]
fn a_shot_ends_when_its_last_pig_dies() {
    let falling = r#"<Pig type="BasicSmall" x="3" y="8"/>"#;
    let mut g = launched("BirdRed", falling, (1.0, 0.0), None);
    let mut steps = 0;
    while g.shot_running() {
        assert_eq!(g.pigs_left(), 1, "running only while the pig lives");
        assert!(g.step_shot());
        steps += 1;
    }
    assert_eq!(g.pigs_left(), 0);
    assert!(steps < MAX_SHOT_STEPS / 10, "{steps} steps");
    assert!(!g.world().is_at_rest(), "the world still moves");
    assert_eq!(flying(&g).len(), 1, "the bird still flies");
}

/// The score: 5,000 for a destroyed pig (`ABPig.Die`, whatever destroyed it) and, once every
/// pig is destroyed, 10,000 for every bird not launched (`ABGameWorld`'s end of level). Three
/// red birds and the pig from y = 8, which dies landing after the opening (above), with no shot
/// at all: 5,000 + 3 · 10,000; with a second pig resting on the ground, the level goes on and
/// its birds count nothing yet: 5,000.
#[test]
fn a_passed_level_scores_10_000_for_every_bird_not_launched() {
    let falling = r#"<Pig type="BasicSmall" x="3" y="8"/>"#;
    let resting = format!(r#"{falling}<Pig type="BasicSmall" x="-3" y="-3.2"/>"#);
    let birds = ["BirdRed"; 3];
    for (objects, pigs_left, score) in [(falling, 0, 35_000), (resting.as_str(), 1, 5_000)] {
        let mut g = Game::new(&level(&birds, objects)).unwrap();
        g.settle();
        assert_eq!(g.score(), 0, "{objects}: nothing destroyed in the opening");
        for _ in 0..50 {
            g.step_idle();
        }
        assert_eq!(g.pigs_left(), pigs_left, "{objects}");
        assert_eq!(g.birds_left(), 3);
        assert_eq!(g.score(), score, "{objects}");
    }
}

/// What an aim works from (`Game::next_reach`), the next bird's: a red bird's drag radius 1 m
/// (`_dragRadius`), 10 m/s at a full drag (`BIRD_MAX_LANUCH_SPEED`), 9.81 · 0.48 = 4.7088 m/s²
/// down in flight (`_launchGravity`) and no power; a yellow bird's the same with a power; none
/// once no bird is left.
#[test]
fn the_next_birds_reach_is_its_drag_launch_speed_and_flight_gravity() {
    let mut g = Game::new(&level(&["BirdRed", "BirdYellow"], FAR_PIG)).unwrap();
    g.settle();
    let red = Reach {
        drag_radius: Fixed::ONE,
        full_speed: Fixed::from_int(10),
        gravity: f(4.7088),
        has_power: false,
    };
    assert_eq!(g.next_bird(), Some(BirdKind::Red));
    let reach = g.next_reach().unwrap();
    close(reach.gravity, 4.7088, "gravity in flight");
    assert_eq!(
        Reach {
            gravity: red.gravity,
            ..reach
        },
        red
    );
    let backwards = Shot {
        release: Vec2::new(Fixed::ONE, Fixed::ZERO),
        tap: None,
    };
    g.shoot(&backwards).unwrap();
    assert_eq!(g.birds_left(), 1);
    assert_eq!(g.next_bird(), Some(BirdKind::Yellow));
    let yellow = g.next_reach().unwrap();
    assert_eq!(
        Reach {
            gravity: red.gravity,
            ..yellow
        },
        Reach {
            has_power: true,
            ..red
        }
    );
    g.shoot(&backwards).unwrap();
    assert_eq!(g.next_reach(), None, "no bird left");
    assert_eq!(g.next_bird(), None);
}

/// `Game::flight_time`: when the next bird's drag-free arc comes down to the ground (y = −3.5,
/// the generator's `GROUND_LEVEL`), the later root of h + v_y·t − g·t²/2 = 0 with g = 4.7088: a
/// full drag straight back leaves from 1.8 m above it at (10, 0): √(2 · 1.8 / 4.7088) =
/// 0.8743718 s; the release (−0.6, −0.8) leaves from (−12.75, −2.5), 1 m above it, at (6, 8):
/// (8 + √(64 + 2 · 4.7088)) / 4.7088 = 3.5186050 s.
#[test]
fn a_flight_ends_where_its_arc_meets_the_ground() {
    let mut g = Game::new(&level(&["BirdRed"], FAR_PIG)).unwrap();
    g.settle();
    let t = |x: f64, y: f64| g.flight_time(Vec2::new(f(x), f(y))).unwrap();
    close(t(-1.0, 0.0), 0.874_371_8, "straight back");
    close(t(-0.6, -0.8), 3.518_605_0, "up at 53°");
}

/// `aim`: the release whose drag-free arc passes through a point, from the release point
/// itself (a drag behind the rest point).
#[test]
fn aim_finds_the_arc_through_a_point() {
    let reach = Reach {
        drag_radius: Fixed::ONE,
        full_speed: Fixed::from_int(10),
        gravity: Fixed::from_int(10),
        has_power: false,
    };
    let rest = Vec2::ZERO;
    // Low arc at 45°: the bird leaves from −(cos 45°, sin 45°) = (−0.707107, −0.707107) at
    // 10 m/s; its path from there is y = x − 10 x² / (2 · 100 · ½) = x − x²/10, through
    // (5, 2.5): target (4.292893, 1.792893). Through (5, 2.5) tan θ = (100 ± √(10⁴ −
    // 10 · (10 · 25 + 2 · 2.5 · 100))) / 50 = (100 ± 50) / 50: 1 (low) or 3 (high). Flight
    // time 5 / (10 cos 45°) = 0.707107 s.
    let c45 = std::f64::consts::FRAC_1_SQRT_2;
    let target = Vec2::new(f(5.0 - c45), f(2.5 - c45));
    let a = aim(&reach, rest, target, Fixed::ONE, Arc::Low).unwrap();
    // `aim` solves from the rest point, then from the release that gives, four rounds: that
    // leaves the release within 3 · 10⁻⁴ of the fixed point (measured: (−0.707404,
    // −0.706810) and (−0.447165, −0.894452)).
    let tol = 1e-3;
    let near = |x: Fixed, e: f64| (x.to_f64() - e).abs() < tol;
    assert!(
        near(a.release.x, -c45) && near(a.release.y, -c45),
        "{:?}",
        a.release
    );
    assert!(near(a.flight_time, c45), "{:?}", a.flight_time);
    // High arc at tan θ = 2 (cos θ = 1/√5, sin θ = 2/√5): from (−0.447214, −0.894427) the path
    // y = 2x − 10 x² · 5 / 200 = 2x − x²/4 passes (6, 3), where tan θ = (100 ± √(10⁴ −
    // 10 · (360 + 600))) / 60 = (100 ± 20) / 60: 2 (high) or 4/3 (low). Target
    // (5.552786, 2.105573); flight time 6 / (10 / √5) = 1.341641 s.
    let target = Vec2::new(f(6.0 - 0.447_213_595), f(3.0 - 0.894_427_191));
    let a = aim(&reach, rest, target, Fixed::ONE, Arc::High).unwrap();
    assert!(
        near(a.release.x, -0.447_214) && near(a.release.y, -0.894_427),
        "{:?}",
        a.release
    );
    assert!(near(a.flight_time, 1.341_641), "{:?}", a.flight_time);
    // At half power (5 m/s, 0.5 m drag) the range is at most 2.5 m (v²/g): out of reach.
    assert!(aim(&reach, rest, target, Fixed::HALF, Arc::High).is_none());
}
