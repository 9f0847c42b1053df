//! Writing outputs: atomically (temporary file in the same folder, then rename), so a killed run
//! never leaves a half-written report or checkpoint behind; and reading back the JSON files a
//! run writes for itself (checkpoints, part files), each checked for what it is and who wrote it.

use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;
use std::io::Write;
use std::path::Path;

/// A kind of JSON file that rephyre writes for itself and reads back.
pub struct FileKind {
    /// Its name in messages ("checkpoint", "part file").
    pub name: &'static str,
    /// The value of its `format` field; a new layout gets a new one.
    pub format: &'static str,
    /// What a fingerprint other than the run's means, for the message ("run (options or tasks
    /// differ)").
    pub other_run: &'static str,
}

/// A file of a [`FileKind`]: the two fields that say what it is and which run wrote it.
pub trait Stamped {
    fn format(&self) -> &str;
    fn fingerprint(&self) -> &str;
}

/// The `format` field of a JSON file rephyre wrote for itself, when it has one.
pub fn format_field(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Format {
        format: String,
    }
    serde_json::from_str::<Format>(text).ok().map(|f| f.format)
}

/// Read the file of kind `kind` at `path`, checking its format and, when `fingerprint` is given,
/// that the run that wrote it had this fingerprint. Every failure is one line naming the file.
pub fn read_stamped<T: DeserializeOwned + Stamped>(
    path: &Path,
    kind: &FileKind,
    fingerprint: Option<&str>,
) -> Result<T> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read {} {}", kind.name, path.display()))?;
    let wrong_format = |found: &str| {
        anyhow::anyhow!(
            "{} {} has format {:?}; this rephyre reads {:?}",
            kind.name,
            path.display(),
            found,
            kind.format
        )
    };
    let file: T = match serde_json::from_str(&text) {
        Ok(file) => file,
        Err(e) => {
            // A file of another kind or layout fails to parse as this one; where its format
            // field can be read, say that rather than "corrupt".
            if let Some(format) = format_field(&text) {
                if format != kind.format {
                    return Err(wrong_format(&format));
                }
            }
            let what = format!("corrupt {} {}", kind.name, path.display());
            return Err(anyhow::Error::new(e).context(what));
        }
    };
    if file.format() != kind.format {
        return Err(wrong_format(file.format()));
    }
    if let Some(want) = fingerprint {
        if file.fingerprint() != want {
            bail!(
                "{} {} was written by a different {}",
                kind.name,
                path.display(),
                kind.other_run
            );
        }
    }
    Ok(file)
}

/// Write `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        anyhow::bail!(
            "cannot write {}: folder {} does not exist",
            path.display(),
            dir.display()
        );
    }
    let name = path
        .file_name()
        .with_context(|| format!("cannot write {}: not a file path", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(anyhow::Error::new(e).context(format!("cannot write {}", path.display())));
    }
    Ok(())
}

/// Fail early (before hours of work) when `path` cannot be written.
pub fn check_writable(path: &Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if path.is_dir() {
        anyhow::bail!("cannot write {}: it is a folder", path.display());
    }
    let probe = dir.join(format!(".rephyre-probe{}", std::process::id()));
    std::fs::write(&probe, b"").with_context(|| format!("cannot write {}", path.display()))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Note {
        format: String,
        fingerprint: String,
        body: u32,
    }

    impl Stamped for Note {
        fn format(&self) -> &str {
            &self.format
        }
        fn fingerprint(&self) -> &str {
            &self.fingerprint
        }
    }

    const NOTE: FileKind = FileKind {
        name: "note",
        format: "note-1",
        other_run: "run (options differ)",
    };

    fn read(text: Option<&str>, fingerprint: Option<&str>) -> Result<Note> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.json");
        if let Some(t) = text {
            std::fs::write(&path, t).unwrap();
        }
        read_stamped(&path, &NOTE, fingerprint)
    }

    #[test]
    fn a_stamped_file_is_read_only_when_it_is_what_it_claims() {
        let good = r#"{"format":"note-1","fingerprint":"f1","body":7}"#;
        assert_eq!(read(Some(good), Some("f1")).unwrap().body, 7);
        assert_eq!(read(Some(good), None).unwrap().body, 7);
        let err = |t, f| format!("{:#}", read(t, f).err().expect("refused"));
        assert!(err(None, None).starts_with("cannot read note "));
        assert!(err(Some("{\"format\":"), None).starts_with("corrupt note "));
        let other = r#"{"format":"note-0","fingerprint":"f1","body":7}"#;
        let e = err(Some(other), Some("f1"));
        assert!(
            e.contains("has format \"note-0\"; this rephyre reads \"note-1\""),
            "{e}"
        );
        // Another kind of file, whose fields are not a note's, is named by its format.
        let e = err(Some(r#"{"format":"other-3","rows":[1,2]}"#), None);
        assert!(
            e.contains("has format \"other-3\"; this rephyre reads \"note-1\""),
            "{e}"
        );
        let e = err(Some(good), Some("f2"));
        assert!(
            e.contains("was written by a different run (options differ)"),
            "{e}"
        );
    }
}
