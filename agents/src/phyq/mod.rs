//! Phy-Q agents: each chooses the next bird's shot from the level in play, and [`play`] runs an
//! attempt (the level's opening, then a shot per bird until every pig is destroyed or no bird
//! is left).
//!
//! * [`Random`]: the paper's random agent: a release point uniform in x ∈ [−100, −10],
//!   y ∈ [−100, 100] pixels from the slingshot, and for a bird with a power a tap uniform
//!   between 50 % and 80 % of its flight (the time its drag-free arc takes to come down to the
//!   ground);
//! * [`PigShooter`]: the paper's simplest heuristic as the paper ran it ([`planner`]): a pig
//!   chosen at random, the original framework's trajectory planner on the boxes its state reader
//!   makes of the screen, either arc at random (the fixed release point (−600, 560) when neither
//!   reaches), its taps, and the environment wrapper's offset and tap times;
//! * [`Optimal`]: a planner with the simulator as its forward model (the search of
//!   `phyq::game::soundness` from the state in play: the first shot of a sequence that passes,
//!   so it passes every sound task; else the one that leaves the fewest pigs): an upper bound
//!   no agent of the original could compute, not a fair player;
//! * with the `dqn` feature, the learned agent `dqn::phyq::PhyqDqn` (its network on the
//!   picture, no simulation at test time).
//!
//! Randomness is counter-based ([`Draws`]): an attempt's numbers depend only on (seed, task,
//! attempt), so an evaluation gives the same shots on any thread count and after a resume.
//! Shots are on the grid people type ([`PixelShot`]: hundredths of a pixel, taps on whole
//! steps), so every attempt can be replayed with `rephyre simulate ID --shots`.

pub mod planner;

use engine::{Fixed, Vec2};
use phyq::game::soundness::{best_next_shot, search_from};
use phyq::game::{screen_shot, Game, PixelShot, PlayError, Shot};
use phyq::picture::Framing;
use phyq::screen::AgentView;
use phyq::Level;
use planner::{pig_shooter_shot, tap_choices, Choices};

/// The random numbers of one attempt: word `n` of (seed, stream, index), in turn.
#[derive(Clone, Debug)]
pub struct Draws {
    seed: u64,
    stream: u64,
    index: u64,
    next: u64,
}

impl Draws {
    /// The draws of attempt `index` of the task with stream `stream` under `seed`.
    pub fn new(seed: u64, stream: u64, index: u64) -> Draws {
        Draws {
            seed,
            stream,
            index,
            next: 0,
        }
    }

    fn word(&mut self) -> u64 {
        let w = tasks::rng::word(self.seed, self.stream, self.index, self.next);
        self.next += 1;
        w
    }

    /// An integer uniform in `lo..=hi` (`lo <= hi`; the modulo bias is below 2^-40 for the
    /// spans used here).
    pub fn int_in(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo) as u64 + 1;
        lo + (self.word() % span) as i64
    }
}

/// A Phy-Q agent: the shot for the next bird.
pub trait ShotAgent: Sync {
    /// The agent's name on the command line (`random`, `pig-shooter`, `optimal`).
    fn name(&self) -> &'static str;
    /// What else identifies the agent's shots in a run's fingerprint (a learned agent: its
    /// weights); empty for the agents defined by their name.
    fn fingerprint(&self) -> String {
        String::new()
    }
    /// What a sharded run's part files record of the agent besides its name, as (argument,
    /// value) pairs: enough for a merge, which plays nothing, to know the agent without it (a
    /// learned agent: its model's digest and header); empty for the agents defined by their
    /// name.
    fn record(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The shot for the next bird of `game` (between shots: the world at rest, a bird left) on
    /// `level` (the level in play), from this attempt's `draws`.
    fn shot(&self, game: &Game, level: &Level, draws: &mut Draws) -> Result<PixelShot, PlayError>;
}

/// A release point in pixels, uniform on the paper's random agent's rectangle (in hundredths).
fn random_release(draws: &mut Draws) -> (f64, f64) {
    let x = draws.int_in(-10_000, -1_000);
    let y = draws.int_in(-10_000, 10_000);
    (hundredths(x), hundredths(y))
}

#[allow(clippy::float_arithmetic)] // the grid people type: k / 100, one rounding
fn hundredths(k: i64) -> f64 {
    k as f64 / 100.0
}

/// `share_percent` % of `flight` seconds as a tap on the level's grid (a whole step).
fn tap_at(release: Vec2, flight: Fixed, share_percent: i64, level: &Level) -> PixelShot {
    let tap = flight * Fixed::ratio(share_percent, 100);
    PixelShot::nearest(
        &Shot {
            release,
            tap: Some(tap),
        },
        level,
    )
}

/// The paper's random agent (module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Random;

impl ShotAgent for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn shot(&self, game: &Game, level: &Level, draws: &mut Draws) -> Result<PixelShot, PlayError> {
        let (x, y) = random_release(draws);
        let share = draws.int_in(50, 80);
        let plain = PixelShot { x, y, tap: 0.0 };
        let has_power = game.next_reach().is_some_and(|r| r.has_power);
        if !has_power {
            return Ok(plain);
        }
        let release = plain.to_shot(level).release;
        Ok(match game.flight_time(release) {
            Some(t) => PixelShot {
                tap: tap_at(release, t, share, level).tap,
                ..plain
            },
            None => plain,
        })
    }
}

