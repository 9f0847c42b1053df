//! `rephyre render ID [--action …] [--step N] --out FILE [--raw]`, and the drawing helpers the
//! other commands share (observations, PNG, GIF), all through the raster crate.

use crate::cli::{parse_tier, ScaleArgs};
use crate::context::Ctx;
use crate::parse::{check_action_len, parse_action};
use anyhow::{bail, Context, Result};
use clap::Args;
use engine::World;
use raster::{Indexed, Observation};
use std::path::Path;
use std::path::PathBuf;
use studies::files::write_atomic;
use taskref::TaskRef;
use tasks::Tier;
use tasks::{validate_action, Task, UserBall};

/// Most steps `render --step` simulates (the length of a run).
pub const MAX_RENDER_STEP: u32 = tasks::MAX_STEPS;
/// GIF frame delay (hundredths of a second): a frame is 60 steps = 1 s of simulated time, so
/// the animation runs 4× faster than real time.
pub const GIF_DELAY_CS: u16 = 25;

pub fn run(ctx: &Ctx, a: RenderArgs) -> Result<()> {
    let task = match ctx.resolve(&a.id)? {
        TaskRef::Phyq(entry) => return super::phyq::render(&a, *entry),
        TaskRef::Phyre(task) => task,
    };
    let action = a.action.as_deref().map(parse_action).transpose()?;
    if a.step > MAX_RENDER_STEP {
        bail!(
            "--step {} is past the end of a run ({MAX_RENDER_STEP} steps)",
            a.step
        );
    }
    let tier = a.tier.unwrap_or(task.tier());
    studies::files::check_writable(&a.out)?;
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
    let obs = observe(task, &balls, a.step)?;
    let bytes = if a.raw {
        obs.as_bytes().to_vec()
    } else {
        png_bytes(&obs, a.picture.scale as usize)?
    };
    write_atomic(&a.out, &bytes)?;
    println!(
        "{} step {} -> {} ({})",
        task.id(),
        a.step,
        a.out.display(),
        if a.raw {
            "raw observation, 65536 bytes, row 0 = bottom"
        } else {
            "PNG"
        }
    );
    Ok(())
}

/// The observation of `task` with `balls` after `steps` steps of plain physics (the goal does
/// not stop it).
pub fn observe(task: &Task, balls: &[UserBall], steps: u32) -> Result<Observation> {
    let mut setup = task
        .build_world(balls)
        .with_context(|| format!("cannot build the world of {}", task.id()))?;
    for _ in 0..steps {
        setup.world.step();
    }
    Ok(observe_world(&setup.world, &setup.colours))
}

/// The observation of a world (256 × 256 bytes, row 0 = bottom).
pub fn observe_world(world: &World, colours: &[u8]) -> Observation {
    raster::render(world, colours)
}

/// A PNG of an observation in the display palette, up at the top, scaled by `scale`.
pub fn png_bytes(obs: &Observation, scale: usize) -> Result<Vec<u8>> {
    Ok(raster::picture::png_bytes(&Indexed::from_observation(
        obs, scale,
    ))?)
}

/// Frames of a rollout with the user balls (`balls`, px) outlined.
pub fn gif_frames(frames: &[Observation], balls: &[UserBall], scale: usize) -> Vec<Indexed> {
    frames
        .iter()
        .map(|f| {
            let mut img = Indexed::from_observation(f, scale);
            for b in balls {
                img.outline_circle(
                    b.x.to_f64(),
                    b.y.to_f64(),
                    b.r.to_f64(),
                    scale,
                    raster::picture::OUTLINE,
                );
            }
            img
        })
        .collect()
}

/// Write an animated GIF atomically (encoded first, then [`write_atomic`]).
pub fn write_gif(path: &Path, frames: &[Indexed]) -> Result<()> {
    write_atomic(path, &raster::picture::gif_bytes(frames, GIF_DELAY_CS)?)
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
