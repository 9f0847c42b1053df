//! Phy-Q level sets: many levels with their ids, imported from XML files and folders, and the
//! level-set file (JSON, format in `phyq/FORMAT.md`) that keeps every number's source text.

use crate::level::{Level, LevelError};
use crate::number::short;
use crate::xml::{read_level_file, XmlError};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The `format` field of a level-set file.
pub const FORMAT_NAME: &str = "rephyre-phyq-levels";
/// The version this crate writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Most levels in one set (Phy-Q has 75 × 100).
pub const MAX_LEVELS: usize = 100_000;
/// Largest level-set file read: 1 GiB.
pub const MAX_SET_BYTES: u64 = 1 << 30;
/// Deepest folder level searched below a folder given to [`import_paths`].
pub const MAX_FOLDER_DEPTH: usize = 16;
/// Longest free-form id name.
const MAX_NAME_LEN: usize = 100;

/// A level's id. A file named `L_C_K_N.xml` (a Phy-Q template `L_C_K_1.xml`, or a generated
/// task `L_CC_KK_NNNNN.xml`) gets `phyq:L_C_K:NNNNN` (numbers without padding, the index in 5
/// digits); any other file gets `phyq:` and its file stem. Ids sort by the numbers, coded ones
/// first, then by name (bytes): the derived order, by variant and then field, in the order
/// they are declared.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LevelId {
    Coded {
        level: u32,
        capability: u32,
        template: u32,
        index: u32,
    },
    Named(String),
}

impl LevelId {
    /// How every level id's text begins, and what tells it from a PHYRE task id (`TTTTT:III`).
    pub const PREFIX: &'static str = "phyq:";

    /// The id of a file name, or an error that says why it has none.
    pub fn from_file_name(file_name: &str) -> Result<LevelId, String> {
        let stem = file_name
            .rsplit_once('.')
            .map_or(file_name, |(stem, _)| stem);
        let parts: Vec<&str> = stem.split('_').collect();
        let number = |s: &str| {
            (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u32>().ok())
                .flatten()
        };
        if let [l, c, k, n] = parts[..] {
            if let (Some(level), Some(capability), Some(template), Some(index)) =
                (number(l), number(c), number(k), number(n))
            {
                return Ok(LevelId::Coded {
                    level,
                    capability,
                    template,
                    index,
                });
            }
        }
        LevelId::named(stem)
    }

    /// The template code `L_C_K` of a coded id (`phyq:L_C_K:N`); `None` for a named level.
    pub fn template_code(&self) -> Option<String> {
        match self {
            LevelId::Coded {
                level,
                capability,
                template,
                ..
            } => Some(format!("{level}_{capability}_{template}")),
            LevelId::Named(_) => None,
        }
    }

    fn named(name: &str) -> Result<LevelId, String> {
        let ok = !name.is_empty()
            && name.len() <= MAX_NAME_LEN
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
        if ok {
            Ok(LevelId::Named(name.to_owned()))
        } else {
            Err(format!(
                "\"{}\" cannot be a level id: use 1 to {MAX_NAME_LEN} of A-Z a-z 0-9 _ - .",
                short(name)
            ))
        }
    }
}

impl fmt::Display for LevelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelId::Coded {
                level,
                capability,
                template,
                index,
            } => write!(
                f,
                "{}{level}_{capability}_{template}:{index:05}",
                LevelId::PREFIX
            ),
            LevelId::Named(n) => write!(f, "{}{n}", LevelId::PREFIX),
        }
    }
}

impl FromStr for LevelId {
    type Err = String;
    fn from_str(s: &str) -> Result<LevelId, String> {
        let Some(rest) = s.strip_prefix(LevelId::PREFIX) else {
            return Err(format!("\"{}\" is not a level id (phyq:…)", short(s)));
        };
        let id = match rest.split_once(':') {
            Some((code, index)) => LevelId::from_file_name(&format!("{code}_{index}"))?,
            None => LevelId::named(rest)?,
        };
        // Only the canonical spelling: one id, one text.
        if id.to_string() == s {
            Ok(id)
        } else {
            Err(format!("\"{}\" is not a canonical level id", short(s)))
        }
    }
}

