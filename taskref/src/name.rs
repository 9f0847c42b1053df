//! A task's name: a PHYRE task id or a Phy-Q level id, told apart by the Phy-Q prefix.

use phyq::LevelId;
use std::fmt;
use std::str::FromStr;
use tasks::{ParseTaskIdError, TaskId};

/// The two benchmarks a task may belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Benchmark {
    Phyre,
    Phyq,
}

impl Benchmark {
    /// The benchmark whose ids `text` is written as, well-formed or not: Phy-Q's when it starts
    /// with [`LevelId::PREFIX`], PHYRE's otherwise. For text that holds more than an id (a
    /// golden line, `TASK:ACTION`); a bare id is parsed as a [`TaskName`].
    pub fn of_id(text: &str) -> Benchmark {
        if text.starts_with(LevelId::PREFIX) {
            Benchmark::Phyq
        } else {
            Benchmark::Phyre
        }
    }
}

/// A task's id: a PHYRE task's or a Phy-Q level's. Its text is the benchmark's own
/// (`00012:034`, `phyq:1_1_4:00001`), in both directions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TaskName {
    Phyre(TaskId),
    Phyq(LevelId),
}

impl TaskName {
    pub fn benchmark(&self) -> Benchmark {
        match self {
            TaskName::Phyre(_) => Benchmark::Phyre,
            TaskName::Phyq(_) => Benchmark::Phyq,
        }
    }
}

impl fmt::Display for TaskName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskName::Phyre(id) => id.fmt(f),
            TaskName::Phyq(id) => id.fmt(f),
        }
    }
}

/// Why a text is not a task id, in the words of the benchmark's parser it was written for (the
/// message is that parser's, unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Not a PHYRE task id (and not written as a Phy-Q one).
    #[error("{0}")]
    Phyre(ParseTaskIdError),
    /// Written as a Phy-Q level id (`phyq:…`), and not one.
    #[error("{0}")]
    Phyq(String),
}

impl NameError {
    /// The benchmark whose id the text was written as: where it was looked for, and what a
    /// caller that holds only the other benchmark's tasks says.
    pub fn benchmark(&self) -> Benchmark {
        match self {
            NameError::Phyre(_) => Benchmark::Phyre,
            NameError::Phyq(_) => Benchmark::Phyq,
        }
    }
}

impl FromStr for TaskName {
    type Err = NameError;

    /// Strict, as each benchmark's parser is: only the canonical text of an id.
    fn from_str(text: &str) -> Result<TaskName, NameError> {
        match Benchmark::of_id(text) {
            Benchmark::Phyq => text.parse().map(TaskName::Phyq).map_err(NameError::Phyq),
            Benchmark::Phyre => text.parse().map(TaskName::Phyre).map_err(NameError::Phyre),
        }
    }
}
