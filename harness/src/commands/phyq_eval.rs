//! `rephyre phyq-eval`: [`studies::phyq_eval`] on the Phy-Q tasks (the built-in tier, or a
//! `--tasks` level-set file): writes the per-task CSV, the Markdown report and the plot, and
//! prints the figures. With `--shard K/N` it runs part K of N and writes the part file to
//! `--out`; `rephyre merge` turns the parts into the same report.

use super::sharded_study::{Extra, MergeOutputs, ShardedStudy};
use crate::cli::{PhyqDqnArgs, PhyqEvalArgs};
use crate::context::Ctx;
use crate::parse::check_outputs;
use agents::dqn::phyq::{Model, PhyqDqn};
use anyhow::bail;
use anyhow::{Context, Result};
use phyq::levelset::{Entry, LevelSet};
use phyq::playdata::SCENARIOS;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;
use studies::files::write_atomic;
use studies::phyq_dqn;
use studies::phyq_eval::{builtin, train_tasks, SharedAgent};
use studies::phyq_eval::{
    csv_text, figures, json_line, random_reference, rows as rows_of, summary_markdown, AgentName,
    Job, Params, Setting, State,
};
use studies::shard::read_parts;

/// The Phy-Q tasks: the `--tasks` level-set file, or the built-in tier.
fn entries(ctx: &Ctx) -> Result<Vec<Entry>> {
    match &ctx.tasks_file {
        Some(path) => {
            let set = LevelSet::read(path).with_context(|| {
                format!("cannot load --tasks {} as Phy-Q levels", path.display())
            })?;
            Ok(set.entries().to_vec())
        }
        None => Ok(phyq::generator::builtin_tasks().entries().to_vec()),
    }
}

pub fn run(ctx: &Ctx, a: PhyqEvalArgs) -> Result<()> {
    let params = Params::new(
        AgentName::parse(&a.agent)?,
        Setting::parse(&a.setting)?,
        a.attempts,
        a.seed,
    )?;
    if params.agent != AgentName::Dqn && a.dqn.model.is_some() {
        bail!("--model is for --agent dqn");
    }
    let mut outputs = vec![a.out.as_path()];
    outputs.extend(a.summary.as_deref());
    outputs.extend(a.plot.as_deref());
    outputs.extend(a.ckpt.checkpoint.as_deref());
    check_outputs(outputs)?;
    let cfg = ctx.run_config(&a.ckpt)?;
    let entries = entries(ctx)?;
    let agent = match params.agent {
        AgentName::Dqn => dqn_agent(&entries, &params, &a.dqn, cfg.threads)?,
        _ => builtin(params.agent)?,
    };
    if let Some(shard) = a.ckpt.shard {
        super::shard_part::no_report_options(&[
            ("--summary", a.summary.is_some()),
            ("--plot", a.plot.is_some()),
            ("--json", a.json),
        ])?;
        let part = studies::phyq_eval::run_shard(&entries, params, agent, shard, &cfg)?;
        return super::shard_part::write_shard_part(shard, &part, &a.out);
    }
    let (job, states) = studies::phyq_eval::run_with(&entries, params, agent, &cfg)?;
    report(
        &job,
        &states,
        &MergeOutputs {
            out: &a.out,
            summary: a.summary.as_deref(),
            plot: a.plot.as_deref(),
            json: a.json,
        },
    )
}

