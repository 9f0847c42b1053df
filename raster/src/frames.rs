//! Frames of a rollout: the observation after steps 1, 61, 121, … (frame k after k·60 + 1
//! steps), up to the end of the run (17 frames for a full 1000-step run).

use crate::scene::{render_into, Observation};
use crate::span::SpanFiller;
use engine::{Goal, RunOptions, RunOutcome, World};

/// Steps between frames.
pub const FRAME_STRIDE: u32 = 60;

/// Run `world` to the end (engine::run semantics) and collect its frames.
pub fn rollout_frames(
    world: &mut World,
    goal: &Goal,
    colours: &[u8],
    opts: RunOptions,
) -> (RunOutcome, Vec<Observation>) {
    let filler = SpanFiller::detect();
    let mut frames = Vec::new();
    let outcome = engine::run(world, goal, opts, |step, w| {
        if step % FRAME_STRIDE == 1 {
            let mut obs = Observation::default();
            render_into(w, colours, &mut obs, filler);
            frames.push(obs);
        }
    });
    (outcome, frames)
}
