//! What an action does on a task, as one type: [`Status`] (invalid, not solved, solved), the one
//! way to compute it ([`status`]), and the stable-solution procedure (SPEC §8: validate,
//! simulate, solved?, then the action's neighbours) as one function ([`stability`]).

use crate::action::{stable_neighbours, validate_action, InvalidAction, ValidAction};
use crate::model::{ActionTier, Task};
use crate::outcome::{Outcome, SimOptions, TaskScene};
use crate::simulation::BuildError;
use std::fmt;
use std::str::FromStr;

/// What an action gave on a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Out of range, or a ball overlaps a scene body (also: a world that cannot be built, never
    /// seen for PHYRE tasks).
    Invalid,
    NotSolved,
    Solved,
}

impl Status {
    /// The original PHYRE's spelling (its `SimulationStatus`): −1 not solved, 0 invalid,
    /// 1 solved. Reference files and `status` columns use it.
    pub fn phyre_code(self) -> i8 {
        match self {
            Status::NotSolved => -1,
            Status::Invalid => 0,
            Status::Solved => 1,
        }
    }

    /// The status of an original PHYRE code, `None` for any other number.
    pub fn from_phyre_code(code: i8) -> Option<Status> {
        match code {
            -1 => Some(Status::NotSolved),
            0 => Some(Status::Invalid),
            1 => Some(Status::Solved),
            _ => None,
        }
    }

    /// Two-bit code of compact tables (the agents' outcome tables and their caches): 0 invalid,
    /// 1 not solved, 2 solved.
    pub fn code(self) -> u8 {
        match self {
            Status::Invalid => 0,
            Status::NotSolved => 1,
            Status::Solved => 2,
        }
    }

    /// The status of a two-bit code, `None` for any other number.
    pub fn from_code(code: u8) -> Option<Status> {
        match code {
            0 => Some(Status::Invalid),
            1 => Some(Status::NotSolved),
            2 => Some(Status::Solved),
            _ => None,
        }
    }

    /// Whether the action was valid (it was simulated).
    pub fn is_valid(self) -> bool {
        self != Status::Invalid
    }

    /// The spelling of the command line's output and of audit golden files: `SOLVED`,
    /// `NOT_SOLVED`, `INVALID` (parsed back by [`FromStr`]).
    pub fn name(self) -> &'static str {
        match self {
            Status::Invalid => "INVALID",
            Status::NotSolved => "NOT_SOLVED",
            Status::Solved => "SOLVED",
        }
    }

    /// Solved or not solved (of an action that was simulated).
    pub fn of_solved(solved: bool) -> Status {
        if solved {
            Status::Solved
        } else {
            Status::NotSolved
        }
    }

    /// The status of a simulation's result: solved or not solved, and [`Status::Invalid`] for a
    /// world that cannot be built (never seen for PHYRE tasks).
    pub fn of_run(run: &Result<Outcome, BuildError>) -> Status {
        match run {
            Ok(o) => Status::of_solved(o.solved),
            Err(_) => Status::Invalid,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that is not a [`Status::name`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseStatusError(pub String);

impl fmt::Display for ParseStatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown status {:?} (expected SOLVED, NOT_SOLVED or INVALID)",
            self.0
        )
    }
}

impl std::error::Error for ParseStatusError {}

impl FromStr for Status {
    type Err = ParseStatusError;

    fn from_str(s: &str) -> Result<Status, ParseStatusError> {
        [Status::Invalid, Status::NotSolved, Status::Solved]
            .into_iter()
            .find(|st| st.name() == s)
            .ok_or_else(|| ParseStatusError(s.to_string()))
    }
}

/// The status methods of a task's recorded scene, beside the free functions below that use them
/// on a scene without a recording.
impl TaskScene<'_> {
    /// The status of a valid action from a status-only simulation ([`Status::of_run`]: a world
    /// that cannot be built is invalid).
    pub fn simulated_status(&self, action: &ValidAction) -> Status {
        Status::of_run(&self.simulate(action, SimOptions::STATUS_ONLY))
    }

    /// [`TaskScene::status`] of an action already validated.
    pub fn status_of_validated(&self, validated: &Result<ValidAction, InvalidAction>) -> Status {
        match validated {
            Err(_) => Status::Invalid,
            Ok(valid) => self.simulated_status(valid),
        }
    }

    /// The status of `action` on the task in `tier`, from a status-only simulation.
    pub fn status(&self, tier: ActionTier, action: &[f64]) -> Status {
        self.status_of_validated(&validate_action(self.task(), tier, action))
    }
}

