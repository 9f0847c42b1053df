//! Parity with the original PHYRE: run the original's fixed actions (outcomes-A.csv) through
//! rephyre and compare validity and solved/not-solved, overall and per template, plus the
//! per-template random-action solve and invalid rates beside the original's counts.

use anyhow::{bail, Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The reference data shipped with the harness (see data/phyre-0.2.2/NOTICE).
pub const BUILTIN_OUTCOMES_XZ: &[u8] = include_bytes!("../data/phyre-0.2.2/outcomes-A.csv.xz");
pub const BUILTIN_COUNTS_CSV: &str =
    include_str!("../data/phyre-0.2.2/random-action-status-counts.csv");

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
    /// −1 not solved, 0 invalid, 1 solved.
    pub status: i8,
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
        .map_err(|e| anyhow::anyhow!("built-in reference data is corrupt: {e}"))?;
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
        let status: i8 = rec[5]
            .parse()
            .with_context(|| format!("reference file line {line}: bad status"))?;
        if !(-1..=1).contains(&status) {
            bail!("reference file line {line}: status must be -1, 0 or 1");
        }
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

/// A 2×2 table of solved / not solved (rows: original, columns: rephyre) for rows valid in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Confusion {
    pub both_solved: u64,
    pub only_original_solved: u64,
    pub only_rephyre_solved: u64,
    pub neither_solved: u64,
}

impl Confusion {
    pub fn add(&mut self, original: i8, ours: i8) {
        match (original, ours) {
            (1, 1) => self.both_solved += 1,
            (1, -1) => self.only_original_solved += 1,
            (-1, 1) => self.only_rephyre_solved += 1,
            (-1, -1) => self.neither_solved += 1,
            _ => {}
        }
    }
    pub fn total(&self) -> u64 {
        self.both_solved
            + self.only_original_solved
            + self.only_rephyre_solved
            + self.neither_solved
    }
    pub fn agreement(&self) -> f64 {
        ratio(self.both_solved + self.neither_solved, self.total())
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Per-template figures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TemplateParity {
    pub template: String,
    pub tier: String,
    pub rows: u64,
    pub validity_agree: u64,
    pub random: Confusion,
    pub stable_rows: u64,
    pub stable_solved: u64,
    pub unstable_rows: u64,
    pub unstable_solved: u64,
    /// Original random-action solve rate among valid attempts (from the counts file): the mean
    /// of its per-task rates ([`OriginalCounts::solve_rate`]) weighted by valid share, and
    /// that mean's standard error.
    pub original_solve_rate: f64,
    pub original_solve_rate_se: f64,
    pub original_invalid_rate: f64,
    /// rephyre's random-action solve rate among valid attempts and invalid rate.
    pub rephyre_solve_rate: f64,
    pub rephyre_invalid_rate: f64,
    /// Valid random attempts behind rephyre's rates, and how many of them solved.
    pub rephyre_valid_samples: u64,
    pub rephyre_solved_samples: u64,
}

/// Is rephyre's solve rate within ×/÷ a factor of the original's, beyond sampling noise?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RateVerdict {
    /// The 95 % interval of rephyre's rate lies inside the band.
    Within,
    /// The 95 % interval lies entirely outside the band.
    Outside,
    /// The interval straddles a band edge: more samples are needed to tell.
    Undetermined,
}

/// Wilson score interval (95 %) of a binomial proportion k / n; (0, 1) when n = 0.
pub fn wilson_95(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (none, all) = (k == 0, k == n);
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At k = 0 (k = n) the bound is 0 (1) exactly; rounding would leave a hair above (below).
    let lo = if none { 0.0 } else { (centre - half).max(0.0) };
    let hi = if all { 1.0 } else { (centre + half).min(1.0) };
    (lo, hi)
}

impl TemplateParity {
    /// Solve rates within ×/÷ `factor` of each other (both zero counts as within).
    pub fn within(&self, factor: f64) -> bool {
        let (a, b) = (self.original_solve_rate, self.rephyre_solve_rate);
        if a == 0.0 && b == 0.0 {
            return true;
        }
        a > 0.0 && b > 0.0 && a / b <= factor && b / a <= factor
    }

    /// Compare the two rates beyond sampling noise: rephyre's 95 % Wilson interval against
    /// the band [orig / factor, orig × factor], the band widened (or, for *within*, narrowed)
    /// by the original's own 95 % interval (normal, ±1.96 standard errors).
    pub fn verdict(&self, factor: f64) -> RateVerdict {
        let o = self.original_solve_rate;
        let half = 1.959_963_984_540_054 * self.original_solve_rate_se;
        let (o_lo, o_hi) = ((o - half).max(0.0), o + half);
        let (lo, hi) = wilson_95(self.rephyre_solved_samples, self.rephyre_valid_samples);
        if lo >= o_hi / factor && hi <= o_lo * factor {
            RateVerdict::Within
        } else if hi < o_lo / factor || lo > o_hi * factor {
            RateVerdict::Outside
        } else {
            RateVerdict::Undetermined
        }
    }
}

/// A task whose random-action solve rate in rephyre is incompatible with the original's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskOutlier {
    pub task_id: String,
    pub original_solve_rate: f64,
    pub rephyre_valid: u64,
    pub rephyre_solved: u64,
    /// The smaller binomial tail P(X ≤ k) or P(X ≥ k) under the original's rate.
    pub p_value: f64,
}

