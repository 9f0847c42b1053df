//! The commands of `rephyre`, one module each, and what they share: the task set, the options
//! every command takes, and parsers for ids, actions and template lists.

pub mod audit;
pub mod bench;
pub mod diversity;
pub mod eval;
pub mod parity;
pub mod plot;
pub mod random_curve;
pub mod render;
pub mod simulate;
pub mod solvability;
pub mod tasks_cmd;
pub mod witness;

use crate::cli::{CheckpointArgs, Cli, Command};
use anyhow::{bail, Context, Result};
use std::io::IsTerminal;
use std::path::PathBuf;
use studies::runner::RunConfig;
use tasks::{Task, TaskSet, Tier};

/// What every command may need besides its own arguments.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// `--tasks FILE`, or `None` for the built-in set.
    pub tasks_file: Option<PathBuf>,
    pub threads: Option<usize>,
    pub progress: bool,
}

impl Ctx {
    pub fn from_cli(cli: &Cli) -> Ctx {
        let progress = if cli.quiet {
            false
        } else {
            cli.progress || std::io::stderr().is_terminal()
        };
        Ctx {
            tasks_file: cli.tasks.clone(),
            threads: cli.threads.map(|t| t as usize),
            progress,
        }
    }

    /// The task set: the user's `--tasks` file, or the built-in PHYRE-B/2B tasks. Loaded once per
    /// process and kept for its lifetime.
    pub fn task_set(&self) -> Result<&'static TaskSet> {
        match &self.tasks_file {
            None => Ok(TaskSet::builtin()),
            Some(path) => {
                let set = TaskSet::load(path)
                    .with_context(|| format!("cannot load --tasks {}", path.display()))?;
                if set.is_empty() {
                    bail!("--tasks {} holds no tasks", path.display());
                }
                Ok(Box::leak(Box::new(set)))
            }
        }
    }

    /// The runner configuration of a command without checkpoints: `--threads` and progress.
    pub fn run_config_plain(&self) -> RunConfig {
        RunConfig {
            threads: self.threads,
            progress: self.progress.then(crate::progress::bar),
            ..RunConfig::default()
        }
    }

    /// The runner configuration of a command with `--checkpoint`, `--resume` (checked: a
    /// positive interval between checkpoints).
    pub fn run_config(&self, c: &CheckpointArgs) -> Result<RunConfig> {
        if !(c.checkpoint_secs > 0.0 && c.checkpoint_secs < 1e6) {
            bail!("--checkpoint-secs must be a positive number of seconds");
        }
        Ok(RunConfig {
            checkpoint: c.checkpoint.clone(),
            resume: c.resume,
            checkpoint_every: std::time::Duration::from_secs_f64(c.checkpoint_secs),
            ..self.run_config_plain()
        })
    }

    /// A worker pool with `--threads` workers.
    pub fn pool(&self) -> Result<rayon::ThreadPool> {
        studies::runner::pool(self.threads)
    }
}

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let ctx = Ctx::from_cli(&cli);
    match cli.command {
        Command::Tasks(c) => tasks_cmd::run(&ctx, c),
        Command::Simulate(a) => simulate::run(&ctx, a),
        Command::Render(a) => render::run(&ctx, a),
        Command::Solvability(a) => solvability::run(&ctx, a),
        Command::Diversity(a) => diversity::run(&ctx, a),
        Command::RandomCurve(a) => random_curve::run(&ctx, a),
        Command::Bench(a) => bench::run(&ctx, a),
        Command::Parity(a) => parity::run(&ctx, a),
        Command::Eval(a) => eval::run(&ctx, a),
        Command::Compare(a) => eval::compare(&ctx, a),
        Command::Audit(a) => audit::run(&ctx, a),
        Command::Witness(a) => witness::run(&ctx, a),
    }
}

/// The task with text id `id`.
pub fn lookup<'a>(set: &'a TaskSet, id: &str) -> Result<&'a Task> {
    Ok(set.lookup(id)?)
}

