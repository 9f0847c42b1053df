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
use phyq::{BirdKind, Level};
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
        let next = game.next_bird();
        let drawn = PigShooterDraws::new(draws, next);
        let (fx, fy) = drawn.fallback;
        let framing = Framing::of_level(level);
        let view = AgentView::of(&game.scene(level), &framing);
        let (Some(bird), false) = (next, view.pigs.is_empty()) else {
            // No pig on the screen (the original agent would ask its environment for a random
            // action, which the wrapper lacks): the random agent's release.
            return Ok(PixelShot {
                x: fx,
                y: fy,
                tap: 0.0,
            });
        };
        Ok(
            match pig_shooter_shot(&view, bird, &drawn.choices(view.pigs.len())) {
                Some(s) => PixelShot::nearest(
                    &screen_shot(s.x, s.y, s.tap_ms, game.rest_point(), &framing),
                    level,
                ),
                None => PixelShot {
                    x: fx,
                    y: fy,
                    tap: 0.0,
                },
            },
        )
    }
}

/// The pig shooter's draws for one shot, in this order and every one made whatever is used (so
/// one choice never shifts the next): a word for the pig, one for the arc (odd: the high one),
/// the tap's share and the wrapper's tap time (each uniform in the bird's range of
/// [`tap_choices`]; a draw of 0 for a bird without a tap), and the random agent's release to
/// fall back on.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PigShooterDraws {
    pick: u64,
    high: bool,
    tap_share: i64,
    wrapper_tap_ms: i64,
    fallback: (f64, f64),
}

impl PigShooterDraws {
    fn new(draws: &mut Draws, bird: Option<BirdKind>) -> PigShooterDraws {
        let pick = draws.word();
        let high = draws.word() % 2 == 1;
        let (lo, more) = bird.and_then(tap_choices).unwrap_or((0, 0));
        let tap_share = draws.int_in(lo, lo + more);
        let wrapper_tap_ms = draws.int_in(lo, lo + more);
        PigShooterDraws {
            pick,
            high,
            tap_share,
            wrapper_tap_ms,
            fallback: random_release(draws),
        }
    }

    /// The choices for a screen of `pigs` pigs (at least one).
    fn choices(&self, pigs: usize) -> Choices {
        Choices {
            pig: (self.pick % pigs as u64) as usize,
            high: self.high,
            tap_share: self.tap_share,
            wrapper_tap_ms: self.wrapper_tap_ms,
        }
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

    /// An attempt ends when the last pig is destroyed, its birds left unshot: 1_2_1:00001 (three
    /// red birds) is passed by the optimal planner's first shot (its witness is one shot), and
    /// the attempt holds that shot alone, which replays to the same steps.
    #[test]
    fn an_attempt_stops_at_the_pass_with_birds_left() {
        let level = level("phyq:1_2_1:00001");
        assert_eq!(level.birds.len(), 3);
        let a = play(&Optimal, &level, &mut Draws::new(0, 0, 0)).unwrap();
        assert!(a.passed);
        assert_eq!(a.shots.len(), 1, "{:?}", a.shots);
        let shots: Vec<Shot> = a.shots.iter().map(|s| s.to_shot(&level)).collect();
        let o = phyq::game::play(&level, &shots).unwrap();
        assert_eq!((o.pigs_left, o.steps, o.shots), (0, a.steps, 1));
    }

    /// An attempt's draws are word 0, 1, 2 … of its (seed, stream, index) in turn, an integer
    /// in `lo..=hi` is `lo` plus a word modulo the span, and the random agent's release is
    /// (−100 + w₀ mod 9,001 / 100, −100 + w₁ mod 20,001 / 100) pixels.
    #[test]
    fn the_draws_are_the_attempts_words_in_turn() {
        let word = |n| tasks::rng::word(7, 3, 2, n);
        let mut d = Draws::new(7, 3, 2);
        assert_eq!([d.word(), d.word(), d.word()], [word(0), word(1), word(2)]);
        assert_eq!(d.int_in(-4, 9), -4 + (word(3) % 14) as i64);
        assert_eq!(d.int_in(5, 5), 5);
        let mut d = Draws::new(7, 3, 2);
        let x = -10_000 + (word(0) % 9_001) as i64;
        let y = -10_000 + (word(1) % 20_001) as i64;
        assert_eq!(random_release(&mut d), (hundredths(x), hundredths(y)));
        // Over many attempts the release covers its rectangle's four quarters.
        let mut quarters = [0; 4];
        for i in 0..200 {
            let (x, y) = random_release(&mut Draws::new(0, 0, i));
            assert!((-100.0..=-10.0).contains(&x) && (-100.0..=100.0).contains(&y));
            quarters[usize::from(x > -55.0) * 2 + usize::from(y > 0.0)] += 1;
        }
        assert!(quarters.iter().all(|&q| q > 20), "{quarters:?}");
    }

    /// The pig shooter's draws, from the attempt's words: the pig's word, the arc's parity, then
    /// the tap's share and the wrapper's tap time uniform in the bird's range (a yellow bird's
    /// 65..=89 per cent and milliseconds: `tap_choices`), a red bird's two draws of 0, and the
    /// fallback release.
    #[test]
    fn the_pig_shooters_draws_are_its_choices() {
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..400 {
            let word = |n| tasks::rng::word(1, 4, i, n);
            let yellow = PigShooterDraws::new(&mut Draws::new(1, 4, i), Some(BirdKind::Yellow));
            let mut rest = Draws::new(1, 4, i);
            rest.next = 4;
            let want = PigShooterDraws {
                pick: word(0),
                high: word(1) % 2 == 1,
                tap_share: 65 + (word(2) % 25) as i64,
                wrapper_tap_ms: 65 + (word(3) % 25) as i64,
                fallback: random_release(&mut rest),
            };
            assert_eq!(yellow, want);
            let c = yellow.choices(3);
            assert_eq!(c.pig, (word(0) % 3) as usize);
            assert_eq!(
                (c.high, c.tap_share, c.wrapper_tap_ms),
                (want.high, want.tap_share, want.wrapper_tap_ms)
            );
            seen.insert(yellow.tap_share);
            seen.insert(yellow.wrapper_tap_ms);
            let red = PigShooterDraws::new(&mut Draws::new(1, 4, i), Some(BirdKind::Red));
            assert_eq!((red.tap_share, red.wrapper_tap_ms), (0, 0));
            assert_eq!(
                (red.pick, red.high, red.fallback),
                (want.pick, want.high, want.fallback)
            );
            assert_eq!(PigShooterDraws::new(&mut Draws::new(1, 4, i), None), red);
        }
        assert_eq!(seen, (65..=89).collect(), "every tap value drawn, no other");
    }

    /// The agents by the names the command line gives them; those defined by their name add
    /// nothing to a run's fingerprint or a part file's record (a learned agent adds its
    /// weights).
    #[test]
    fn the_agents_are_known_by_their_names_alone() {
        let agents: [&dyn ShotAgent; 3] = [&Random, &PigShooter, &Optimal];
        let names: Vec<_> = agents.iter().map(|a| a.name()).collect();
        assert_eq!(names, ["random", "pig-shooter", "optimal"]);
        for a in agents {
            assert_eq!(a.fingerprint(), "", "{}", a.name());
            assert!(a.record().is_empty(), "{}", a.name());
        }
    }
}
