//! One connection's game: the requests of one agent answered in order, as the original server
//! answers them, on a game of its own.
//!
//! A session starts as the Phy-Q game starts a trial: `NEWTRIAL`, then after the agent's
//! `ReadyForNewSet` `NEWTRAININGSET`, then after another the main menu (every `ReadyForNewSet`
//! after the first goes back to the main menu, as the game's does, leaving any level in play).
//! Loading a level plays its opening (the 2 s in which nothing takes damage) and puts it in
//! play; each shot runs until the world is at rest (or every pig is destroyed) before its reply,
//! fast shots too (the game runs as fast as the processor goes, so waiting costs nothing); the
//! level is won when every pig is destroyed and lost when the birds are gone. A request that
//! cannot be answered as asked (a shot with no level in play or after it ended, a level number
//! out of range) gets the original's failure reply and a line for the log.

use crate::shots::{shot_of, ShotInput};
use crate::truth::{ground_truth, screenshot, Labels, Noise};
use crate::wire::{Aim, Reply, Request, ShotArgs};
use phyq::game::Game;
use phyq::levelset::Entry;
use phyq::picture::{Framing, HEIGHT, WIDTH};
use std::sync::Arc;
use std::time::Instant;

/// The game states of the protocol (`GameState` of the original client).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum GameState {
    Unknown = 0,
    MainMenu = 1,
    EpisodeMenu = 2,
    LevelSelection = 3,
    Loading = 4,
    Playing = 5,
    Won = 6,
    Lost = 7,
    NewTestSet = 8,
    NewTrainingSet = 9,
    ResumeTraining = 10,
    NewTrial = 11,
    RequestNoveltyLikelihood = 12,
    EvaluationTerminated = 13,
}

/// What every session shares: the levels and the server's settings.
#[derive(Debug)]
pub struct Shared {
    pub levels: Vec<Entry>,
    /// The noisy ground truth's seed.
    pub seed: u64,
    pub labels: Labels,
}

/// A level attempt that ended (won or lost): a row of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    pub agent_id: u32,
    /// 1-based, as the protocol numbers levels.
    pub level_number: u32,
    pub task_id: String,
    pub passed: bool,
    pub shots: u32,
    pub pigs_left: u32,
    pub birds_used: u32,
    pub score: u32,
    pub final_hash: u64,
    /// Wall-clock seconds from the level's load to its end (milliseconds' precision).
    pub millis: u64,
}

/// A session's answer to one request.
#[derive(Debug, Default)]
pub struct Answer {
    pub reply: Vec<u8>,
    /// The attempt this request ended, if any.
    pub finished: Option<Finished>,
    /// A line for the server's log (a request refused, a novelty report).
    pub note: Option<String>,
}

impl Answer {
    fn reply(reply: Reply) -> Answer {
        Answer {
            reply: reply.0,
            ..Answer::default()
        }
    }
    fn refused(reply: Reply, note: String) -> Answer {
        Answer {
            reply: reply.0,
            finished: None,
            note: Some(note),
        }
    }
}

/// The level in play.
struct Attempt {
    /// Index into the level list.
    index: usize,
    game: Game,
    framing: Framing,
    shots: u32,
    started: Instant,
}

/// One agent's game.
pub struct Session {
    shared: Arc<Shared>,
    agent_id: u32,
    state: GameState,
    attempt: Option<Attempt>,
    /// The level loaded last (1-based; 0 before any).
    current: u32,
    /// Each level's best score so far.
    best: Vec<u32>,
    /// Noisy ground truths given so far (the noise's draw number).
    noisy_draws: u64,
}

/// The reply byte of a request done, and of one refused.
const OK: u8 = 1;
const REFUSED: u8 = 0;

impl Session {
    pub fn new(shared: Arc<Shared>) -> Session {
        let n = shared.levels.len();
        Session {
            shared,
            agent_id: 0,
            state: GameState::NewTrial,
            attempt: None,
            current: 0,
            best: vec![0; n],
            noisy_draws: 0,
        }
    }

    pub fn state(&self) -> GameState {
        self.state
    }

    /// The number of levels (what `GetNoOfLevels` says).
    fn level_count(&self) -> u32 {
        u32::try_from(self.shared.levels.len()).unwrap_or(u32::MAX)
    }