/// Per-task significance level of [`task_outliers`]: 0.01 shared over 5,000 tasks (Bonferroni).
pub const OUTLIER_P: f64 = 0.01 / 5000.0;

/// Tasks whose rephyre counts (valid, solved random actions) are incompatible with the
/// original's per-task rate at [`OUTLIER_P`] (two one-sided binomial tails), in task order.
pub fn task_outliers(
    own: &BTreeMap<String, (u64, u64)>,
    counts: &BTreeMap<(String, String), OriginalCounts>,
) -> Vec<TaskOutlier> {
    let mut out = Vec::new();
    for (task, &(valid, solved)) in own {
        let tier = if task.starts_with("001") {
            "two_balls"
        } else {
            "ball"
        };
        let Some(c) = counts.get(&(task.clone(), tier.to_string())) else {
            continue;
        };
        let rate = c.solve_rate();
        if valid == 0 || !(0.0..=1.0).contains(&rate) {
            continue;
        }
        let p = crate::stats::binomial_at_most(valid, rate, solved)
            .min(crate::stats::binomial_at_least(valid, rate, solved));
        if p < OUTLIER_P {
            out.push(TaskOutlier {
                task_id: task.clone(),
                original_solve_rate: rate,
                rephyre_valid: valid,
                rephyre_solved: solved,
                p_value: p,
            });
        }
    }
    out
}

/// The whole comparison.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ParityReport {
    pub rows: u64,
    pub validity_agree: u64,
    pub validity_mismatches: Vec<(String, String, u32, i8, i8)>,
    pub random: Confusion,
    pub stable_rows: u64,
    pub stable_solved: u64,
    pub unstable_rows: u64,
    pub unstable_solved: u64,
    pub templates: Vec<TemplateParity>,
    /// Tasks whose scene solves itself in rephyre (no action); none does in the original.
    pub self_solving: Vec<String>,
    /// Tasks whose scene was run without an action.
    pub scenes_run: u64,
    /// Tasks whose solve rate differs from the original's beyond noise ([`task_outliers`]).
    pub task_outliers: Vec<TaskOutlier>,
}

/// The one-line JSON summary of `rephyre parity --json`.
#[derive(Clone, Debug, Serialize)]
pub struct ParitySummary {
    pub rows: u64,
    pub validity_agreement: f64,
    pub status_agreement_random: f64,
    pub stable_solution_recall: f64,
    pub unstable_solution_recall: f64,
    pub templates_within_1_5x: u64,
    /// Templates whose rate is within ×/÷ 1.5 beyond sampling noise (95 %).
    pub templates_within_1_5x_significant: u64,
    /// Templates whose rate is outside ×/÷ 1.5 beyond sampling noise (95 %).
    pub templates_outside_1_5x_significant: u64,
    pub templates: u64,
    /// Tasks that rephyre solves with no action at all.
    pub self_solving_tasks: u64,
    /// Tasks whose random solve rate is incompatible with the original's (p < 2e-6 each).
    pub task_rate_outliers: u64,
}

/// The original's per-task rates of one template, folded as rephyre samples: the same number
/// of attempts per task.
#[derive(Default)]
struct TemplateRates {
    tasks: u64,
    /// Σ valid share; Σ valid share × solve rate; Σ (valid share)² × its variance.
    weight: f64,
    weighted_rate: f64,
    weighted_variance: f64,
    invalid: f64,
}

impl TemplateRates {
    fn add(&mut self, c: &OriginalCounts) {
        let w = c.valid_share();
        self.tasks += 1;
        self.weight += w;
        self.weighted_rate += w * c.solve_rate();
        self.weighted_variance += w * w * c.solve_rate_variance();
        self.invalid += c.invalid_rate();
    }

    /// (rate, standard error).
    fn solve_rate(&self) -> (f64, f64) {
        if self.weight <= 0.0 {
            return (0.0, 0.0);
        }
        (
            self.weighted_rate / self.weight,
            self.weighted_variance.sqrt() / self.weight,
        )
    }

    fn invalid_rate(&self) -> f64 {
        if self.tasks == 0 {
            return 0.0;
        }
        self.invalid / self.tasks as f64
    }
}

/// Our random-action rates for one template: (valid, solved, invalid) counts.
pub type OwnRates = BTreeMap<(String, String), (u64, u64, u64)>;

