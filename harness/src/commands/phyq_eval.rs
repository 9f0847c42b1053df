//! `rephyre phyq-eval`: [`studies::phyq`] on the Phy-Q tasks (the built-in tier, or a
//! `--tasks` level-set file): writes the per-task CSV, the Markdown report and the plot, and
//! prints the figures. With `--shard K/N` it runs part K of N and writes the part file to
//! `--out`; `rephyre merge` turns the parts into the same report. `--agent dqn` first trains
//! its model ([`studies::phyq_dqn`], checkpointed with the run's `--checkpoint`, progress bars
//! for the collection and the updates) or reads it from `--model`; `--train-only` stops once
//! the model is written, and a dqn shard evaluates an existing `--model`.

use super::sharded_study::{MergeOutputs, ShardedStudy};
use crate::args::{CheckpointArgs, ReportArgs};
use crate::context::Ctx;
use crate::parse::check_outputs;
use agents::dqn::phyq::Config;
use agents::dqn::{NoProgress, TrainProgress};
use anyhow::{bail, Context, Result};
use clap::builder::RangedU64ValueParser;
use clap::Args;
use phyq::levelset::{Entry, LevelSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use studies::files::write_atomic;
use studies::phyq::{
    csv_text, figures, json_line, random_reference, rows as rows_of, rows_from_attempts,
    scenario_series, shard_needs_model, summary_markdown, AgentName, AgentSpec, Attempt,
    AttemptRule, DqnSpec, Event, Events, Job, Params, Setting, SharedAgent, State,
};
use studies::phyq_dqn::{self, CollectionOptions};
use studies::runner::RunConfig;
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
    if let Some(record) = &a.from_record {
        return from_record(record, &a);
    }
    let params = Params::new(a.agent, a.setting, a.attempts, a.attempt_rule, a.seed)?;
    if params.agent != AgentName::Dqn {
        if a.dqn.train_only {
            bail!("--train-only is for --agent dqn");
        }
        if a.dqn.model.is_some() {
            bail!("--model is for --agent dqn");
        }
    }
    if params.agent == AgentName::Dqn && a.ckpt.part.shard.is_some() {
        shard_needs_model(params.setting, a.dqn.model.as_deref())?;
    }
    let report_to = MergeOutputs::new(a.out.as_deref(), &a.report);
    let mut outputs: Vec<&Path> = report_to.files().collect();
    outputs.extend(a.ckpt.save.checkpoint.as_deref());
    outputs.extend(a.dqn.model.as_deref().filter(|_| a.dqn.train_only));
    check_outputs(outputs)?;
    let cfg = ctx.run_config(&a.ckpt)?;
    let entries = entries(ctx)?;
    if params.agent == AgentName::Dqn && !a.dqn.train_only {
        // Before the model is trained or read: a resume of other options is one line.
        studies::phyq::check_resume(&entries, params, a.ckpt.part.shard, &cfg)?;
    }
    // A DQN to train collects with a progress bar of its own.
    let trains =
        params.agent == AgentName::Dqn && !a.dqn.model.as_deref().is_some_and(Path::exists);
    let agent_cfg = if trains {
        ctx.run_config(&a.ckpt)?
    } else {
        cfg.clone()
    };
    let Some(agent) = make_agent(&entries, &params, &a, &agent_cfg, ctx.progress)? else {
        // --train-only: the model is written.
        return Ok(());
    };
    if let Some(shard) = a.ckpt.part.shard {
        super::shard_part::no_report_options(&[
            ("--summary", report_to.summary.is_some()),
            ("--plot", report_to.plot.is_some()),
            ("--json", report_to.json),
        ])?;
        let out = report_to
            .out
            .context("--shard writes its part to --out: give it")?;
        let part = studies::phyq::run_shard(&entries, params, agent, shard, &cfg)?;
        return super::shard_part::write_shard_part(shard, &part, out);
    }
    let (job, states) = studies::phyq::run_with(&entries, params, agent, &cfg)?;
    report(&job, &states, &report_to)
}

