//! `rephyre parity`: wired to [`crate::parity::run`].

use super::Ctx;
use crate::cli::ParityArgs;
use anyhow::Result;

pub fn run(ctx: &Ctx, a: ParityArgs) -> Result<()> {
    let set = ctx.task_set()?;
    crate::parity::run(
        set,
        &crate::parity::ParityOptions {
            reference: a.reference.as_deref(),
            out: a.out.as_deref(),
            json: a.json,
            random_per_task: a.random_per_task,
            random_per_task_2b: a.random_per_task_2b.unwrap_or(a.random_per_task),
            run: a.ckpt.run_config(ctx.threads, ctx.progress)?,
        },
    )
}
