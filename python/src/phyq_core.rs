//! Phy-Q for the Python package, without Python: task lookup (the built-in `phyq` tier and
//! level-set files), shots checked by the command line's rules, a level played as
//! `rephyre simulate ID --shots …` plays it, and a [`Session`] that keeps a game between shots
//! (the Gymnasium environment's one step per bird). The bindings (`phyq_bindings`) only convert.
//!
//! Floats appear only at the boundary: shots arrive as f64 and go through
//! [`phyq::game::parse_shots`] (the CLI's checks) and [`PixelShot::to_shot`] (one conversion to
//! Q32.32); the game itself is the `phyq` crate's, integer arithmetic throughout.

use std::path::Path;
use std::sync::Arc;

use phyq::game::{format_shots, parse_shots, Game, Outcome, PixelShot, ShotError, Status};
use phyq::generator::FindError;
use phyq::levelset::Entry;
use phyq::picture::{render, render_level, Framing, HEIGHT, WIDTH};
use phyq::templates::Template;
use phyq::LevelSet;

/// Bytes of one picture (480 rows of 640 colour codes, row 0 at the top).
pub const PICTURE_BYTES: usize = WIDTH * HEIGHT;

/// The template named by a code (`1_1_4`) or paper number (`1.1`), with the CLI's message.
pub fn template(name: &str) -> Result<&'static Template, String> {
    phyq::templates::find(name).ok_or_else(|| {
        format!(
            "no Phy-Q template {:?} (use a code such as 1_1_4 or a paper number such as 1.1)",
            name.chars().take(40).collect::<String>()
        )
    })
}

/// Ids of the built-in `phyq` tier (`phyq:L_C_K:NNNNN`), in the order `rephyre tasks list
/// --tier phyq` prints them; only `template`'s when one is named.
pub fn task_ids(template_name: Option<&str>) -> Result<Vec<String>, String> {
    let only = template_name.map(template).transpose()?;
    Ok(phyq::generator::builtin_tasks()
        .entries()
        .iter()
        .filter(|e| match (only, phyq::generator::template_of(&e.id)) {
            (None, _) => true,
            (Some(o), Some(t)) => o.code == t.code,
            (Some(_), None) => false,
        })
        .map(|e| e.id.to_string())
        .collect())
}

/// The built-in task with this id, or the CLI's one-line error.
pub fn builtin(id: &str) -> Result<Arc<Entry>, String> {
    phyq::generator::find_builtin(id)
        .map(Arc::new)
        .map_err(|e| match e {
            FindError::Unknown(_) => format!("{e}: rephyre.phyq.task_ids()"),
            FindError::Malformed(_) => e.to_string(),
        })
}

/// The levels of a level-set file (`rephyre tasks import-levels … --out FILE`), sorted by id.
pub fn load(path: &Path) -> Result<Vec<Arc<Entry>>, String> {
    let set = LevelSet::read(path).map_err(|e| e.to_string())?;
    Ok(set.entries().iter().cloned().map(Arc::new).collect())
}

/// Shots given as rows of numbers, refused or accepted exactly as `--shots` refuses or accepts
/// their text: each row is written in Rust's shortest round-trip form, which parses back to the
/// same f64, and read by [`parse_shots`] (so a NaN, an offset or tap out of range, too many
/// shots or none give the command line's words).
pub fn shots_from_rows(rows: &[Vec<f64>]) -> Result<Vec<PixelShot>, ShotError> {
    if let Some((index, row)) = rows.iter().enumerate().find(|(_, r)| r.len() != 3) {
        return Err(ShotError::Arity {
            index,
            got: row.len(),
        });
    }
    let shots: Vec<PixelShot> = rows
        .iter()
        .map(|r| PixelShot {
            x: r[0],
            y: r[1],
            tap: r[2],
        })
        .collect();
    parse_shots(&format_shots(&shots))
}

/// `"passed"`, `"not_passed"` or `"invalid"`, as `simulate --json` writes the status.
pub fn status_name(s: Status) -> &'static str {
    match s {
        Status::Passed => "passed",
        Status::NotPassed => "not_passed",
        Status::Invalid => "invalid",
    }
}

/// The final hash as `simulate --json` writes it: 16 hex digits.
pub fn hash_hex(h: u64) -> String {
    format!("{h:016x}")
}