/// The agent `--agent` names ([`studies::phyq::agent`]): the DQN read from `--model` or
/// trained first, with its events on stderr and its training's progress bar. `None` with
/// `--train-only`, once the model is written.
fn make_agent(
    entries: &[Entry],
    params: &Params,
    a: &PhyqEvalArgs,
    cfg: &RunConfig,
    progress: bool,
) -> Result<Option<SharedAgent>> {
    let spec = match params.agent {
        AgentName::Dqn => AgentSpec::Dqn(DqnSpec {
            model: a.dqn.model.clone(),
            params: a.dqn.params(params.setting),
            train_only: a.dqn.train_only,
        }),
        name => AgentSpec::Builtin(name),
    };
    let training: Arc<dyn TrainProgress> = if progress {
        crate::progress::training_bar()
    } else {
        Arc::new(NoProgress)
    };
    let events: Events = Arc::new(|e: &Event| eprintln!("{e}"));
    studies::phyq::agent(entries, &spec, cfg, training.as_ref(), &events)
}

/// Write the CSV, the report and the plot of a finished run and print its figures: the end of
/// a run and of a merge.
fn report(job: &Job, states: &[State], o: &MergeOutputs) -> Result<()> {
    report_rows(&job.params, &rows_of(job, states), o)
}

/// `--from-record F.csv`: the attempts an external agent played through `rephyre phyq-server`,
/// one row per task, reported as a run of `--agent` is.
fn from_record(path: &Path, a: &PhyqEvalArgs) -> Result<()> {
    let report_to = MergeOutputs::new(a.out.as_deref(), &a.report);
    check_outputs(report_to.files())?;
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read --from-record {}", path.display()))?;
    let finished = phyq_server::record::parse(&text)
        .map_err(|e| anyhow::anyhow!("--from-record {}: {e}", path.display()))?;
    if finished.is_empty() {
        bail!("--from-record {} has no attempts", path.display());
    }
    let attempts: Vec<Attempt> = finished
        .iter()
        .map(|f| Attempt {
            task_id: f.task_id.clone(),
            passed: f.passed,
            shots: u64::from(f.shots),
        })
        .collect();
    let rows = rows_from_attempts(&attempts);
    let most = rows.iter().map(|r| r.attempts).max().unwrap_or(1);
    let params = Params::new(
        a.agent,
        a.setting,
        Some(most.min(studies::phyq::MAX_ATTEMPTS)),
        Some(a.attempt_rule.unwrap_or(AttemptRule::Every)),
        a.seed,
    )?;
    report_rows(&params, &rows, &report_to)
}

fn report_rows(params: &Params, rows: &[studies::phyq::Row], o: &MergeOutputs) -> Result<()> {
    let params = *params;
    let rows = rows.to_vec();
    let f = figures(&params, &rows, &random_reference());
    if let Some(out) = o.out {
        write_atomic(out, csv_text(&rows).as_bytes())?;
    }
    if let Some(sum) = o.summary {
        write_atomic(sum, summary_markdown(&params, &rows, &f).as_bytes())?;
    }
    if let Some(plot) = o.plot {
        let svg = studies::plot::phyq_scenarios_svg(&scenario_series(&params, &f))?;
        write_atomic(plot, svg.as_bytes())?;
    }
    // --json prints the figures instead of the line (stdout one JSON document, as the other
    // commands' --json).
    if o.json {
        println!("{}", json_line(&params, &f));
        return Ok(());
    }
    let passes: u64 = rows.iter().map(|r| u64::from(r.passes)).sum();
    let attempts: u64 = rows.iter().map(|r| u64::from(r.attempts)).sum();
    println!(
        "{} tasks, {attempts} attempts, {passes} passed: pass rate {:.1} %{}{}",
        rows.len(),
        f.pass_rate * 100.0,
        f.phyq_score
            .map_or(String::new(), |s| format!(", Phy-Q score {s:.1}")),
        o.out
            .map_or(String::new(), |out| format!(" -> {}", out.display()))
    );
    Ok(())
}

