//! `rephyre tasks list | show | import | import-levels | sheet`.

use crate::args::ScaleArgs;
use crate::context::Ctx;
use crate::parse::{parse_template, parse_templates};
use anyhow::{Context, Result};
use clap::Subcommand;
use phyq::levelset::Entry;
use std::io::Write;
use std::path::PathBuf;
use studies::files::{check_writable, write_atomic};
use studies::phyq_levels as levels;
use taskref::{TaskFile, TaskRef};
use tasks::TaskSet;
use tasks::Tier;

pub fn run(ctx: &Ctx, cmd: TasksCommand) -> Result<()> {
    match cmd {
        TasksCommand::List { tier, template } => match chosen(ctx, tier)? {
            Chosen::Phyq(levels) => list_phyq(levels, template.as_deref()),
            Chosen::Phyre(tier) => list_phyre(ctx, tier, template.as_deref()),
        },
        TasksCommand::Show {
            id,
            png,
            picture,
            json,
        } => {
            let task = ctx.resolve(&id)?;
            if json && matches!(task, TaskRef::Phyre(_)) {
                anyhow::bail!("--json is for Phy-Q tasks (phyq:L_C_K:NNNNN)");
            }
            if let Some(p) = &png {
                check_writable(p)?;
            }
            // A summary (a Phy-Q level's symbolic representation with --json), then the picture.
            let text = match &task {
                TaskRef::Phyq(entry) if json => levels::symbolic_json(entry),
                TaskRef::Phyq(entry) => levels::summary(entry),
                TaskRef::Phyre(task) => tasks::describe::summary(task),
            };
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            if let Some(p) = &png {
                let bytes = match &task {
                    TaskRef::Phyq(entry) => levels::picture(entry, false, picture.scale)?,
                    TaskRef::Phyre(task) => {
                        studies::phyre_tasks::picture(task, &[], 0, false, picture.scale)?
                    }
                };
                write_atomic(p, &bytes)?;
                if !json {
                    writeln!(out, "png:         {}", p.display())?;
                }
            }
            out.flush()?;
            Ok(())
        }
        TasksCommand::Sheet {
            tier,
            templates,
            per_template,
            columns,
            shrink,
            out,
        } => {
            let chosen = chosen(ctx, tier)?;
            if shrink.is_some() && matches!(chosen, Chosen::Phyre(_)) {
                anyhow::bail!("--shrink is for --tier phyq");
            }
            check_writable(&out)?;
            let sheet = match chosen {
                Chosen::Phyq(entries) => {
                    let shrink = shrink.unwrap_or(2) as usize;
                    let templates = templates.as_deref();
                    levels::sheet(entries, templates, per_template, columns, shrink)?
                }
                Chosen::Phyre(tier) => {
                    let templates = templates.as_deref().map(parse_templates).transpose()?;
                    let set = ctx.task_set()?;
                    let templates = templates.as_deref();
                    studies::phyre_tasks::sheet(set, tier, templates, per_template, columns)?
                }
            };
            write_atomic(&out, &sheet.png)?;
            println!(
                "{} scenes -> {} ({}×{} px)",
                sheet.scenes,
                out.display(),
                sheet.width,
                sheet.height
            );
            Ok(())
        }
        TasksCommand::ImportLevels { paths, out } => {
            check_writable(&out)?;
            let set = phyq::import_paths(&paths)?;
            write_atomic(&out, &set.to_bytes())?;
            let templates: std::collections::BTreeSet<String> = set
                .entries()
                .iter()
                .filter_map(|e| e.id.template_code())
                .collect();
            println!(
                "imported {} levels ({} templates) into {}",
                set.entries().len(),
                templates.len(),
                out.display()
            );
            Ok(())
        }
        TasksCommand::Import { file, out } => {
            check_writable(&out)?;
            let tasks = tasks::import::import_phyre_file(&file)
                .with_context(|| format!("cannot import {}", file.display()))?;
            let set = TaskSet::from_tasks(tasks)?;
            write_atomic(&out, &set.to_store_bytes(true))?;
            let ball = set.tier(tasks::Tier::Ball).count();
            println!(
                "imported {} tasks ({} ball, {} two_balls, {} templates) into {}",
                set.len(),
                ball,
                set.len() - ball,
                set.templates().len(),
                out.display()
            );
            Ok(())
        }
    }
}

