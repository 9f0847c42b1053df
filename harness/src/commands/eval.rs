//! `rephyre eval`: [`studies::evaluation`] on the chosen agents, setups and folds; writes the
//! per-fold CSV, the Table-1-shaped Markdown and the success-curve plot. `rephyre compare`: the
//! one-sided Wilcoxon test of two such files.

use super::sharded_study::{MergeOutputs, ShardedStudy};
use crate::args::{ResumeArgs, ShardArgs};
use crate::context::Ctx;
use agents::dqn::{NoProgress, Profile};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::sync::Arc;
use studies::evaluation::dqn::{DqnParams, TrainOverrides};
use studies::evaluation::{
    check_one_agent, read_results, table_markdown, table_shard as table_shard_of, table_tiers,
    AgentKind, EvalSplit, LearnFrom, Params,
};
use studies::files::{check_writable, write_atomic};
use studies::runner::RunConfig;
use studies::shard::Shard;

/// Parse `--folds`: folds 0-9 as a list and ranges, e.g. `0-9` or `0,3,5`.
fn parse_folds(text: &str) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b): (u32, u32) = (
            a.parse().context("bad --folds")?,
            b.parse().context("bad --folds")?,
        );
        if a > b || b >= tasks::folds::FOLDS {
            bail!("--folds takes folds 0-9, e.g. 0-9 or 0,3,5");
        }
        out.extend(a..=b);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The DQN options as the evaluation's parameters: the one place that reads them.
fn dqn_params(d: &DqnArgs, progress: bool) -> DqnParams {
    DqnParams {
        profile: match d.dqn_profile {
            DqnProfileChoice::Cpu => Profile::Cpu,
            DqnProfileChoice::Paper => Profile::Paper,
        },
        seed: d.dqn_seed,
        overrides: TrainOverrides {
            updates: d.dqn_updates.map(|u| u as usize),
            batch: d.dqn_batch,
            actions_per_scene: d.dqn_actions_per_scene,
            lr: d.dqn_lr,
            online_updates: d.dqn_online_updates.map(|u| u as usize),
            online_lr: d.dqn_online_lr,
            mirror_ranking: d.dqn_mirror_ranking,
            obs_size: d.dqn_obs_size,
            stem_kernel: d.dqn_stem_kernel,
            stem_pool: d.dqn_stem_pool,
            widths: d.dqn_widths.clone(),
            blocks: d.dqn_blocks,
            coord_planes: d.dqn_coord_planes,
        },
        ensemble: d.dqn_ensemble as usize,
        train_actions: d.dqn_train_actions,
        models: d.models.clone(),
        progress: if progress {
            crate::progress::training_bar()
        } else {
            Arc::new(NoProgress)
        },
    }
}

