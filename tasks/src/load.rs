//! Reading task files from disk: [`LoadError`] (why a task file could not be loaded) and the
//! size-capped read that the store loader (`taskset`) and the importer (`import`) both use.

use core::fmt;
use std::path::Path;

use crate::id::TaskId;
use crate::import_error::ImportError;
use crate::store::StoreError;

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
