//! Writing outputs: atomically (temporary file in the same folder, then rename), so a killed run
//! never leaves a half-written report or checkpoint behind.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

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