    /// Answers one request.
    pub fn handle(&mut self, request: Request) -> Answer {
        match request {
            Request::Configure { agent_id, mode } => {
                self.agent_id = agent_id;
                // Training (mode 1, the Phy-Q framework's): 0, 0, 0 as the original answers.
                // Competition: round 1, no time limit, the number of levels (one byte).
                let reply = if mode == 1 {
                    Reply::new().u8(0).u8(0).u8(0)
                } else {
                    let levels = u8::try_from(self.level_count()).unwrap_or(u8::MAX);
                    Reply::new().u8(1).u8(0).u8(levels)
                };
                Answer::reply(reply)
            }
            Request::SetSimulationSpeed(_)
            | Request::FullyZoomOut
            | Request::FullyZoomIn
            | Request::ClickInCentre => Answer::reply(Reply::new().u8(OK)),
            Request::Screenshot => Answer::reply(self.screenshot_reply(Reply::new())),
            Request::GetState => Answer::reply(Reply::new().u8(self.state as u8)),
            Request::GetCurrentLevel => Answer::reply(Reply::new().u32(self.current)),
            Request::GetNumberOfLevels => Answer::reply(Reply::new().u32(self.level_count())),
            Request::GetAllLevelScores => {
                let mut r = Reply::new().u32(self.level_count());
                for &s in &self.best {
                    r = r.u32(s);
                }
                Answer::reply(r)
            }
            Request::GetCurrentLevelScore => {
                let score = self.attempt.as_ref().map_or(0, |a| a.game.score());
                Answer::reply(Reply::new().u32(score))
            }
            Request::Shoot { aim, shot, .. } => self.shoot(aim, shot, None),
            Request::ShootRecordingGroundTruth { shot, every } => {
                self.shoot(Aim::Cartesian, shot, Some(every))
            }
            Request::ShootSequence { shots, .. } => {
                let mut reply = Reply::new();
                let mut finished = None;
                let mut note = None;
                for (aim, s) in shots {
                    let a = self.shoot(aim, s, None);
                    reply = reply.bytes(&a.reply);
                    finished = finished.or(a.finished);
                    note = note.or(a.note);
                }
                Answer {
                    reply: reply.0,
                    finished,
                    note,
                }
            }
            Request::LoadLevel(n) => self.load(n),
            Request::RestartLevel => {
                if self.current == 0 {
                    Answer::refused(
                        Reply::new().u8(REFUSED),
                        "restart with no level loaded".into(),
                    )
                } else {
                    self.load(self.current)
                }
            }
            Request::LoadNextAvailableLevel => {
                let next = if self.current >= self.level_count() {
                    1
                } else {
                    self.current + 1
                };
                let a = self.load(next);
                Answer {
                    reply: Reply::new().u32(next).0,
                    ..a
                }
            }
            Request::GroundTruth { noisy, screenshot } => {
                let noise = noisy.then(|| {
                    self.noisy_draws += 1;
                    Noise {
                        seed: self.noise_seed(),
                        draw: self.noisy_draws,
                    }
                });
                let r = Reply::new().block(&self.ground_truth_bytes(noise));
                let r = if screenshot {
                    self.screenshot_reply(r)
                } else {
                    r
                };
                Answer::reply(r)
            }
            Request::ReportNoveltyLikelihood(report) => Answer {
                reply: Reply::new().u8(OK).0,
                finished: None,
                note: Some(format!("agent {}: {report}", self.agent_id)),
            },
            Request::ReportNoveltyDescription(text) => Answer {
                reply: Reply::new().u8(OK).0,
                finished: None,
                note: Some(format!(
                    "agent {}: novelty description {:?}",
                    self.agent_id,
                    String::from_utf8_lossy(&text)
                )),
            },
            Request::ReadyForNewSet => {
                self.state = match self.state {
                    GameState::NewTrial => GameState::NewTrainingSet,
                    _ => GameState::MainMenu,
                };
                self.attempt = None;
                // No time or interaction limit, the levels, unlimited attempts, training, a set
                // (levels in any order), no novelty information.
                Answer::reply(
                    Reply::new()
                        .u32(0)
                        .u32(0)
                        .u32(self.level_count())
                        .u32(0)
                        .u8(0)
                        .u8(0)
                        .u8(0),
                )
            }
            // −1: the trial does not tell of novelty (Phy-Q's levels have none).
            Request::NoveltyInfo => Answer::reply(Reply::new().i32(-1)),
        }
    }

    /// Each agent's noise differs, and is the same on every run with the same seed.
    fn noise_seed(&self) -> u64 {
        engine::chain_hash(
            engine::mix64(self.shared.seed),
            engine::mix64(u64::from(self.agent_id)),
        )
    }

