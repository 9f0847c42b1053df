//! A set of tasks sorted by id: the built-in PHYRE-B/2B tasks, or tasks loaded from a file.

use core::fmt;
use std::path::Path;
use std::sync::OnceLock;

use crate::id::{ParseTaskIdError, TaskId};
use crate::load::read_file_capped;
use crate::model::{Task, Tier};
use crate::store::{self, Compression, StoreError};

pub use crate::load::LoadError;

/// The built-in store: the 5,000 tasks of PHYRE-B and PHYRE-2B converted from `phyre==0.2.2`
/// (see `data/NOTICE`), in rephyre's format (`FORMAT.md`).
pub(crate) const BUILTIN_STORE: &[u8] = include_bytes!("../data/phyre-b-2b.rpts");

/// Largest task file read from disk.
pub const MAX_FILE_LEN: usize = 256 << 20;

/// Why a task could not be looked up by its text id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LookupError {
    Malformed(ParseTaskIdError),
    Unknown(TaskId),
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookupError::Malformed(e) => write!(f, "{e}"),
            LookupError::Unknown(id) => write!(f, "unknown task {id}"),
        }
    }
}

impl std::error::Error for LookupError {}

/// Tasks sorted by id, without duplicates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskSet {
    tasks: Vec<Task>,
}

impl TaskSet {
    /// The built-in 5,000 PHYRE-B/2B tasks, decoded once per process and shared.
    ///
    /// # Panics
    /// Only if the store embedded at build time is invalid, which the crate's tests rule out.
    pub fn builtin() -> &'static TaskSet {
        static BUILTIN: OnceLock<TaskSet> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            TaskSet::load_builtin().unwrap_or_else(|e| panic!("embedded task store: {e}"))
        })
    }

    /// Decode the built-in store afresh (what [`TaskSet::builtin`] does once).
    pub fn load_builtin() -> Result<TaskSet, StoreError> {
        TaskSet::from_store_bytes(BUILTIN_STORE)
    }

    /// Decode a task file in rephyre's format.
    pub fn from_store_bytes(bytes: &[u8]) -> Result<TaskSet, StoreError> {
        Ok(TaskSet {
            tasks: store::decode(bytes)?,
        })
    }

    /// Load a task file in rephyre's format (e.g. a user's own tasks).
    pub fn load(path: &Path) -> Result<TaskSet, LoadError> {
        let bytes = read_file_capped(path, MAX_FILE_LEN)?;
        Ok(TaskSet::from_store_bytes(&bytes)?)
    }

    /// A set of the given tasks (sorted here); duplicate ids are an error.
    pub fn from_tasks(mut tasks: Vec<Task>) -> Result<TaskSet, LoadError> {
        tasks.sort_by_key(Task::id);
        if let Some(w) = tasks.windows(2).find(|w| w[0].id() == w[1].id()) {
            return Err(LoadError::DuplicateTask(w[0].id()));
        }
        Ok(TaskSet { tasks })
    }

    /// This set and `other` together (e.g. the built-in tasks and a user's file); duplicate
    /// ids are an error.
    pub fn union(&self, other: &TaskSet) -> Result<TaskSet, LoadError> {
        let mut all = self.tasks.clone();
        all.extend(other.tasks.iter().cloned());
        TaskSet::from_tasks(all)
    }

    /// Encode in rephyre's format (zlib-compressed when `compress`).
    pub fn to_store_bytes(&self, compress: bool) -> Vec<u8> {
        let c = if compress {
            Compression::Zlib
        } else {
            Compression::None
        };
        store::encode(&self.tasks, c)
    }

    /// Write in rephyre's format.
    pub fn save(&self, path: &Path, compress: bool) -> std::io::Result<()> {
        std::fs::write(path, self.to_store_bytes(compress))
    }

    /// The task with this id.
    pub fn get(&self, id: &TaskId) -> Option<&Task> {
        self.tasks
            .binary_search_by_key(id, Task::id)
            .ok()
            .map(|i| &self.tasks[i])
    }

    /// The task with this text id; malformed and unknown ids are errors.
    pub fn lookup(&self, id: &str) -> Result<&Task, LookupError> {
        let id: TaskId = id.parse().map_err(LookupError::Malformed)?;
        self.get(&id).ok_or(LookupError::Unknown(id))
    }

    /// All tasks, sorted by id.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// All ids, sorted.
    pub fn ids(&self) -> Vec<TaskId> {
        self.tasks.iter().map(Task::id).collect()
    }

    /// The tasks of one tier, sorted by id.
    pub fn tier(&self, tier: Tier) -> impl Iterator<Item = &Task> + '_ {
        self.tasks.iter().filter(move |t| t.tier() == tier)
    }

    /// The tasks of one template, sorted by id.
    pub fn template(&self, template: u32) -> &[Task] {
        let lo = self.tasks.partition_point(|t| t.id().template() < template);
        let hi = self
            .tasks
            .partition_point(|t| t.id().template() <= template);
        &self.tasks[lo..hi]
    }

    /// The template numbers present, ascending.
    pub fn templates(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.tasks.iter().map(|t| t.id().template()).collect();
        v.dedup();
        v
    }

    /// Number of tasks.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether the set has no task.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }
}
