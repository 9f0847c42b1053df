//! `rephyre simulate ID --action …`: one action on one task ([`studies::phyre_tasks::play`];
//! a Phy-Q id: its shots, [`studies::phyq_levels::play`]).

use crate::args::{parse_tier, JsonArgs, ScaleArgs};
use crate::context::Ctx;
use crate::parse::{check_action_len, parse_action};
use anyhow::{bail, Result};
use clap::Args;
use phyq::levelset::Entry;
use std::io::Write;
use std::path::PathBuf;
use studies::files::{check_writable, write_atomic};
use studies::phyq_levels as levels;
use taskref::TaskRef;
use tasks::Tier;

pub fn run(ctx: &Ctx, a: SimulateArgs) -> Result<()> {
    let task = match ctx.resolve(&a.id)? {
        TaskRef::Phyq(entry) => return simulate_phyq(&a, *entry),
        TaskRef::Phyre(task) => task,
    };
    let Some(text) = &a.action else {
        bail!("--shots is for Phy-Q tasks; a PHYRE task takes --action");
    };
    let action = parse_action(text)?;
    let tier = a.tier.unwrap_or(task.tier());
    check_action_len(&action, tier)?;
    if let Some(g) = &a.gif {
        check_writable(g)?;
    }
    let gif_scale = a.gif.as_ref().map(|_| a.picture.scale);
    let (mut report, gif) = studies::phyre_tasks::play(task, tier, &action, gif_scale)?;
    if let (Some(path), Some(bytes)) = (&a.gif, gif) {
        write_atomic(path, &bytes)?;
        report.gif = Some(path.display().to_string());
    }
    let mut out = std::io::stdout().lock();
    if a.print.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        out.write_all(report.text().as_bytes())?;
        if report.gif.is_none() && a.gif.is_some() {
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

/// `simulate ID --shots …` for a Phy-Q id.
fn simulate_phyq(a: &SimulateArgs, entry: Entry) -> Result<()> {
    if a.tier.is_some() {
        bail!("--tier is for PHYRE tasks");
    }
    let Some(text) = &a.shots else {
        bail!("a Phy-Q task takes --shots \"x,y,tap;…\" (--action is for PHYRE tasks)");
    };
    let given = phyq::game::parse_shots(text)?;
    if let Some(g) = &a.gif {
        check_writable(g)?;
    }
    let (mut report, gif) = levels::play(&entry, &given, a.gif.as_ref().map(|_| a.picture.scale))?;
    if let (Some(path), Some(bytes)) = (&a.gif, gif) {
        write_atomic(path, &bytes)?;
        report.gif = Some(path.display().to_string());
    }
    let mut out = std::io::stdout().lock();
    if a.print.json {
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    } else {
        out.write_all(report.text().as_bytes())?;
    }
    Ok(())
}
