//! A sharded study on a Slurm cluster: its job array (one shard per array task, each resuming
//! from its checkpoint) and its merge job (`rephyre merge`, run after the array), as plain
//! sbatch scripts, and their submission. Each study describes itself once ([`Study`], beside
//! its code: e.g. [`crate::solvability::SLURM`]); nothing here knows one study from another.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command as Process;

/// A report option of a merge besides `--out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// `--summary FILE` (Markdown).
    Summary,
    /// `--plot FILE` (SVG).
    Plot,
}

impl Extra {
    pub fn option(self) -> &'static str {
        match self {
            Extra::Summary => "--summary",
            Extra::Plot => "--plot",
        }
    }
}

/// What a sharded study is to `rephyre merge` and `rephyre slurm`.
#[derive(Debug)]
pub struct Study {
    /// Its name for `rephyre slurm`.
    pub slurm_name: &'static str,
    /// The command a shard runs (`rephyre COMMAND … --shard K/N`).
    pub command: &'static str,
    /// The command its part files record (the study's `COMMAND`).
    pub part_command: &'static str,
    /// The merge's `--out` in a Slurm working folder.
    pub report: &'static str,
    /// The merge's other report options and their files in a Slurm working folder.
    pub extras: &'static [(Extra, &'static str)],
    /// Whether the merge can print the summary as JSON (`--json`).
    pub json: bool,
    /// The option that holds a shard's checkpoint, and whether the shard is told `--resume`
    /// (eval's `--cache` always resumes).
    pub checkpoint: (&'static str, bool),
    /// Options whose value is a file every shard reads: made absolute in the scripts.
    pub input_files: &'static [&'static str],
}

impl Study {
    /// A study run by its own `command` (also its name and what its part files record),
    /// checkpointed with `--checkpoint` and resumed with `--resume`, whose merge writes `report`
    /// and `extras`.
    pub const fn checkpointed(
        command: &'static str,
        report: &'static str,
        extras: &'static [(Extra, &'static str)],
    ) -> Study {
        Study {
            slurm_name: command,
            command,
            part_command: command,
            report,
            extras,
            json: false,
            checkpoint: ("--checkpoint", true),
            input_files: &[],
        }
    }
}

/// Options of the study that `rephyre slurm` sets itself.
pub const MANAGED: [&str; 12] = [
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

/// What the scripts are asked to be: the study, the cluster's options and the study's
/// arguments (checked against [`MANAGED`]).
#[derive(Clone, Debug)]
pub struct Request<'a> {
    pub study: &'static Study,
    pub shards: u32,
    /// Working folder (made absolute).
    pub dir: &'a Path,
    /// The binary the jobs run (`None`: this process's).
    pub rephyre: Option<&'a Path>,
    /// `--tasks FILE` of the jobs, if any.
    pub tasks: Option<&'a Path>,
    pub cpus_per_task: u32,
    pub partition: Option<&'a str>,
    pub time: Option<&'a str>,
    pub account: Option<&'a str>,
    pub mem: Option<&'a str>,
    pub max_running: Option<u32>,
    pub sbatch_options: &'a [String],
    pub args: &'a [String],
    /// Whether the shards read the study's [`Study::input_files`] (made absolute) as given.
    pub input_files: bool,
}