/// Fold per-row results (`ours[i]` for `rows[i]`: −1, 0, 1) into the report.
pub fn summarize(
    rows: &[ReferenceRow],
    ours: &[i8],
    counts: &BTreeMap<(String, String), OriginalCounts>,
    own_rates: &OwnRates,
) -> ParityReport {
    let mut rep = ParityReport::default();
    let mut per: BTreeMap<(String, String), TemplateParity> = BTreeMap::new();
    for (row, &o) in rows.iter().zip(ours) {
        let t = per
            .entry((row.tier.clone(), row.template().to_string()))
            .or_insert_with(|| TemplateParity {
                template: row.template().to_string(),
                tier: row.tier.clone(),
                ..Default::default()
            });
        rep.rows += 1;
        t.rows += 1;
        let agree = (row.status == 0) == (o == 0);
        if agree {
            rep.validity_agree += 1;
            t.validity_agree += 1;
        } else {
            rep.validity_mismatches.push((
                row.task_id.clone(),
                row.tier.clone(),
                row.index,
                row.status,
                o,
            ));
        }
        match row.kind {
            RowKind::Random => {
                rep.random.add(row.status, o);
                t.random.add(row.status, o);
            }
            RowKind::StableSolution => {
                rep.stable_rows += 1;
                t.stable_rows += 1;
                if o == 1 {
                    rep.stable_solved += 1;
                    t.stable_solved += 1;
                }
            }
            RowKind::UnstableSolution => {
                rep.unstable_rows += 1;
                t.unstable_rows += 1;
                if o == 1 {
                    rep.unstable_solved += 1;
                    t.unstable_solved += 1;
                }
            }
        }
    }
    // Original rates from the counts file (action tier = task tier). The original sampled
    // each task until it had enough solutions, so its counts are not a random sample of the
    // template: pooling them would weight each task by how rare its solutions are. rephyre
    // samples the same number of attempts per task, so the matching template rate is the mean
    // of per-task rates weighted by each task's valid share.
    let mut orig: BTreeMap<(String, String), TemplateRates> = BTreeMap::new();
    for ((task, tier), c) in counts {
        let template = task.split(':').next().unwrap_or("").to_string();
        let task_tier = if template.starts_with("001") {
            "two_balls"
        } else {
            "ball"
        };
        if tier != task_tier {
            continue;
        }
        orig.entry((tier.clone(), template)).or_default().add(c);
    }
    for (key, t) in per.iter_mut() {
        if let Some(r) = orig.get(key) {
            (t.original_solve_rate, t.original_solve_rate_se) = r.solve_rate();
            t.original_invalid_rate = r.invalid_rate();
        }
        if let Some(&(valid, solved, invalid)) = own_rates.get(key) {
            t.rephyre_solve_rate = ratio(solved, valid);
            t.rephyre_invalid_rate = ratio(invalid, valid + invalid);
            t.rephyre_valid_samples = valid;
            t.rephyre_solved_samples = solved;
        }
    }
    rep.templates = per.into_values().collect();
    rep
}

impl ParityReport {
    pub fn summary(&self) -> ParitySummary {
        ParitySummary {
            rows: self.rows,
            validity_agreement: ratio(self.validity_agree, self.rows),
            status_agreement_random: self.random.agreement(),
            stable_solution_recall: ratio(self.stable_solved, self.stable_rows),
            unstable_solution_recall: ratio(self.unstable_solved, self.unstable_rows),
            templates_within_1_5x: self.templates.iter().filter(|t| t.within(1.5)).count() as u64,
            templates_within_1_5x_significant: self.count_verdicts(RateVerdict::Within),
            templates_outside_1_5x_significant: self.count_verdicts(RateVerdict::Outside),
            templates: self.templates.len() as u64,
            self_solving_tasks: self.self_solving.len() as u64,
            task_rate_outliers: self.task_outliers.len() as u64,
        }
    }

    fn count_verdicts(&self, v: RateVerdict) -> u64 {
        self.templates
            .iter()
            .filter(|t| t.verdict(1.5) == v)
            .count() as u64
    }

