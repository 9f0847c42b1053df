//! The paper's protocol (§3.2): agents train with free simulator access on training tasks, then
//! attempt each test task in turn; at most 100 valid attempts per task, invalid attempts are free
//! and not logged, and a task counts as solved at its first solving attempt.
//!
//! As in the original's evaluation loop (its agents attempt until the task's 100 valid attempts
//! are used, and its evaluator logs attempts after a solve), an agent keeps attempting a solved
//! task: the later attempts do not change when it was solved, but online agents (MEM-O, DQN-O)
//! learn from them, as the paper's did.
//!
//! Agents here act on a fixed, documented [`ActionSet`] and see the simulator through
//! [`Simulator`], so a precomputed table of outcomes ([`StatusTable`]) or a synthetic world can
//! stand in for the physics in tests.

use crate::auccess::SolvedAt;

/// Most valid attempts per task.
pub const MAX_ATTEMPTS: u32 = 100;
/// Most proposals (valid or not) per task, so a broken agent cannot loop forever.
pub const MAX_PROPOSALS: u32 = 100_000;

/// What an attempt gave (the one status type of rephyre, from the tasks crate).
pub use tasks::Status;

/// The fixed action set of a tier: `len` actions drawn like the original's
/// `build_discrete_action_space` — uniform in [0, 1]^d, redrawing any whose balls leave the
/// scene or (two balls) are closer than 1 px ([`tasks::sample_action`] on the counter-based
/// stream (`seed`, [`ACTION_SET_STREAM`])). So every action is a candidate on every task, and
/// only occlusion by a task's bodies makes one invalid there, as in the original's set (27 % of
/// its ball actions and 50 % of its two-ball actions are invalid on an average task, SPEC §9).
/// The set of `n` actions is the first `n` of the set of any larger size.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionSet {
    pub seed: u64,
    pub tier: tasks::Tier,
    pub actions: Vec<Vec<f64>>,
}

/// RNG stream of the action set.
pub const ACTION_SET_STREAM: u64 = 0x4143_5449_4f4e; // "ACTION"

impl ActionSet {
    pub fn new(seed: u64, tier: tasks::Tier, len: usize) -> ActionSet {
        let mut index = 0;
        let actions = (0..len)
            .map(|_| tasks::sample_action(tier, seed, ACTION_SET_STREAM, &mut index))
            .collect();
        ActionSet {
            seed,
            tier,
            actions,
        }
    }

    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }
}

/// The simulator as agents see it: the status of action `action` (an index into the action
/// set) on task `task` (an index into the evaluation's task list).
pub trait Simulator: Sync {
    fn status(&self, task: usize, action: usize) -> Status;
    /// The template of a task (for per-template rankings).
    fn template(&self, task: usize) -> u32;
}

/// Statuses of every (task, action) pair, computed once and shared by every agent, setup and
/// fold: the same action on the same task always gives the same status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusTable {
    pub actions: usize,
    /// Template of each task.
    pub templates: Vec<u32>,
    /// Row-major codes (`tasks × actions`).
    pub codes: Vec<u8>,
}

impl Simulator for StatusTable {
    fn status(&self, task: usize, action: usize) -> Status {
        Status::from_code(self.codes[task * self.actions + action]).unwrap_or(Status::Invalid)
    }

    fn template(&self, task: usize) -> u32 {
        self.templates[task]
    }
}

/// A test-time agent over an action set.
pub trait Agent {
    fn name(&self) -> &'static str;
    /// Training phase: free access to `sim` on the training tasks (and dev tasks for tuning).
    fn train(&mut self, sim: &dyn Simulator, train: &[usize], dev: &[usize]);
    /// After [`Agent::train`]: learn again from `tasks` (for a test evaluation, the training
    /// and dev tasks together, as the original trained its final agents), keeping what `train`
    /// chose on the dev tasks. Agents that learn nothing from tasks leave themselves as they are.
    fn refit(&mut self, sim: &dyn Simulator, tasks: &[usize]);
    /// A new test task begins.
    fn start_task(&mut self, sim: &dyn Simulator, task: usize);
    /// The next action to try (an action-set index), or `None` to give up on this task.
    fn propose(&mut self) -> Option<usize>;
    /// The status of the last proposal (also after the task is solved: see the module's note).
    fn observe(&mut self, action: usize, status: Status);
    /// The task is over (its valid attempts used, or the agent gave up); online agents update
    /// here. `solved`: whether any attempt solved it.
    fn end_task(&mut self, solved: bool) {
        let _ = solved;
    }
    /// The test tasks, in the order they will be started, before the first
    /// [`Agent::start_task`]. An agent whose proposals for a task depend on nothing it learns
    /// during the evaluation may prepare them here or ahead of time (the DQN ranks tasks on
    /// several threads); its proposals must be the same as without this call.
    fn will_evaluate(&mut self, tasks: &[usize]) {
        let _ = tasks;
    }
    /// What the agent chose on the dev split in [`Agent::train`], as `name=value` pairs
    /// separated by `;` (empty for agents that tune nothing), so a results file says which
    /// setting produced each fold's figures.
    fn tuned(&self) -> String {
        String::new()
    }
}

/// The attempt counter of one task: refuses a 101st valid attempt.
#[derive(Clone, Debug, Default)]
pub struct Attempts {
    valid: u32,
    proposals: u32,
    solved_at: SolvedAt,
}

/// Why an attempt was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptError {
    /// All [`MAX_ATTEMPTS`] valid attempts are used.
    NoAttemptsLeft,
    /// [`MAX_PROPOSALS`] proposals reached.
    TooManyProposals,
}

impl Attempts {
    /// Record a proposal's status; invalid ones are free. Attempts after the first solve count
    /// against the 100 but leave [`Attempts::solved_at`] as it was.
    pub fn record(&mut self, status: Status) -> Result<(), AttemptError> {
        if self.proposals >= MAX_PROPOSALS {
            return Err(AttemptError::TooManyProposals);
        }
        if status != Status::Invalid && self.valid >= MAX_ATTEMPTS {
            return Err(AttemptError::NoAttemptsLeft);
        }
        self.proposals += 1;
        if status != Status::Invalid {
            self.valid += 1;
            if status == Status::Solved && self.solved_at.is_none() {
                self.solved_at = Some(self.valid);
            }
        }
        Ok(())
    }

    pub fn valid(&self) -> u32 {
        self.valid
    }

    pub fn solved_at(&self) -> SolvedAt {
        self.solved_at
    }

    pub fn finished(&self) -> bool {
        self.valid >= MAX_ATTEMPTS || self.proposals >= MAX_PROPOSALS
    }
}

/// Run `agent` on the test tasks in order and return when each was solved.
pub fn evaluate(agent: &mut dyn Agent, sim: &dyn Simulator, test: &[usize]) -> Vec<SolvedAt> {
    let mut out = Vec::with_capacity(test.len());
    agent.will_evaluate(test);
    for &task in test {
        agent.start_task(sim, task);
        let mut attempts = Attempts::default();
        while !attempts.finished() {
            let Some(action) = agent.propose() else { break };
            let status = sim.status(task, action);
            if attempts.record(status).is_err() {
                break;
            }
            agent.observe(action, status);
        }
        agent.end_task(attempts.solved_at().is_some());
        out.push(attempts.solved_at());
    }
    out
}