pub fn run(ctx: &Ctx, a: EvalArgs) -> Result<()> {
    let set = ctx.task_set()?;
    let split = match a.split {
        SplitChoice::Test => EvalSplit::Test,
        SplitChoice::Dev => EvalSplit::Dev,
        SplitChoice::Train => EvalSplit::Train,
    };
    let params = Params {
        setups: a.setup.setups(),
        agents: match a.agent {
            AgentChoice::Rand => vec![AgentKind::Rand],
            AgentChoice::Mem => vec![AgentKind::Mem],
            AgentChoice::Memo => vec![AgentKind::MemO],
            AgentChoice::Optimal => vec![AgentKind::Optimal],
            AgentChoice::Dqn => vec![AgentKind::Dqn],
            AgentChoice::DqnO => vec![AgentKind::DqnO],
            AgentChoice::All => AgentKind::ALL.to_vec(),
        },
        folds: parse_folds(&a.folds)?,
        split,
        learn: match a.learn_from {
            None => LearnFrom::default_for(split),
            Some(LearnFromChoice::Train) => LearnFrom::Train,
            Some(LearnFromChoice::TrainDev) => LearnFrom::TrainAndDev,
        },
        actions: a.actions,
        seed: a.seed,
        cache: a.cache.clone(),
        checkpoint: a.save.checkpoint.clone(),
        resume: a.save.resume,
        dqn: Some(dqn_params(&a.dqn, ctx.progress)),
    };
    if let Some(dir) = &a.dqn.models {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the models directory {}", dir.display()))?;
    }
    if a.actions == 0 {
        bail!("--actions must be at least 1");
    }
    // Only the DQNs run on the device: the GPU is probed (and a build without it refuses)
    // only when one of them is asked for.
    if params.agents.iter().any(|k| k.is_dqn()) {
        agents::dqn::use_compute(match a.dqn.dqn_device {
            DqnDeviceChoice::Cpu => agents::dqn::Compute::Cpu,
            DqnDeviceChoice::Gpu => agents::dqn::Compute::Gpu,
        })
        .map_err(|e| anyhow::anyhow!("--dqn-device: {e}"))?;
    }
    if let Some(shard) = a.part.shard {
        return table_shard(ctx, &a, &params, shard);
    }
    for p in [
        Some(a.out.as_path()),
        a.save.checkpoint.as_deref(),
        a.table.as_deref(),
        a.plot.as_deref(),
        a.per_task.as_deref(),
    ]
    .into_iter()
    .flatten()
    {
        check_writable(p)?;
    }
    let report = studies::evaluation::run(set, &params, &ctx.run_config_plain())?;
    if let (Some(path), 1..) = (&a.save.checkpoint, report.restored) {
        eprintln!(
            "resumed: {} of the {} (agent, setup, fold) results taken from {}",
            report.restored,
            report.results.len(),
            path.display()
        );
    }
    for t in &report.tables {
        // The original's set is invalid on 27 % (ball) / 50 % (two balls) of pairs (SPEC §9).
        eprintln!(
            "{}: outcome table of {} tasks × {} actions in {:.1} s; {:.1} % of the pairs invalid",
            t.tier,
            t.tasks,
            t.actions,
            t.seconds,
            100.0 * t.invalid_share
        );
    }
    write_atomic(&a.out, &report.csv_bytes()?)?;
    let table = table_markdown(&report.results);
    print!("{table}");
    if let Some(p) = &a.table {
        write_atomic(p, table.as_bytes())?;
    }
    if let Some(p) = &a.per_task {
        write_atomic(p, &report.tasks_csv_bytes()?)?;
    }
    if let Some(p) = &a.plot {
        write_atomic(
            p,
            studies::plot::success_curves_svg(&report.curves)?.as_bytes(),
        )?;
    }
    Ok(())
}

/// `eval --shard K/N`: shard K of the outcome tables the setups need (the agents, folds and split
/// do not enter it), written to --out as a part; --cache FILE is the shard's checkpoint.
/// `rephyre merge` turns the parts into the cache `eval --cache` reads.
fn table_shard(ctx: &Ctx, a: &EvalArgs, params: &Params, shard: Shard) -> Result<()> {
    super::shard_part::no_report_options(&[
        ("--table", a.table.is_some()),
        ("--plot", a.plot.is_some()),
        ("--per-task", a.per_task.is_some()),
    ])?;
    if a.save.checkpoint.is_some() {
        bail!("--checkpoint saves the agents' results; a --shard run computes only outcome tables (its checkpoint is --cache)");
    }
    check_writable(&a.out)?;
    if let Some(c) = &a.cache {
        check_writable(c)?;
    }
    let cfg = RunConfig {
        checkpoint: a.cache.clone(),
        resume: a.cache.is_some(),
        ..ctx.run_config_plain()
    };
    let tiers = table_tiers(&params.setups);
    let part = table_shard_of(ctx.task_set()?, &tiers, a.actions, a.seed, shard, &cfg)?;
    super::shard_part::write_shard_part(shard, &part, &a.out)
}