/// A game's picture now: 480 × 640 colour codes, row 0 at the top.
pub fn picture(game: &Game, entry: &Entry) -> Vec<u8> {
    let level = &entry.level;
    render(&game.scene(level), &Framing::of_level(level)).pixels
}

/// A game's symbolic representation now (JSON text, `tasks show --json`'s format).
pub fn symbolic(game: &Game, entry: &Entry) -> String {
    let level = &entry.level;
    let sym = phyq::symbolic::symbolic(
        &game.scene(level),
        &Framing::of_level(level),
        Some(entry.id.to_string()),
    );
    phyq::symbolic::to_json(&sym)
}

/// The level as written, before any step: `rephyre render ID`'s picture and `rephyre tasks show
/// ID --json`'s text.
pub fn observe(entry: &Entry) -> (Vec<u8>, String) {
    let sym = phyq::symbolic::of_level(&entry.level, Some(entry.id.to_string()));
    (
        render_level(&entry.level).pixels,
        phyq::symbolic::to_json(&sym),
    )
}

/// `shots` played on the task as `rephyre simulate ID --shots …` plays them: the outcome and
/// the game as it ended.
pub fn simulate(entry: &Entry, shots: &[PixelShot]) -> Result<(Outcome, Game), String> {
    let level = &entry.level;
    let shots: Vec<_> = shots.iter().map(|s| s.to_shot(level)).collect();
    phyq::game::play_observed(level, &shots, &mut |_| {}).map_err(|e| e.to_string())
}

/// A task in play, one bird at a time: after [`Session::new`] the level's opening has run, as
/// before the first shot of [`phyq::game::play`]; each [`Session::shoot`] is one shot of it, so
/// the same shots give the same state (and hash) as [`simulate`] whenever the level has a bird
/// for each.
#[derive(Clone)]
pub struct Session {
    entry: Arc<Entry>,
    game: Game,
    shots: u32,
}

/// Where a [`Session`] stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionStatus {
    /// Pigs and birds left.
    Playing,
    /// Every pig destroyed.
    Passed,
    /// Pigs left and no bird.
    NotPassed,
}

impl SessionStatus {
    /// `"playing"`, `"passed"` or `"not_passed"`.
    pub fn name(self) -> &'static str {
        match self {
            SessionStatus::Playing => "playing",
            SessionStatus::Passed => "passed",
            SessionStatus::NotPassed => "not_passed",
        }
    }
}

impl Session {
    /// The task's game after its opening (the 2 s of immortal time).
    pub fn new(entry: Arc<Entry>) -> Result<Session, String> {
        let mut game = Game::new(&entry.level).map_err(|e| e.to_string())?;
        game.settle();
        Ok(Session {
            entry,
            game,
            shots: 0,
        })
    }