    /// The Markdown report.
    pub fn to_markdown(&self) -> String {
        let s = self.summary();
        let mut m = String::new();
        let _ = writeln!(
            m,
            "# rephyre vs PHYRE 0.2.2: parity on the original's fixed actions\n"
        );
        let _ = writeln!(m, "| measure | value |\n|---|---|");
        let _ = writeln!(m, "| rows | {} |", s.rows);
        let _ = writeln!(
            m,
            "| validity agreement | {:.4}% ({} mismatches) |",
            100.0 * s.validity_agreement,
            self.validity_mismatches.len()
        );
        let _ = writeln!(
            m,
            "| solved/not-solved agreement, random actions valid in both | {:.2}% of {} |",
            100.0 * s.status_agreement_random,
            self.random.total()
        );
        let _ = writeln!(
            m,
            "| original's stable solutions that solve in rephyre | {:.2}% of {} |",
            100.0 * s.stable_solution_recall,
            self.stable_rows
        );
        let _ = writeln!(
            m,
            "| original's unstable solutions that solve in rephyre | {:.2}% of {} |",
            100.0 * s.unstable_solution_recall,
            self.unstable_rows
        );
        let _ = writeln!(
            m,
            "| templates with random solve rate within ×/÷ 1.5 | {} of {} |",
            s.templates_within_1_5x, s.templates
        );
        let _ = writeln!(
            m,
            "| … of which beyond sampling noise (95 %): within / outside / undetermined | {} / {} / {} |",
            s.templates_within_1_5x_significant,
            s.templates_outside_1_5x_significant,
            s.templates - s.templates_within_1_5x_significant - s.templates_outside_1_5x_significant
        );
        let _ = writeln!(
            m,
            "| tasks that solve themselves with no action (original: none) | {} of {} |",
            s.self_solving_tasks, self.scenes_run
        );
        let _ = writeln!(
            m,
            "| tasks whose random solve rate is not the original's (p < {OUTLIER_P:.0e}) | {} |\n",
            s.task_rate_outliers
        );
        let c = &self.random;
        let _ = writeln!(
            m,
            "## Random actions: confusion (rows: original, columns: rephyre)\n"
        );
        let _ = writeln!(
            m,
            "| | rephyre solved | rephyre not solved |\n|---|---|---|"
        );
        let _ = writeln!(
            m,
            "| original solved | {} | {} |",
            c.both_solved, c.only_original_solved
        );
        let _ = writeln!(
            m,
            "| original not solved | {} | {} |\n",
            c.only_rephyre_solved, c.neither_solved
        );
        let _ = writeln!(m, "## Per template\n");
        let _ = writeln!(
            m,
            "| tier | template | validity | random agreement | orig→ours solved / ours only | stable recall | unstable recall | solve rate orig | solve rate ours (n) | ratio | 95 % verdict | invalid orig | invalid ours |"
        );
        let _ = writeln!(m, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for t in &self.templates {
            let ratio_s = if t.original_solve_rate > 0.0 && t.rephyre_solve_rate > 0.0 {
                format!("{:.2}", t.rephyre_solve_rate / t.original_solve_rate)
            } else {
                "–".into()
            };
            let _ = writeln!(
                m,
                "| {} | {} | {:.2}% | {:.2}% | {}/{} / {} | {:.1}% | {:.1}% | {:.4} | {:.4} ({}) | {}{} | {} | {:.3} | {:.3} |",
                t.tier,
                t.template,
                100.0 * ratio(t.validity_agree, t.rows),
                100.0 * t.random.agreement(),
                t.random.both_solved,
                t.random.both_solved + t.random.only_original_solved,
                t.random.only_rephyre_solved,
                100.0 * ratio(t.stable_solved, t.stable_rows),
                100.0 * ratio(t.unstable_solved, t.unstable_rows),
                t.original_solve_rate,
                t.rephyre_solve_rate,
                t.rephyre_valid_samples,
                ratio_s,
                if t.within(1.5) { "" } else { " ✗" },
                match t.verdict(1.5) {
                    RateVerdict::Within => "within",
                    RateVerdict::Outside => "outside",
                    RateVerdict::Undetermined => "undetermined",
                },
                t.original_invalid_rate,
                t.rephyre_invalid_rate,
            );
        }
        let _ = writeln!(
            m,
            "\nThe original's rate of a template is the mean of its tasks' rates, weighted by their \
             valid shares (rephyre samples the same number of attempts per task; the original \
             sampled each task until its third stable solution, so its pooled counts would weight \
             tasks by how rare their solutions are), each task's rate corrected for that stopping \
             rule. The verdict compares rephyre's 95 % Wilson interval with [orig ÷ 1.5, orig × 1.5] \
             taken at the ends of the original's own 95 % interval: *within* / *outside* when it \
             lies inside / outside for every original rate in that interval, *undetermined* \
             otherwise."
        );
        if !self.task_outliers.is_empty() {
            let _ = writeln!(
                m,
                "\n## Tasks whose solve rate is not the original's\n\n\
                 Random actions per task as above; flagged when rephyre's count is incompatible \
                 with the original's per-task rate (binomial tail p < {OUTLIER_P:.0e}, i.e. 0.01 \
                 shared over 5,000 tasks).\n\n| task | original rate | rephyre solved / valid | p |\n|---|---:|---:|---:|"
            );
            for o in &self.task_outliers {
                let _ = writeln!(
                    m,
                    "| {} | {:.4} | {} / {} ({:.4}) | {:.1e} |",
                    o.task_id,
                    o.original_solve_rate,
                    o.rephyre_solved,
                    o.rephyre_valid,
                    ratio(o.rephyre_solved, o.rephyre_valid),
                    o.p_value
                );
            }
        }
        if !self.self_solving.is_empty() {
            let _ = writeln!(
                m,
                "\n## Tasks that solve themselves in rephyre (no action)\n\n{}",
                self.self_solving.join(", ")
            );
        }
        if !self.validity_mismatches.is_empty() {
            let _ = writeln!(m, "\n## Validity mismatches\n\n| task | tier | index | original | rephyre |\n|---|---|---|---|---|");
            for (task, tier, idx, a, b) in &self.validity_mismatches {
                let _ = writeln!(m, "| {task} | {tier} | {idx} | {a} | {b} |");
            }
        }
        m
    }
}

/// Seed of the random actions behind rephyre's per-template rates (a documented constant so
/// the report is reproducible).
pub const RATE_SEED: u64 = 0x5048_5952_4501;

/// Status of one (task, tier, action) in rephyre: −1 not solved, 0 invalid, 1 solved.
pub fn status_of(task: &tasks::Task, tier: tasks::Tier, action: &[f64]) -> i8 {
    status_of_validated(task, &tasks::validate_action(task, tier, action))
}

/// [`status_of`] for an action already validated.
fn status_of_validated(
    task: &tasks::Task,
    validated: &Result<tasks::ValidAction, tasks::InvalidAction>,
) -> i8 {
    match validated {
        Err(_) => 0,
        Ok(valid) => {
            match tasks::outcome::simulate(task, valid, tasks::SimOptions::STATUS_ONLY) {
                Ok(o) if o.solved => 1,
                Ok(_) => -1,
                // A world that cannot be built is reported as invalid (never seen for PHYRE tasks).
                Err(_) => 0,
            }
        }
    }
}

/// What `rephyre parity` runs.
#[derive(Clone, Debug)]
pub struct ParityOptions<'a> {
    /// Reference rows (outcomes-A.csv format); `None`: the built-in copy.
    pub reference: Option<&'a std::path::Path>,
    /// Markdown report.
    pub out: Option<&'a std::path::Path>,
    /// Print the one-line JSON summary instead of the headline table.
    pub json: bool,
    /// Random actions per ball-tier task for rephyre's own per-template rates.
    pub random_per_task: u32,
    /// The same for two-ball-tier tasks.
    pub random_per_task_2b: u32,
    /// Threads, progress, checkpoint and resume.
    pub run: crate::runner::RunConfig,
}

