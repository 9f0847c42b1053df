//! The Phy-Q part of the audit: built-in levels played bird after bird with shots drawn from
//! [`AUDIT_SEED`](crate::AUDIT_SEED), each step's game state hash chained as in the PHYRE runs.
//!
//! Everything that decides a shot is integer arithmetic on the counter-based words of
//! `tasks::rng` (no floats), so the shots are the same bits on every platform and a difference
//! in a record is the game's (or the generator's, which builds the levels).

use crate::{AuditPlan, AUDIT_SEED};
use engine::{chain_hash, sin_cos, Fixed, Vec2};
use phyq::game::{Game, Shot};
use phyq::generator::{builtin_task, task_id, TASKS_PER_TEMPLATE};
use phyq::number::radians;
use phyq::LevelId;
use std::fmt;
use std::fmt::Write as _;

/// Release directions (the launch direction, counter-clockwise from +x), in millidegrees: the
/// range of the soundness search's candidates.
pub const ANGLE_MILLIDEG: (i64, i64) = (-20_000, 85_000);
/// Drag length as a share of the bird's drag radius, in per-mille.
pub const POWER_PERMILLE: (i64, i64) = (500, 1_000);
/// Tap times after the launch, in milliseconds (birds with a power; half of their shots have
/// no tap).
pub const TAP_MS: (i64, i64) = (500, 2_500);

/// One audited Phy-Q level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhyqRecord {
    pub task_id: String,
    /// Every pig destroyed.
    pub passed: bool,
    pub pigs_left: u32,
    /// The step count (since the level's start) at the end of each shot; as many as shots.
    pub shot_ends: Vec<u32>,
    /// Steps in all, the 2 s opening included.
    pub steps: u32,
    pub final_hash: u64,
    /// Low 32 bits of the hash chain after every `checkpoint_stride` steps.
    pub checkpoints: Vec<u32>,
}

/// Why a Phy-Q run could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhyqAuditError {
    /// The id names no built-in task.
    NoSuchTask(String),
    /// The game refused the level or a shot.
    Play { task: String, reason: String },
}

impl fmt::Display for PhyqAuditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhyqAuditError::NoSuchTask(id) => write!(f, "{id} is not a built-in Phy-Q task"),
            PhyqAuditError::Play { task, reason } => write!(f, "{task}: cannot play: {reason}"),
        }
    }
}

impl std::error::Error for PhyqAuditError {}

/// The Phy-Q tasks `plan` covers: of every template (in the templates' order), tasks 1,
/// 1 + stride, 1 + 2·stride, … of the built-in tier; none when the stride is 0.
pub fn phyq_tasks(plan: AuditPlan) -> Vec<LevelId> {
    let stride = plan.phyq_task_stride;
    if stride == 0 {
        return Vec::new();
    }
    phyq::templates::templates()
        .iter()
        .flat_map(|t| {
            (1..=TASKS_PER_TEMPLATE)
                .step_by(stride as usize)
                .map(move |i| task_id(t, i))
        })
        .collect()
}

/// A uniform integer in `lo..=hi` from one random word (the high part of word × span, so
/// every value is reached and no float is involved).
fn pick(word: u64, (lo, hi): (i64, i64)) -> i64 {
    let span = (hi - lo + 1) as u128;
    lo + ((u128::from(word) * span) >> 64) as i64
}

/// The shot for bird `bird` (0 = the first) of `task`, given the bird's drag radius and
/// whether it has a power: draws 0–3 of item `bird` of the task's stream are the angle, the
/// power, tap-or-not and the tap time.
pub fn phyq_shot(task: &str, bird: u64, drag_radius: Fixed, has_power: bool) -> Shot {
    let stream = tasks::rng::stream_of(task);
    let word = |draw| tasks::rng::word(AUDIT_SEED, stream, bird, draw);
    let degrees = Fixed::ratio(pick(word(0), ANGLE_MILLIDEG), 1_000);
    let power = Fixed::ratio(pick(word(1), POWER_PERMILLE), 1_000);
    let (s, c) = sin_cos(radians(degrees));
    // Released opposite to the launch direction.
    let release = Vec2::new(-c, -s).scale(drag_radius * power);
    let tap = (has_power && word(2) >> 63 == 1).then(|| Fixed::ratio(pick(word(3), TAP_MS), 1_000));
    Shot { release, tap }
}

