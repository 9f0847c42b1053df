//! rephyre's studies as a library: the computations researchers run over many simulations, each a
//! function over typed inputs with a typed report, and the runner that carries them out in
//! parallel with checkpoints. The `rephyre` command (crate `harness`), the Python package and
//! sharded runs present these; they compute nothing of their own.
//!
//! - [`runner`]: tasks advanced in batches on a thread pool, checkpointed and resumable; the
//!   results do not depend on the thread count or on a resume.
//! - [`solvability`]: SPEC §8 per task (binomial tests on random and stable solutions).
//! - [`diversity`]: how many tasks of its template one random action solves.
//! - [`random_curve`]: the random agent's success curve and AUCCESS.
//! - [`parity`]: rephyre against the original's reference outcomes and rates.
//! - [`witness`]: the search for one stable solution per task, and its verification.
//! - [`phyq_witness`]: every generated Phy-Q task sound (at rest, passable), redrawn when not,
//!   with the shots that pass it.
//! - [`evaluation`]: the agents on the paper's setups and folds, over the status table of their fixed action set.
//! - [`phyq`]: a Phy-Q agent's pass rates per task, template and scenario in a
//!   generalization setting, the Phy-Q score, and the agreement with the paper's same agent;
//!   `phyq_dqn` (feature `dqn`): the Phy-Q DQN's experience collection and training.
//! - [`bench`]: timing the simulation of a reference table's rows.
//! - [`shard`]: any of these jobs split into N parts (`--shard K/N`) and the parts merged into
//!   the single run's report, byte for byte; [`slurm`]: their job arrays on a Slurm cluster.
//! - [`phyq_levels`]: what the command line shows of Phy-Q levels (summaries, listings, contact
//!   sheets, pictures, a played level's report and GIF); [`phyre_tasks`]: the same of PHYRE
//!   tasks (pictures, the contact sheet, a simulated action's report and GIF).
//!
//! Also here: [`selection`] (which tasks a study covers), [`stats`] (the binomial decision, the
//! intervals and the Wilcoxon test that compares agents), [`plot`] (the studies' plots as SVG
//! text, which the command writes) and [`files`] (atomic writes).

pub mod bench;
pub mod diversity;
pub mod evaluation;
pub mod files;
pub mod parity;
pub mod phyq;
#[cfg(feature = "dqn")]
pub mod phyq_dqn;
pub mod phyq_levels;
pub mod phyq_witness;
pub mod phyre_tasks;
pub mod plot;
pub mod random_curve;
pub mod runner;
pub mod selection;
pub mod shard;
pub mod slurm;
pub mod solvability;
pub mod stats;
pub mod witness;

/// An action as text, shortest round-trip form, components separated by `sep`.
pub fn action_text(a: &[f64], sep: &str) -> String {
    a.iter()
        .map(|v| format!("{v}"))
        .collect::<Vec<_>>()
        .join(sep)
}
