//! What a `--shard` run writes: its part file only (the report's other files are the merge's,
//! `merge.rs`), shared by every command that shards.

use anyhow::{bail, Result};
use std::path::Path;
use studies::shard::{write_part, Part, Shard};

/// A shard writes its part only: the report's other files are the merge's.
pub fn no_report_options(given: &[(&str, bool)]) -> Result<()> {
    for (name, on) in given {
        if *on {
            bail!("{name} is written by `rephyre merge`, not by a --shard run (its --out is the part file)");
        }
    }
    Ok(())
}

/// The end of a `--shard` run: write its part file to `out` (atomically) and print the line
/// that says so.
pub fn write_shard_part<S: serde::Serialize>(
    shard: Shard,
    part: &Part<S>,
    out: &Path,
) -> Result<()> {
    write_part(out, part)?;
    println!(
        "shard {shard}: {} work units -> {} (combine the parts with rephyre merge)",
        part.states.len(),
        out.display()
    );
    Ok(())
}