/// Plays one built-in task as the audit does: the opening, then a drawn shot per bird until
/// every pig is destroyed or no bird is left; `observe(game, shot)` after every step (shot 0:
/// the opening). Returns the game as it ended and the step each shot ended at.
fn play_drawn(
    id: &LevelId,
    observe: &mut dyn FnMut(&Game, u64),
) -> Result<(Game, Vec<u32>), PhyqAuditError> {
    let name = id.to_string();
    let entry = builtin_task(id).ok_or_else(|| PhyqAuditError::NoSuchTask(name.clone()))?;
    let play_error = |e: phyq::game::PlayError| PhyqAuditError::Play {
        task: name.clone(),
        reason: e.to_string(),
    };
    let mut game = Game::new(&entry.level).map_err(play_error)?;
    game.settle_observed(&mut |g| observe(g, 0));
    let mut shot_ends = Vec::new();
    while game.pigs_left() > 0 {
        let Some(reach) = game.next_reach() else {
            break;
        };
        let index = shot_ends.len() as u64;
        let shot = phyq_shot(&name, index, reach.drag_radius, reach.has_power);
        game.shoot_observed(&shot, &mut |g| observe(g, index + 1))
            .map_err(play_error)?;
        shot_ends.push(game.steps());
    }
    Ok((game, shot_ends))
}

/// One built-in task played as the audit does, chaining the game's state hash after every step.
pub fn audit_phyq_task(id: &LevelId, stride: u32) -> Result<PhyqRecord, PhyqAuditError> {
    let stride = stride.max(1);
    let mut chain = 0u64;
    let mut checkpoints = Vec::new();
    let (game, shot_ends) = play_drawn(id, &mut |g, _| {
        chain = chain_hash(chain, g.state_hash());
        if g.steps().is_multiple_of(stride) {
            checkpoints.push(chain as u32);
        }
    })?;
    Ok(PhyqRecord {
        task_id: id.to_string(),
        passed: game.pigs_left() == 0,
        pigs_left: game.pigs_left(),
        shot_ends,
        steps: game.steps(),
        final_hash: game.state_hash(),
        checkpoints,
    })
}

/// Every Phy-Q run of `plan`, sequentially, in task order.
pub fn audit_phyq(plan: AuditPlan) -> Result<Vec<PhyqRecord>, PhyqAuditError> {
    phyq_tasks(plan)
        .iter()
        .map(|id| audit_phyq_task(id, plan.checkpoint_stride))
        .collect()
}

/// Per-step hashes of one Phy-Q run (`step shot state_hash chain`, shot 0 = the opening), to
/// diff between two platforms.
pub fn phyq_trace_text(id: &LevelId) -> Result<String, PhyqAuditError> {
    let mut out = String::from("step shot state chain\n");
    let mut chain = 0u64;
    play_drawn(id, &mut |g, shot| {
        chain = chain_hash(chain, g.state_hash());
        let _ = writeln!(
            out,
            "{} {shot} {:016x} {chain:016x}",
            g.steps(),
            g.state_hash()
        );
    })?;
    Ok(out)
}

/// Why a Phy-Q golden line cannot be read.
fn bad(what: &'static str, line: &str) -> crate::GoldenError {
    crate::GoldenError::BadField {
        what,
        line: line.to_string(),
    }
}

fn hex_list(s: &mut String, values: &[u32]) {
    for (k, c) in values.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        let _ = write!(s, "{c:08x}");
    }
}

