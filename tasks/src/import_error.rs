//! Why the original task file could not be imported: [`ImportError`] (re-exported by `import`).
//!
//! It sits below both the importer and `load`: `LoadError` wraps it, and the importer reads its
//! file through `load`, so neither of those two modules has to use the other.

use core::fmt;
use std::sync::Arc;

use crate::id::{ParseTaskIdError, TaskId};
use crate::model::TaskError;
use crate::thrift::ThriftError;

/// Tasks per kept template.
pub const TASKS_PER_TEMPLATE: usize = 100;

/// Why the original task file could not be imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportError {
    /// Not a valid xz stream (bad magic, corrupt data, failed integrity check, truncated…).
    Xz(XzError),
    /// The decompressed data would exceed the limit (`import::MAX_DECOMPRESSED` for a file).
    TooLarge { limit: usize },
    /// The Thrift structure is malformed.
    Thrift(ThriftError),
    /// A required field is missing (`what` names the struct and field).
    MissingField { what: &'static str, offset: usize },
    /// A field has a value rephyre cannot accept.
    BadValue { task: String, what: String },
    /// A task id that is not `TTTTT:III`.
    BadTaskId(ParseTaskIdError),
    /// The task breaks a model invariant.
    Task { task: TaskId, error: TaskError },
    /// The same id twice.
    DuplicateTask(TaskId),
    /// Bytes after the task collection.
    TrailingBytes { offset: usize },
    /// A kept template does not have [`TASKS_PER_TEMPLATE`] tasks.
    TemplateSize { template: u32, tasks: usize },
    /// A kept template's ids do not hash to the md5 of `checksum.json`.
    ChecksumMismatch {
        template: u32,
        expected: String,
        found: String,
    },
    /// `checksum.json` has no entry for a kept template.
    NoChecksum { template: u32 },
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The decoder's message is the source (the chain prints it after this).
            ImportError::Xz(_) => write!(f, "not a valid xz file"),
            ImportError::TooLarge { limit } => {
                write!(f, "decompressed data exceeds the limit of {limit} bytes")
            }
            ImportError::Thrift(e) => write!(f, "malformed task collection: {e}"),
            ImportError::MissingField { what, offset } => {
                write!(f, "missing field {what} (struct ending at byte {offset})")
            }
            ImportError::BadValue { task, what } => write!(f, "task {task}: {what}"),
            ImportError::BadTaskId(e) => write!(f, "{e}"),
            ImportError::Task { task, error } => write!(f, "task {task}: {error}"),
            ImportError::DuplicateTask(id) => write!(f, "task {id} appears twice"),
            ImportError::TrailingBytes { offset } => {
                write!(
                    f,
                    "unexpected bytes after the task collection at byte {offset}"
                )
            }
            ImportError::TemplateSize { template, tasks } => write!(
                f,
                "template {template:05} has {tasks} tasks (expected {TASKS_PER_TEMPLATE})"
            ),
            ImportError::ChecksumMismatch {
                template,
                expected,
                found,
            } => write!(
                f,
                "template {template:05}: task ids hash to {found}, checksum.json says {expected}"
            ),
            ImportError::NoChecksum { template } => {
                write!(f, "checksum.json has no entry for template {template:05}")
            }
        }
    }
}

impl std::error::Error for ImportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ImportError::Xz(e) => Some(e.0.as_ref()),
            _ => None,
        }
    }
}

/// The xz decoder's error, the source of [`ImportError::Xz`] (shared, so the import error stays
/// `Clone`; equal when kind and message are).
#[derive(Clone, Debug)]
pub struct XzError(pub Arc<std::io::Error>);

impl PartialEq for XzError {
    fn eq(&self, other: &XzError) -> bool {
        self.0.kind() == other.0.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for XzError {}

impl fmt::Display for XzError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<ThriftError> for ImportError {
    fn from(e: ThriftError) -> ImportError {
        ImportError::Thrift(e)
    }
}