/// Random actions drawn per runner batch (a checkpoint never loses more than one batch a task).
const DRAWS_PER_BATCH: u32 = 25;

/// One task's share of the parity run (the runner's per-task state).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct TaskParityState {
    /// The first batch (reference rows and the scene) has run.
    pub started: bool,
    /// rephyre's status of each reference row of the task, in row order.
    pub reference: Vec<i8>,
    /// The scene, run with no action, solves itself (referenced tasks only).
    pub scene_solved: bool,
    /// Own random actions: drawn so far, next index of the task's stream, and their outcomes.
    pub draws: u32,
    pub next_index: u64,
    pub valid: u64,
    pub solved: u64,
    pub invalid: u64,
}

/// The next random action of a task's stream for rephyre's rates, from `*index` on (advanced
/// past every draw used), with its validation.
///
/// Like the original's random actions ([`tasks::sample_action`]): drawn uniformly, redrawing any
/// ball outside the scene and (two balls) any pair closer than the validity gap. None of
/// outcomes-A's 60,000 two-ball random rows has such a pair, where uniform in-scene draws give
/// 7 %. Actions that overlap a scene body are kept (and count as invalid, as in the original's
/// counts).
pub fn random_action(
    task: &tasks::Task,
    tier: tasks::Tier,
    stream: u64,
    index: &mut u64,
) -> (Vec<f64>, Result<tasks::ValidAction, tasks::InvalidAction>) {
    let a = tasks::sample_action(tier, RATE_SEED, stream, index);
    let validated = tasks::validate_action(task, tier, &a);
    (a, validated)
}

/// The parity run as a runner job: one runner task per task of the set.
struct ParityJob<'a> {
    tasks: &'a [tasks::Task],
    rows: &'a [ReferenceRow],
    /// Per task: its reference rows (indices into `rows`, in order).
    rows_of: Vec<Vec<u32>>,
    random_per_task: u32,
    random_per_task_2b: u32,
    fingerprint: String,
}

impl ParityJob<'_> {
    fn draws(&self, tier: tasks::Tier) -> u32 {
        match tier {
            tasks::Tier::Ball => self.random_per_task,
            tasks::Tier::TwoBalls => self.random_per_task_2b,
        }
    }
}

impl crate::runner::TaskJob for ParityJob<'_> {
    type State = TaskParityState;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    fn advance(&self, t: usize, s: &mut TaskParityState) -> bool {
        let task = &self.tasks[t];
        let tier = task.tier();
        let target = self.draws(tier);
        if !s.started {
            s.reference = self.rows_of[t]
                .iter()
                .map(|&i| {
                    let r = &self.rows[i as usize];
                    // Tiers were checked when the job was made.
                    let row_tier = tasks::Tier::parse(&r.tier).unwrap_or(tier);
                    status_of(task, row_tier, &r.action)
                })
                .collect();
            if !self.rows_of[t].is_empty() {
                s.scene_solved = tasks::simulate_scene(task, tasks::SimOptions::STATUS_ONLY)
                    .is_ok_and(|o| o.solved);
            }
            s.started = true;
            return s.draws >= target;
        }
        let stream = crate::rng::stream_of(&task.id().to_string());
        let end = target.min(s.draws.saturating_add(DRAWS_PER_BATCH));
        while s.draws < end {
            let (_, validated) = random_action(task, tier, stream, &mut s.next_index);
            match status_of_validated(task, &validated) {
                0 => s.invalid += 1,
                1 => {
                    s.valid += 1;
                    s.solved += 1
                }
                _ => s.valid += 1,
            }
            s.draws += 1;
        }
        s.draws >= target
    }

    fn simulations(&self, s: &TaskParityState) -> u64 {
        s.reference.iter().filter(|&&o| o != 0).count() as u64 + s.valid
    }
}