impl Serialize for LevelId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for LevelId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LevelId, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// One level of a set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub id: LevelId,
    /// Where it came from: the file's path relative to the folder given, or its name.
    pub source: String,
    pub level: Level,
}

/// Levels sorted by id, ids unique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSet {
    entries: Vec<Entry>,
}

/// The file's outer object.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetFile {
    format: String,
    version: u32,
    levels: Vec<Entry>,
}

/// Why an import or a level-set file failed.
#[derive(Debug, thiserror::Error)]
pub enum SetError {
    // The underlying errors are in the message, not chained as sources: the command line
    // prints the chain, which would say them twice.
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}: {error}", path.display())]
    Level { path: PathBuf, error: XmlError },
    #[error("{}: {message}", path.display())]
    Name { path: PathBuf, message: String },
    #[error("{}: neither a file nor a folder", path.display())]
    NotFileOrFolder { path: PathBuf },
    #[error("{}: folders nested deeper than {MAX_FOLDER_DEPTH}", path.display())]
    TooDeep { path: PathBuf },
    #[error("{}: no .xml files", path.display())]
    NoXml { path: PathBuf },
    #[error("two levels with the id {id}: {first} and {second}")]
    DuplicateId {
        id: LevelId,
        first: String,
        second: String,
    },
    #[error("more than {MAX_LEVELS} levels")]
    TooManyLevels,
    #[error("not a level-set file: {0}")]
    Format(String),
    #[error("level-set file version {0} is not supported (this build reads {FORMAT_VERSION})")]
    Version(u32),
    #[error("the level-set file is larger than {MAX_SET_BYTES} bytes")]
    TooLarge,
    #[error("level {id}: {error}")]
    InvalidLevel { id: LevelId, error: LevelError },
    #[error("the levels are not sorted by id with each id once (at {0})")]
    Order(LevelId),
}

impl LevelSet {
    /// A set of these entries (sorted here; ids must be unique, levels valid).
    pub fn new(mut entries: Vec<Entry>) -> Result<LevelSet, SetError> {
        if entries.len() > MAX_LEVELS {
            return Err(SetError::TooManyLevels);
        }
        entries.sort_by(|a, b| a.id.cmp(&b.id));
        for w in entries.windows(2) {
            if w[0].id == w[1].id {
                return Err(SetError::DuplicateId {
                    id: w[0].id.clone(),
                    first: w[0].source.clone(),
                    second: w[1].source.clone(),
                });
            }
        }
        for e in &entries {
            e.level.validate().map_err(|error| SetError::InvalidLevel {
                id: e.id.clone(),
                error,
            })?;
        }
        Ok(LevelSet { entries })
    }

    /// The levels, sorted by id.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The level-set file's bytes (pretty JSON, one final newline).
    pub fn to_bytes(&self) -> Vec<u8> {
        #[derive(Serialize)]
        struct Out<'a> {
            format: &'a str,
            version: u32,
            levels: &'a [Entry],
        }
        let out = Out {
            format: FORMAT_NAME,
            version: FORMAT_VERSION,
            levels: &self.entries,
        };
        // Serializing plain structs, strings and integers into memory cannot fail.
        let mut bytes = serde_json::to_vec_pretty(&out).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    }

    /// Reads a level-set file's bytes, checking the format, the version, the order of the ids
    /// and every level (the XML reader's rules).
    pub fn from_bytes(bytes: &[u8]) -> Result<LevelSet, SetError> {
        if bytes.len() as u64 > MAX_SET_BYTES {
            return Err(SetError::TooLarge);
        }
        // The version first, so that a newer file says so rather than failing on a field.
        #[derive(Deserialize)]
        struct Head {
            format: String,
            version: u32,
        }
        let head: Head =
            serde_json::from_slice(bytes).map_err(|e| SetError::Format(e.to_string()))?;
        if head.format != FORMAT_NAME {
            return Err(SetError::Format(format!(
                "format \"{}\", expected \"{FORMAT_NAME}\"",
                short(&head.format)
            )));
        }
        if head.version != FORMAT_VERSION {
            return Err(SetError::Version(head.version));
        }
        let file: SetFile =
            serde_json::from_slice(bytes).map_err(|e| SetError::Format(e.to_string()))?;
        for w in file.levels.windows(2) {
            if w[0].id >= w[1].id {
                return Err(SetError::Order(w[1].id.clone()));
            }
        }
        LevelSet::new(file.levels)
    }

    /// Reads a level-set file.
    pub fn read(path: &Path) -> Result<LevelSet, SetError> {
        let io = |error| SetError::Io {
            path: path.to_owned(),
            error,
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        if meta.len() > MAX_SET_BYTES {
            return Err(SetError::TooLarge);
        }
        LevelSet::from_bytes(&std::fs::read(path).map_err(io)?)
    }
}