/// `tasks list` for PHYRE tasks: one line per task of the task set (id, tier, objects,
/// description), optionally of one tier and one template.
fn list_phyre(ctx: &Ctx, tier: Option<tasks::Tier>, template: Option<&str>) -> Result<()> {
    let template = template.map(parse_template).transpose()?;
    let set = ctx.task_set()?;
    let mut out = std::io::stdout().lock();
    for t in set.tasks() {
        if tier.is_some_and(|tier| t.tier() != tier)
            || template.is_some_and(|n| t.id().template() != n)
        {
            continue;
        }
        writeln!(out, "{}", tasks::describe::list_line(t))?;
    }
    out.flush()?;
    Ok(())
}

/// What `tasks list` and `tasks sheet` show: Phy-Q levels (`--tier phyq`, or a `--tasks` level
/// set), or PHYRE tasks (of `--tier`, or all).
enum Chosen {
    Phyq(&'static [Entry]),
    Phyre(Option<Tier>),
}

fn chosen(ctx: &Ctx, tier: Option<ListTier>) -> Result<Chosen> {
    Ok(match (tier, ctx.task_file()?) {
        (Some(ListTier::Phyq), _) | (None, Some(TaskFile::Phyq(..))) => {
            Chosen::Phyq(ctx.phyq_levels()?.ok_or_else(|| {
                let path = ctx
                    .tasks_file
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string());
                anyhow::anyhow!(
                    "--tier phyq lists Phy-Q levels, and --tasks {path} holds PHYRE tasks"
                )
            })?)
        }
        (Some(ListTier::Phyre(_)), Some(TaskFile::Phyq(_, path))) => anyhow::bail!(
            "--tasks {} is a Phy-Q level set: it has no PHYRE tier",
            path.display()
        ),
        (Some(ListTier::Phyre(t)), _) => Chosen::Phyre(Some(t)),
        (None, _) => Chosen::Phyre(None),
    })
}

const TASKS_LIST_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks list
  rephyre tasks list --tier two_balls
  rephyre tasks list --template 00013
  rephyre tasks list --tier phyq
  rephyre tasks list --tier phyq --template 1.1
  rephyre --tasks mine.rpts tasks list";

const TASKS_SHOW_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks show 00000:000
  rephyre tasks show 00100:000 --png scene.png --scale 2
  rephyre tasks show phyq:1_1_4:00001 --png level.png
  rephyre tasks show phyq:1_1_4:00001 --json > level.json

A Phy-Q id (phyq:L_C_K:NNNNN, see tasks list --tier phyq) shows the task's objects with their
original sprite names, positions and screen boxes; --json prints the original's symbolic
representation instead (docs/phyq-observations.md), --png draws the 640 × 480 picture.";

const TASKS_IMPORT_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks import tasks.bin.lzma --out phyre.rpts
  rephyre --tasks phyre.rpts tasks list --template 00000";

const TASKS_IMPORT_LEVELS_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks import-levels phyq/data/templates --out phyq-templates.json
  rephyre tasks import-levels generated/ extra/1_1_1_7.xml --out phyq-levels.json

A folder means every *.xml below it. A file named L_C_K_N.xml gets the id phyq:L_C_K:NNNNN,
any other file phyq:STEM. The level-set file's format: phyq/FORMAT.md.";

