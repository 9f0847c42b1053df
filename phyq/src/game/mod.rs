//! Phy-Q levels played on rephyre's engine: Science Birds' physics and rules in Q32.32.
//!
//! * [`play()`] / [`Game`]: a level's world (the ground, then the objects in the game's
//!   creation order), shots one bird at a time, each run until the world is at rest (or
//!   [`MAX_SHOT_STEPS`]); a level is passed when every pig is destroyed;
//! * [`parse_shots`] / [`PixelShot`]: shots as written (`x,y,tap` in pixels of the level's
//!   picture, y up, and seconds), checked once for every front end;
//! * [`aim`]: the release whose arc passes through a point (the search and aiming agents);
//! * [`soundness`]: does a task start at rest, and a search for shots that pass it;
//! * [`rules`]: the damage, explosion and launch arithmetic, each a function of plain numbers;
//! * [`settings`]: the engine settings of the original (50 Hz, 100 velocity and 100 position
//!   iterations, gravity −9.81).
//!
//! Where rephyre's game differs from Science Birds, and why, is in docs/phyq.md ("The game").

pub mod aim;
mod body;
mod play;
pub mod rules;
mod shots;
pub mod soundness;

pub use body::BodyError;
pub use play::{
    play, play_observed, settings, Game, Outcome, PlayError, Shot, Status, IMMORTAL_STEPS,
    MAX_SHOT_STEPS, STEPS_PER_SECOND,
};
pub use shots::{
    format_shots, parse_shots, screen_shot, PixelShot, ShotError, MAX_OFFSET_PX, MAX_SHOTS,
    MAX_TAP_MS,
};