/// The paper's pig shooter (module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct PigShooter;

impl ShotAgent for PigShooter {
    fn name(&self) -> &'static str {
        "pig-shooter"
    }

    fn shot(&self, game: &Game, level: &Level, draws: &mut Draws) -> Result<PixelShot, PlayError> {
        // Every draw is made whatever is used, so one choice never shifts the next.
        let pick = draws.word();
        let high = draws.word() % 2 == 1;
        let (tap_share, wrapper_tap_ms) = match game.next_bird().and_then(tap_choices) {
            Some((lo, more)) => (draws.int_in(lo, lo + more), draws.int_in(lo, lo + more)),
            None => (draws.int_in(0, 0), draws.int_in(0, 0)),
        };
        let (fx, fy) = random_release(draws);
        let framing = Framing::of_level(level);
        let view = AgentView::of(&game.scene(level), &framing);
        let (Some(bird), false) = (game.next_bird(), view.pigs.is_empty()) else {
            // No pig on the screen (the original agent would ask its environment for a random
            // action, which the wrapper lacks): the random agent's release.
            return Ok(PixelShot {
                x: fx,
                y: fy,
                tap: 0.0,
            });
        };
        let choices = Choices {
            pig: (pick % view.pigs.len() as u64) as usize,
            high,
            tap_share,
            wrapper_tap_ms,
        };
        Ok(match pig_shooter_shot(&view, bird, &choices) {
            Some(s) => PixelShot::nearest(
                &screen_shot(s.x, s.y, s.tap_ms, game.rest_point(), &framing),
                level,
            ),
            None => PixelShot {
                x: fx,
                y: fy,
                tap: 0.0,
            },
        })
    }
}

/// The planner with the simulator as its forward model (module doc). Deterministic: it makes
/// no draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct Optimal;

impl ShotAgent for Optimal {
    fn name(&self) -> &'static str {
        "optimal"
    }

    fn shot(&self, game: &Game, level: &Level, _: &mut Draws) -> Result<PixelShot, PlayError> {
        // The first shot of a sequence that passes from here (the soundness search, so every
        // sound task is passed), else the greedy best.
        if let Some(shots) = search_from(game, level)?.shots {
            return Ok(shots[0]);
        }
        match best_next_shot(game, level)? {
            Some(b) => Ok(b.shot),
            // No bird left: the caller does not ask then; any shot is as good.
            None => Ok(PixelShot {
                x: -50.0,
                y: 0.0,
                tap: 0.0,
            }),
        }
    }
}

/// One attempt at a level.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    pub passed: bool,
    /// The shots taken, in order (as `--shots` replays them).
    pub shots: Vec<PixelShot>,
    pub pigs_left: u32,
    /// Physics steps, the opening included.
    pub steps: u32,
}

