//! `rephyre render ID [--action …] [--step N] --out FILE [--raw]`, and the drawing helpers the
//! other commands share (observations, PNG, GIF), all through the raster crate.

use crate::cli::RenderArgs;
use crate::context::Ctx;
use crate::parse::{check_action_len, parse_action};
use crate::task_ref::TaskRef;
use anyhow::{bail, Context, Result};
use engine::World;
use raster::{Indexed, Observation};
use std::path::Path;
use studies::files::write_atomic;
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
        png_bytes(&obs, a.scale as usize)?
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
