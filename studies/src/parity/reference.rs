//! The original's data: its reference outcomes (outcomes-A.csv: fixed actions with the status the
//! original gave them) and its random-action counts per task, with their parsers.

use crate::stats::ratio;
use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use tasks::Status;

/// The reference data shipped with the harness (see data/phyre-0.2.2/NOTICE).
pub const BUILTIN_OUTCOMES_XZ: &[u8] = include_bytes!("../../data/phyre-0.2.2/outcomes-A.csv.xz");
pub const BUILTIN_COUNTS_CSV: &str =
    include_str!("../../data/phyre-0.2.2/random-action-status-counts.csv");

/// What kind of action a reference row holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum RowKind {
    Random,
    StableSolution,
    UnstableSolution,
}

/// One row of outcomes-A.csv.
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceRow {
    pub task_id: String,
    pub tier: String,
    pub kind: RowKind,
    pub index: u32,
    pub action: Vec<f64>,
    /// What the original gave (spelled −1, 0, 1 in the file).
    pub status: Status,
}

impl ReferenceRow {
    pub fn template(&self) -> &str {
        self.task_id.split(':').next().unwrap_or("")
    }
}

/// Decompress the built-in reference file.
pub fn builtin_reference() -> Result<String> {
    let mut out = Vec::new();
    lzma_rs::xz_decompress(&mut std::io::Cursor::new(BUILTIN_OUTCOMES_XZ), &mut out)
        .context("built-in reference data is corrupt")?;
    String::from_utf8(out).context("built-in reference data is not UTF-8")
}

/// Parse outcomes-A.csv text (header `task_id,tier,kind,index,action,status`).
pub fn parse_reference(text: &str) -> Result<Vec<ReferenceRow>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let headers = rdr
        .headers()
        .context("reference file has no header")?
        .clone();
    let want = ["task_id", "tier", "kind", "index", "action", "status"];
    if headers.iter().collect::<Vec<_>>() != want {
        bail!("reference file must have the columns {}", want.join(","));
    }
    let mut rows = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 2;
        let rec = rec.with_context(|| format!("reference file line {line}"))?;
        let kind = match &rec[2] {
            "random" => RowKind::Random,
            "stable_solution" => RowKind::StableSolution,
            "unstable_solution" => RowKind::UnstableSolution,
            k => bail!("reference file line {line}: unknown kind {k:?}"),
        };
        let action = rec[4]
            .split_whitespace()
            .map(|v| v.parse::<f64>())
            .collect::<Result<Vec<f64>, _>>()
            .with_context(|| format!("reference file line {line}: bad action {:?}", &rec[4]))?;
        let code: i8 = rec[5]
            .parse()
            .with_context(|| format!("reference file line {line}: bad status"))?;
        let Some(status) = Status::from_phyre_code(code) else {
            bail!("reference file line {line}: status must be -1, 0 or 1");
        };
        rows.push(ReferenceRow {
            task_id: rec[0].to_string(),
            tier: rec[1].to_string(),
            kind,
            index: rec[3]
                .parse()
                .with_context(|| format!("reference file line {line}: bad index"))?,
            action,
            status,
        });
    }
    Ok(rows)
}

/// The original's random-action counts per (task, action tier).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OriginalCounts {
    pub not_solved: u64,
    pub invalid: u64,
    pub unstably_solved: u64,
    pub stably_solved: u64,
}

/// How the original sampled: batches of this many random attempts per task, until at least
/// 10,000 were valid and at least 3 were stable solutions (every attempt count in the file is a
/// multiple of it).
pub const ORIGINAL_BATCH: u64 = 10_000;

impl OriginalCounts {
    pub fn valid(&self) -> u64 {
        self.not_solved + self.unstably_solved + self.stably_solved
    }

    pub fn attempts(&self) -> u64 {
        self.valid() + self.invalid
    }

    /// Share of attempts that were valid.
    pub fn valid_share(&self) -> f64 {
        ratio(self.valid(), self.attempts())
    }

    /// Share of attempts that were invalid.
    pub fn invalid_rate(&self) -> f64 {
        ratio(self.invalid, self.attempts())
    }

    /// Did sampling stop because the third stable solution came, rather than at the batches
    /// the 10,000-valid floor needs? (Then the last batch is there *because* it held a
    /// stable solution.)
    pub fn stopped_by_solutions(&self) -> bool {
        let batches = self.attempts() / ORIGINAL_BATCH;
        let v = self.valid_share();
        if v <= 0.0 {
            return false;
        }
        // Batches the valid floor needs at this valid share (at least 2: the file has none
        // with fewer).
        let floor = ((1.0 / v).ceil() as u64).max(2);
        batches > floor && self.stably_solved >= 3
    }

    /// The task's solve rate among valid random actions, estimated without the bias of the
    /// original's stopping rule.
    ///
    /// The original sampled until its third stable solution, so for rare-solution tasks the
    /// plain ratio (solved / valid) overstates the stable part: the run ends right after a
    /// success (by up to 1.46× at 2e-5 in a simulation of the rule). For those tasks the stable
    /// count loses the success that ended the run ((S − 1) / n, the inverse-binomial
    /// estimator; within 3.5 % in the same simulation); unstable solutions do not steer the
    /// rule and keep U / n.
    pub fn solve_rate(&self) -> f64 {
        let n = self.valid();
        let stable = if self.stopped_by_solutions() {
            self.stably_solved - 1
        } else {
            self.stably_solved
        };
        ratio(stable + self.unstably_solved, n)
    }

    /// Binomial sampling variance of [`OriginalCounts::solve_rate`].
    pub fn solve_rate_variance(&self) -> f64 {
        let n = self.valid();
        if n == 0 {
            return 0.0;
        }
        let p = self.solve_rate();
        p * (1.0 - p) / n as f64
    }
}

/// Parse random-action-status-counts.csv into (task_id, action_tier) → counts.
pub fn parse_counts(text: &str) -> Result<BTreeMap<(String, String), OriginalCounts>> {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let mut out = BTreeMap::new();
    for (i, rec) in rdr.records().enumerate() {
        let rec = rec.with_context(|| format!("counts file line {}", i + 2))?;
        let n = |k: usize| -> Result<u64> {
            rec[k]
                .parse()
                .with_context(|| format!("counts file line {}", i + 2))
        };
        out.insert(
            (rec[0].to_string(), rec[2].to_string()),
            OriginalCounts {
                not_solved: n(3)?,
                invalid: n(4)?,
                unstably_solved: n(5)?,
                stably_solved: n(6)?,
            },
        );
    }
    Ok(out)
}