/// `rephyre parity`: run every reference row, sample random actions per task for the
/// per-template rates, run every referenced task's scene without an action (all on the
/// checkpointed runner), write the Markdown report (if asked) and print either the one-line
/// JSON summary or the headline table.
pub fn run(task_set: &tasks::TaskSet, opts: &ParityOptions) -> Result<()> {
    let ParityOptions {
        reference,
        out,
        json,
        random_per_task,
        random_per_task_2b,
        ref run,
    } = *opts;
    let mut outputs: Vec<&std::path::Path> = out.into_iter().collect();
    outputs.extend(run.checkpoint.as_deref());
    crate::commands::check_outputs(outputs)?;
    let text = match reference {
        Some(p) => std::fs::read_to_string(p)
            .with_context(|| format!("cannot read reference file {}", p.display()))?,
        None => builtin_reference()?,
    };
    let rows = parse_reference(&text)?;
    let counts = parse_counts(BUILTIN_COUNTS_CSV)?;
    let all = task_set.tasks();
    let position: BTreeMap<String, usize> = all
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id().to_string(), i))
        .collect();
    let mut rows_of: Vec<Vec<u32>> = vec![Vec::new(); all.len()];
    for (i, r) in rows.iter().enumerate() {
        // Resolve every row first: a bad row is an error before any simulation.
        task_set
            .lookup(&r.task_id)
            .map_err(|e| anyhow::anyhow!("reference row for {}: {e}", r.task_id))?;
        tasks::Tier::parse(&r.tier).with_context(|| {
            format!("reference row for {}: unknown tier {:?}", r.task_id, r.tier)
        })?;
        let t = *position
            .get(&r.task_id)
            .with_context(|| format!("reference row for {}: task not in the set", r.task_id))?;
        rows_of[t].push(u32::try_from(i).context("too many reference rows")?);
    }
    let refs: Vec<&tasks::Task> = all.iter().collect();
    let job = ParityJob {
        tasks: all,
        rows: &rows,
        rows_of,
        random_per_task,
        random_per_task_2b,
        fingerprint: format!(
            "parity-2 rephyre-{} reference={:016x} random={}/{} seed={RATE_SEED:x} {}",
            env!("CARGO_PKG_VERSION"),
            crate::commands::fnv64(text.as_bytes()),
            random_per_task,
            random_per_task_2b,
            crate::commands::tasks_fingerprint(&refs)?
        ),
    };
    let states = crate::runner::run(&job, run)?;
    // Scatter the per-task results back into row order and per-template sums.
    let mut ours = vec![0i8; rows.len()];
    let mut own: OwnRates = BTreeMap::new();
    let mut per_task_own: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut self_solving = Vec::new();
    let mut scenes_run = 0u64;
    for ((task, s), rows_here) in all.iter().zip(&states).zip(&job.rows_of) {
        for (&i, &o) in rows_here.iter().zip(&s.reference) {
            ours[i as usize] = o;
        }
        let id = task.id().to_string();
        if !rows_here.is_empty() {
            scenes_run += 1;
            if s.scene_solved {
                self_solving.push(id.clone());
            }
        }
        let e = own
            .entry((task.tier().to_string(), id[..5].to_string()))
            .or_default();
        e.0 += s.valid;
        e.1 += s.solved;
        e.2 += s.invalid;
        per_task_own.insert(id, (s.valid, s.solved));
    }
    self_solving.sort();
    let mut report = summarize(&rows, &ours, &counts, &own);
    report.self_solving = self_solving;
    report.scenes_run = scenes_run;
    report.task_outliers = task_outliers(&per_task_own, &counts);
    if let Some(o) = out {
        crate::output::write_atomic(o, report.to_markdown().as_bytes())?;
    }
    let s = report.summary();
    if json {
        println!("{}", serde_json::to_string(&s)?);
    } else {
        println!("rows                         {}", s.rows);
        println!("validity agreement           {:.4}", s.validity_agreement);
        println!(
            "status agreement (random)    {:.4}",
            s.status_agreement_random
        );
        println!(
            "stable solution recall       {:.4}",
            s.stable_solution_recall
        );
        println!(
            "unstable solution recall     {:.4}",
            s.unstable_solution_recall
        );
        println!(
            "templates within x/÷1.5      {} of {} ({} beyond noise, {} outside beyond noise)",
            s.templates_within_1_5x,
            s.templates,
            s.templates_within_1_5x_significant,
            s.templates_outside_1_5x_significant
        );
        println!(
            "self-solving tasks           {} of {}",
            s.self_solving_tasks, scenes_run
        );
        println!("task rate outliers           {}", s.task_rate_outliers);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_reference_parses() {
        let rows = parse_reference(&builtin_reference().unwrap()).unwrap();
        assert_eq!(rows.len(), 141_680);
        assert_eq!(
            rows.iter().filter(|r| r.kind == RowKind::Random).count(),
            120_000
        );
        assert!(rows
            .iter()
            .all(|r| r.action.len() == if r.tier == "ball" { 3 } else { 6 }));
        let counts = parse_counts(BUILTIN_COUNTS_CSV).unwrap();
        assert_eq!(counts.len(), 10_000);
    }

    #[test]
    fn summary_counts_agreement() {
        let row = |kind, status| ReferenceRow {
            task_id: "00000:001".into(),
            tier: "ball".into(),
            kind,
            index: 0,
            action: vec![0.5; 3],
            status,
        };
        let rows = vec![
            row(RowKind::Random, -1),
            row(RowKind::Random, 1),
            row(RowKind::Random, 0),
            row(RowKind::StableSolution, 1),
            row(RowKind::StableSolution, 1),
        ];
        let ours = vec![-1, -1, 0, 1, -1];
        let rep = summarize(&rows, &ours, &BTreeMap::new(), &BTreeMap::new());
        let s = rep.summary();
        assert_eq!(s.rows, 5);
        assert_eq!(s.validity_agreement, 1.0);
        assert_eq!(s.status_agreement_random, 0.5);
        assert_eq!(s.stable_solution_recall, 0.5);
        assert!(parse_reference("a,b\n1,2\n").is_err());
        assert!(parse_reference(
            "task_id,tier,kind,index,action,status\n00000:000,ball,random,0,0.1 x,1\n"
        )
        .is_err());
    }

    #[test]
    fn wilson_interval_and_rate_verdicts() {
        // Hand-computed Wilson 95 % intervals.
        let (lo, hi) = wilson_95(10, 100);
        assert!(
            (lo - 0.05523).abs() < 1e-5 && (hi - 0.17437).abs() < 1e-5,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_95(0, 1000);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.0038268).abs() < 1e-6, "{hi}");
        assert_eq!(wilson_95(0, 0), (0.0, 1.0));
        let t = |k, n| TemplateParity {
            original_solve_rate: 0.01,
            rephyre_valid_samples: n,
            rephyre_solved_samples: k,
            ..Default::default()
        };
        assert_eq!(t(1000, 100_000).verdict(1.5), RateVerdict::Within);
        assert_eq!(t(3000, 100_000).verdict(1.5), RateVerdict::Outside);
        assert_eq!(t(300, 100_000).verdict(1.5), RateVerdict::Outside);
        assert_eq!(t(3, 300).verdict(1.5), RateVerdict::Undetermined);
        assert_eq!(t(0, 0).verdict(1.5), RateVerdict::Undetermined);
    }

    #[test]
    fn random_actions_are_in_scene_and_apart_like_the_originals() {
        let set = tasks::TaskSet::builtin();
        let task = set.lookup("00100:000").unwrap();
        let (mut index, mut occluded) = (0u64, 0);
        for _ in 0..2_000 {
            let before = index;
            let (a, validated) = random_action(task, tasks::Tier::TwoBalls, 9, &mut index);
            assert!(index > before);
            let checked = tasks::validate_action(task, tasks::Tier::TwoBalls, &a);
            assert_eq!(checked.is_ok(), validated.is_ok(), "{a:?}");
            match checked {
                Ok(_) => {}
                Err(tasks::InvalidAction::Occluded { .. }) => occluded += 1,
                Err(e) => panic!("{a:?} drawn though {e:?}"),
            }
        }
        // About half of the in-scene, apart pairs overlap a body of this task.
        assert!((200..1_800).contains(&occluded), "{occluded}");
        // Redraws happened: more stream indices used than actions returned.
        assert!(index > 2_000 * 3 / 2, "{index}");
    }

    #[test]
    fn original_rates_undo_the_stopping_rule() {
        let c = |attempts: u64, valid: u64, unstable: u64, stable: u64| OriginalCounts {
            not_solved: valid - unstable - stable,
            invalid: attempts - valid,
            unstably_solved: unstable,
            stably_solved: stable,
        };
        // 00000:035 in the file: 6 batches where 2 give 10,000 valid, 3 stable: the run
        // ended on a stable solution, which does not count.
        let late = c(60_000, 54_652, 93, 3);
        assert!(late.stopped_by_solutions());
        assert!((late.solve_rate() - 95.0 / 54_652.0).abs() < 1e-15);
        // 00000:000: 2 batches, the 10,000-valid floor ended it: plain ratio.
        let floor = c(20_000, 17_824, 164, 3);
        assert!(!floor.stopped_by_solutions());
        assert!((floor.solve_rate() - 167.0 / 17_824.0).abs() < 1e-15);
        // A 30 % valid share needs 4 batches for the floor.
        assert!(!c(40_000, 12_000, 10, 3).stopped_by_solutions());
        assert!(c(50_000, 15_000, 10, 3).stopped_by_solutions());
    }

    /// The correction, checked by simulating the original's rule: batches of 10,000
    /// attempts (80 % valid) until ≥ 10,000 valid and ≥ 3 stable solutions.
    #[test]
    fn corrected_rate_is_unbiased_under_the_original_rule() {
        let p: f64 = 5e-5;
        let valid_per_batch = 8_000u64;
        let (mut plain, mut corrected) = (0.0, 0.0);
        let tasks = 4_000u64;
        for t in 0..tasks {
            // Positions of stable solutions among valid attempts: geometric gaps.
            let (mut pos, mut k, mut third) = (0u64, 0u64, 0u64);
            while k < 3 {
                let u = 1.0 - tasks::rng::unit_f64(tasks::rng::word(7, t, k, 0));
                pos += 1 + (u.ln() / (1.0 - p).ln()).floor() as u64;
                k += 1;
                third = pos;
            }
            let batches = third.div_ceil(valid_per_batch).max(2);
            let valid = batches * valid_per_batch;
            // Solutions after the third within its batch: continue the same stream.
            let mut stable = 3;
            loop {
                let u = 1.0 - tasks::rng::unit_f64(tasks::rng::word(7, t, k, 0));
                pos += 1 + (u.ln() / (1.0 - p).ln()).floor() as u64;
                k += 1;
                if pos > valid {
                    break;
                }
                stable += 1;
            }
            let counts = OriginalCounts {
                not_solved: valid - stable,
                invalid: batches * 10_000 - valid,
                unstably_solved: 0,
                stably_solved: stable,
            };
            plain += stable as f64 / valid as f64;
            corrected += counts.solve_rate();
        }
        let (plain, corrected) = (plain / tasks as f64 / p, corrected / tasks as f64 / p);
        assert!(plain > 1.25, "plain ratio bias {plain}");
        assert!((corrected - 1.0).abs() < 0.06, "corrected {corrected}");
    }

    #[test]
    fn template_rate_is_the_mean_of_task_rates_not_pooled_counts() {
        let row = |task: &str| ReferenceRow {
            task_id: task.into(),
            tier: "ball".into(),
            kind: RowKind::Random,
            index: 0,
            action: vec![0.5; 3],
            status: -1,
        };
        let rows = vec![row("00003:000"), row("00003:001")];
        let mut counts = BTreeMap::new();
        // A common-solution task (rate 0.1, 2 batches) and a rare one (3 stable solutions
        // in 1,000,000 valid attempts, the third ending the run): pooled, the rare task's
        // attempts would pull the template rate down to ≈ 0.0018.
        let easy = OriginalCounts {
            not_solved: 18_000,
            invalid: 0,
            unstably_solved: 1_000,
            stably_solved: 1_000,
        };
        let rare = OriginalCounts {
            not_solved: 999_997,
            invalid: 0,
            unstably_solved: 0,
            stably_solved: 3,
        };
        counts.insert(("00003:000".to_string(), "ball".to_string()), easy);
        counts.insert(("00003:001".to_string(), "ball".to_string()), rare);
        let rep = summarize(&rows, &[-1, -1], &counts, &BTreeMap::new());
        let t = &rep.templates[0];
        let want = (0.1 + 2.0 / 1_000_000.0) / 2.0;
        assert!(
            (t.original_solve_rate - want).abs() < 1e-12,
            "{}",
            t.original_solve_rate
        );
        assert!(t.original_solve_rate_se > 0.0 && t.original_solve_rate_se < 0.002);
    }

    #[test]
    fn task_outliers_flag_only_incompatible_rates() {
        let mut counts = BTreeMap::new();
        let c = OriginalCounts {
            not_solved: 9_200,
            invalid: 1_000,
            unstably_solved: 700,
            stably_solved: 100,
        }; // rate 0.08
        for t in ["00005:059", "00005:060", "00005:061"] {
            counts.insert((t.to_string(), "ball".to_string()), c);
        }
        let own: BTreeMap<String, (u64, u64)> = [
            ("00005:059".to_string(), (130, 0)), // P(0 | 130, 0.08) = 2e-5: not enough alone
            ("00005:060".to_string(), (400, 0)), // 3e-15: flagged
            ("00005:061".to_string(), (400, 33)), // expected 32: fine
            ("00006:000".to_string(), (400, 400)), // no original counts: skipped
        ]
        .into_iter()
        .collect();
        let out = task_outliers(&own, &counts);
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].task_id, "00005:060");
        assert!((out[0].original_solve_rate - 0.08).abs() < 1e-12);
        assert!(out[0].p_value < 1e-13);
    }
}
