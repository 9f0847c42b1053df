//! `rephyre eval`: [`studies::evaluation`] on the chosen agents, setups and folds; writes the
//! per-fold CSV, the Table-1-shaped Markdown and the success-curve plot. `rephyre compare`: the
//! one-sided Wilcoxon test of two such files.

use super::sharded_study::{MergeOutputs, ShardedStudy};
use crate::cli::{
    AgentChoice, CompareArgs, DqnArgs, DqnDeviceChoice, DqnProfileChoice, EvalArgs,
    LearnFromChoice, SplitChoice,
};
use crate::context::Ctx;
use agents::dqn::{NoProgress, Profile};
use anyhow::{bail, Context, Result};
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
        checkpoint: a.checkpoint.clone(),
        resume: a.resume,
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
    if let Some(shard) = a.shard {
        return table_shard(ctx, &a, &params, shard);
    }
    for p in [
        Some(a.out.as_path()),
        a.checkpoint.as_deref(),
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
    if let (Some(path), 1..) = (&a.checkpoint, report.restored) {
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
    if a.checkpoint.is_some() {
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
    let parts = studies::shard::read_parts(parts)?;
    let files = studies::evaluation::merge_tables(ctx.task_set()?, parts, o.out)?;
    for f in &files {
        println!("outcome table -> {}", f.display());
    }
    println!(
        "evaluate the agents from it with: rephyre eval --cache {} ...",
        o.out.display()
    );
    Ok(())
}