/// Plays one attempt of `agent` at `level` with `draws`: the opening, then the agent's shot for
/// each bird until every pig is destroyed or no bird is left.
pub fn play(agent: &dyn ShotAgent, level: &Level, draws: &mut Draws) -> Result<Attempt, PlayError> {
    let mut game = Game::new(level)?;
    game.settle();
    let mut shots = Vec::new();
    while game.pigs_left() > 0 && game.birds_left() > 0 {
        let shot = agent.shot(&game, level, draws)?;
        game.shoot(&shot.to_shot(level))?;
        shots.push(shot);
    }
    Ok(Attempt {
        passed: game.pigs_left() == 0,
        shots,
        pigs_left: game.pigs_left(),
        steps: game.steps(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use phyq::generator::builtin_tasks;
    use phyq::BirdKind;
    use planner::pig_shooter_shot;

    fn level(id: &str) -> Level {
        let id: phyq::LevelId = id.parse().unwrap();
        builtin_tasks()
            .entries()
            .iter()
            .find(|e| e.id == id)
            .unwrap()
            .level
            .clone()
    }

    fn opened(level: &Level) -> Game {
        let mut g = Game::new(level).unwrap();
        g.settle();
        g
    }

    #[test]
    fn random_shots_are_the_papers() {
        // A red bird first, then a level whose first bird has a power.
        let mut powers = Vec::new();
        for id in ["phyq:1_1_1:00001", "phyq:3_9_1:00001"] {
            let level = level(id);
            let game = opened(&level);
            let power = game.next_reach().unwrap().has_power;
            powers.push(power);
            for attempt in 0..40 {
                let mut d = Draws::new(1, 2, attempt);
                let s = Random.shot(&game, &level, &mut d).unwrap();
                assert!(
                    (-100.0..=-10.0).contains(&s.x) && (-100.0..=100.0).contains(&s.y),
                    "{s}"
                );
                let release = s.to_shot(&level).release;
                let flight = game.flight_time(release).unwrap().to_f64();
                if power {
                    // A whole step (0.02 s) of rounding either way.
                    let share = s.tap / flight;
                    assert!(
                        (0.5 - 0.02 / flight..=0.8 + 0.02 / flight).contains(&share),
                        "{s} of {flight}"
                    );
                } else {
                    assert_eq!(s.tap, 0.0);
                }
                // The same draws, the same shot.
                let mut again = Draws::new(1, 2, attempt);
                assert_eq!(Random.shot(&game, &level, &mut again).unwrap(), s);
            }
        }
        assert_eq!(powers, [false, true]);
    }

    #[test]
    fn the_pig_shooter_shoots_the_planners_arcs_and_replays() {
        // Template 1.4 (1_1_1): one pig in the open, one red bird.
        let level = level("phyq:1_1_1:00001");
        let game = opened(&level);
        let framing = Framing::of_level(&level);
        let view = AgentView::of(&game.scene(&level), &framing);
        // Each attempt's shot is the planner's for its draws, on the grid people type.
        let (mut arcs, mut tried) = ([0; 2], [0; 2]);
        for attempt in 0..20 {
            let a = play(&PigShooter, &level, &mut Draws::new(0, 9, attempt)).unwrap();
            let mut d = Draws::new(0, 9, attempt);
            let (_, high) = (d.word(), d.word() % 2 == 1);
            let c = Choices {
                pig: 0,
                high,
                tap_share: 0,
                wrapper_tap_ms: 0,
            };
            let s = pig_shooter_shot(&view, BirdKind::Red, &c).unwrap();
            let want = screen_shot(s.x, s.y, s.tap_ms, game.rest_point(), &framing);
            assert_eq!(a.shots, [PixelShot::nearest(&want, &level)]);
            arcs[usize::from(high)] += usize::from(a.passed);
            tried[usize::from(high)] += 1;
            // What play() reports is what `simulate --shots` replays.
            let shots: Vec<Shot> = a.shots.iter().map(|s| s.to_shot(&level)).collect();
            let o = phyq::game::play(&level, &shots).unwrap();
            assert_eq!((o.pigs_left, o.steps), (a.pigs_left, a.steps));
        }
        // The low arc hits the pig every time; the high one, on the original planner's launch
        // model, lands beyond it (rephyre's launch is faster than the model's: docs/phyq.md).
        assert!(tried[0] > 0 && tried[1] > 0, "{tried:?}");
        assert_eq!(arcs, [tried[0], 0], "passes of the low and the high arc");
    }

    #[test]
    fn the_optimal_planner_passes_what_the_witness_passes() {
        let level = level("phyq:1_2_6:00001");
        let a = play(&Optimal, &level, &mut Draws::new(0, 0, 0)).unwrap();
        assert!(a.passed);
        assert_eq!(a.pigs_left, 0);
    }
}