    fn load(&mut self, number: u32) -> Answer {
        if number == 0 || number > self.level_count() {
            return Answer::refused(
                Reply::new().u8(REFUSED),
                format!(
                    "agent {}: load level {number}: out of range 1..={}",
                    self.agent_id,
                    self.level_count()
                ),
            );
        }
        let index = number as usize - 1;
        let entry = &self.shared.levels[index];
        let mut game = match Game::new(&entry.level) {
            Ok(g) => g,
            Err(e) => {
                return Answer::refused(
                    Reply::new().u8(REFUSED),
                    format!(
                        "agent {}: level {number} ({}): {e}",
                        self.agent_id, entry.id
                    ),
                )
            }
        };
        game.settle();
        self.attempt = Some(Attempt {
            index,
            framing: Framing::of_level(&entry.level),
            game,
            shots: 0,
            started: Instant::now(),
        });
        self.current = number;
        self.state = GameState::Playing;
        Answer::reply(Reply::new().u8(OK))
    }

    fn shoot(&mut self, aim: Aim, args: ShotArgs, record_every: Option<i32>) -> Answer {
        let refuse = |why: &str, me: &Session| {
            let reply = match record_every {
                Some(_) => Reply::new().u32(0),
                None => Reply::new().u8(REFUSED),
            };
            Answer::refused(reply, format!("agent {}: shot refused: {why}", me.agent_id))
        };
        if self.state != GameState::Playing {
            return refuse(
                match self.state {
                    GameState::Won | GameState::Lost => "the level has ended",
                    _ => "no level in play",
                },
                self,
            );
        }
        if let Some(every) = record_every {
            if every < 1 {
                return refuse("ground truth every N frames needs N ≥ 1", self);
            }
        }
        let attempt = self
            .attempt
            .as_mut()
            .expect("a level in play has an attempt");
        let level = &self.shared.levels[attempt.index].level;
        let input = ShotInput { aim, args };
        let shot = match shot_of(&input, &attempt.game, &attempt.framing) {
            Ok(s) => s,
            Err(why) => return refuse(&why, self),
        };
        let mut frames: Vec<Vec<u8>> = Vec::new();
        let result = match record_every {
            None => attempt.game.shoot(&shot),
            Some(every) => {
                let every = every as u32;
                let labels = self.shared.labels;
                let mut n = 0u32;
                attempt.game.shoot_observed(&shot, &mut |g| {
                    n += 1;
                    if n.is_multiple_of(every) {
                        let scene = g.scene(level);
                        let json = ground_truth(&scene, &attempt.framing, labels, None);
                        frames.push(json.into_bytes());
                    }
                })
            }
        };
        if let Err(e) = result {
            return refuse(&e.to_string(), self);
        }
        attempt.shots += 1;
        let game = &attempt.game;
        let ended = if game.pigs_left() == 0 {
            Some(GameState::Won)
        } else if game.birds_left() == 0 {
            Some(GameState::Lost)
        } else {
            None
        };
        let mut finished = None;
        if let Some(state) = ended {
            self.state = state;
            let entry = &self.shared.levels[attempt.index];
            let score = game.score();
            let best = &mut self.best[attempt.index];
            *best = (*best).max(score);
            let used = entry.level.birds.len() - game.birds_left();
            finished = Some(Finished {
                agent_id: self.agent_id,
                level_number: self.current,
                task_id: entry.id.to_string(),
                passed: state == GameState::Won,
                shots: attempt.shots,
                pigs_left: game.pigs_left(),
                birds_used: used as u32,
                score,
                final_hash: game.state_hash(),
                millis: attempt.started.elapsed().as_millis() as u64,
            });
        }
        let reply = match record_every {
            None => Reply::new().u8(OK),
            Some(_) => {
                let mut r = Reply::new().u32(frames.len() as u32);
                for f in &frames {
                    r = r.block(&with_trailer(f));
                }
                r
            }
        };
        Answer {
            reply: reply.0,
            finished,
            note: None,
        }
    }

    /// The scene now: the level in play, or an empty picture before any.
    fn ground_truth_bytes(&self, noise: Option<Noise>) -> Vec<u8> {
        let json = match &self.attempt {
            Some(a) => {
                let level = &self.shared.levels[a.index].level;
                ground_truth(&a.game.scene(level), &a.framing, self.shared.labels, noise)
            }
            None => "[{\"type\": \"FeatureCollection\", \"features\": []}]".to_string(),
        };
        with_trailer(json.as_bytes())
    }

    fn screenshot_reply(&self, r: Reply) -> Reply {
        let r = r.u32(WIDTH as u32).u32(HEIGHT as u32);
        match &self.attempt {
            Some(a) => {
                let level = &self.shared.levels[a.index].level;
                r.bytes(&screenshot(&a.game.scene(level), &a.framing))
            }
            None => r.bytes(&vec![0; WIDTH * HEIGHT * 3]),
        }
    }
}

/// The ground truth's bytes as sent: the JSON, then the five bytes the client cuts off.
fn with_trailer(json: &[u8]) -> Vec<u8> {
    let mut v = json.to_vec();
    v.extend_from_slice(crate::truth::TRAILER);
    v
}
