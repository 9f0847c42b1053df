//! `rephyre slurm`: a study's job array and merge job ([`studies::slurm`]), checked as its
//! shards will parse them, printed (`--dry-run`) or written and submitted with `sbatch`.

use super::sharded::by_slurm_name;
use crate::args::SlurmArgs;
use crate::cli::parse_cli;
use crate::context::Ctx;
use anyhow::{bail, Result};
use studies::slurm::{check_args, Plan, Request};

pub fn run(ctx: &Ctx, a: SlurmArgs) -> Result<()> {
    let sharded = by_slurm_name(&a.study)?;
    let command = sharded.study.command;
    check_args(&a.args)?;
    // The study's arguments must parse as the shards will run them.
    let mut probe: Vec<String> = vec!["rephyre".into(), command.into()];
    probe.extend(a.args.iter().cloned());
    probe.extend(["--shard".into(), format!("1/{}", a.shards)]);
    probe.extend(["--out".into(), "part.json".into()]);
    let probed = match parse_cli(&probe) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.to_string();
            let first = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("invalid arguments");
            bail!(
                "the {command} arguments after --: {}",
                first.strip_prefix("error: ").unwrap_or(first)
            );
        }
    };
    let plan = Plan::new(&Request {
        study: sharded.study,
        shards: a.shards,
        dir: &a.out,
        rephyre: a.rephyre.as_deref(),
        tasks: ctx.tasks_file.as_deref(),
        cpus_per_task: a.cpus_per_task,
        partition: a.partition.as_deref(),
        time: a.time.as_deref(),
        account: a.account.as_deref(),
        mem: a.mem.as_deref(),
        max_running: a.max_running,
        sbatch_options: &a.sbatch_option,
        args: &a.args,
        input_files: (sharded.shards_read)(probed.command.args())?,
    })?;
    if a.dry_run {
        print!("{}", plan.dry_run_text());
    } else {
        println!("{}", plan.submit()?);
    }
    Ok(())
}