/// The status of `action` on `task` in `tier`, from a status-only simulation
/// ([`TaskScene::status`] of a single action).
pub fn status(task: &Task, tier: ActionTier, action: &[f64]) -> Status {
    TaskScene::plain(task).status(tier, action)
}

/// [`status`] of an action already validated.
pub fn status_of_validated(task: &Task, validated: &Result<ValidAction, InvalidAction>) -> Status {
    TaskScene::plain(task).status_of_validated(validated)
}

/// The status of a valid action from a status-only simulation ([`Status::of_run`]: a world that
/// cannot be built is invalid).
pub fn simulated_status(task: &Task, action: &ValidAction) -> Status {
    TaskScene::plain(task).simulated_status(action)
}

/// What the stable-solution test (SPEC §8) says of one action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stability {
    /// The action is invalid for the task (or its world cannot be built).
    Invalid,
    /// Valid, not solved.
    NotSolved,
    /// Solved, but the neighbour with shift `NEIGHBOUR_SHIFTS[k]` is valid and not solved.
    Unstable(usize),
    /// Solved, and every neighbour solved or invalid.
    Stable,
}

/// The stable-solution procedure (SPEC §8), the one place it is written: validate `action`,
/// simulate it, and when it solves, test its 8 half-pixel neighbours ([`stable_neighbours`]): the
/// solution is stable when every one of them is solved or invalid.
///
/// `status` gives the status of a valid action: normally [`simulated_status`], or that with a
/// cache or a counter around it. A world that cannot be built is [`Status::Invalid`] there, so
/// such an action is [`Stability::Invalid`] and such a neighbour does not spoil a solution.
/// `status` is called first on the action itself, then on the valid neighbours in
/// [`crate::NEIGHBOUR_SHIFTS`] order, and not after the first one that is not solved.
pub fn stability(
    task: &Task,
    tier: ActionTier,
    action: &[f64],
    status: impl FnMut(&ValidAction) -> Status,
) -> Stability {
    match validate_action(task, tier, action) {
        Err(_) => Stability::Invalid,
        Ok(v) => stability_of_valid(task, &v, status),
    }
}

/// [`stability`] of an action already validated.
pub fn stability_of_valid(
    task: &Task,
    action: &ValidAction,
    mut status: impl FnMut(&ValidAction) -> Status,
) -> Stability {
    match status(action) {
        Status::Invalid => Stability::Invalid,
        Status::NotSolved => Stability::NotSolved,
        Status::Solved => stability_of_solved(task, action, status),
    }
}

/// The neighbour half of [`stability`], for an action already known to solve (e.g. from a full
/// run): [`Stability::Unstable`] with the first valid neighbour that `status` says is not solved,
/// else [`Stability::Stable`].
pub fn stability_of_solved(
    task: &Task,
    action: &ValidAction,
    mut status: impl FnMut(&ValidAction) -> Status,
) -> Stability {
    let unstable = stable_neighbours(task, action)
        .iter()
        .enumerate()
        .find_map(|(k, n)| match n {
            Ok(n) if status(n) == Status::NotSolved => Some(k),
            _ => None,
        });
    match unstable {
        Some(k) => Stability::Unstable(k),
        None => Stability::Stable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_differ() {
        for s in [Status::Invalid, Status::NotSolved, Status::Solved] {
            assert_eq!(Status::from_phyre_code(s.phyre_code()), Some(s));
            assert_eq!(Status::from_code(s.code()), Some(s));
        }
        assert_eq!(Status::from_phyre_code(2), None);
        assert_eq!(Status::from_code(3), None);
        assert_eq!(Status::Solved.phyre_code(), 1);
        assert_eq!(Status::NotSolved.phyre_code(), -1);
    }

    #[test]
    fn names_round_trip() {
        for s in [Status::Invalid, Status::NotSolved, Status::Solved] {
            assert_eq!(s.name().parse::<Status>(), Ok(s));
            assert_eq!(s.to_string(), s.name());
        }
        assert_eq!(Status::NotSolved.name(), "NOT_SOLVED");
        assert!("solved".parse::<Status>().is_err());
    }
}
