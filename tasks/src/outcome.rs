//! Simulating an action: (task, valid action) → world → engine run → outcome.

use engine::{run, RunOptions, SceneRecording, World};

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
    run(&mut setup.world, &setup.goal, opts.run_options(), observer)
}

impl SimOptions {
    /// The engine run of a PHYRE simulation with these options.
    fn run_options(self) -> RunOptions {
        RunOptions {
            chain_hashes: self.chain_hashes,
            early_exit: !self.no_early_exit,
            status_only: self.status_only,
            ..PHYRE_RUN
        }
    }
}

/// A task's scene stepped once without user balls ([`engine::SceneRecording`]), for simulating
/// many actions on the task: each action's run skips the steps in which its balls have not yet
/// met a moving scene body, reading the scene's state from the recording, and gives the same
/// outcome as [`simulate`] bit for bit. Worth it from a few actions per task on (recording
/// costs about one run of the scene); the jobs make one per task and batch.
#[derive(Clone, Debug)]
pub struct TaskScene<'t> {
    task: &'t Task,
    /// `None` when the scene's world cannot be built (then neither can any action's).
    recording: Option<SceneRecording>,
}

impl<'t> TaskScene<'t> {
    /// Record `task`'s scene (at most [`crate::MAX_STEPS`] steps, less when it comes to rest).
    pub fn new(task: &'t Task) -> TaskScene<'t> {
        let recording = task
            .build_world(&[])
            .ok()
            .and_then(|s| SceneRecording::record(&s.world, s.goal, PHYRE_RUN.max_steps));
        TaskScene { task, recording }
    }

    /// `task` without a recording: every run is simulated in full ([`simulate`]), for one-off
    /// actions, where recording would cost more than it saves.
    pub fn plain(task: &'t Task) -> TaskScene<'t> {
        TaskScene {
            task,
            recording: None,
        }
    }

    /// The task.
    pub fn task(&self) -> &'t Task {
        self.task
    }

    /// [`simulate`] of `action` on the task, the same outcome bit for bit. Runs with a hash
    /// chain are simulated in full.
    pub fn simulate(&self, action: &ValidAction, opts: SimOptions) -> Result<Outcome, BuildError> {
        self.simulate_shared(action, opts)
            .map(|(outcome, _)| outcome)
    }

    /// [`TaskScene::simulate`], and the number of steps in which the scene was read from the
    /// recording rather than stepped (0 when the run did not use it).
    pub fn simulate_shared(
        &self,
        action: &ValidAction,
        opts: SimOptions,
    ) -> Result<(Outcome, u32), BuildError> {
        let mut setup = self.task.build_world(action.balls())?;
        let shared = self
            .recording
            .as_ref()
            .and_then(|r| r.run(&setup.world, &setup.goal, opts.run_options()));
        Ok(match shared {
            Some(run) => run,
            None => (run_setup(&mut setup, opts, |_, _| {}), 0),
        })
    }
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
