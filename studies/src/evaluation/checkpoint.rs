//! `eval --checkpoint`: every finished (agent, setup, fold) is saved the moment it finishes, so
//! a stopped evaluation loses none of them, and `--resume` runs only the others.
//!
//! A unit keeps what cannot be recomputed cheaply: each evaluated task's solving attempt (from
//! which AUCCESS and success@10 are computed again, exactly), the agent's name and dev-split
//! choice, and the unit's wall time. The file is rewritten whole and atomically after each unit
//! (a few hundred units at most, each a few KB), so a kill leaves either the old or the new file.
//!
//! The file's fingerprint names what every unit depends on (action set, split, seed, tasks); a
//! unit also names the configuration of its agent where the agent has one (a DQN's training
//! configuration), and a run restores only the units of its own. So one file gathers a sweep
//! (over `--dqn-seed`, say) and still serves runs of the untrained agents, whatever DQN options
//! they were given.
//!
//! Checkpoints of runs made apart — one per fold, say, on as many machines — are merged into one
//! ([`merge_checkpoints`], `rephyre merge`), and a run resumed from it reports them all.

use crate::files::{format_field, read_stamped, write_atomic, FileKind, Stamped};
use agents::auccess::SolvedAt;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const EVAL_CHECKPOINT: FileKind = FileKind {
    name: "eval checkpoint",
    format: "rephyre-eval-checkpoint-2",
    other_run: "evaluation (action set, split, seed or tasks differ)",
};

/// One finished (agent, setup, fold).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Unit {
    /// The agent kind's key ([`super::AgentKind`]'s `Debug`), not its display name.
    pub kind: String,
    pub setup: String,
    pub fold: u32,
    /// The agent's configuration where its results depend on one (a DQN's training
    /// configuration; empty for the untrained agents).
    pub config: String,
    /// The agent's display name and what it chose on the dev split.
    pub agent: String,
    pub tuned: String,
    /// Wall seconds the unit took when it ran.
    pub seconds: f64,
    /// The solving attempt of each evaluated task, in the order the fold's split lists them.
    pub solved: Vec<SolvedAt>,
}

impl Unit {
    fn key(&self) -> (&str, &str, u32, &str) {
        (&self.kind, &self.setup, self.fold, &self.config)
    }
}

#[derive(Serialize, Deserialize)]
struct File {
    format: String,
    fingerprint: String,
    units: Vec<Unit>,
}

impl Stamped for File {
    fn format(&self) -> &str {
        &self.format
    }
    fn fingerprint(&self) -> &str {
        &self.fingerprint
    }
}

/// The units of a checkpoint file, kept in key order, and where they are saved.
pub(super) struct ResultsCheckpoint {
    path: PathBuf,
    fingerprint: String,
    units: Mutex<Vec<Unit>>,
}

impl ResultsCheckpoint {
    /// Start a checkpoint at `path` for a run of `fingerprint`: with `resume`, the units an
    /// earlier run of the same fingerprint saved there (none when the file does not exist);
    /// without, none (the file is replaced at the first finished unit).
    pub fn open(path: &Path, fingerprint: String, resume: bool) -> Result<ResultsCheckpoint> {
        let mut units = Vec::new();
        if resume && path.exists() {
            let file: File = read_stamped(path, &EVAL_CHECKPOINT, Some(&fingerprint))?;
            units = file.units;
            units.sort_by(|a, b| a.key().cmp(&b.key()));
            units.dedup_by(|a, b| a.key() == b.key());
        }
        Ok(ResultsCheckpoint {
            path: path.to_path_buf(),
            fingerprint,
            units: Mutex::new(units),
        })
    }

    /// The saved unit of (kind, setup, fold) with the agent configuration `config`, if any.
    pub fn finished(&self, kind: &str, setup: &str, fold: u32, config: &str) -> Option<Unit> {
        let units = self.units.lock().expect("no poisoning");
        units
            .binary_search_by(|u| u.key().cmp(&(kind, setup, fold, config)))
            .ok()
            .map(|i| units[i].clone())
    }

    /// Add a finished unit (replacing one of the same key) and save the file.
    pub fn record(&self, unit: Unit) -> Result<()> {
        let mut units = self.units.lock().expect("no poisoning");
        match units.binary_search_by(|u| u.key().cmp(&unit.key())) {
            Ok(i) => units[i] = unit,
            Err(i) => units.insert(i, unit),
        }
        // Written while the lock is held, so two folds finishing together cannot save out of
        // order.
        save(&self.path, &self.fingerprint, units.clone())
    }
}

