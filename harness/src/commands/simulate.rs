//! `rephyre simulate ID --action …`: one action on one task.

use super::render;
use crate::cli::{parse_tier, JsonArgs, ScaleArgs};
use crate::context::Ctx;
use crate::parse::{check_action_len, parse_action};
use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use taskref::TaskRef;
use tasks::Tier;
use tasks::{simulate_observed, validate_action, SimOptions, Status};

/// What `simulate` reports (also its `--json` form).
#[derive(Debug, Serialize)]
struct Report {
    task: String,
    tier: String,
    action: Vec<f64>,
    /// SOLVED, NOT_SOLVED or INVALID.
    status: &'static str,
    /// Why the action is invalid.
    reason: Option<String>,
    /// Steps the run covers (the solving step, or 1000).
    steps: Option<u32>,
    /// Steps actually computed (fewer when everything came to rest early).
    stepped: Option<u32>,
    first_touch_step: Option<u32>,
    solved_step: Option<u32>,
    /// Engine state hash after the last covered step, hex.
    final_hash: Option<String>,
    gif: Option<String>,
}

pub fn run(ctx: &Ctx, a: SimulateArgs) -> Result<()> {
    let task = match ctx.resolve(&a.id)? {
        TaskRef::Phyq(entry) => return super::phyq::simulate(&a, *entry),
        TaskRef::Phyre(task) => task,
    };
    let Some(text) = &a.action else {
        anyhow::bail!("--shots is for Phy-Q tasks; a PHYRE task takes --action");
    };
    let action = parse_action(text)?;
    let tier = a.tier.unwrap_or(task.tier());
    check_action_len(&action, tier)?;
    if let Some(g) = &a.gif {
        studies::files::check_writable(g)?;
    }
    let mut report = Report {
        task: task.id().to_string(),
        tier: tier.to_string(),
        action: action.clone(),
        status: Status::Invalid.name(),
        reason: None,
        steps: None,
        stepped: None,
        first_touch_step: None,
        solved_step: None,
        final_hash: None,
        gif: None,
    };
    match validate_action(task, tier, &action) {
        Err(why) => report.reason = Some(why.to_string()),
        Ok(valid) => {
            let mut frames = Vec::new();
            let mut colours = Vec::new();
            let want_gif = a.gif.is_some();
            if want_gif {
                colours = task
                    .build_world(valid.balls())
                    .context("cannot build the world")?
                    .colours;
            }
            let (o, end) = simulate_observed(task, &valid, SimOptions::default(), |step, world| {
                if want_gif && raster::is_frame_step(step) {
                    frames.push(render::observe_world(world, &colours));
                }
            })
            .context("cannot build the world")?;
            // The final state too, when it is not a frame already.
            if want_gif && !raster::is_frame_step(o.steps) {
                frames.push(render::observe_world(&end.world, &colours));
            }
            report.status = Status::of_solved(o.solved).name();
            report.steps = Some(o.steps);
            report.stepped = Some(o.stepped);
            report.first_touch_step = o.first_touch_step;
            report.solved_step = o.solved_step;
            report.final_hash = Some(format!("{:016x}", o.final_hash));
            if let Some(g) = &a.gif {
                let scale = a.picture.scale as usize;
                render::write_gif(g, &render::gif_frames(&frames, valid.balls(), scale))?;
                report.gif = Some(g.display().to_string());
            }
        }
    }
    let mut out = std::io::stdout().lock();
    if a.print.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        let opt = |v: Option<u32>| v.map_or("-".to_string(), |s| s.to_string());
        writeln!(out, "task:             {}", report.task)?;
        writeln!(out, "tier:             {}", report.tier)?;
        writeln!(
            out,
            "action:           {}",
            studies::action_text(&report.action, ",")
        )?;
        match &report.reason {
            Some(r) => writeln!(out, "status:           {} ({r})", report.status)?,
            None => {
                writeln!(out, "status:           {}", report.status)?;
                writeln!(
                    out,
                    "steps:            {} covered, {} simulated",
                    opt(report.steps),
                    opt(report.stepped)
                )?;
                writeln!(out, "first touch step: {}", opt(report.first_touch_step))?;
                writeln!(out, "solved step:      {}", opt(report.solved_step))?;
                writeln!(
                    out,
                    "final hash:       {}",
                    report.final_hash.as_deref().unwrap_or("-")
                )?;
            }
        }
        if let Some(g) = &report.gif {
            writeln!(out, "gif:              {g}")?;
        } else if a.gif.is_some() {
            writeln!(out, "gif:              not written (invalid action)")?;
        }
    }
    out.flush()?;
    Ok(())
}

pub const SIMULATE_EXAMPLES: &str = "\
EXAMPLES:
  rephyre simulate 00000:000 --action 0.5,0.5,0.3
  rephyre simulate 00100:005 --action 0.2,0.8,0.1,0.7,0.8,0.1 --json
  rephyre simulate 00000:000 --action 0.5,0.5,0.3 --gif run.gif --scale 2

The action is x,y,r per ball in [0, 1]: x = 255·a0, y = 255·a1, r = 2 + 30·a2 px.
Status is SOLVED, NOT_SOLVED or INVALID (with the reason; an invalid action is not simulated).";

#[derive(Debug, Args)]
#[command(after_help = SIMULATE_EXAMPLES)]
pub struct SimulateArgs {
    /// Task id: TTTTT:III (PHYRE) or phyq:L_C_K:NNNNN (Phy-Q).
    pub id: String,
    /// PHYRE: comma-separated action, 3 numbers (ball tier) or 6 (two_balls).
    #[arg(
        long,
        value_name = "A",
        allow_hyphen_values = true,
        required_unless_present = "shots",
        conflicts_with = "shots"
    )]
    pub action: Option<String>,
    /// Phy-Q: shots "x,y,tap;x,y,tap…", one per bird: the release point from the bird's rest
    /// point on the slingshot in pixels of the level's 640×480 picture (y up; the drag is
    /// clamped at 1 m), and the tap time in seconds after the launch (0: no tap).
    #[arg(long, value_name = "SHOTS", allow_hyphen_values = true)]
    pub shots: Option<String>,
    /// Action tier (default: the task's own tier).
    #[arg(long, value_parser = parse_tier)]
    pub tier: Option<Tier>,
    /// Write an animated GIF of the run (the state after steps 1, 61, 121, … and the last
    /// step; the action's balls outlined where they started).
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    #[command(flatten)]
    pub picture: ScaleArgs,
    #[command(flatten)]
    pub print: JsonArgs,
}
