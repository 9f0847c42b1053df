//! Phy-Q levels on the command line (built-in or from a `--tasks` level set, resolved by
//! [`taskref`]): `simulate --shots`, `render`, `tasks show`, `tasks list` and `tasks sheet`,
//! which print and write what [`studies::phyq_levels`] makes.

use super::render::RenderArgs;
use super::simulate::SimulateArgs;
use anyhow::{bail, Result};
use phyq::levelset::Entry;
use std::io::Write;
use std::path::Path;
use studies::files::{check_writable, write_atomic};
use studies::phyq_levels as levels;

/// `render ID` for a Phy-Q id: the initial state's picture (PNG, or `--raw` codes).
pub fn render(a: &RenderArgs, entry: Entry) -> Result<()> {
    if a.action.is_some() || a.step != 0 {
        bail!("--action and --step are for PHYRE tasks (a Phy-Q run: simulate ID --shots … --gif FILE)");
    }
    if a.tier.is_some() {
        bail!("--tier is for PHYRE tasks");
    }
    check_writable(&a.out)?;
    write_atomic(&a.out, &levels::picture(&entry, a.raw, a.picture.scale)?)?;
    let kind = if a.raw { levels::RAW_PICTURE } else { "PNG" };
    println!("{} -> {} ({kind})", entry.id, a.out.display());
    Ok(())
}

/// `tasks show ID` for a Phy-Q id: a summary, or with `--json` the symbolic representation.
pub fn show(entry: Entry, png: Option<&Path>, scale: u32, json: bool) -> Result<()> {
    if let Some(p) = png {
        check_writable(p)?;
    }
    let mut out = std::io::stdout().lock();
    if json {
        out.write_all(levels::symbolic_json(&entry).as_bytes())?;
    } else {
        out.write_all(levels::summary(&entry).as_bytes())?;
    }
    if let Some(p) = png {
        write_atomic(p, &levels::picture(&entry, false, scale)?)?;
        if !json {
            writeln!(out, "png:         {}", p.display())?;
        }
    }
    out.flush()?;
    Ok(())
}

/// `tasks sheet --tier phyq` (or on a `--tasks` level set).
pub fn sheet(
    entries: &[Entry],
    templates: Option<&str>,
    per_template: usize,
    columns: usize,
    shrink: usize,
    out_path: &Path,
) -> Result<()> {
    check_writable(out_path)?;
    let sheet = levels::sheet(entries, templates, per_template, columns, shrink)?;
    write_atomic(out_path, &sheet.png)?;
    println!(
        "{} scenes -> {} ({}×{} px)",
        sheet.scenes,
        out_path.display(),
        sheet.width,
        sheet.height
    );
    Ok(())
}

/// `tasks list --tier phyq` (or on a `--tasks` level set).
pub fn list(entries: &[Entry], template: Option<&str>) -> Result<()> {
    let text = levels::list(entries, template)?;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// `simulate ID --shots …` for a Phy-Q id.
pub fn simulate(a: &SimulateArgs, entry: Entry) -> Result<()> {
    if a.tier.is_some() {
        bail!("--tier is for PHYRE tasks");
    }
    let Some(text) = &a.shots else {
        bail!("a Phy-Q task takes --shots \"x,y,tap;…\" (--action is for PHYRE tasks)");
    };
    let given = phyq::game::parse_shots(text)?;
    if let Some(g) = &a.gif {
        check_writable(g)?;
    }
    let (mut report, gif) = levels::play(&entry, &given, a.gif.as_ref().map(|_| a.picture.scale))?;
    if let (Some(path), Some(bytes)) = (&a.gif, gif) {
        write_atomic(path, &bytes)?;
        report.gif = Some(path.display().to_string());
    }
    let mut out = std::io::stdout().lock();
    if a.print.json {
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    } else {
        out.write_all(report.text().as_bytes())?;
    }
    Ok(())
}
