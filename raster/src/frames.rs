//! Frames of a rollout (SPEC §5): the observation after steps 1, 61, 121, … — frame k is the
//! state after k·60 + 1 steps — for as long as the run goes (17 frames for a full unsolved run
//! of 1000 steps; a solved run stops at its solving step and has no extra final frame).

use crate::observation::Observation;
use crate::render::render_into;
use crate::span::SpanFiller;
use engine::{Goal, RunOptions, RunOutcome, World};

/// Steps between frames.
pub const FRAME_STRIDE: u32 = 60;

/// Whether the state after `step` steps (1-based, as `engine::run` counts) is a frame.
#[inline]
pub fn is_frame_step(step: u32) -> bool {
    is_frame_step_with(step, FRAME_STRIDE)
}

#[inline]
fn is_frame_step_with(step: u32, stride: u32) -> bool {
    step >= 1 && (step - 1) % stride.max(1) == 0
}

/// How many frames a run covering `steps` steps has: ⌈steps / 60⌉ (17 for 1000).
pub fn frame_count(steps: u32) -> usize {
    steps.div_ceil(FRAME_STRIDE) as usize
}

/// One frame: the observation after `step` steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Steps taken before this frame (1, 61, 121, …).
    pub step: u32,
    /// What the world looked like then.
    pub observation: Observation,
}

/// A finished run and its frames.
#[derive(Clone, Debug)]
pub struct Rollout {
    /// The engine's outcome (solved or not, steps covered, hashes).
    pub outcome: RunOutcome,
    /// The frames, in step order.
    pub frames: Vec<Frame>,
}

impl Rollout {
    /// The observations alone (e.g. for a GIF).
    pub fn observations(&self) -> Vec<Observation> {
        self.frames.iter().map(|f| f.observation.clone()).collect()
    }
}

/// Run `world` to the end with `engine::run` (same outcome as without frames) and record the
/// frames at stride 60. `colours` gives each body's pixel value, as for [`crate::render()`].
pub fn rollout_frames(world: &mut World, goal: &Goal, colours: &[u8], opts: RunOptions) -> Rollout {
    rollout_frames_every(world, goal, colours, opts, FRAME_STRIDE)
}

/// [`rollout_frames`] with another stride (frames after steps 1, 1 + stride, …; a stride of 0
/// counts as 1).
pub fn rollout_frames_every(
    world: &mut World,
    goal: &Goal,
    colours: &[u8],
    opts: RunOptions,
    stride: u32,
) -> Rollout {
    // Detect once, not per frame.
    let filler = SpanFiller::detect();
    let mut frames = Vec::new();
    let outcome = engine::run(world, goal, opts, |step, w| {
        if is_frame_step_with(step, stride) {
            let mut observation = Observation::default();
            render_into(w, colours, &mut observation, filler);
            frames.push(Frame { step, observation });
        }
    });
    Rollout { outcome, frames }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_steps_are_one_past_multiples_of_the_stride() {
        let steps: Vec<u32> = (0..=1000).filter(|&s| is_frame_step(s)).collect();
        assert_eq!(steps.len(), 17);
        assert_eq!(steps, (0..17).map(|k| k * 60 + 1).collect::<Vec<_>>());
        assert_eq!(frame_count(1000), 17);
        assert_eq!((frame_count(0), frame_count(1), frame_count(60)), (0, 1, 1));
        assert_eq!(
            (frame_count(61), frame_count(961), frame_count(962)),
            (2, 17, 17)
        );
        assert!(is_frame_step_with(5, 0));
    }
}