/// The DQN: read from `--model` when it exists, else trained on the setting's training tasks
/// (and written to `--model` when named).
fn dqn_agent(
    entries: &[Entry],
    params: &Params,
    a: &PhyqDqnArgs,
    threads: Option<usize>,
) -> Result<SharedAgent> {
    if let Some(path) = a.model.as_deref().filter(|p| p.exists()) {
        let model = Model::load(path).map_err(anyhow::Error::msg)?;
        eprintln!(
            "dqn: model {} ({})",
            path.display(),
            model.header.trained_on
        );
        return Ok(Arc::new(PhyqDqn::new(model)));
    }
    let mut p = phyq_dqn::Params::new(params.setting, a.dqn_seed);
    p.episodes = a.dqn_episodes;
    p.explore = a.dqn_explore;
    p.stride = a.dqn_stride;
    p.config.updates = a.dqn_updates;
    p.config.lr = a.dqn_lr;
    p.config.hidden = a.dqn_hidden as usize;
    p.check()?;
    let n = train_tasks(entries, params.setting)?
        .len()
        .div_ceil(p.stride);
    eprintln!(
        "dqn: collecting experiences on {n} training tasks of the {} setting",
        params.setting.word()
    );
    let start = Instant::now();
    let done = AtomicUsize::new(0);
    let tick = || {
        let k = done.fetch_add(1, Ordering::Relaxed) + 1;
        if k.is_multiple_of(500) || k == n {
            eprintln!(
                "dqn: {k}/{n} tasks collected ({:.0} s)",
                start.elapsed().as_secs_f64()
            );
        }
    };
    let updates = p.config.updates;
    let mut train_start = None;
    let (model, data) = phyq_dqn::run(entries, &p, threads, &tick, |u, loss| {
        let t = *train_start.get_or_insert_with(Instant::now);
        if (u + 1).is_multiple_of(500) || u + 1 == updates {
            eprintln!(
                "dqn: update {}/{updates}, loss {loss:.4} ({:.0} s)",
                u + 1,
                t.elapsed().as_secs_f64()
            );
        }
    })?;
    let passing = data.experiences.iter().filter(|e| e.passed).count();
    eprintln!(
        "dqn: {} decisions, {} experiences ({passing} passing), {} tasks skipped; trained in {:.0} s all told",
        data.observations.len(),
        data.experiences.len(),
        data.errors,
        start.elapsed().as_secs_f64()
    );
    if let Some(path) = &a.model {
        model.save(path).map_err(anyhow::Error::msg)?;
        eprintln!("dqn: model written to {}", path.display());
    }
    Ok(Arc::new(PhyqDqn::new(model)))
}

/// Write the CSV, the report and the plot of a finished run and print its figures: the end of
/// a run and of a merge.
fn report(job: &Job, states: &[State], o: &MergeOutputs) -> Result<()> {
    let rows = rows_of(job, states);
    let params = job.params;
    let f = figures(&params, &rows, &random_reference());
    write_atomic(o.out, csv_text(&rows).as_bytes())?;
    if let Some(sum) = o.summary {
        write_atomic(sum, summary_markdown(&params, &rows, &f).as_bytes())?;
    }
    if let Some(plot) = o.plot {
        write_atomic(plot, plot_svg(&params, &f)?.as_bytes())?;
    }
    let passes: u64 = rows.iter().map(|r| u64::from(r.passes)).sum();
    let attempts: u64 = rows.iter().map(|r| u64::from(r.attempts)).sum();
    println!(
        "{} tasks, {attempts} attempts, {passes} passed: pass rate {:.1} %{} -> {}",
        rows.len(),
        f.pass_rate * 100.0,
        f.phyq_score
            .map_or(String::new(), |s| format!(", Phy-Q score {s:.1}")),
        o.out.display()
    );
    if o.json {
        println!("{}", json_line(&params, &f));
    }
    Ok(())
}

/// The paper's Figure 4a for this agent: its rate per scenario beside the paper's humans.
fn plot_svg(params: &Params, f: &studies::phyq_eval::Figures) -> Result<String> {
    let humans: Vec<Option<f64>> = phyq::playdata::humans()
        .iter()
        .map(|h| Some(h.pass_rate))
        .collect();
    let mine: Vec<Option<f64>> = f.per_scenario.to_vec();
    debug_assert_eq!(mine.len(), SCENARIOS);
    super::plot::phyq_scenarios_svg(&[
        ("humans (paper, original game)".to_string(), humans),
        (
            format!(
                "{} (rephyre, {})",
                params.agent.word(),
                params.setting.word()
            ),
            mine,
        ),
    ])
}

/// Phy-Q evaluation sharded: parts merged into the CSV, the report and the plot.
pub const SHARDED: ShardedStudy = ShardedStudy {
    slurm_name: "phyq-eval",
    command: "phyq-eval",
    part_command: studies::phyq_eval::COMMAND,
    report: "phyq-eval.csv",
    extras: &[
        (Extra::Summary, "phyq-eval.md"),
        (Extra::Plot, "phyq-eval.svg"),
    ],
    json: true,
    checkpoint: ("--checkpoint", true),
    merge,
};

fn merge(ctx: &Ctx, parts: &[PathBuf], o: &MergeOutputs) -> Result<()> {
    let (job, states) = studies::phyq_eval::merge(&entries(ctx)?, read_parts(parts)?)?;
    report(&job, &states, o)
}