    /// The task.
    pub fn entry(&self) -> &Entry {
        &self.entry
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Shots taken.
    pub fn shots(&self) -> u32 {
        self.shots
    }

    /// Passed, not passed, or still in play.
    pub fn status(&self) -> SessionStatus {
        if self.game.pigs_left() == 0 {
            SessionStatus::Passed
        } else if self.game.birds_left() == 0 {
            SessionStatus::NotPassed
        } else {
            SessionStatus::Playing
        }
    }

    /// Checks one shot (`x`, `y`, `tap` as one `--shots` entry; errors name it by its bird,
    /// counted from 0) and whether the game can take it.
    pub fn check(&self, x: f64, y: f64, tap: f64) -> Result<PixelShot, String> {
        let number = self.shots;
        let shot = shots_from_rows(&[vec![x, y, tap]]).map_err(|e| {
            let text = e.to_string();
            match text.strip_prefix("shot 0: ") {
                Some(rest) => format!("shot {number}: {rest}"),
                None => text,
            }
        })?;
        match self.status() {
            SessionStatus::Playing => Ok(shot[0]),
            SessionStatus::Passed => Err(format!(
                "{} is passed: every pig is destroyed, no shot is left to take",
                self.entry.id
            )),
            SessionStatus::NotPassed => Err(format!(
                "{} has no bird left (it has {})",
                self.entry.id,
                self.entry.level.birds.len()
            )),
        }
    }

    /// Shoots the next bird and runs the world until it is at rest, every pig is destroyed or
    /// 60 s have passed (a shot [`Session::check`] accepted).
    pub fn shoot(&mut self, shot: PixelShot) -> Result<(), String> {
        let played = self
            .game
            .shoot(&shot.to_shot(&self.entry.level))
            .map_err(|e| e.to_string())?;
        if !played {
            return Err(format!("{} has no bird left", self.entry.id));
        }
        self.shots += 1;
        Ok(())
    }

    /// The picture now (480 × 640 colour codes, row 0 at the top).
    pub fn picture(&self) -> Vec<u8> {
        picture(&self.game, &self.entry)
    }

    /// The symbolic representation now (JSON text).
    pub fn symbolic(&self) -> String {
        symbolic(&self.game, &self.entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn witness(id: &str) -> (Arc<Entry>, Vec<PixelShot>) {
        let row = phyq::witnesses::builtin()
            .iter()
            .find(|r| r.task_id == id)
            .expect("a witness row");
        (builtin(id).unwrap(), parse_shots(&row.shots).unwrap())
    }

    #[test]
    fn ids_are_the_tiers() {
        let all = task_ids(None).unwrap();
        assert_eq!(all.len(), 7500);
        assert_eq!(all[0], "phyq:1_1_1:00001");
        let one = task_ids(Some("1.1")).unwrap();
        assert_eq!(one.len(), 100);
        assert!(one.iter().all(|id| id.starts_with("phyq:1_1_4:")));
        assert!(task_ids(Some("9_9_9"))
            .unwrap_err()
            .contains("no Phy-Q template"));
        assert!(builtin("phyq:1_1_4:00101")
            .unwrap_err()
            .contains("unknown Phy-Q task"));
        assert!(builtin("1_1_4").is_err());
    }

    #[test]
    fn rows_are_refused_as_text_is() {
        let err = |rows: &[Vec<f64>]| shots_from_rows(rows).unwrap_err().to_string();
        assert_eq!(
            err(&[vec![1.0, 2.0]]),
            "shot 0: expected 3 numbers x,y,tap, got 2"
        );
        assert_eq!(
            err(&[vec![1.0, 2.0, 0.0], vec![]]),
            "shot 1: expected 3 numbers x,y,tap, got 0"
        );
        assert_eq!(
            err(&[vec![-60.0, f64::NAN, 0.0]]),
            "shot 0: y is NaN (must be a finite number)"
        );
        assert!(err(&[vec![0.0, f64::INFINITY, 0.0]]).contains("must be a finite number"));
        assert!(err(&[vec![0.0, 0.0, -1.0]]).contains("before the launch"));
        assert!(err(&[vec![0.0, 0.0, 61.0]]).contains("out of range"));
        assert!(err(&[]).starts_with("empty shot list"));
        let ok = shots_from_rows(&[vec![-17.28, -5.98, 0.1 + 0.2]]).unwrap();
        assert_eq!(ok[0].tap, 0.1 + 0.2);
    }

    #[test]
    fn a_session_replays_simulate() {
        // The witness's shots, one by one: the session's state after each is the play's.
        let (entry, shots) = witness("phyq:1_2_4:00001");
        let (outcome, _) = simulate(&entry, &shots).unwrap();
        assert_eq!(outcome.status, Status::Passed);
        let mut s = Session::new(entry.clone()).unwrap();
        assert_eq!(s.status(), SessionStatus::Playing);
        for shot in &shots {
            let checked = s.check(shot.x, shot.y, shot.tap).unwrap();
            s.shoot(checked).unwrap();
        }
        assert_eq!(s.status(), SessionStatus::Passed);
        assert_eq!(s.game().state_hash(), outcome.final_hash);
        assert_eq!(s.game().steps(), outcome.steps);
        assert!(s.check(-10.0, -5.0, 0.0).unwrap_err().contains("is passed"));
        assert_eq!(s.picture().len(), PICTURE_BYTES);
        // More shots than birds: invalid, nothing played.
        let too_many = vec![shots[0]; entry.level.birds.len() + 1];
        let (invalid, _) = simulate(&entry, &too_many).unwrap();
        assert_eq!((invalid.status, invalid.steps), (Status::Invalid, 0));
    }
}
