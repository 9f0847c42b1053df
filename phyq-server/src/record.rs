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

/// Reads a record file (the module doc's format); the error names the line and the field.
pub fn parse(text: &str) -> Result<Vec<Finished>, String> {
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return Err(format!(
            "not a phyq-server record (the first line must be {HEADER})"
        ));
    }
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let bad = |what: &str| format!("line {}: {what}", i + 2);
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 10 {
            return Err(bad(&format!("expected 10 fields, got {}", f.len())));
        }
        let num = |k: usize, what: &str| -> Result<u32, String> {
            f[k].parse()
                .map_err(|_| bad(&format!("{what} {:?} is not a whole number", f[k])))
        };
        let passed = match f[3] {
            "1" => true,
            "0" => false,
            other => return Err(bad(&format!("passed {other:?} is not 0 or 1"))),
        };
        let final_hash = u64::from_str_radix(f[8], 16)
            .map_err(|_| bad(&format!("final hash {:?} is not hexadecimal", f[8])))?;
        let (secs, ms) = f[9]
            .split_once('.')
            .ok_or_else(|| bad("seconds are not s.mmm"))?;
        let millis = secs
            .parse::<u64>()
            .ok()
            .zip(ms.parse::<u64>().ok().filter(|_| ms.len() == 3))
            .and_then(|(s, m)| s.checked_mul(1000)?.checked_add(m))
            .ok_or_else(|| bad(&format!("seconds {:?} are not s.mmm", f[9])))?;
        if f[2].is_empty() {
            return Err(bad("an empty task id"));
        }
        out.push(Finished {
            agent_id: num(0, "agent id")?,
            level_number: num(1, "level number")?,
            task_id: f[2].to_string(),
            passed,
            shots: num(4, "shots")?,
            pigs_left: num(5, "pigs left")?,
            birds_used: num(6, "birds used")?,
            score: num(7, "score")?,
            final_hash,
            millis,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_back_as_written_and_bad_rows_name_their_line() {
        let f = Finished {
            agent_id: 3,
            level_number: 12,
            task_id: "phyq:1_1_4:00002".into(),
            passed: true,
            shots: 2,
            pigs_left: 0,
            birds_used: 2,
            score: 25_310,
            final_hash: 0x00ab_cdef_0123_4567,
            millis: 12_045,
        };
        let text = format!("{HEADER}\n{}", row(&f));
        assert_eq!(parse(&text).unwrap(), vec![f]);
        assert!(parse("a,b\n")
            .unwrap_err()
            .contains("not a phyq-server record"));
        let e = parse(&format!("{HEADER}\n1,2,phyq:x,2,1,0,1,5,00,0.001\n")).unwrap_err();
        assert!(e.starts_with("line 2: passed"), "{e}");
        let e = parse(&format!("{HEADER}\n1,2,phyq:x,1,1,0,1,5,00,1.5\n")).unwrap_err();
        assert!(e.contains("s.mmm"), "{e}");
    }
}
