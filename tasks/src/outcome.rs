//! Simulating an action: (task, valid action) → world → engine run → outcome.

use engine::goal::{run, RunOptions};
use engine::World;

use crate::action::ValidAction;
use crate::model::Task;
use crate::simulation::{BuildError, SimulationSetup};

/// The result of simulating one valid action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub solved: bool,
    /// Steps the run covers (the solving step, or the full 1000).
    pub steps: u32,
    /// Steps actually computed (fewer when the world came to rest early).
    pub stepped: u32,
    /// First step (1-based) after which the goal relation held.
    pub first_touch_step: Option<u32>,
    /// Step at which the relation had held for 180 consecutive steps.
    pub solved_step: Option<u32>,
    /// Engine state hash after the last covered step.
    pub final_hash: u64,
    /// Chained per-step state hash (only with [`SimOptions::chain_hashes`], else 0).
    pub hash_chain: u64,
}

/// Options of [`simulate`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SimOptions {
    /// Chain the state hash of every step into [`Outcome::hash_chain`] (for audits).
    pub chain_hashes: bool,
    /// Step every one of the 1000 steps even after everything sleeps (the result is the same;
    /// this exists to prove it).
    pub no_early_exit: bool,
}

/// Build the world for `action` and run it; `observer(step, world)` sees the world after every
/// step (1-based), e.g. to record frames.
pub fn simulate_observed(
    task: &Task,
    action: &ValidAction,
    opts: SimOptions,
    observer: impl FnMut(u32, &World),
) -> Result<(Outcome, SimulationSetup), BuildError> {
    let mut setup = task.build_world(action.balls())?;
    let run_opts = RunOptions {
        chain_hashes: opts.chain_hashes,
        early_exit: !opts.no_early_exit,
        ..RunOptions::default()
    };
    let r = run(&mut setup.world, &setup.goal, run_opts, observer);
    let outcome = Outcome {
        solved: r.solved,
        steps: r.steps,
        stepped: r.stepped,
        first_touch_step: r.first_touch_step,
        solved_step: r.solved_step,
        final_hash: r.final_hash,
        hash_chain: r.hash_chain,
    };
    Ok((outcome, setup))
}

/// Build the world for `action` and run it.
pub fn simulate(
    task: &Task,
    action: &ValidAction,
    opts: SimOptions,
) -> Result<Outcome, BuildError> {
    simulate_observed(task, action, opts, |_, _| {}).map(|(o, _)| o)
}
