//! `rephyre render ID [--action …] [--step N] --out FILE [--raw]`: the picture
//! [`studies::phyre_tasks::picture`] makes (a Phy-Q id: its initial state, [`studies::phyq_levels::picture`]).

use crate::args::{parse_tier, ScaleArgs};
use crate::context::Ctx;
use crate::parse::{check_action_len, parse_action};
use anyhow::{bail, Result};
use clap::Args;
use phyq::levelset::Entry;
use std::path::PathBuf;
use studies::files::{check_writable, write_atomic};
use studies::phyq_levels as levels;
use studies::phyre_tasks::{picture, RAW_OBSERVATION};
use taskref::TaskRef;
use tasks::Tier;
use tasks::{validate_action, UserBall};

pub fn run(ctx: &Ctx, a: RenderArgs) -> Result<()> {
    let task = match ctx.resolve(&a.id)? {
        TaskRef::Phyq(entry) => return render_phyq(&a, *entry),
        TaskRef::Phyre(task) => task,
    };
    let action = a.action.as_deref().map(parse_action).transpose()?;
    if a.step > tasks::MAX_STEPS {
        let max = tasks::MAX_STEPS;
        bail!("--step {} is past the end of a run ({max} steps)", a.step);
    }
    let tier = a.tier.unwrap_or(task.tier());
    check_writable(&a.out)?;
    let balls: Vec<UserBall> = match &action {
        None => Vec::new(),
        Some(action) => {
            check_action_len(action, tier)?;
            match validate_action(task, tier, action) {
                Ok(v) => v.balls().to_vec(),
                Err(why) => bail!("the action is invalid for {}: {why}", task.id()),
            }
        }
    };
    let bytes = picture(task, &balls, a.step, a.raw, a.picture.scale)?;
    write_atomic(&a.out, &bytes)?;
    println!(
        "{} step {} -> {} ({})",
        task.id(),
        a.step,
        a.out.display(),
        if a.raw { RAW_OBSERVATION } else { "PNG" }
    );
    Ok(())
}

pub const RENDER_EXAMPLES: &str = "\
EXAMPLES:
  rephyre render 00000:000 --out scene.png
  rephyre render 00000:000 --action 0.5,0.5,0.3 --step 300 --out t300.png --scale 3
  rephyre render 00000:000 --raw --out scene.bin
  rephyre render phyq:1_1_4:00001 --out level.png

--raw writes the 65,536 observation bytes (256 rows of 256, row 0 = bottom of the scene;
values 0 background, 1 red, 2 green, 3 blue, 4 purple, 5 gray, 6 black).
A Phy-Q id (phyq:L_C_K:NNNNN) draws the level's initial state as the game's 640 × 480 picture in
its colour codes (docs/phyq-observations.md); --raw writes the 307,200 codes (row 0 = top);
--action and --step need the Phy-Q simulation, which rephyre does not have yet.";

#[derive(Debug, Args)]
#[command(after_help = RENDER_EXAMPLES)]
pub struct RenderArgs {
    /// Task id: TTTTT:III (PHYRE) or phyq:L_C_K:NNNNN (Phy-Q).
    pub id: String,
    /// Add the user balls of this action (comma-separated, as for `simulate`).
    #[arg(long, value_name = "A", allow_hyphen_values = true)]
    pub action: Option<String>,
    /// Action tier (default: the task's own tier).
    #[arg(long, value_parser = parse_tier)]
    pub tier: Option<Tier>,
    /// Draw the state after this many steps (0 = initial scene, at most 1000).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub step: u32,
    /// Write the raw observation bytes instead of a PNG.
    #[arg(long)]
    pub raw: bool,
    #[command(flatten)]
    pub picture: ScaleArgs,
    /// Output file.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `render ID` for a Phy-Q id: the initial state's picture (PNG, or `--raw` codes).
fn render_phyq(a: &RenderArgs, entry: Entry) -> Result<()> {
    if a.action.is_some() || a.step != 0 {
        bail!("--action and --step are for PHYRE tasks (a Phy-Q run: simulate ID --shots … --gif FILE)");
    }
    if a.tier.is_some() {
        bail!("--tier is for PHYRE tasks");
    }
    check_writable(&a.out)?;
    write_atomic(&a.out, &levels::picture(&entry, a.raw, a.picture.scale)?)?;
    let kind = if a.raw { levels::RAW_PICTURE } else { "PNG" };
    println!("{} -> {} ({kind})", entry.id, a.out.display());
    Ok(())
}
