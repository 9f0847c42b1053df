//! `rephyre slurm`: write a study's job array (one shard per array task) and its merge job, and
//! submit them with `sbatch` (the merge with `--dependency=afterok` on the array). The scripts
//! are plain sbatch scripts; `--dry-run` prints them instead.

use super::phyq_eval::PhyqEvalArgs;
use super::sharded::by_slurm_name;
use super::sharded_study::ShardedStudy;
use crate::cli::Command;
use crate::context::Ctx;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use studies::files::write_atomic;

/// Options of the study that `rephyre slurm` sets itself.
const MANAGED: [&str; 12] = [
    "--cache",
    "--table",
    "--json",
    "--quiet",
    "--progress",
    "--out",
    "--summary",
    "--plot",
    "--shard",
    "--checkpoint",
    "--resume",
    "--threads",
];

/// Everything the two scripts are made of.
#[derive(Clone, Debug)]
pub struct Plan {
    pub study: &'static ShardedStudy,
    pub shards: u32,
    /// Absolute working folder.
    pub dir: PathBuf,
    /// Absolute path of the binary the jobs run.
    pub rephyre: PathBuf,
    /// `--tasks FILE` (absolute), if any.
    pub tasks: Option<PathBuf>,
    pub cpus: u32,
    /// `#SBATCH` options of both jobs besides the job's own (partition, time, account, ...).
    pub common: Vec<String>,
    /// `#SBATCH` options of the array only.
    pub array_only: Vec<String>,
    pub study_args: Vec<String>,
}

/// A word for a shell script: left bare when it is made of safe characters, else single-quoted.
pub fn quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn absolute(p: &Path) -> Result<PathBuf> {
    if p.is_absolute() {
        Ok(p.to_path_buf())
    } else {
        Ok(std::env::current_dir()
            .context("cannot read the current folder")?
            .join(p))
    }
}

/// An sbatch option value: one line, no spaces.
fn option_value(name: &str, v: &str) -> Result<String> {
    if v.is_empty() || v.chars().any(|c| c.is_whitespace() || c.is_control()) {
        bail!("--{name} {v:?}: expected one word");
    }
    Ok(v.to_string())
}

impl Plan {
    pub fn new(ctx: &Ctx, a: &SlurmArgs) -> Result<Plan> {
        let study = by_slurm_name(&a.study)?;
        let command = study.command;
        for arg in &a.args {
            let name = arg.split('=').next().unwrap_or(arg);
            if MANAGED.contains(&name) {
                bail!("{name} is set by rephyre slurm; leave it out of the study's arguments");
            }
        }
        // The study's arguments must parse as the shards will run them.
        let mut probe: Vec<String> = vec!["rephyre".into(), command.into()];
        probe.extend(a.args.iter().cloned());
        probe.extend(["--shard".into(), format!("1/{}", a.shards)]);
        probe.extend(["--out".into(), "part.json".into()]);
        let probed = match super::sharded::parse_cli(&probe) {
            Ok(cli) => cli,
            Err(e) => {
                let text = e.to_string();
                let first = text
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .unwrap_or("invalid arguments");
                bail!(
                    "the {command} arguments after --: {}",
                    first.strip_prefix("error: ").unwrap_or(first)
                );
            }
        };
        let mut study_args = a.args.clone();
        if let Command::PhyqEval(p) = &probed.command {
            if p.agent == studies::phyq::AgentName::Dqn {
                dqn_model(&mut study_args, p)?;
            }
        }
        let mut common = Vec::new();
        for (name, v) in [
            ("partition", &a.partition),
            ("time", &a.time),
            ("account", &a.account),
        ] {
            if let Some(v) = v {
                common.push(format!("--{name}={}", option_value(name, v)?));
            }
        }
        for o in &a.sbatch_option {
            if !o.starts_with('-') {
                bail!("--sbatch-option {o:?}: expected an sbatch option such as --qos=long");
            }
            common.push(option_value("sbatch-option", o)?);
        }
        let mut array_only = vec![format!("--cpus-per-task={}", a.cpus_per_task)];
        if let Some(m) = &a.mem {
            array_only.push(format!("--mem={}", option_value("mem", m)?));
        }
        let rephyre = match &a.rephyre {
            Some(p) => absolute(p)?,
            None => std::env::current_exe().context("cannot find the rephyre binary")?,
        };
        let tasks = ctx.tasks_file.as_deref().map(absolute).transpose()?;
        let mut array = format!("1-{}", a.shards);
        if let Some(m) = a.max_running {
            array.push_str(&format!("%{m}"));
        }
        array_only.insert(0, format!("--array={array}"));
        Ok(Plan {
            study,
            shards: a.shards,
            dir: absolute(&a.out)?,
            rephyre,
            tasks,
            cpus: a.cpus_per_task,
            common,
            array_only,
            study_args,
        })
    }

