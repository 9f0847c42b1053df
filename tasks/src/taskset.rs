//! A set of tasks sorted by id: the built-in PHYRE-B/2B tasks, or tasks loaded from a file.

use core::fmt;
use std::path::Path;
use std::sync::OnceLock;

use crate::id::{ParseTaskIdError, TaskId};
use crate::import::ImportError;
use crate::model::{Task, Tier};
use crate::store::{self, Compression, StoreError};

/// The built-in store: the 5,000 tasks of PHYRE-B and PHYRE-2B converted from `phyre==0.2.2`
/// (see `data/NOTICE`), in rephyre's format (`FORMAT.md`).
pub(crate) const BUILTIN_STORE: &[u8] = include_bytes!("../data/phyre-b-2b.rpts");

/// Largest task file read from disk.
pub const MAX_FILE_LEN: usize = 256 << 20;

/// Why a task file could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read.
    Io { path: String, error: std::io::Error },
    /// The file is larger than the limit.
    FileTooLarge { path: String, limit: usize },
    /// A rephyre task file that is invalid.
    Store(StoreError),
    /// The original PHYRE file that is invalid.
    Import(ImportError),
    /// Two tasks with the same id (when combining sets).
    DuplicateTask(TaskId),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, .. } => write!(f, "cannot read {path}"),
            LoadError::FileTooLarge { path, limit } => {
                write!(f, "{path} is larger than the limit of {limit} bytes")
            }
            LoadError::Store(_) => write!(f, "invalid rephyre task file"),
            LoadError::Import(_) => write!(f, "invalid PHYRE task file"),
            LoadError::DuplicateTask(id) => write!(f, "task {id} is defined twice"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io { error, .. } => Some(error),
            LoadError::Store(e) => Some(e),
            LoadError::Import(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for LoadError {
    fn from(e: StoreError) -> LoadError {
        LoadError::Store(e)
    }
}

impl From<ImportError> for LoadError {
    fn from(e: ImportError) -> LoadError {
        LoadError::Import(e)
    }
}

/// Read a whole file, refusing files over `limit` bytes (checked while reading too, so a file
/// that grows or a special file cannot exceed it).
pub(crate) fn read_file_capped(path: &Path, limit: usize) -> Result<Vec<u8>, LoadError> {
    use std::io::Read;
    let name = path.display().to_string();
    let io = |error| LoadError::Io {
        path: name.clone(),
        error,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut out = Vec::new();
    file.take(limit as u64 + 1)
        .read_to_end(&mut out)
        .map_err(io)?;
    if out.len() > limit {
        return Err(LoadError::FileTooLarge { path: name, limit });
    }
    Ok(out)
}

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