#[derive(Debug, Subcommand)]
pub enum TasksCommand {
    /// One line per task: id, tier, number of scene objects, description. With --tier phyq:
    /// the Phy-Q tasks (id, scenario, template's paper number, number of objects).
    #[command(after_help = TASKS_LIST_EXAMPLES)]
    List {
        /// Only tasks of this tier: ball or two_balls (PHYRE), or phyq (the 7,500 generated
        /// Phy-Q tasks).
        #[arg(long, value_parser = parse_list_tier)]
        tier: Option<ListTier>,
        /// Only tasks of this template (e.g. 00013 or 13; with --tier phyq a code such as 1_1_4
        /// or a paper number such as 1.1).
        #[arg(long, value_name = "T")]
        template: Option<String>,
    },
    /// Bodies, goal, tier and description of one task (Phy-Q: objects, or --json).
    #[command(after_help = TASKS_SHOW_EXAMPLES)]
    Show {
        /// Task id: TTTTT:III (PHYRE) or phyq:L_C_K:NNNNN (Phy-Q).
        id: String,
        /// Also draw the initial scene to this PNG file.
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        #[command(flatten)]
        picture: ScaleArgs,
        /// Phy-Q tasks: print the symbolic representation (JSON) instead of the summary.
        #[arg(long)]
        json: bool,
    },
    /// Convert the original PHYRE task file (tasks.bin.lzma: xz + Thrift) to rephyre's format.
    #[command(after_help = TASKS_IMPORT_EXAMPLES)]
    Import {
        /// The original task file.
        file: PathBuf,
        /// Where to write the rephyre task file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Read Phy-Q / Science Birds level XML files (or folders of them) into a level-set file.
    #[command(after_help = TASKS_IMPORT_LEVELS_EXAMPLES)]
    ImportLevels {
        /// Level XML files, or folders searched for *.xml.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Where to write the level-set file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// A contact sheet: the initial scenes of many tasks in one PNG grid, to check tasks by eye.
    #[command(after_help = TASKS_SHEET_EXAMPLES)]
    Sheet {
        /// Only tasks of this tier: ball or two_balls (PHYRE), or phyq (the built-in Phy-Q
        /// tasks, drawn as 640 × 480 pictures shrunk by --shrink).
        #[arg(long, value_parser = parse_list_tier)]
        tier: Option<ListTier>,
        /// Templates to include, e.g. 00012 or 0-4 (default: every template of the tier); with
        /// --tier phyq codes or paper numbers, e.g. 1_1_4,2.1.
        #[arg(long, value_name = "LIST")]
        templates: Option<String>,
        /// Tasks per template (first by id).
        #[arg(long, value_name = "N", default_value_t = 10)]
        per_template: usize,
        /// Scenes per row.
        #[arg(long, value_name = "N", default_value_t = 10)]
        columns: usize,
        /// --tier phyq: shrink each 640 × 480 picture N times (1 to 8; default 2).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=8))]
        shrink: Option<u32>,
        /// The PNG to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

const TASKS_SHEET_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks sheet --templates 00012 --out template12.png
  rephyre tasks sheet --templates 0-24 --per-template 4 --columns 8 --out ball-tier.png
  rephyre tasks sheet --tier ball --per-template 1 --out one-per-template.png
  rephyre tasks sheet --tier phyq --per-template 1 --columns 8 --out phyq.png
  rephyre tasks sheet --tier phyq --templates 1.1,2_1_3 --per-template 4 --shrink 1 --out t.png";

/// What `tasks list --tier` selects: a PHYRE tier, or the Phy-Q tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListTier {
    Phyre(Tier),
    Phyq,
}

pub fn parse_list_tier(s: &str) -> Result<ListTier, String> {
    if s == "phyq" {
        return Ok(ListTier::Phyq);
    }
    Tier::parse(s)
        .map(ListTier::Phyre)
        .ok_or_else(|| format!("unknown tier {s:?} (expected ball, two_balls or phyq)"))
}

/// `tasks list --tier phyq` (or on a `--tasks` level set).
fn list_phyq(entries: &[Entry], template: Option<&str>) -> Result<()> {
    let text = levels::list(entries, template)?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
