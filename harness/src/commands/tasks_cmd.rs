//! `rephyre tasks list | show | import | import-levels | sheet`.

use crate::cli::{ListTier, TasksCommand};
use crate::context::Ctx;
use crate::parse::parse_template;
use anyhow::{Context, Result};
use std::io::Write;
use taskref::{TaskFile, TaskRef};
use tasks::TaskSet;

pub fn run(ctx: &Ctx, cmd: TasksCommand) -> Result<()> {
    match cmd {
        TasksCommand::List { tier, template } => match (tier, ctx.task_file()?) {
            (Some(ListTier::Phyq), _) | (None, Some(TaskFile::Phyq(..))) => {
                let levels = phyq_levels(ctx)?;
                super::phyq::list(levels, template.as_deref())
            }
            (Some(ListTier::Phyre(_)), Some(TaskFile::Phyq(_, path))) => anyhow::bail!(
                "--tasks {} is a Phy-Q level set: it has no PHYRE tier",
                path.display()
            ),
            (Some(ListTier::Phyre(t)), _) => list_phyre(ctx, Some(t), template.as_deref()),
            (None, _) => list_phyre(ctx, None, template.as_deref()),
        },
        TasksCommand::Show {
            id,
            png,
            scale,
            json,
        } => {
            let task = match ctx.resolve(&id)? {
                TaskRef::Phyq(entry) => {
                    return super::phyq::show(*entry, png.as_deref(), scale, json)
                }
                TaskRef::Phyre(task) => task,
            };
            if json {
                anyhow::bail!("--json is for Phy-Q tasks (phyq:L_C_K:NNNNN)");
            }
            if let Some(p) = &png {
                studies::files::check_writable(p)?;
            }
            let mut out = std::io::stdout().lock();
            out.write_all(tasks::describe::summary(task).as_bytes())?;
            if let Some(p) = &png {
                let obs = super::render::observe(task, &[], 0)?;
                studies::files::write_atomic(p, &super::render::png_bytes(&obs, scale as usize)?)?;
                writeln!(out, "png:         {}", p.display())?;
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
            let tier = match (tier, ctx.task_file()?) {
                (Some(ListTier::Phyq), _) | (None, Some(TaskFile::Phyq(..))) => {
                    let shrink = shrink.unwrap_or(2) as usize;
                    return super::phyq::sheet(
                        phyq_levels(ctx)?,
                        templates.as_deref(),
                        per_template,
                        columns,
                        shrink,
                        &out,
                    );
                }
                (Some(ListTier::Phyre(_)), Some(TaskFile::Phyq(_, path))) => anyhow::bail!(
                    "--tasks {} is a Phy-Q level set: it has no PHYRE tier",
                    path.display()
                ),
                (Some(ListTier::Phyre(t)), _) => Some(t),
                (None, _) => None,
            };
            if shrink.is_some() {
                anyhow::bail!("--shrink is for --tier phyq");
            }
            studies::files::check_writable(&out)?;
            let set = ctx.task_set()?;
            let mut wanted = match templates.as_deref() {
                Some(list) => crate::parse::parse_templates(list)?,
                None => set.templates(),
            };
            if let Some(t) = tier {
                wanted.retain(|&tpl| set.template(tpl).iter().any(|task| task.tier() == t));
            }
            let mut scenes = Vec::new();
            for tpl in wanted {
                for task in set.template(tpl).iter().take(per_template.max(1)) {
                    scenes.push(super::render::observe(task, &[], 0)?);
                }
            }
            if scenes.is_empty() {
                anyhow::bail!("no tasks in the selected templates");
            }
            let sheet = raster::contact_sheet(&scenes, columns);
            let bytes = raster::picture::png_bytes(&sheet)?;
            studies::files::write_atomic(&out, &bytes)?;
            println!(
                "{} scenes -> {} ({}×{} px)",
                scenes.len(),
                out.display(),
                sheet.width,
                sheet.height
            );
            Ok(())
        }
        TasksCommand::ImportLevels { paths, out } => {
            studies::files::check_writable(&out)?;
            let set = phyq::import_paths(&paths)?;
            studies::files::write_atomic(&out, &set.to_bytes())?;
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
            studies::files::check_writable(&out)?;
            let tasks = tasks::import::import_phyre_file(&file)
                .with_context(|| format!("cannot import {}", file.display()))?;
            let set = TaskSet::from_tasks(tasks)?;
            studies::files::write_atomic(&out, &set.to_store_bytes(true))?;
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

/// `tasks list --tier phyq`: one line per built-in Phy-Q task (id, scenario, template's
/// paper number, objects), optionally of one template (code or paper number).
/// The Phy-Q levels of `--tasks` or the built-in tier; an error when `--tasks` holds PHYRE tasks.
fn phyq_levels(ctx: &Ctx) -> Result<&'static [phyq::levelset::Entry]> {
    ctx.phyq_levels()?.ok_or_else(|| {
        anyhow::anyhow!(
            "--tier phyq lists Phy-Q levels, and --tasks {} holds PHYRE tasks",
            ctx.tasks_file
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string())
        )
    })
}