/// Write a checkpoint file of `units` (in key order) for the run of `fingerprint`.
fn save(path: &Path, fingerprint: &str, units: Vec<Unit>) -> Result<()> {
    let file = File {
        format: EVAL_CHECKPOINT.format.to_string(),
        fingerprint: fingerprint.to_string(),
        units,
    };
    write_atomic(path, serde_json::to_string(&file)?.as_bytes())
}

/// Whether the file at `path` is an eval checkpoint (its format field names one, of any
/// version), for `rephyre merge` to tell it from the parts of a sharded run.
pub fn is_checkpoint(path: &Path) -> bool {
    let format_prefix = EVAL_CHECKPOINT
        .format
        .trim_end_matches(|c: char| c.is_ascii_digit());
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| format_field(&text))
        .is_some_and(|format| format.starts_with(format_prefix))
}

/// What [`merge_checkpoints`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergedCheckpoints {
    pub files: usize,
    pub units: usize,
}

/// Merge the eval checkpoints at `paths` (of one evaluation: the same fingerprint) into one at
/// `out`, which a run with `--checkpoint out --resume` restores from. A unit in several files
/// must hold the same results in each (their time may differ: the shortest is kept, so the
/// file is the same whatever the order of `paths`); different results for one unit are an
/// error naming both files.
pub fn merge_checkpoints(paths: &[PathBuf], out: &Path) -> Result<MergedCheckpoints> {
    let Some((first_path, rest)) = paths.split_first() else {
        anyhow::bail!("no eval checkpoints to merge");
    };
    // The first file sets the fingerprint every other must have.
    let first: File = read_stamped(first_path, &EVAL_CHECKPOINT, None)?;
    let fingerprint = first.fingerprint;
    let mut units: Vec<(Unit, &Path)> = first
        .units
        .into_iter()
        .map(|u| (u, first_path.as_path()))
        .collect();
    for path in rest {
        let file: File = read_stamped(path, &EVAL_CHECKPOINT, Some(&fingerprint))?;
        units.extend(file.units.into_iter().map(|u| (u, path.as_path())));
    }
    units.sort_by(|(a, pa), (b, pb)| {
        a.key()
            .cmp(&b.key())
            .then(a.seconds.total_cmp(&b.seconds))
            .then(pa.cmp(pb))
    });
    let mut merged: Vec<(Unit, &Path)> = Vec::with_capacity(units.len());
    for (unit, path) in units {
        if let Some((kept, kept_path)) = merged.last() {
            if kept.key() == unit.key() {
                let same = kept.agent == unit.agent
                    && kept.tuned == unit.tuned
                    && kept.solved == unit.solved;
                if !same {
                    anyhow::bail!(
                        "{} and {} hold different results for {} on {} fold {}{}",
                        kept_path.display(),
                        path.display(),
                        unit.agent,
                        unit.setup,
                        unit.fold,
                        if unit.config.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", unit.config)
                        }
                    );
                }
                continue;
            }
        }
        merged.push((unit, path));
    }
    let units = merged.len();
    save(
        out,
        &fingerprint,
        merged.into_iter().map(|(u, _)| u).collect(),
    )?;
    Ok(MergedCheckpoints {
        files: paths.len(),
        units,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(kind: &str, fold: u32, solved: Vec<SolvedAt>) -> Unit {
        Unit {
            kind: kind.to_string(),
            setup: "ball_cross_template".to_string(),
            fold,
            config: String::new(),
            agent: kind.to_uppercase(),
            tuned: String::new(),
            seconds: 1.5,
            solved,
        }
    }

    #[test]
    fn saved_units_come_back_only_to_a_resumed_run_of_the_same_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eval.ckpt");
        let cp = ResultsCheckpoint::open(&path, "run A".into(), true).unwrap();
        assert!(cp.finished("Mem", "ball_cross_template", 3, "").is_none());
        cp.record(unit("Mem", 3, vec![Some(1), None])).unwrap();
        cp.record(unit("Mem", 1, vec![None])).unwrap();
        // A unit recorded again replaces the earlier one.
        cp.record(unit("Mem", 3, vec![Some(2), None])).unwrap();
        let again = ResultsCheckpoint::open(&path, "run A".into(), true).unwrap();
        assert_eq!(
            again.finished("Mem", "ball_cross_template", 3, ""),
            Some(unit("Mem", 3, vec![Some(2), None]))
        );
        assert_eq!(
            again.finished("Mem", "ball_cross_template", 1, ""),
            Some(unit("Mem", 1, vec![None]))
        );
        assert!(again
            .finished("Rand", "ball_cross_template", 1, "")
            .is_none());
        // Without --resume nothing is read; another run's file is refused.
        let fresh = ResultsCheckpoint::open(&path, "run A".into(), false).unwrap();
        assert!(fresh
            .finished("Mem", "ball_cross_template", 3, "")
            .is_none());
        let err = ResultsCheckpoint::open(&path, "run B".into(), true)
            .err()
            .unwrap();
        assert!(err.to_string().contains("different evaluation"), "{err}");
        std::fs::write(&path, "{\"format\":").unwrap();
        let err = ResultsCheckpoint::open(&path, "run A".into(), true)
            .err()
            .unwrap();
        assert!(err.to_string().contains("corrupt eval checkpoint"), "{err}");
        // A checkpoint of another kind (a solvability run's), or of the layout before units
        // named their agent's configuration, is named by its format, not called corrupt.
        for (text, format) in [
            (
                r#"{"format":"rephyre-checkpoint-1","fingerprint":"run A","tasks":[[0,true,{}]]}"#,
                "rephyre-checkpoint-1",
            ),
            (
                r#"{"format":"rephyre-eval-checkpoint-1","fingerprint":"run A","units":[{"kind":"Mem","setup":"ball_cross_template","fold":0,"agent":"MEM","tuned":"","seconds":1.0,"solved":[null]}]}"#,
                "rephyre-eval-checkpoint-1",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let err = ResultsCheckpoint::open(&path, "run A".into(), true)
                .err()
                .unwrap();
            assert!(
                err.to_string()
                    .contains(&format!("has format {format:?}; this rephyre reads")),
                "{err}"
            );
        }
    }

    #[test]
    fn merged_checkpoints_keep_each_unit_once_whatever_the_order_of_the_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        let save = |name: &str, units: Vec<Unit>| {
            let cp = ResultsCheckpoint::open(&p(name), "run A".into(), false).unwrap();
            for u in units {
                cp.record(u).unwrap();
            }
            p(name)
        };
        let slow = Unit {
            seconds: 9.0,
            ..unit("Mem", 1, vec![Some(3)])
        };
        let a = save("a.ckpt", vec![unit("Mem", 0, vec![None]), slow]);
        let b = save(
            "b.ckpt",
            vec![unit("Mem", 1, vec![Some(3)]), unit("Mem", 2, vec![])],
        );
        let ab = merge_checkpoints(&[a.clone(), b.clone()], &p("ab.ckpt")).unwrap();
        assert_eq!(ab, MergedCheckpoints { files: 2, units: 3 });
        merge_checkpoints(&[b.clone(), a.clone()], &p("ba.ckpt")).unwrap();
        assert_eq!(
            std::fs::read(p("ab.ckpt")).unwrap(),
            std::fs::read(p("ba.ckpt")).unwrap()
        );
        let merged = ResultsCheckpoint::open(&p("ab.ckpt"), "run A".into(), true).unwrap();
        // The unit in both files: its results, with the shorter of its two times.
        assert_eq!(
            merged.finished("Mem", "ball_cross_template", 1, ""),
            Some(unit("Mem", 1, vec![Some(3)]))
        );
        assert!(merged
            .finished("Mem", "ball_cross_template", 2, "")
            .is_some());
        assert!(is_checkpoint(&a) && !is_checkpoint(&p("missing")));
        let c = save("c.ckpt", vec![unit("Mem", 1, vec![Some(4)])]);
        let err = merge_checkpoints(&[a.clone(), c], &p("x.ckpt")).unwrap_err();
        assert!(
            err.to_string()
                .contains("different results for MEM on ball_cross_template fold 1"),
            "{err}"
        );
        let other = ResultsCheckpoint::open(&p("d.ckpt"), "run B".into(), false).unwrap();
        other.record(unit("Mem", 5, vec![])).unwrap();
        let err = merge_checkpoints(&[a, p("d.ckpt")], &p("x.ckpt")).unwrap_err();
        assert!(err.to_string().contains("different evaluation"), "{err}");
        assert!(!p("x.ckpt").exists());
    }

    #[test]
    fn units_of_other_agent_configurations_stay_in_the_file_but_are_not_restored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eval.ckpt");
        let cp = ResultsCheckpoint::open(&path, "run A".into(), true).unwrap();
        let dqn = |config: &str, solved| Unit {
            config: config.to_string(),
            ..unit("Dqn", 0, solved)
        };
        cp.record(dqn("seed 0", vec![Some(1)])).unwrap();
        cp.record(dqn("seed 1", vec![Some(5)])).unwrap();
        let again = ResultsCheckpoint::open(&path, "run A".into(), true).unwrap();
        assert_eq!(
            again.finished("Dqn", "ball_cross_template", 0, "seed 0"),
            Some(dqn("seed 0", vec![Some(1)]))
        );
        assert_eq!(
            again.finished("Dqn", "ball_cross_template", 0, "seed 1"),
            Some(dqn("seed 1", vec![Some(5)]))
        );
        assert!(again
            .finished("Dqn", "ball_cross_template", 0, "seed 2")
            .is_none());
    }
}