pub fn compare(_ctx: &Ctx, a: CompareArgs) -> Result<()> {
    let (ra, rb) = (read_results(&a.a)?, read_results(&a.b)?);
    check_one_agent(&ra, &a.a)?;
    check_one_agent(&rb, &a.b)?;
    let setup = match a.setup.map(|s| s.setups()) {
        Some(list) if list.len() == 1 => Some(list[0].to_string()),
        _ => None,
    };
    let c = studies::evaluation::compare(&ra, &rb, setup.as_deref())?;
    match c.test {
        None => println!(
            "{} vs {}: {} paired folds, all differences zero: no evidence either way",
            c.a, c.b, c.pairs
        ),
        Some(w) => println!(
            "{} > {}: {} paired folds, T+ = {}, one-sided p = {:.6} ({}) → {}",
            c.a,
            c.b,
            w.n,
            w.t_plus,
            w.p_value,
            if w.exact {
                "exact"
            } else {
                "normal approximation"
            },
            if w.p_value < 0.01 {
                "significant at 0.01"
            } else {
                "not significant at 0.01"
            }
        ),
    }
    if let Some((la, lb)) = &c.learned_differently {
        println!(
            "note: {} learned from {la} and {} from {lb} (--learn-from): the protocols differ too",
            c.a, c.b
        );
    }
    Ok(())
}

/// The agents' outcome tables sharded (`eval --shard`, not the agents): parts merged into the
/// cache `--out.<tier>.ckpt` that `rephyre eval --cache` evaluates from.
pub const SHARDED: ShardedStudy =
    ShardedStudy::new(&studies::evaluation::TABLES_SLURM, merge_tables);

fn merge_tables(ctx: &Ctx, parts: &[PathBuf], o: &MergeOutputs) -> Result<()> {
    let out = o.out()?;
    let parts = studies::shard::read_parts(parts)?;
    let files = studies::evaluation::merge_tables(ctx.task_set()?, parts, out)?;
    for f in &files {
        println!("outcome table -> {}", f.display());
    }
    println!(
        "evaluate the agents from it with: rephyre eval --cache {} ...",
        out.display()
    );
    Ok(())
}

pub const EVAL_EXAMPLES: &str = "\
EXAMPLES:
  rephyre eval --agent all --setup all --folds 0-9 --actions 200 --cache table --out results.csv --table table.md --plot curves.svg
  rephyre eval --agent mem --setup ball_cross_template --folds 0-9 --out mem.csv
  rephyre eval --agent memo --setup ball_cross_template --folds 0 --split dev --out memo-dev.csv
  rephyre eval --agent dqn --setup ball_cross_template --folds 0-9 --actions 1000 --cache table --models models --out dqn.csv
  rephyre eval --agent dqn --setup ball_within_template --cache table --models models --out dqn.csv --checkpoint dqn.ckpt --resume

The agents rank one fixed set of --actions random actions per tier, sampled like the original's;
the status of every (task, action) pair is computed once (resumable with --cache) and shared by
every agent, setup and fold; DQN and DQN-O train per fold on it. `--agent all` is the four
untrained baselines. --checkpoint FILE saves each finished (agent, setup, fold); --resume runs
only the ones FILE lacks. --shard K/N computes part of the outcome tables only (--cache FILE is
its checkpoint); `rephyre merge PARTS --out CACHE` makes the cache. More: docs/agents.md.";

pub const COMPARE_EXAMPLES: &str = "\
EXAMPLES:
  rephyre eval --agent memo --setup ball_cross_template --out memo.csv
  rephyre eval --agent mem --setup ball_cross_template --out mem.csv
  rephyre compare memo.csv mem.csv
  rephyre compare memo.csv mem.csv --setup ball_cross_template

Pairs folds by (setup, fold); scipy's wilcoxon(zero_method='wilcox', correction=False,
alternative='greater') on the per-fold AUCCESS; significant when p < 0.01.";