impl PhyqRecord {
    /// `PASSED` or `NOT_PASSED`.
    pub fn status_name(&self) -> &'static str {
        if self.passed {
            "PASSED"
        } else {
            "NOT_PASSED"
        }
    }

    /// The shot (1 = the first; 0 = the opening) during which step `step` was run, as far as
    /// this record tells (`None`: after its last shot).
    pub fn shot_at(&self, step: u32) -> Option<usize> {
        if step <= phyq::game::IMMORTAL_STEPS {
            return Some(0);
        }
        self.shot_ends
            .iter()
            .position(|&e| step <= e)
            .map(|i| i + 1)
    }

    /// The shots that ran steps `first..=last`, for a person: `the opening`, `shot 2`,
    /// `shot 1 or 2` (a window across the end of a shot), `after shot 3`.
    pub fn shots_in(&self, first: u32, last: u32) -> String {
        let name = |s: Option<usize>| match s {
            Some(0) => "the opening".to_string(),
            Some(n) => format!("shot {n}"),
            None => format!("after shot {}", self.shot_ends.len()),
        };
        let (a, b) = (self.shot_at(first), self.shot_at(last));
        match (a, b) {
            _ if a == b => name(a),
            (Some(0), _) => format!("the opening or {}", name(b)),
            (Some(_), Some(n)) => format!("{} or {n}", name(a)),
            _ => format!("{} or after it", name(a)),
        }
    }

    pub fn to_line(&self) -> String {
        let mut s = format!(
            "{} {} {} {} {} ",
            self.task_id,
            self.status_name(),
            self.pigs_left,
            self.shot_ends.len(),
            self.steps
        );
        if self.shot_ends.is_empty() {
            s.push('-');
        } else {
            for (k, e) in self.shot_ends.iter().enumerate() {
                if k > 0 {
                    s.push(',');
                }
                let _ = write!(s, "{e}");
            }
        }
        let _ = write!(s, " {:016x} ", self.final_hash);
        hex_list(&mut s, &self.checkpoints);
        s
    }

    pub fn parse_line(line: &str) -> Result<PhyqRecord, crate::GoldenError> {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 8 && f.len() != 7 {
            return Err(crate::GoldenError::Fields {
                count: f.len(),
                line: line.to_string(),
            });
        }
        if f[0].parse::<LevelId>().is_err() {
            return Err(bad("Phy-Q task id", line));
        }
        let passed = match f[1] {
            "PASSED" => true,
            "NOT_PASSED" => false,
            _ => return Err(bad("Phy-Q status", line)),
        };
        let shots: usize = f[3].parse().map_err(|_| bad("shots", line))?;
        let shot_ends: Vec<u32> = if f[5] == "-" {
            Vec::new()
        } else {
            f[5].split(',')
                .map(|e| e.parse().map_err(|_| bad("shot ends", line)))
                .collect::<Result<_, _>>()?
        };
        if shot_ends.len() != shots {
            return Err(bad("shot ends (not one per shot)", line));
        }
        Ok(PhyqRecord {
            task_id: f[0].to_string(),
            passed,
            pigs_left: f[2].parse().map_err(|_| bad("pigs left", line))?,
            shot_ends,
            steps: f[4].parse().map_err(|_| bad("steps", line))?,
            final_hash: u64::from_str_radix(f[6], 16).map_err(|_| bad("final hash", line))?,
            checkpoints: match f.get(7) {
                Some(c) => c
                    .split(',')
                    .map(|h| u32::from_str_radix(h, 16).map_err(|_| bad("checkpoint", line)))
                    .collect::<Result<_, _>>()?,
                None => Vec::new(),
            },
        })
    }

    /// A short summary for mismatch messages.
    fn summary(&self) -> String {
        format!(
            "{} with {} pigs left after {} shots, step {}",
            self.status_name(),
            self.pigs_left,
            self.shot_ends.len(),
            self.steps
        )
    }
}

