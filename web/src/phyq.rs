//! Phy-Q tasks in the player: a level played shot by shot (the opening, then each bird dragged
//! on the slingshot, tapped in flight, run until the world rests), the shots written as
//! `rephyre simulate ID --shots` takes them, so that a game played in the page replays on the
//! command line to the same status and final hash.

use phyq::game::{format_shots, parse_shots, play, Game, PixelShot, Shot, Status, IMMORTAL_STEPS};
use phyq::levelset::Entry;
use phyq::picture::{Framing, WIDTH};
use phyq::{catalogue, BirdKind, Kind};
use raster::Indexed;

use crate::report::{hex, Simulated};

/// A built-in Phy-Q task by id, or why there is none.
pub fn task(id: &str) -> Result<Entry, String> {
    phyq::generator::find_builtin(id).map_err(|e| e.to_string())
}

/// The Phy-Q task `id` names in `tier`: the built-in tier (`phyq`, or none given) or the
/// loaded level set ([`crate::levels::SET_TIER`]).
pub fn task_in(id: &str, tier: Option<&str>) -> Result<Entry, String> {
    match tier {
        None | Some("" | "phyq") => task(id),
        Some(crate::levels::SET_TIER) => crate::levels::loaded()?.entry(id),
        Some(t) => Err(format!(
            "unknown tier {:?} for a Phy-Q task (phyq: the built-in tasks; {}: the served level set)",
            t.chars().take(40).collect::<String>(),
            crate::levels::SET_TIER
        )),
    }
}

/// The command line's word for a status (`passed`, `not_passed`, `invalid`).
pub fn status_word(s: Status) -> &'static str {
    match s {
        Status::Passed => "passed",
        Status::NotPassed => "not_passed",
        Status::Invalid => "invalid",
    }
}

/// `rephyre simulate ID --shots TEXT` without the picture.
pub fn simulate(entry: &Entry, shots: &str) -> Result<Simulated, String> {
    let given = parse_shots(shots).map_err(|e| e.to_string())?;
    let shots: Vec<Shot> = given.iter().map(|s| s.to_shot(&entry.level)).collect();
    let o = play(&entry.level, &shots).map_err(|e| e.to_string())?;
    let mut r = Simulated::ran(status_word(o.status), o.steps, o.final_hash);
    r.pigs_left = Some(o.pigs_left);
    r.shots = Some(o.shots);
    Ok(r)
}

/// A picture (640 × 480 shrunk by `shrink`) as RGBA in the game's colours.
fn rgba(img: &Indexed, shrink: usize) -> Result<Vec<u8>, String> {
    let img = if shrink > 1 {
        raster::canvas::shrink(img, shrink)
    } else {
        img.clone()
    };
    raster::canvas::rgba(&img, &phyq::colours::palette()).map_err(|e| e.to_string())
}

/// The level's initial picture, shrunk by `shrink` (1: the 640 × 480 of `rephyre render`).
pub fn level_rgba(entry: &Entry, shrink: usize) -> Result<Vec<u8>, String> {
    rgba(&phyq::picture::render_level(&entry.level), shrink)
}

/// The built-in witness of a task (phyq/data/witnesses.csv): shots that pass it.
pub fn solution(entry: &Entry) -> Option<String> {
    let id = entry.id.to_string();
    phyq::witnesses::builtin()
        .iter()
        .find(|r| r.task_id == id && r.found)
        .map(|r| r.shots.clone())
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The level's first seconds, before any shot (objects settle, nothing can be damaged).
    Opening,
    /// A bird waits on the slingshot.
    Aiming,
    /// A shot runs.
    Flying,
    /// Every pig is destroyed, or the last bird's shot has ended.
    Over,
}

/// A level in play.
pub struct Play {
    entry: Entry,
    framing: Framing,
    game: Game,
    shots: Vec<PixelShot>,
    phase: Phase,
}

/// What the player shows of a game ([`Play::state`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayState {
    pub phase: Phase,
    pub step: u32,
    pub pigs_left: u32,
    pub birds_left: usize,
    /// Science Birds' score so far (`phyq::game::Game::score`).
    pub score: u32,
    /// The bird on the slingshot (`red`, `blue`, …), when one waits.
    pub next_bird: Option<String>,
    /// Whether the bird in flight can still be tapped.
    pub can_tap: bool,
    /// The shots so far, as `--shots` takes them.
    pub shots: String,
    /// When the game is over: its status.
    pub status: Option<&'static str>,
    /// The state hash now: once the last shot has ended, what `simulate --shots` with
    /// [`PlayState::shots`] prints as its final hash.
    pub hash: String,
}

impl Play {
    /// A new game of `entry`, before its opening.
    pub fn new(entry: Entry) -> Result<Play, String> {
        let game = Game::new(&entry.level).map_err(|e| e.to_string())?;
        Ok(Play {
            framing: Framing::of_level(&entry.level),
            entry,
            game,
            shots: Vec::new(),
            phase: Phase::Opening,
        })
    }

