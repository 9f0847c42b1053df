//! Simulating an action: (task, valid action) → world → engine run → outcome.

use engine::{run, RunOptions, World};

use crate::action::ValidAction;
use crate::model::Task;
use crate::simulation::{BuildError, SimulationSetup, PHYRE_RUN};

/// The result of simulating one valid action: the engine's run outcome (solved, steps covered,
/// steps computed, first-touch and solved step, final hash, per-step hash chain when asked).
pub type Outcome = engine::RunOutcome;

/// Options of [`simulate`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SimOptions {
    /// Chain the state hash of every step into [`Outcome::hash_chain`] (for audits).
    pub chain_hashes: bool,
    /// Step every one of the 1000 steps even after everything sleeps (the result is the same;
    /// this exists to prove it).
    pub no_early_exit: bool,
    /// Stop once the status and solved step are decided ([`engine::RunOptions::status_only`]):
    /// for jobs that need only solved / not solved. `simulate`'s full run and the audits keep
    /// it off.
    pub status_only: bool,
}

impl SimOptions {
    /// The options of every job that needs only solved / not solved (and the solved step):
    /// solvability, diversity, random-curve, parity, the agents' outcome tables, witnesses.
    pub const STATUS_ONLY: SimOptions = SimOptions {
        chain_hashes: false,
        no_early_exit: false,
        status_only: true,
    };
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
    let outcome = run_setup(&mut setup, opts, observer);
    Ok((outcome, setup))
}

fn run_setup(
    setup: &mut SimulationSetup,
    opts: SimOptions,
    observer: impl FnMut(u32, &World),
) -> Outcome {
    let run_opts = RunOptions {
        chain_hashes: opts.chain_hashes,
        early_exit: !opts.no_early_exit,
        status_only: opts.status_only,
        ..PHYRE_RUN
    };
    run(&mut setup.world, &setup.goal, run_opts, observer)
}

/// Build the world for `action` and run it.
pub fn simulate(
    task: &Task,
    action: &ValidAction,
    opts: SimOptions,
) -> Result<Outcome, BuildError> {
    simulate_observed(task, action, opts, |_, _| {}).map(|(o, _)| o)
}

/// Run the task's scene as its designer left it, with no user ball. No PHYRE task solves itself
/// in the original (a self-solving scene would be solved by nearly every action that does not
/// disturb it, and no task's random solve rate there exceeds 0.24), so a `solved` outcome here
/// marks a task whose passive motion rephyre does not reproduce.
pub fn simulate_scene(task: &Task, opts: SimOptions) -> Result<Outcome, BuildError> {
    let mut setup = task.build_world(&[])?;
    Ok(run_setup(&mut setup, opts, |_, _| {}))
}