/// The first difference between golden and fresh Phy-Q records: the task, the shot and the
/// step window.
pub fn first_phyq_mismatch(
    golden: &[PhyqRecord],
    got: &[PhyqRecord],
    stride: u32,
) -> Option<String> {
    if golden.len() != got.len() {
        return Some(format!(
            "golden has {} Phy-Q runs, this audit {}",
            golden.len(),
            got.len()
        ));
    }
    let stride = stride.max(1);
    for (g, o) in golden.iter().zip(got) {
        if g == o {
            continue;
        }
        if g.task_id != o.task_id {
            return Some(format!(
                "Phy-Q run list differs at task {} (got task {})",
                g.task_id, o.task_id
            ));
        }
        let k = g
            .checkpoints
            .iter()
            .zip(&o.checkpoints)
            .position(|(a, b)| a != b);
        // Both runs agree up to the window's start, so the golden's shot ends name its shots.
        let (shot, window) = match k {
            Some(k) => {
                let (first, last) = (k as u32 * stride + 1, (k as u32 + 1) * stride);
                (g.shots_in(first, last), format!("steps {first}..={last}"))
            }
            None => {
                let first = g.checkpoints.len().min(o.checkpoints.len()) as u32 * stride + 1;
                (
                    g.shots_in(first, first),
                    format!("after step {} (the last checkpoint both have)", first - 1),
                )
            }
        };
        return Some(format!(
            "task {} {shot}: first difference {window}; golden {} vs {}",
            g.task_id,
            g.summary(),
            o.summary()
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> PhyqRecord {
        PhyqRecord {
            task_id: "phyq:1_1_4:00001".into(),
            passed: false,
            pigs_left: 1,
            shot_ends: vec![250, 400],
            steps: 400,
            final_hash: 0xfedc_ba98_7654_3210,
            checkpoints: (0..40).collect(),
        }
    }

    #[test]
    fn lines_round_trip_and_reject_garbage() {
        let r = record();
        assert_eq!(PhyqRecord::parse_line(&r.to_line()).unwrap(), r);
        let none = PhyqRecord {
            passed: true,
            pigs_left: 0,
            shot_ends: vec![],
            steps: 100,
            checkpoints: vec![],
            ..record()
        };
        assert!(none.to_line().contains(" PASSED 0 0 100 - "));
        assert_eq!(PhyqRecord::parse_line(&none.to_line()).unwrap(), none);
        let line = r.to_line();
        for bad in [
            line.replace("NOT_PASSED", "SOLVED"),
            line.replace(" 2 400 250,400 ", " 3 400 250,400 "),
            line.replace("250,400", "250,x"),
            line.replace("phyq:1_1_4:00001", "phyq:1_1_4:1"),
            line.replacen(" 1 2 ", " -1 2 ", 1),
            "phyq:1_1_4:00001 PASSED".to_string(),
        ] {
            assert!(PhyqRecord::parse_line(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn mismatch_names_task_shot_and_window() {
        let g = record();
        let mut o = record();
        o.checkpoints[30] ^= 1; // steps 301..=310: the second shot (251..=400)
        let m = first_phyq_mismatch(std::slice::from_ref(&g), &[o], 10).unwrap();
        assert!(
            m.contains("phyq:1_1_4:00001 shot 2") && m.contains("steps 301..=310"),
            "{m}"
        );
        let mut o = record();
        o.checkpoints[3] ^= 1;
        let m = first_phyq_mismatch(std::slice::from_ref(&g), &[o], 10).unwrap();
        assert!(
            m.contains("the opening") && m.contains("steps 31..=40"),
            "{m}"
        );
        let mut o = record();
        o.final_hash ^= 1;
        let m = first_phyq_mismatch(std::slice::from_ref(&g), &[o], 10).unwrap();
        assert!(
            m.contains("after shot 2") && m.contains("after step 400"),
            "{m}"
        );
        // A window across the end of a shot names both.
        let mut o = record();
        o.checkpoints[24] ^= 1; // steps 241..=250, shot 1 ends at 250
        let m = first_phyq_mismatch(std::slice::from_ref(&g), &[o], 10).unwrap();
        assert!(m.contains("00001 shot 1:"), "{m}");
        let mut o = record();
        o.checkpoints[12] ^= 1;
        let m = first_phyq_mismatch(std::slice::from_ref(&g), &[o], 20).unwrap();
        assert!(
            m.contains("shot 1 or 2: first difference steps 241..=260"),
            "{m}"
        );
        assert_eq!(g.shots_in(95, 105), "the opening or shot 1");
        assert_eq!(g.shots_in(395, 405), "shot 2 or after it");
        assert_eq!(g.shots_in(401, 401), "after shot 2");
        let same = std::slice::from_ref(&g);
        assert!(first_phyq_mismatch(same, same, 10).is_none());
        assert!(first_phyq_mismatch(&[g], &[], 10)
            .unwrap()
            .contains("1 Phy-Q runs"));
    }

    #[test]
    fn shots_are_integer_draws_in_their_ranges() {
        let radius = Fixed::ratio(8, 10);
        let mut tapped = 0;
        for bird in 0..500 {
            let s = phyq_shot("phyq:1_1_4:00001", bird, radius, true);
            assert_eq!(s, phyq_shot("phyq:1_1_4:00001", bird, radius, true));
            let len = s.release.length();
            // 50 %..100 % of the radius (with sin/cos rounding).
            assert!(len >= radius * Fixed::ratio(499, 1000), "{len:?}");
            assert!(len <= radius * Fixed::ratio(1001, 1000), "{len:?}");
            // Launched up to 85° upward and 20° downward: released behind the rest point.
            assert!(s.release.x.is_negative(), "{s:?}");
            if let Some(t) = s.tap {
                tapped += 1;
                assert!(t >= Fixed::HALF && t <= Fixed::ratio(5, 2), "{t:?}");
            }
            assert!(phyq_shot("phyq:1_1_4:00001", bird, radius, false)
                .tap
                .is_none());
        }
        assert!((200..300).contains(&tapped), "{tapped}");
        assert_ne!(
            phyq_shot("phyq:1_1_4:00001", 0, radius, true),
            phyq_shot("phyq:1_1_4:00002", 0, radius, true)
        );
    }

    #[test]
    fn plans_cover_the_documented_tasks() {
        let ci = phyq_tasks(AuditPlan::CI);
        assert_eq!(ci.len(), 75);
        let first = &phyq::templates::templates()[0].code;
        assert_eq!(ci[0].to_string(), format!("phyq:{first}:00001"));
        let full = phyq_tasks(AuditPlan::FULL);
        assert_eq!(full.len(), 750);
        assert_eq!(full[1].to_string(), format!("phyq:{first}:00011"));
        assert_eq!(full[9].to_string(), format!("phyq:{first}:00091"));
        assert_eq!(full[10], ci[1]);
        let none = AuditPlan {
            phyq_task_stride: 0,
            ..AuditPlan::CI
        };
        assert!(phyq_tasks(none).is_empty());
    }
}