/// Arguments of `rephyre eval`. `-h`/`--help` shows the common options; `--help-all` adds the
/// DQN's tuning and network-shape options.
#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct EvalArgs {
    /// Print help (the common options; --help-all for every one).
    #[arg(short, long, action = clap::ArgAction::HelpShort)]
    pub help: Option<bool>,
    /// Print help with every option, the DQN's tuning and network shape included.
    #[arg(long, action = clap::ArgAction::HelpLong)]
    pub help_all: Option<bool>,
    /// The agent to evaluate, or all of them.
    #[arg(long, value_enum, default_value_t = AgentChoice::All)]
    pub agent: AgentChoice,
    /// The evaluation setup, or all four.
    #[arg(long, value_enum, default_value_t = SetupChoice::All)]
    pub setup: SetupChoice,
    /// Folds, e.g. 0-9 or 0,3,5.
    #[arg(long, default_value = "0-9")]
    pub folds: String,
    /// Evaluate on the test or the dev split, or on the training tasks (the agents' fit).
    #[arg(long, value_enum, default_value_t = SplitChoice::Test)]
    pub split: SplitChoice,
    /// What MEM, MEM-O, DQN and DQN-O learn from: the fold's training tasks, or its training
    /// and dev tasks (default: train-dev for the test split, as the original; train otherwise).
    #[arg(long, value_enum)]
    pub learn_from: Option<LearnFromChoice>,
    /// Size of the agents' fixed action set per tier (the paper: 10,000).
    #[arg(long, default_value_t = 10_000)]
    pub actions: usize,
    /// Seed of the action set and of RAND's orders.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Checkpoint the outcome table to FILE.<tier>.ckpt and resume from it (any --actions of
    /// the same --seed: a larger set computes only the columns it lacks).
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// Per-fold results (CSV); with --shard, the shard's part file.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    pub save: ResumeArgs,
    #[command(flatten)]
    pub part: ShardArgs,
    /// Markdown table shaped like the paper's Table 1.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Success-curve plot (SVG).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// CSV of every evaluated task: agent, setup, fold, split, task, the attempt that solved it.
    #[arg(long, value_name = "FILE")]
    pub per_task: Option<PathBuf>,
    /// The DQN and DQN-O options (other agents ignore them).
    #[command(flatten)]
    pub dqn: DqnArgs,
}

/// `rephyre eval`'s options for DQN and DQN-O, a group of their own in the help; the tuning
/// and network-shape options show in `--help-all` only (docs/agents.md).
#[derive(Debug, Args)]
#[command(next_help_heading = "DQN and DQN-O")]
pub struct DqnArgs {
    /// DQN training preset: `cpu` (64×64, a small ResNet) or `paper` (256×256, ResNet-18).
    #[arg(long, value_enum, default_value_t = DqnProfileChoice::Cpu)]
    pub dqn_profile: DqnProfileChoice,
    /// DQN updates per fold (default: the profile's).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub dqn_updates: Option<u64>,
    /// DQN examples per update (default: the profile's, 64).
    #[arg(long, hide_short_help = true, value_name = "N")]
    pub dqn_batch: Option<usize>,
    /// DQN examples per scene in a batch, a divisor of it (default: the profile's, 8 or 1).
    #[arg(long, hide_short_help = true, value_name = "N")]
    pub dqn_actions_per_scene: Option<usize>,
    /// DQN peak learning rate of the cosine schedule (default: the profile's, 1e-2 or 3e-4).
    #[arg(long, hide_short_help = true, value_name = "LR", value_parser = parse_learning_rate)]
    pub dqn_lr: Option<f64>,
    /// DQN-O: updates after each test task (default: the profile's; 0: rank like DQN).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub dqn_online_updates: Option<u64>,
    /// DQN-O: learning rate of those updates (default: the profile's).
    #[arg(long, hide_short_help = true, value_name = "LR", value_parser = parse_learning_rate)]
    pub dqn_online_lr: Option<f64>,
    /// Seed of the DQN's weights and batches.
    #[arg(long, default_value_t = 0)]
    pub dqn_seed: u64,
    /// DQN observation side in pixels, a divisor of 256 (default: the profile's, 64 or 256).
    #[arg(long, hide_short_help = true, value_name = "PIXELS")]
    pub dqn_obs_size: Option<usize>,
    /// Kernel of the DQN's stride-2 stem convolution, odd (default: the profile's, 3 or 7).
    #[arg(long, hide_short_help = true, value_name = "K")]
    pub dqn_stem_kernel: Option<usize>,
    /// A 3×3 stride-2 max pool after the DQN's stem (default: the profile's).
    #[arg(long, hide_short_help = true, value_name = "BOOL")]
    pub dqn_stem_pool: Option<bool>,
    /// Channels of the DQN's stem and stages, comma-separated (default: the profile's).
    #[arg(
        long,
        hide_short_help = true,
        value_name = "C,C,…",
        value_delimiter = ','
    )]
    pub dqn_widths: Option<Vec<usize>>,
    /// Residual blocks in each of the DQN's stages, 1 to 8 (default: the profile's, 1 or 2).
    #[arg(long, hide_short_help = true, value_name = "N")]
    pub dqn_blocks: Option<usize>,
    /// Two coordinate planes beside the DQN's colour planes (default: the profile's).
    #[arg(long, hide_short_help = true, value_name = "BOOL")]
    pub dqn_coord_planes: Option<bool>,
    /// Score an action by the mean of the scene's and the mirrored scene's logits (default:
    /// the profile's).
    #[arg(long, hide_short_help = true, value_name = "BOOL")]
    pub dqn_mirror_ranking: Option<bool>,
    /// K networks of seeds --dqn-seed, --dqn-seed + 1, …, ranking by their mean logit.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub dqn_ensemble: u64,
    /// Train on the statuses of the first N actions of the set, at least --actions (default:
    /// --actions).
    #[arg(long, value_name = "N")]
    pub dqn_train_actions: Option<usize>,
    /// Directory of DQN models: a fold's model is loaded when there, else trained and saved
    /// (a killed training goes on from its `.train` snapshot there).
    #[arg(long, value_name = "DIR")]
    pub models: Option<PathBuf>,
    /// Where DQN and DQN-O train and rank: `cpu` (bit-reproducible) or `gpu` (Vulkan; a build
    /// with `--features gpu`; replicates, not bit-identical copies).
    #[arg(long, value_enum, default_value_t = DqnDeviceChoice::Cpu)]
    pub dqn_device: DqnDeviceChoice,
}

