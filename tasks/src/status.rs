//! What an action does on a task, as one type: [`Status`] (invalid, not solved, solved), the one
//! way to compute it ([`status`]), and the stable-solution rule on an action's neighbours
//! ([`unstable_neighbour`]).

use crate::action::{stable_neighbours, validate_action, InvalidAction, ValidAction};
use crate::model::{ActionTier, Task};
use crate::outcome::{simulate, SimOptions};

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
}

/// The status of `action` on `task` in `tier`, from a status-only simulation.
pub fn status(task: &Task, tier: ActionTier, action: &[f64]) -> Status {
    status_of_validated(task, &validate_action(task, tier, action))
}

/// [`status`] of an action already validated.
pub fn status_of_validated(task: &Task, validated: &Result<ValidAction, InvalidAction>) -> Status {
    match validated {
        Err(_) => Status::Invalid,
        Ok(valid) => match simulate(task, valid, SimOptions::STATUS_ONLY) {
            Ok(o) if o.solved => Status::Solved,
            Ok(_) => Status::NotSolved,
            // A world that cannot be built is reported as invalid (never seen for PHYRE tasks).
            Err(_) => Status::Invalid,
        },
    }
}

/// The stable-solution rule (SPEC §8) on the neighbours of a solved action: a solution is stable
/// when every one of its 8 half-pixel neighbours ([`stable_neighbours`]) is solved or invalid.
/// Returns the first valid neighbour, in [`crate::NEIGHBOUR_SHIFTS`] order, that `solved` says is
/// not solved (its index), or `None` for a stable solution. It stops at that neighbour, so
/// `solved` (which runs or looks up a simulation) is called only as far as the answer needs.
pub fn unstable_neighbour(
    task: &Task,
    action: &ValidAction,
    mut solved: impl FnMut(&ValidAction) -> bool,
) -> Option<usize> {
    stable_neighbours(task, action)
        .iter()
        .enumerate()
        .find_map(|(k, n)| match n {
            Ok(n) if !solved(n) => Some(k),
            _ => None,
        })
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
}