    /// One step of the opening or of the shot in flight; false, doing nothing, when nothing
    /// runs (a bird waits, or the game is over).
    pub fn step(&mut self) -> bool {
        match self.phase {
            Phase::Opening => {
                self.game.step_idle();
                if self.game.steps() >= IMMORTAL_STEPS {
                    self.phase = self.after_shot();
                }
                true
            }
            Phase::Flying => {
                if self.game.step_shot() {
                    if !self.game.shot_running() {
                        self.phase = self.after_shot();
                    }
                    true
                } else {
                    self.phase = self.after_shot();
                    false
                }
            }
            Phase::Aiming | Phase::Over => false,
        }
    }

    /// What comes when nothing runs: the next bird, or the end.
    fn after_shot(&self) -> Phase {
        if self.game.pigs_left() == 0 || self.game.birds_left() == 0 {
            Phase::Over
        } else {
            Phase::Aiming
        }
    }

    /// Runs the opening to its end (a game that starts at the first shot).
    pub fn skip_opening(&mut self) {
        while self.phase == Phase::Opening {
            self.step();
        }
    }

    /// Launches the waiting bird, released at (`x`, `y`) pixels from its rest point (y up),
    /// tapped `tap` seconds after the launch (0: no tap, or tap live with [`Play::tap`]). The
    /// numbers are checked as `--shots` checks them.
    pub fn launch(&mut self, x: f64, y: f64, tap: f64) -> Result<(), String> {
        if self.phase != Phase::Aiming {
            return Err(match self.phase {
                Phase::Opening => "the level is still opening".to_string(),
                Phase::Flying => "a shot is still running".to_string(),
                _ => "the game is over".to_string(),
            });
        }
        let shot = parse_shots(&PixelShot { x, y, tap }.to_string()).map_err(|e| e.to_string())?;
        let [shot] = shot[..] else {
            unreachable!("one shot written, one read")
        };
        self.game
            .launch(&shot.to_shot(&self.entry.level))
            .map_err(|e| e.to_string())?;
        self.shots.push(shot);
        self.phase = Phase::Flying;
        Ok(())
    }

    /// Uses the flying bird's power now; returns the tap time written into its shot, or
    /// `None` when there is nothing to tap.
    pub fn tap(&mut self) -> Option<f64> {
        if self.phase != Phase::Flying {
            return None;
        }
        let seconds = self.game.tap_now()?;
        let last = self.shots.last_mut()?;
        let release = last.to_shot(&self.entry.level).release;
        let written = PixelShot::nearest(
            &Shot {
                release,
                tap: Some(seconds),
            },
            &self.entry.level,
        );
        last.tap = written.tap;
        Some(last.tap)
    }

    /// The current picture (RGBA, 640 × 480).
    pub fn picture(&self) -> Result<Vec<u8>, String> {
        rgba(
            &phyq::picture::render(&self.game.scene(&self.entry.level), &self.framing),
            1,
        )
    }

    /// The bird's rest point on the slingshot, in picture pixels (x right, y down).
    pub fn rest_point(&self) -> (f64, f64) {
        let (x, y) = self.framing.units(self.game.rest_point());
        let unit = (raster::canvas::ONE) as f64;
        (x as f64 / unit, y as f64 / unit)
    }

    /// How far the waiting bird can be dragged, in picture pixels (0 when none waits).
    pub fn drag_radius(&self) -> f64 {
        let Some(bird) = self.game.next_bird() else {
            return 0.0;
        };
        let Some(r) = catalogue().entry(Kind::Bird(bird)).extra.get("drag_radius") else {
            return 0.0;
        };
        let per_pixel = self.framing.width.div_int(WIDTH as i64);
        (r.value() / per_pixel).to_f64()
    }

    /// What the player shows.
    pub fn state(&self) -> PlayState {
        let over = self.phase == Phase::Over;
        let status = if self.game.pigs_left() == 0 {
            Status::Passed
        } else {
            Status::NotPassed
        };
        PlayState {
            phase: self.phase,
            step: self.game.steps(),
            pigs_left: self.game.pigs_left(),
            birds_left: self.game.birds_left(),
            score: self.game.score(),
            next_bird: (self.phase == Phase::Aiming)
                .then(|| self.game.next_bird().map(bird_word))
                .flatten(),
            can_tap: self.phase == Phase::Flying && self.game.can_tap(),
            shots: format_shots(&self.shots),
            status: over.then_some(status_word(status)),
            hash: hex(self.game.state_hash()),
        }
    }

    /// The id of the game's task.
    pub fn task_id(&self) -> String {
        self.entry.id.to_string()
    }
}

/// `red` for the red bird, and so on.
pub fn bird_word(bird: BirdKind) -> String {
    let name = bird.name();
    name.strip_prefix("Bird")
        .unwrap_or(name)
        .to_ascii_lowercase()
}