/// Everything the two scripts are made of.
#[derive(Clone, Debug)]
pub struct Plan {
    pub study: &'static Study,
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

/// `p` from the current folder.
pub fn absolute(p: &Path) -> Result<PathBuf> {
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

/// Refuse the study arguments that `rephyre slurm` sets itself.
pub fn check_args(args: &[String]) -> Result<()> {
    for arg in args {
        let name = arg.split('=').next().unwrap_or(arg);
        if MANAGED.contains(&name) {
            bail!("{name} is set by rephyre slurm; leave it out of the study's arguments");
        }
    }
    Ok(())
}

/// `args` with the values of the study's [`Study::input_files`] made absolute.
fn absolute_inputs(study: &Study, args: &[String]) -> Result<Vec<String>> {
    let mut args = args.to_vec();
    for option in study.input_files {
        let eq = format!("{option}=");
        for i in 0..args.len() {
            if args[i] == *option && i + 1 < args.len() {
                args[i + 1] = absolute(Path::new(&args[i + 1]))?
                    .to_string_lossy()
                    .into_owned();
            } else if let Some(v) = args[i].strip_prefix(&eq) {
                let v = absolute(Path::new(v))?;
                args[i] = format!("{eq}{}", v.to_string_lossy());
            }
        }
    }
    Ok(args)
}

impl Plan {
    /// The plan of `r`; its arguments are checked ([`check_args`]) by the caller before it
    /// parses them as the shards will.
    pub fn new(r: &Request) -> Result<Plan> {
        let mut common = Vec::new();
        for (name, v) in [
            ("partition", r.partition),
            ("time", r.time),
            ("account", r.account),
        ] {
            if let Some(v) = v {
                common.push(format!("--{name}={}", option_value(name, v)?));
            }
        }
        for o in r.sbatch_options {
            if !o.starts_with('-') {
                bail!("--sbatch-option {o:?}: expected an sbatch option such as --qos=long");
            }
            common.push(option_value("sbatch-option", o)?);
        }
        let mut array_only = vec![format!("--cpus-per-task={}", r.cpus_per_task)];
        if let Some(m) = r.mem {
            array_only.push(format!("--mem={}", option_value("mem", m)?));
        }
        let rephyre = match r.rephyre {
            Some(p) => absolute(p)?,
            None => std::env::current_exe().context("cannot find the rephyre binary")?,
        };
        let tasks = r.tasks.map(absolute).transpose()?;
        let mut array = format!("1-{}", r.shards);
        if let Some(m) = r.max_running {
            array.push_str(&format!("%{m}"));
        }
        array_only.insert(0, format!("--array={array}"));
        Ok(Plan {
            study: r.study,
            shards: r.shards,
            dir: absolute(r.dir)?,
            rephyre,
            tasks,
            cpus: r.cpus_per_task,
            common,
            array_only,
            study_args: if r.input_files {
                absolute_inputs(r.study, r.args)?
            } else {
                r.args.to_vec()
            },
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
        let mut line = format!(
            "exec {} --quiet merge \"${{parts[@]}}\" --out {}",
            self.binary(),
            self.dir_q(self.study.report)
        );
        for (extra, file) in self.study.extras {
            line.push_str(&format!(" {} {}", extra.option(), self.dir_q(file)));
        }
        s.push_str(&line);
        s.push('\n');
        s
    }

    fn array_path(&self) -> PathBuf {
        self.dir.join("array.sbatch")
    }

    fn merge_path(&self) -> PathBuf {
        self.dir.join("merge.sbatch")
    }

    /// What a dry run prints: the two scripts and the commands that would submit them.
    pub fn dry_run_text(&self) -> String {
        let (array_path, merge_path) = (self.array_path(), self.merge_path());
        format!(
            "# {}\n{}\n# {}\n{}\n# submitted with:\n#   sbatch --parsable {}\n#   sbatch --parsable --dependency=afterok:ARRAY_JOB_ID {}\n",
            array_path.display(),
            self.array_script(),
            merge_path.display(),
            self.merge_script(),
            quote(&array_path.to_string_lossy()),
            quote(&merge_path.to_string_lossy())
        )
    }

    /// Write the scripts (and the folders the jobs write in) and submit them; returns the line
    /// that says what was submitted.
    pub fn submit(&self) -> Result<String> {
        for sub in ["", "parts", "checkpoints", "logs"] {
            let d = self.dir.join(sub);
            std::fs::create_dir_all(&d)
                .with_context(|| format!("cannot create {}", d.display()))?;
        }
        let (array_path, merge_path) = (self.array_path(), self.merge_path());
        crate::files::write_atomic(&array_path, self.array_script().as_bytes())?;
        crate::files::write_atomic(&merge_path, self.merge_script().as_bytes())?;
        let array_id = sbatch(&[], &array_path)?;
        let dep = format!("--dependency=afterok:{array_id}");
        let merge_id = sbatch(&[&dep], &merge_path)?;
        Ok(format!(
            "submitted job array {array_id} ({} shards) and merge job {merge_id} (after it) -> {}",
            self.shards,
            self.dir.join(self.study.report).display()
        ))
    }
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
