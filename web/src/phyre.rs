//! PHYRE tasks in the player: an action's run shown step by step, with the status, goal timer
//! and final hash that `rephyre simulate` reports for the same action.

use engine::{Goal, World};
use raster::picture::PALETTE;
use raster::Indexed;
use tasks::{
    simulate_observed, validate_action, Outcome, SimOptions, Status, Task, TaskSet, Tier,
    GOAL_HOLD_STEPS,
};

use crate::report::Simulated;

/// A built-in PHYRE task by id, or why there is none.
pub fn task(id: &str) -> Result<&'static Task, String> {
    TaskSet::builtin().lookup(id).map_err(|e| e.to_string())
}

/// The tier an action is for: `tier` when given (`ball` or `two_balls`), else the task's own.
pub fn tier_of(task: &Task, tier: Option<&str>) -> Result<Tier, String> {
    match tier {
        None | Some("") => Ok(task.tier()),
        Some(t) => Tier::parse(t).ok_or_else(|| format!("unknown tier {t:?} (ball or two_balls)")),
    }
}

/// `rephyre simulate ID --action …` without the picture: status, covered steps and final hash
/// (INVALID with the reason when the action is invalid).
pub fn simulate(task: &Task, tier: Tier, action: &[f64]) -> Result<Simulated, String> {
    let valid = match validate_action(task, tier, action) {
        Ok(v) => v,
        Err(why) => return Ok(Simulated::invalid(Status::Invalid.name(), why.to_string())),
    };
    let o = tasks::simulate(task, &valid, SimOptions::default()).map_err(|e| e.to_string())?;
    Ok(Simulated::ran(
        Status::of_solved(o.solved).name(),
        o.steps,
        o.final_hash,
    ))
}

/// Why `action` is invalid for `task` in `tier`, or `None` when it is valid.
pub fn invalid_reason(task: &Task, tier: Tier, action: &[f64]) -> Option<String> {
    validate_action(task, tier, action)
        .err()
        .map(|e| e.to_string())
}

/// The scene as RGBA (256 × 256 × `scale`², row 0 at the top): its initial state, with the
/// action's balls when the action is given and valid — the picture `rephyre render ID
/// [--action …] --scale N` writes.
pub fn scene_rgba(
    task: &Task,
    tier: Tier,
    action: Option<&[f64]>,
    scale: usize,
) -> Result<Vec<u8>, String> {
    let balls = match action {
        Some(a) => validate_action(task, tier, a)
            .map(|v| v.balls().to_vec())
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let setup = task.build_world(&balls).map_err(|e| e.to_string())?;
    picture(&setup.world, &setup.colours, scale)
}

fn picture(world: &World, colours: &[u8], scale: usize) -> Result<Vec<u8>, String> {
    let obs = raster::render(world, colours);
    raster::canvas::rgba(&Indexed::from_observation(&obs, scale), &PALETTE)
        .map_err(|e| e.to_string())
}

/// One action's run, a step at a time: the world as the run steps it, and what the whole run
/// gives (computed once up front by [`tasks::simulate_observed`], the command line's run).
pub struct Run {
    world: World,
    colours: Vec<u8>,
    step: u32,
    outcome: Outcome,
    /// Whether the goal held after each step (index 0: after step 1).
    holds: Vec<bool>,
}

impl Run {
    /// The run of a valid `action`; an invalid one is an error that says why.
    pub fn new(task: &Task, tier: Tier, action: &[f64]) -> Result<Run, String> {
        let valid =
            validate_action(task, tier, action).map_err(|e| format!("invalid action: {e}"))?;
        let setup = task.build_world(valid.balls()).map_err(|e| e.to_string())?;
        let goal: Goal = setup.goal;
        let mut holds = Vec::new();
        let (outcome, _) = simulate_observed(task, &valid, SimOptions::default(), |_, w| {
            holds.push(goal.holds(w));
        })
        .map_err(|e| e.to_string())?;
        Ok(Run {
            world: setup.world,
            colours: setup.colours,
            step: 0,
            outcome,
            holds,
        })
    }

    /// One step; false, doing nothing, once the run's last step (the solving step, or the
    /// 1,000th) is shown.
    pub fn step(&mut self) -> bool {
        if self.step >= self.outcome.steps {
            return false;
        }
        self.world.step();
        self.step += 1;
        true
    }

    /// The current picture (RGBA).
    pub fn picture(&self, scale: usize) -> Result<Vec<u8>, String> {
        picture(&self.world, &self.colours, scale)
    }

    /// Steps shown so far.
    pub fn steps_shown(&self) -> u32 {
        self.step
    }

    /// What the player shows: where the run is, the goal's current hold against the
    /// 3 seconds (180 steps) it needs, and at the end the status and final hash.
    pub fn state(&self) -> RunState {
        let shown = &self.holds[..self.step as usize];
        let hold = shown.iter().rev().take_while(|&&h| h).count() as u32;
        let done = self.step >= self.outcome.steps;
        RunState {
            step: self.step,
            steps: self.outcome.steps,
            hold_steps: hold,
            hold_needed: GOAL_HOLD_STEPS,
            done,
            status: done.then(|| Status::of_solved(self.outcome.solved).name()),
            hash: done.then(|| crate::report::hex(self.outcome.final_hash)),
        }
    }
}

/// [`Run::state`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RunState {
    pub step: u32,
    /// Steps the run covers.
    pub steps: u32,
    pub hold_steps: u32,
    pub hold_needed: u32,
    pub done: bool,
    pub status: Option<&'static str>,
    pub hash: Option<String>,
}

/// The built-in witness of `task` in `tier` (tasks/data/witnesses.csv), if it has one.
pub fn solution(task: &Task, tier: Tier) -> Option<Vec<f64>> {
    tasks::witnesses::builtin_solution(task.id(), tier).map(|r| r.action.clone())
}
