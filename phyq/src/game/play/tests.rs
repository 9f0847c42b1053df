//! The small level the tests of `play/` build, and what the tests outside the crate cannot reach: a shot's 60 s cap (no small level moves that
//! long) and the state hash's part for the things' life and liveness (a change of either alone
//! leaves the world's hash as it was).

use super::{Game, Shot, MAX_SHOT_STEPS};
use engine::{Fixed, Vec2};

/// A game (not yet settled) of a level 2 wide (35 m) with one red bird, the slingshot at
/// (−12, −2.5) and these objects (XML `GameObjects` content): the small level every test of
/// `play/` builds.
pub(super) fn red_bird_game(objects: &str) -> Game {
    let xml = format!(
        r#"<?xml version="1.0" encoding="utf-8"?><Level width="2"><Camera x="0" y="-1" minWidth="25" maxWidth="35"/><Score highScore="0"/><Birds><Bird type="BirdRed"/></Birds><Slingshot x="-12.0" y="-2.5"/><GameObjects>{objects}</GameObjects></Level>"#
    );
    Game::new(&crate::parse_level(xml.as_bytes()).unwrap()).unwrap()
}

/// A red bird, a pig resting on the ground far to the right, a wood block beside it; after the
/// opening.
fn game_after_opening() -> Game {
    let mut g = red_bird_game(
        r#"<Pig type="BasicSmall" x="8" y="-3.2"/><Block type="SquareSmall" material="wood" x="5" y="-3.2" rotation="0"/>"#,
    );
    g.settle();
    g
}

/// A shot runs at most `MAX_SHOT_STEPS` (3,000) steps: with its bird still flying, a shot
/// 2,999 steps old runs, one 3,000 steps old has ended and steps no more. The game's step
/// counter is moved on by hand (the world is left as it is), as no small level keeps moving for
/// 60 s (a bird dies after 20).
#[test]
fn a_shot_ends_after_60_seconds_of_motion() {
    let mut g = game_after_opening();
    let forwards = Shot {
        release: Vec2::new(-Fixed::ONE, Fixed::ZERO),
        tap: None,
    };
    assert!(g.launch(&forwards).unwrap());
    assert!(g.shot_running(), "a shot runs at its launch");
    assert!(g.step_shot());
    let launched_at = g.shot.unwrap().launched_at;
    assert_eq!(launched_at, 100, "launched after the 2 s opening");
    assert!(!g.world.is_at_rest() && g.pigs_left > 0, "the bird flies");
    g.step = launched_at + MAX_SHOT_STEPS - 1;
    assert!(g.shot_running(), "2,999 steps in: one more");
    g.step += 1;
    assert!(!g.shot_running(), "3,000 steps in: ended");
    assert!(!g.step_shot(), "an ended shot does not step");
    assert_eq!(g.step - launched_at, MAX_SHOT_STEPS);
}

/// The state hash is the world's chained with every thing's life and liveness: a thing's life
/// one raw unit lower, or the thing marked dead, each changes it (the world's hash does not
/// move), and undoing the change restores it.
#[test]
fn the_state_hash_sees_each_things_life_and_liveness() {
    let g = game_after_opening();
    let world = g.world.state_hash();
    let hash = g.state_hash();
    assert_ne!(hash, world, "the things are hashed after the world");
    let block = g
        .things
        .iter()
        .position(|t| matches!(t.kind, crate::Kind::Block(..)))
        .expect("the level's block");
    let mut hurt = g.clone();
    hurt.things[block].life -= Fixed::from_raw(1);
    let mut dead = g.clone();
    dead.things[block].alive = false;
    for (changed, what) in [(&hurt, "life"), (&dead, "liveness")] {
        assert_eq!(
            changed.world.state_hash(),
            world,
            "{what}: the world untouched"
        );
        assert_ne!(changed.state_hash(), hash, "{what} changed, the hash must");
    }
    assert_ne!(hurt.state_hash(), dead.state_hash());
    hurt.things[block].life += Fixed::from_raw(1);
    assert_eq!(hurt.state_hash(), hash, "the same state, the same hash");
}