/// Parse a comma-separated action, e.g. `0.5,0.5,0.3`. Every component must be a finite
/// number (NaN and infinities are refused here, as input errors; range and placement are the
/// validity rule's business).
pub fn parse_action(text: &str) -> Result<Vec<f64>> {
    let shown = shorten(text);
    if text.trim().is_empty() {
        bail!("empty action (expected comma-separated numbers, e.g. 0.5,0.5,0.3)");
    }
    let mut out = Vec::new();
    for (i, part) in text.split(',').enumerate() {
        let p = part.trim();
        let v: f64 = p.parse().map_err(|_| {
            anyhow::anyhow!(
                "malformed action {shown:?}: component {i} ({:?}) is not a number",
                shorten(p)
            )
        })?;
        if !v.is_finite() {
            bail!(
                "malformed action {shown:?}: component {i} is {p} (must be a finite number in [0, 1])"
            );
        }
        out.push(v);
        if out.len() > 64 {
            bail!("malformed action {shown:?}: too many components");
        }
    }
    Ok(out)
}

/// Check that `action` has the length `tier` takes.
pub fn check_action_len(action: &[f64], tier: Tier) -> Result<()> {
    if action.len() != tier.action_len() {
        bail!(
            "the {} tier takes {} action components (x,y,r per ball), got {}",
            tier,
            tier.action_len(),
            action.len()
        );
    }
    Ok(())
}

/// Cut user text for an error message.
fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        let mut t: String = s.chars().take(40).collect();
        t.push('…');
        t
    } else {
        s.to_string()
    }
}

/// Parse one template number: `00013` or `13`.
pub fn parse_template(s: &str) -> Result<u32> {
    let t = s.trim();
    if t.is_empty() || t.len() > 5 || !t.bytes().all(|b| b.is_ascii_digit()) {
        bail!(
            "malformed template {:?} (expected up to five digits, e.g. 00013)",
            shorten(t)
        );
    }
    Ok(t.parse().expect("at most five digits"))
}

/// Parse a template list: comma-separated numbers and inclusive ranges, e.g. `0-4,00010,12-13`.
/// Returns ascending, without duplicates.
pub fn parse_templates(text: &str) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for item in text.split(',') {
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (parse_template(a)?, parse_template(b)?);
                if a > b {
                    bail!("empty template range {:?}", item.trim());
                }
                out.extend(a..=b);
            }
            None => out.push(parse_template(item)?),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The tasks a batch command works on ([`studies::selection::select_tasks`]) with the
/// templates of a `--templates` list.
pub fn select_tasks<'a>(
    set: &'a TaskSet,
    tier: Tier,
    templates: Option<&str>,
    per_template: Option<u32>,
) -> Result<Vec<&'a Task>> {
    let templates = templates.map(parse_templates).transpose()?;
    studies::selection::select_tasks(set, tier, templates.as_deref(), per_template)
}

/// Check all the given output paths before any long work starts.
pub fn check_outputs<'a>(paths: impl IntoIterator<Item = &'a std::path::Path>) -> Result<()> {
    for p in paths {
        studies::files::check_writable(p)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_parse_strictly() {
        assert_eq!(parse_action("0.5, 0.5,0.3").unwrap(), vec![0.5, 0.5, 0.3]);
        assert!(parse_action("0.5,x")
            .unwrap_err()
            .to_string()
            .contains("not a number"));
        assert!(parse_action("0.5,NaN,1")
            .unwrap_err()
            .to_string()
            .contains("finite"));
        assert!(parse_action("inf").is_err());
        assert!(parse_action("").is_err());
        assert!(parse_action("0.5,,0.3").is_err());
    }

    #[test]
    fn template_lists_and_ranges() {
        assert_eq!(parse_templates("00003,1-2,2").unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_templates("00100-00102").unwrap(), vec![100, 101, 102]);
        assert!(parse_templates("5-3").is_err());
        assert!(parse_templates("123456").is_err());
        assert!(parse_templates("a").is_err());
        assert!(parse_templates("").is_err());
    }
}