/// Phy-Q evaluation sharded: parts merged into the CSV, the report and the plot.
pub const SHARDED: ShardedStudy = ShardedStudy {
    shards_read,
    ..ShardedStudy::new(&studies::phyq::SLURM, merge)
};

/// The shards of a dqn evaluation evaluate one trained model, which must exist (each shard
/// training its own would train the same model N times) and is made absolute in the scripts.
fn shards_read(args: &dyn std::any::Any) -> Result<bool> {
    let Some(p) = args.downcast_ref::<PhyqEvalArgs>() else {
        return Ok(false);
    };
    if p.agent != AgentName::Dqn {
        return Ok(false);
    }
    Params::new(
        AgentName::Dqn,
        p.setting,
        p.attempts,
        p.attempt_rule,
        p.seed,
    )?;
    shard_needs_model(p.setting, p.dqn.model.as_deref())?;
    Ok(true)
}

fn merge(ctx: &Ctx, parts: &[PathBuf], o: &MergeOutputs) -> Result<()> {
    studies::phyq::check_same_model(parts)?;
    let (job, states) = studies::phyq::merge(&entries(ctx)?, read_parts(parts)?)?;
    report(&job, &states, o)
}

pub const PHYQ_EVAL_EXAMPLES: &str = "EXAMPLES:
  rephyre phyq-eval --agent pig-shooter --setting broad --out pig.csv --summary pig.md --plot pig.svg
  rephyre phyq-eval --agent random --setting local --attempts 10 --json    (the figures only: no CSV without --out)
  rephyre --tasks mine.levels phyq-eval --agent pig-shooter --setting all --out mine.csv
  rephyre phyq-eval --agent random --setting broad --shard 1/4 --out part-1.json   (then: rephyre merge part-*.json --out random.csv)
  rephyre phyq-eval --agent dqn --setting broad --model dqn-broad.model --out dqn.csv --summary dqn.md
  rephyre phyq-eval --agent dqn --setting broad --model dqn.model --train-only --checkpoint t.ckpt --resume
  rephyre phyq-eval --agent dqn --setting broad --model dqn.model --shard 2/8 --out part-2.json
  rephyre phyq-eval --from-record run.csv --agent pig-shooter --setting all --out eval.csv   (an agent's attempts through phyq-server)

Settings: local (tasks 81-100 of every template), broad (every task of the paper's 34 testing
templates), all (every task given). The dqn agent first trains on the setting's training tasks
unless --model names an existing file; --checkpoint F saves its collection (F.collect) and
training (F.train), --train-only writes the model and stops, and a dqn shard evaluates the
existing --model. --json prints, instead of the report's line, one JSON line: pass rates, the
agreement with the paper and, for broad, the Phy-Q score. More: docs/phyq.md, docs/phyq-dqn.md.";

/// Phy-Q evaluation.
#[derive(Debug, Args)]
pub struct PhyqEvalArgs {
    /// The agent: random, pig-shooter, optimal or dqn (trained first, or read from --model).
    #[arg(long, value_parser = parse_agent)]
    pub agent: AgentName,
    /// The generalization setting: local, broad or all.
    #[arg(long, value_parser = parse_setting)]
    pub setting: Setting,
    /// Attempts per task (default: random 50, pig-shooter 5, optimal 1, as the paper).
    #[arg(long, value_name = "N")]
    pub attempts: Option<u32>,
    /// every (play every attempt) or until-pass (stop at a task's first pass: a pass at attempt k
    /// counts 1/k, as the paper's Pig Shooter data were made). Default: until-pass for
    /// pig-shooter, every for the others; with --from-record, how the record was played (every).
    #[arg(long, value_name = "RULE", value_parser = parse_attempt_rule)]
    pub attempt_rule: Option<AttemptRule>,
    /// Seed of the agents' random draws.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// CSV of per-task results; with --shard, the shard's part file. A run needs one of --out,
    /// --summary, --plot and --json.
    #[arg(long, value_name = "FILE", required_unless_present_any = ["train_only", "summary", "plot", "json"])]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Report the attempts of a `phyq-server --record` file (--agent and --setting: whose).
    #[arg(long, value_name = "F.csv", conflicts_with_all = ["attempts", "shard", "checkpoint", "resume", "model", "train_only"])]
    pub from_record: Option<PathBuf>,
    #[command(flatten)]
    pub dqn: PhyqDqnArgs,
    #[command(flatten)]
    pub ckpt: CheckpointArgs,
}

/// The Phy-Q DQN's options of `phyq-eval` (with `--agent dqn` only). Their defaults are the
/// definitions' (`Config::DEFAULT`, `CollectionOptions::DEFAULT`), shown here, not repeated.
#[derive(Debug, Args)]
pub struct PhyqDqnArgs {
    /// The DQN's model file: read when it exists, else trained and written there.
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Seed of the DQN's initial weights, batches and exploration.
    #[arg(long, default_value_t = Config::DEFAULT.seed)]
    pub dqn_seed: u64,
    /// Adam updates of 16 passing and 16 failing experiences.
    #[arg(
        long,
        value_name = "N",
        default_value_t = Config::DEFAULT.updates,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=100_000_000)
    )]
    pub dqn_updates: usize,
    /// Learning rate.
    #[arg(long, value_name = "LR", default_value_t = Config::DEFAULT.lr)]
    pub dqn_lr: f64,
    /// Width of the network's two hidden layers.
    #[arg(
        long,
        value_name = "N",
        default_value_t = Config::DEFAULT.hidden,
        value_parser = RangedU64ValueParser::<usize>::new().range(1..=4096)
    )]
    pub dqn_hidden: usize,
    /// Attempts per training task while collecting experiences.
    #[arg(long, value_name = "N", default_value_t = CollectionOptions::DEFAULT.episodes)]
    pub dqn_episodes: u32,
    /// Shots simulated per bird's decision while collecting experiences (1-50).
    #[arg(long, value_name = "N", default_value_t = CollectionOptions::DEFAULT.explore)]
    pub dqn_explore: u32,
    /// Collect on every N-th training task only.
    #[arg(long, value_name = "N", default_value_t = CollectionOptions::DEFAULT.stride)]
    pub dqn_stride: usize,
    /// Train the DQN, write it to --model and stop (no evaluation).
    #[arg(long, requires = "model", conflicts_with_all = ["out", "summary", "plot", "json", "shard", "attempts"])]
    pub train_only: bool,
}

impl PhyqDqnArgs {
    /// The training these options ask for on `setting`. Every option is named here once, and a
    /// new one in the definitions does not compile until it is declared above.
    fn params(&self, setting: Setting) -> phyq_dqn::Params {
        phyq_dqn::Params {
            setting,
            collection: CollectionOptions {
                episodes: self.dqn_episodes,
                explore: self.dqn_explore,
                stride: self.dqn_stride,
            },
            config: Config {
                hidden: self.dqn_hidden,
                updates: self.dqn_updates,
                lr: self.dqn_lr,
                seed: self.dqn_seed,
            },
        }
    }
}

/// `--agent`'s value, parsed once into the study's type.
fn parse_agent(text: &str) -> Result<AgentName, String> {
    AgentName::parse(text).map_err(|e| e.to_string())
}

/// `--attempt-rule`'s value, parsed once into the study's type.
fn parse_attempt_rule(text: &str) -> Result<AttemptRule, String> {
    AttemptRule::parse(text).map_err(|e| e.to_string())
}

/// `--setting`'s value, parsed once into the study's type.
fn parse_setting(text: &str) -> Result<Setting, String> {
    Setting::parse(text).map_err(|e| e.to_string())
}