    fn dir_q(&self, rest: &str) -> String {
        quote(&format!("{}/{rest}", self.dir.display()))
    }

    fn binary(&self) -> String {
        let mut s = quote(&self.rephyre.to_string_lossy());
        if let Some(t) = &self.tasks {
            s.push_str(&format!(" --tasks {}", quote(&t.to_string_lossy())));
        }
        s
    }

    /// The report's files (relative to the folder): the merge's `--out` and its other report
    /// options.
    fn report(&self) -> (&'static str, Vec<(&'static str, &'static str)>) {
        let extras = self
            .study
            .extras
            .iter()
            .map(|(e, file)| (e.option(), *file));
        (self.study.report, extras.collect())
    }

    fn header(&self, job: &str, own: &[String], log: &str) -> String {
        let mut s = String::from("#!/bin/bash\n");
        s.push_str(&format!(
            "# Written by `rephyre slurm {}` ({} shards).\n",
            self.study.command, self.shards
        ));
        s.push_str(&format!(
            "#SBATCH --job-name=rephyre-{}{job}\n",
            self.study.command
        ));
        s.push_str("#SBATCH --ntasks=1\n");
        for o in own.iter().chain(&self.common) {
            s.push_str(&format!("#SBATCH {o}\n"));
        }
        s.push_str(&format!(
            "#SBATCH --output={}/logs/{log}\n",
            self.dir.display()
        ));
        s
    }

    /// The job array: array task K runs shard K/N, resuming from its checkpoint.
    pub fn array_script(&self) -> String {
        let mut own = self.array_only.clone();
        // A pre-empted or requeued task starts again from its checkpoint; its log goes on.
        own.push("--requeue".into());
        own.push("--open-mode=append".into());
        let mut s = self.header("", &own, "shard-%a.log");
        s.push_str("set -euo pipefail\n");
        s.push_str("K=\"$SLURM_ARRAY_TASK_ID\"\n");
        s.push_str("echo \"shard $K/");
        s.push_str(&format!(
            "{} on $(hostname), job ${{SLURM_JOB_ID}}, restart ${{SLURM_RESTART_COUNT:-0}}\"\n",
            self.shards
        ));
        let args: Vec<String> = self.study_args.iter().map(|a| quote(a)).collect();
        let (checkpoint, resumes) = self.study.checkpoint;
        let resume = if resumes { " --resume" } else { "" };
        s.push_str(&format!(
            "exec {} --quiet --threads {} {} {} \\\n  --shard \"$K/{}\" --out {}\"$K\".json \\\n  {checkpoint} {}\"$K\".ckpt{resume}\n",
            self.binary(),
            self.cpus,
            self.study.command,
            args.join(" "),
            self.shards,
            self.dir_q("parts/part-"),
            self.dir_q("checkpoints/part-"),
        ));
        s
    }

    /// The merge job: every part, named one by one (a missing one is an error naming it).
    pub fn merge_script(&self) -> String {
        let own = vec!["--cpus-per-task=1".to_string()];
        let mut s = self.header("-merge", &own, "merge.log");
        s.push_str("set -euo pipefail\n");
        s.push_str("parts=()\n");
        s.push_str(&format!(
            "for k in $(seq 1 {}); do parts+=({}\"$k\".json); done\n",
            self.shards,
            self.dir_q("parts/part-")
        ));
        let (csv, extras) = self.report();
        let mut line = format!(
            "exec {} --quiet merge \"${{parts[@]}}\" --out {}",
            self.binary(),
            self.dir_q(csv)
        );
        for (opt, file) in extras {
            line.push_str(&format!(" {opt} {}", self.dir_q(file)));
        }
        s.push_str(&line);
        s.push('\n');
        s
    }
}

/// The shards of a dqn evaluation evaluate one trained model (`--model`, which must exist:
/// each shard training its own would train the same model N times); its path in the scripts
/// is made absolute, as the other paths.
fn dqn_model(args: &mut [String], p: &PhyqEvalArgs) -> Result<()> {
    let params =
        studies::phyq::Params::new(studies::phyq::AgentName::Dqn, p.setting, p.attempts, p.seed)?;
    super::phyq_eval::shard_needs_model(&params, p.dqn.model.as_deref())?;
    let Some(model) = &p.dqn.model else {
        return Ok(());
    };
    let model = absolute(model)?.to_string_lossy().into_owned();
    for i in 0..args.len() {
        if args[i] == "--model" && i + 1 < args.len() {
            args[i + 1] = model.clone();
        } else if args[i].starts_with("--model=") {
            args[i] = format!("--model={model}");
        }
    }
    Ok(())
}

