//! The record of finished level attempts: one CSV row each, appended as attempts end, so a run
//! of any external agent becomes pass rates per template and scenario
//! (`rephyre phyq-eval --from-record`).
//!
//! Columns: `agent_id,level_number,task_id,passed,shots,pigs_left,birds_used,score,final_hash,
//! seconds`. A new file gets the header first; an existing file must start with it (rows are
//! appended to it). Each row is written and flushed whole, so a killed server loses no row it
//! had written.

use crate::session::Finished;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

/// The header line.
pub const HEADER: &str =
    "agent_id,level_number,task_id,passed,shots,pigs_left,birds_used,score,final_hash,seconds";

/// An open record file.
pub struct Record {
    file: File,
}

impl Record {
    /// Opens `path` for appending (made with the header when new or empty).
    pub fn open(path: &Path) -> io::Result<Record> {
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)?;
        let mut head = Vec::new();
        (&mut file)
            .take(HEADER.len() as u64 + 1)
            .read_to_end(&mut head)?;
        if head.is_empty() {
            writeln!(file, "{HEADER}")?;
        } else if head.strip_suffix(b"\n").unwrap_or(&head) != HEADER.as_bytes() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} is not a phyq-server record (its first line is not {HEADER})",
                    path.display()
                ),
            ));
        }
        Ok(Record { file })
    }

    /// Appends one row.
    pub fn append(&mut self, f: &Finished) -> io::Result<()> {
        self.file.write_all(row(f).as_bytes())?;
        self.file.flush()
    }
}

/// One row, with its newline.
pub fn row(f: &Finished) -> String {
    format!(
        "{},{},{},{},{},{},{},{},{:016x},{}.{:03}\n",
        f.agent_id,
        f.level_number,
        f.task_id,
        u8::from(f.passed),
        f.shots,
        f.pigs_left,
        f.birds_used,
        f.score,
        f.final_hash,
        f.millis / 1000,
        f.millis % 1000
    )
}
