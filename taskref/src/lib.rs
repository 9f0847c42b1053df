//! rephyre's task names: what names a task of either benchmark, parsed and resolved in one place.
//!
//! A task is a PHYRE task (`TTTTT:III`) or a Phy-Q level (`phyq:L_C_K:NNNNN`, `phyq:NAME`), built
//! in or from a task file (`--tasks FILE`: PHYRE tasks, or a Phy-Q level set). The command line,
//! the web player and the audit all take ids of both kinds; this crate is the one place that
//! tells them apart, so that none of them checks an id's text by hand and all of them agree on
//! which benchmark an id belongs to and on what a bad one is told.
//!
//! * [`TaskName`]: an id parsed ([`NameError`] when it is not one, saying which benchmark's id
//!   it was written as), and [`Benchmark::of_id`] for text that is not only an id (a golden
//!   line, an audit trace's `TASK:ACTION`);
//! * [`TaskFile`]: what a task file holds, read once; [`read_phyre_tasks`] for the commands that
//!   take PHYRE tasks only;
//! * [`resolve`]: the task a name names, in a task file or the built-in tasks, with the command
//!   line's messages; [`find_builtin`] for the built-in tasks alone, in the libraries' words.
//!
//! The syntax of each benchmark's ids stays with its crate (`tasks::TaskId`,
//! `phyq::LevelId`); this crate only chooses between them.

mod file;
mod name;
mod resolve;

pub use file::{read_phyre_tasks, TaskFile};
pub use name::{Benchmark, NameError, TaskName};
pub use resolve::{find_builtin, resolve, BuiltinError, TaskRef};

#[cfg(test)]
mod tests;