pub fn run(ctx: &Ctx, a: SlurmArgs) -> Result<()> {
    let plan = Plan::new(ctx, &a)?;
    let array = plan.array_script();
    let merge = plan.merge_script();
    let array_path = plan.dir.join("array.sbatch");
    let merge_path = plan.dir.join("merge.sbatch");
    if a.dry_run {
        println!("# {}\n{array}", array_path.display());
        println!("# {}\n{merge}", merge_path.display());
        println!("# submitted with:");
        println!(
            "#   sbatch --parsable {}",
            quote(&array_path.to_string_lossy())
        );
        println!(
            "#   sbatch --parsable --dependency=afterok:ARRAY_JOB_ID {}",
            quote(&merge_path.to_string_lossy())
        );
        return Ok(());
    }
    for sub in ["", "parts", "checkpoints", "logs"] {
        let d = plan.dir.join(sub);
        std::fs::create_dir_all(&d).with_context(|| format!("cannot create {}", d.display()))?;
    }
    write_atomic(&array_path, array.as_bytes())?;
    write_atomic(&merge_path, merge.as_bytes())?;
    let array_id = sbatch(&[], &array_path)?;
    let dep = format!("--dependency=afterok:{array_id}");
    let merge_id = sbatch(&[&dep], &merge_path)?;
    let (csv, _) = plan.report();
    println!(
        "submitted job array {array_id} ({} shards) and merge job {merge_id} (after it) -> {}",
        plan.shards,
        plan.dir.join(csv).display()
    );
    Ok(())
}

/// Submit `script`; returns the job id.
fn sbatch(extra: &[&str], script: &Path) -> Result<String> {
    let o = Process::new("sbatch")
        .arg("--parsable")
        .args(extra)
        .arg(script)
        .output()
        .context("cannot run sbatch (is Slurm installed on this machine?)")?;
    if !o.status.success() {
        bail!(
            "sbatch {} failed: {}",
            script.display(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    let out = String::from_utf8_lossy(&o.stdout);
    // --parsable prints `jobid` or `jobid;cluster`.
    let id = out.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        bail!("sbatch {} printed no job id: {out:?}", script.display());
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn shell_quoting() {
        assert_eq!(quote("00000-00004"), "00000-00004");
        assert_eq!(quote("/a b/c"), "'/a b/c'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("$HOME"), "'$HOME'");
    }
}

pub const SLURM_EXAMPLES: &str = "\
EXAMPLES:
  rephyre slurm solvability --shards 64 --partition cpu --time 4:00:00 --cpus-per-task 8 \\
      --out runs/ball -- --tier ball
  rephyre slurm diversity --shards 200 --cpus-per-task 16 --account myproj --out runs/div \\
      -- --tier ball --samples 1000000
  rephyre slurm solvability --shards 4 --out runs/t --dry-run -- --tier ball --templates 0-4

Writes DIR/array.sbatch (one array task per shard: `rephyre COMMAND ARGS --shard K/N`, its part in
DIR/parts/, its checkpoint in DIR/checkpoints/, resumed when Slurm requeues or restarts the task)
and DIR/merge.sbatch (`rephyre merge`, submitted with --dependency=afterok on the array), and
submits both with sbatch. The report lands in DIR: COMMAND.csv, and solvability.md or
diversity.svg. DIR must be on a filesystem every node sees; the rephyre binary too (--rephyre).
--dry-run prints the two scripts and submits nothing.";

/// Arguments of `rephyre slurm`.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// The study to run.
    // Its possible values are the sharded studies' list (`commands::sharded::STUDIES`), set by
    // `commands::sharded::cli_command`.
    #[arg(value_name = "STUDY", index = 1)]
    pub study: String,
    /// Number of shards (array tasks).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub shards: u32,
    /// Working folder (shared by every node): scripts, parts, checkpoints, logs and the report.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Slurm partition (sbatch --partition).
    #[arg(long)]
    pub partition: Option<String>,
    /// Time limit of each array task (sbatch --time, e.g. 2:00:00).
    #[arg(long, value_name = "TIME")]
    pub time: Option<String>,
    /// CPUs per array task (sbatch --cpus-per-task); the shard uses as many threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub cpus_per_task: u32,
    /// Account to charge (sbatch --account).
    #[arg(long)]
    pub account: Option<String>,
    /// Memory per array task (sbatch --mem, e.g. 2G).
    #[arg(long)]
    pub mem: Option<String>,
    /// Most array tasks running at once (the array's %M).
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_running: Option<u32>,
    /// Any other sbatch option for both jobs, e.g. --sbatch-option=--qos=long (repeatable).
    #[arg(long, value_name = "OPTION", allow_hyphen_values = true)]
    pub sbatch_option: Vec<String>,
    /// The rephyre binary the jobs run (default: this one).
    #[arg(long, value_name = "PATH")]
    pub rephyre: Option<PathBuf>,
    /// Print the job scripts and the sbatch commands; write and submit nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The study's own arguments, after `--` (not --out, --summary, --plot, --shard,
    /// --checkpoint or --resume: rephyre slurm sets those).
    #[arg(last = true, value_name = "ARGS", index = 2)]
    pub args: Vec<String>,
}