/// Imports XML levels from files and folders (a folder: every `*.xml` below it, in sorted
/// order). Any bad file stops the import with an error naming it.
pub fn import_paths(paths: &[PathBuf]) -> Result<LevelSet, SetError> {
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for p in paths {
        let io = |error| SetError::Io {
            path: p.clone(),
            error,
        };
        let meta = std::fs::metadata(p).map_err(io)?;
        if meta.is_dir() {
            let before = files.len();
            walk(p, p, 0, &mut files)?;
            if files.len() == before {
                return Err(SetError::NoXml { path: p.clone() });
            }
        } else if meta.is_file() {
            let name = file_name(p)?;
            files.push((p.clone(), name));
        } else {
            return Err(SetError::NotFileOrFolder { path: p.clone() });
        }
        if files.len() > MAX_LEVELS {
            return Err(SetError::TooManyLevels);
        }
    }
    let mut entries = Vec::with_capacity(files.len());
    for (path, source) in files {
        let name = file_name(&path)?;
        let id = LevelId::from_file_name(&name).map_err(|message| SetError::Name {
            path: path.clone(),
            message,
        })?;
        let level = read_level_file(&path).map_err(|error| SetError::Level {
            path: path.clone(),
            error,
        })?;
        entries.push(Entry { id, source, level });
    }
    LevelSet::new(entries)
}

fn file_name(path: &Path) -> Result<String, SetError> {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(str::to_owned)
        .ok_or_else(|| SetError::Name {
            path: path.to_owned(),
            message: "the file name is not UTF-8".to_owned(),
        })
}

/// Collects `*.xml` below `dir` with their paths relative to `root` ('/'-separated), sorted.
fn walk(
    root: &Path,
    dir: &Path,
    depth: usize,
    out: &mut Vec<(PathBuf, String)>,
) -> Result<(), SetError> {
    if depth > MAX_FOLDER_DEPTH {
        return Err(SetError::TooDeep {
            path: dir.to_owned(),
        });
    }
    let io = |error| SetError::Io {
        path: dir.to_owned(),
        error,
    };
    let mut children: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    children.sort();
    for child in children {
        let meta = std::fs::metadata(&child).map_err(|error| SetError::Io {
            path: child.clone(),
            error,
        })?;
        if meta.is_dir() {
            walk(root, &child, depth + 1, out)?;
        } else if meta.is_file()
            && child
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
        {
            let rel = child.strip_prefix(root).unwrap_or(&child);
            let parts: Option<Vec<&str>> =
                rel.components().map(|c| c.as_os_str().to_str()).collect();
            let Some(parts) = parts else {
                return Err(SetError::Name {
                    path: child.clone(),
                    message: "the path is not UTF-8".to_owned(),
                });
            };
            out.push((child.clone(), parts.join("/")));
            if out.len() > MAX_LEVELS {
                return Err(SetError::TooManyLevels);
            }
        }
    }
    Ok(())
}
