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

use crate::cli::{Cli, Command};
use anyhow::{bail, Context, Result};
use std::io::IsTerminal;
use std::path::PathBuf;
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
                    .map_err(|e| anyhow::anyhow!("cannot load --tasks {}: {e}", path.display()))?;
                if set.is_empty() {
                    bail!("--tasks {} holds no tasks", path.display());
                }
                Ok(Box::leak(Box::new(set)))
            }
        }
    }

    /// A rayon pool with `--threads` workers.
    pub fn pool(&self) -> Result<rayon::ThreadPool> {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(t) = self.threads {
            b = b.num_threads(t);
        }
        b.build().context("cannot start worker threads")
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
    set.lookup(id).map_err(|e| anyhow::anyhow!("{e}"))
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

/// The tasks a batch command works on: the given templates (default: the templates whose tasks
/// are of `tier`), the first `per_template` tasks of each, in id order. Every named template
/// must exist in the set.
pub fn select_tasks<'a>(
    set: &'a TaskSet,
    tier: Tier,
    templates: Option<&str>,
    per_template: Option<u32>,
) -> Result<Vec<&'a Task>> {
    let templates = match templates {
        Some(text) => templates_in_set(set, text)?,
        None => {
            let list: Vec<u32> = set
                .templates()
                .into_iter()
                .filter(|&t| set.template(t).iter().all(|task| task.tier() == tier))
                .collect();
            if list.is_empty() {
                bail!("the task set has no templates of the {tier} tier");
            }
            list
        }
    };
    let mut out = Vec::new();
    for t in templates {
        let tasks = set.template(t);
        let n = per_template.map_or(tasks.len(), |n| (n as usize).min(tasks.len()));
        out.extend(tasks[..n].iter());
    }
    Ok(out)
}

/// The templates of a `--templates` list, each checked to have tasks in `set`.
pub fn templates_in_set(set: &TaskSet, text: &str) -> Result<Vec<u32>> {
    let list = parse_templates(text)?;
    for &t in &list {
        if set.template(t).is_empty() {
            bail!("template {t:05} has no tasks in the task set");
        }
    }
    Ok(list)
}

/// FNV-1a over bytes (fingerprints of task data for checkpoints).
pub fn fnv64(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A fingerprint of the given tasks' full content (ids, scenes, goals), for checkpoints.
pub fn tasks_fingerprint(tasks: &[&Task]) -> Result<String> {
    let owned: Vec<Task> = tasks.iter().map(|t| (*t).clone()).collect();
    let n = owned.len();
    let set = TaskSet::from_tasks(owned).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(format!(
        "{n} tasks, content {:016x}",
        fnv64(&set.to_store_bytes(false))
    ))
}

/// An action as text, shortest round-trip form, components separated by `sep`.
pub fn action_text(a: &[f64], sep: &str) -> String {
    a.iter()
        .map(|v| format!("{v}"))
        .collect::<Vec<_>>()
        .join(sep)
}

/// Check all the given output paths before any long work starts.
pub fn check_outputs<'a>(paths: impl IntoIterator<Item = &'a std::path::Path>) -> Result<()> {
    for p in paths {
        crate::output::check_writable(p)?;
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

    #[test]
    fn default_selection_is_the_tier_templates() {
        let set = TaskSet::builtin();
        let ball = select_tasks(set, Tier::Ball, None, Some(2)).unwrap();
        assert_eq!(ball.len(), 50);
        assert!(ball.iter().all(|t| t.tier() == Tier::Ball));
        let two = select_tasks(set, Tier::TwoBalls, Some("00100,00124"), None).unwrap();
        assert_eq!(two.len(), 200);
        assert!(select_tasks(set, Tier::Ball, Some("00050"), None).is_err());
    }
}
