//! Is a task sound? It must start at rest (run without a shot, nothing moves past a tolerance
//! and no pig is destroyed) and be passable (some sequence of shots destroys every pig).
//!
//! The passability search is greedy over a fixed grid of shots, so it is deterministic and
//! needs no seed: for each bird in turn, every candidate is played from the state the chosen
//! shots left; one that passes ends the search, otherwise the candidate leaving the fewest pigs,
//! then destroying the most objects (the first such in grid order), is kept and the next bird
//! is searched.

use super::play::{Game, PlayError, Shot, MAX_SHOT_STEPS};
use engine::{sin_cos, Fixed, Vec2};

/// How far an object may move during the opening for the task to count as at rest (m).
pub const REST_TOLERANCE: Fixed = Fixed::ratio(5, 100);

/// What the opening of a level does, without a shot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The largest distance any object (pig, block, TNT) moved from where the level put it (m).
    pub largest_move: Fixed,
    /// Pigs destroyed during it.
    pub pigs_destroyed: u32,
    /// Objects of any kind destroyed during it.
    pub destroyed: u32,
    /// Steps until the world came to rest (or the cap, `MAX_SHOT_STEPS` after the immortal
    /// time).
    pub steps: u32,
    pub came_to_rest: bool,
}

impl Opening {
    /// Starts at rest: nothing moved past the tolerance, nothing destroyed, and it came to rest.
    pub fn is_at_rest(&self) -> bool {
        self.came_to_rest && self.destroyed == 0 && self.largest_move <= REST_TOLERANCE
    }
}

/// Runs a level without a shot: the immortal time, then until rest (at most `MAX_SHOT_STEPS`).
pub fn opening(level: &crate::level::Level) -> Result<Opening, PlayError> {
    let mut game = Game::new(level)?;
    let start: Vec<_> = game.positions();
    let pigs = game.pigs_left();
    game.settle();
    let cap = game.steps() + MAX_SHOT_STEPS;
    let mut came_to_rest = game.world().is_at_rest();
    while !came_to_rest && game.steps() < cap {
        game.step_idle();
        came_to_rest = game.world().is_at_rest();
    }
    let now = game.positions();
    let mut largest_move = Fixed::ZERO;
    let mut destroyed = 0;
    for (a, b) in start.iter().zip(&now) {
        match b {
            Some(b) => {
                largest_move = largest_move.max((*b - a.expect("alive at the start")).length())
            }
            None => destroyed += 1,
        }
    }
    Ok(Opening {
        largest_move,
        pigs_destroyed: pigs - game.pigs_left(),
        destroyed,
        steps: game.steps(),
        came_to_rest,
    })
}

/// The grid of candidate shots for one bird: full-power releases at angles from −20° to 85°
/// (1° apart; the launch direction, counter-clockwise from +x), and, for birds with a power,
/// each of them tapped at 0.5, 1, 1.5 and 2 s as well.
pub fn candidates(drag_radius: Fixed, has_power: bool) -> Vec<Shot> {
    let mut out = Vec::new();
    let taps: &[Option<Fixed>] = if has_power {
        &[
            None,
            Some(Fixed::HALF),
            Some(Fixed::ONE),
            Some(Fixed::ratio(3, 2)),
            Some(Fixed::TWO),
        ]
    } else {
        &[None]
    };
    for deg in -20..=85 {
        let (s, c) = sin_cos(crate::number::radians(Fixed::from_int(deg)));
        // Released opposite to the launch direction, at the drag radius.
        let release = Vec2::new(-c, -s).scale(drag_radius);
        for &tap in taps {
            out.push(Shot { release, tap });
        }
    }
    out
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The passing shots, if any were found.
    pub shots: Option<Vec<Shot>>,
    /// Shots simulated in all.
    pub shots_tried: u64,
    /// Physics steps run in all.
    pub steps: u64,
}

/// Searches for shots that pass the level (greedy over [`candidates`], module doc).
pub fn search(level: &crate::level::Level) -> Result<Search, PlayError> {
    let mut game = Game::new(level)?;
    game.settle();
    let mut chosen: Vec<Shot> = Vec::new();
    let mut tried = 0u64;
    let mut steps = 0u64;
    while let Some((drag_radius, has_power)) = game.next_bird_reach() {
        // (pigs left, objects destroyed), the shot, the state after it.
        let mut best: Option<((u32, u32), Shot, Game)> = None;
        for shot in candidates(drag_radius, has_power) {
            let mut g = game.clone();
            let before = g.steps();
            g.shoot(&shot)?;
            tried += 1;
            steps += u64::from(g.steps() - before);
            if g.pigs_left() == 0 {
                chosen.push(shot);
                return Ok(Search {
                    shots: Some(chosen),
                    shots_tried: tried,
                    steps,
                });
            }
            let score = (g.pigs_left(), g.destroyed());
            let better = |(p, d): (u32, u32)| score.0 < p || (score.0 == p && score.1 > d);
            if best.as_ref().is_none_or(|(s, _, _)| better(*s)) {
                best = Some((score, shot, g));
            }
        }
        let (_, shot, g) = best.expect("at least one candidate");
        chosen.push(shot);
        game = g;
    }
    Ok(Search {
        shots: None,
        shots_tried: tried,
        steps,
    })
}