/// `eval --dqn-device`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DqnDeviceChoice {
    Cpu,
    Gpu,
}

/// `eval --dqn-profile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DqnProfileChoice {
    Cpu,
    Paper,
}

/// Arguments of `rephyre compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Results of agent A (from `rephyre eval`).
    pub a: PathBuf,
    /// Results of agent B.
    pub b: PathBuf,
    /// Only compare the folds of this setup (default: every setup both files hold).
    #[arg(long, value_enum)]
    pub setup: Option<SetupChoice>,
}

/// `eval --agent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AgentChoice {
    Rand,
    Mem,
    Memo,
    Optimal,
    Dqn,
    #[value(name = "dqn-o")]
    DqnO,
    All,
}

/// `eval --setup`, `compare --setup`: PHYRE's setup names, or all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum SetupChoice {
    BallCrossTemplate,
    BallWithinTemplate,
    TwoBallsCrossTemplate,
    TwoBallsWithinTemplate,
    All,
}

impl SetupChoice {
    /// The setups chosen.
    pub fn setups(self) -> Vec<tasks::Setup> {
        use tasks::Setup;
        match self {
            SetupChoice::BallCrossTemplate => vec![Setup::BallCrossTemplate],
            SetupChoice::BallWithinTemplate => vec![Setup::BallWithinTemplate],
            SetupChoice::TwoBallsCrossTemplate => vec![Setup::TwoBallsCrossTemplate],
            SetupChoice::TwoBallsWithinTemplate => vec![Setup::TwoBallsWithinTemplate],
            SetupChoice::All => Setup::ALL.to_vec(),
        }
    }
}

/// `eval --split`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SplitChoice {
    Test,
    Dev,
    Train,
}

/// `eval --learn-from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LearnFromChoice {
    Train,
    TrainDev,
}

/// A learning rate: a finite number in (0, 1].
pub fn parse_learning_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(lr) if lr > 0.0 && lr <= 1.0 => Ok(lr),
        _ => Err(format!("must be a number in (0, 1], got {s:?}")),
    }
}
