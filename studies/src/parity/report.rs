//! The parity report: the comparison's model, how per-row results fold into it, its statistics
//! and its Markdown and JSON forms.

use super::reference::{OriginalCounts, ReferenceRow, RowKind};
use crate::stats::{ratio, wilson_95};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use tasks::{Status, TaskId, Tier};

/// The tier of a reference row's task by PHYRE's numbering ([`Tier::of_phyre_id`]); `ball` for
/// a malformed id.
fn phyre_tier(task: &str) -> &'static str {
    task.parse::<TaskId>()
        .map_or(Tier::Ball, Tier::of_phyre_id)
        .name()
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
    /// Count one row (rows invalid on either side are not in the table).
    pub fn add(&mut self, original: Status, ours: Status) {
        use Status::{NotSolved, Solved};
        match (original, ours) {
            (Solved, Solved) => self.both_solved += 1,
            (Solved, NotSolved) => self.only_original_solved += 1,
            (NotSolved, Solved) => self.only_rephyre_solved += 1,
            (NotSolved, NotSolved) => self.neither_solved += 1,
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
        let Some(c) = counts.get(&(task.clone(), phyre_tier(task).to_string())) else {
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
#[derive(Clone, Debug, Default)]
pub struct ParityReport {
    pub rows: u64,
    pub validity_agree: u64,
    /// (task, tier, index, original's status, rephyre's status) of rows valid on one side only.
    pub validity_mismatches: Vec<(String, String, u32, Status, Status)>,
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

/// Fold per-row results (`ours[i]` for `rows[i]`) into the report.
pub fn summarize(
    rows: &[ReferenceRow],
    ours: &[Status],
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
        let agree = row.status.is_valid() == o.is_valid();
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
                if o == Status::Solved {
                    rep.stable_solved += 1;
                    t.stable_solved += 1;
                }
            }
            RowKind::UnstableSolution => {
                rep.unstable_rows += 1;
                t.unstable_rows += 1;
                if o == Status::Solved {
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
        if tier != phyre_tier(task) {
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

    /// The headline figures `rephyre parity` prints, one line each.
    pub fn summary_text(&self) -> String {
        let s = self.summary();
        let mut out = String::new();
        let _ = writeln!(out, "rows                         {}", s.rows);
        for (label, value) in [
            ("validity agreement", s.validity_agreement),
            ("status agreement (random)", s.status_agreement_random),
            ("stable solution recall", s.stable_solution_recall),
            ("unstable solution recall", s.unstable_solution_recall),
        ] {
            let _ = writeln!(out, "{label:<28} {value:.4}");
        }
        let _ = writeln!(
            out,
            "templates within x/÷1.5      {} of {} ({} beyond noise, {} outside beyond noise)",
            s.templates_within_1_5x,
            s.templates,
            s.templates_within_1_5x_significant,
            s.templates_outside_1_5x_significant
        );
        let solving = s.self_solving_tasks;
        let _ = writeln!(
            out,
            "self-solving tasks           {solving} of {}",
            self.scenes_run
        );
        let _ = writeln!(out, "task rate outliers           {}", s.task_rate_outliers);
        out
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
                let _ = writeln!(
                    m,
                    "| {task} | {tier} | {idx} | {} | {} |",
                    a.phyre_code(),
                    b.phyre_code()
                );
            }
        }
        m
    }
}
