//! `rephyre parity`: wired to [`crate::parity::run`].

use super::Ctx;
use crate::cli::ParityArgs;
use anyhow::Result;

pub fn run(ctx: &Ctx, a: ParityArgs) -> Result<()> {
    let set = ctx.task_set()?;
    crate::parity::run(
        set,
        a.reference.as_deref(),
        a.out.as_deref(),
        a.json,
        a.random_per_task,
        ctx.threads,
        ctx.progress,
    )
}
