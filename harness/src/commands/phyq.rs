//! Phy-Q levels on the command line (built-in or from a `--tasks` level set, resolved by
//! [`taskref`]): `simulate --shots` (through `phyq::game`), `render`, `tasks show`,
//! `tasks list` and `tasks sheet` (through `phyq::picture` and `phyq::symbolic`).

use super::render::RenderArgs;
use super::simulate::SimulateArgs;
use anyhow::{bail, Result};
use phyq::generator::template_of;
use phyq::levelset::Entry;
use std::io::Write;
use studies::files::{check_writable, write_atomic};

/// Steps between two frames of a Phy-Q GIF (0.2 s of game time), and each frame's delay.
const GIF_FRAME_STEPS: u32 = 10;
const GIF_DELAY_CS: u16 = 20;

/// `render ID` for a Phy-Q id: the initial state's picture (PNG, or `--raw` codes).
pub fn render(a: &RenderArgs, entry: Entry) -> Result<()> {
    if a.action.is_some() || a.step != 0 {
        bail!("--action and --step are for PHYRE tasks (a Phy-Q run: simulate ID --shots … --gif FILE)");
    }
    if a.tier.is_some() {
        bail!("--tier is for PHYRE tasks");
    }
    check_writable(&a.out)?;
    let img = phyq::picture::render_level(&entry.level);
    let bytes = if a.raw {
        img.pixels.clone()
    } else {
        let big = raster::canvas::enlarge(&img, a.scale as usize);
        phyq::picture::png_bytes(&big)?
    };
    write_atomic(&a.out, &bytes)?;
    println!(
        "{} -> {} ({})",
        entry.id,
        a.out.display(),
        if a.raw {
            "raw picture, 307200 bytes, 480 rows of 640 colour codes RRRGGGBB, row 0 = top"
        } else {
            "PNG"
        }
    );
    Ok(())
}

/// `tasks show ID` for a Phy-Q id: a summary, or with `--json` the symbolic representation.
pub fn show(entry: Entry, png: Option<&std::path::Path>, scale: u32, json: bool) -> Result<()> {
    if let Some(p) = png {
        check_writable(p)?;
    }
    let sym = phyq::symbolic::of_level(&entry.level, Some(entry.id.to_string()));
    let mut out = std::io::stdout().lock();
    if json {
        out.write_all(phyq::symbolic::to_json(&sym).as_bytes())?;
    } else {
        write_summary(&mut out, &entry, &sym)?;
    }
    if let Some(p) = png {
        let img = phyq::picture::render_level(&entry.level);
        let big = raster::canvas::enlarge(&img, scale as usize);
        write_atomic(p, &phyq::picture::png_bytes(&big)?)?;
        if !json {
            writeln!(out, "png:         {}", p.display())?;
        }
    }
    out.flush()?;
    Ok(())
}

fn write_summary(
    out: &mut impl Write,
    entry: &Entry,
    sym: &phyq::symbolic::Symbolic,
) -> Result<()> {
    let level = &entry.level;
    writeln!(out, "task:        {}", entry.id)?;
    if let Some(t) = template_of(&entry.id) {
        writeln!(
            out,
            "template:    {} (paper {}, scenario {} {})",
            t.code, t.paper, t.scenario, t.scenario_name
        )?;
        writeln!(out, "strategy:    {}", t.strategy)?;
    }
    writeln!(out, "source:      {}", entry.source)?;
    writeln!(out, "birds:       {}", sym.birds_left.join(", "))?;
    writeln!(
        out,
        "slingshot:   ({}, {})",
        level.slingshot.x, level.slingshot.y
    )?;
    writeln!(
        out,
        "ground:      y {} (screen row {})",
        sym.ground.y, sym.ground.screen_y
    )?;
    writeln!(
        out,
        "objects:     {} (world units, degrees; screen box in pixels of the 640 × 480 picture; --json for the symbolic representation)",
        sym.objects.len()
    )?;
    writeln!(
        out,
        "  {:>3}  {:<11} {:<20} {:<12} {:>9} {:>9} {:>9}  screen box",
        "#", "source", "type", "kind", "x", "y", "angle"
    )?;
    for o in &sym.objects {
        let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for p in o.screen.iter().flatten() {
            x0 = x0.min(p[0]);
            y0 = y0.min(p[1]);
            x1 = x1.max(p[0]);
            y1 = y1.max(p[1]);
        }
        if let Some(c) = &o.circle {
            let r = c.screen_r.ceil() as i64;
            (x0, y0, x1, y1) = (
                c.screen_x - r,
                c.screen_y - r,
                c.screen_x + r,
                c.screen_y + r,
            );
        }
        writeln!(
            out,
            "  {:>3}  {:<11} {:<20} {:<12} {:>9.3} {:>9.3} {:>9.3}  ({x0}, {y0})-({x1}, {y1})",
            o.index, o.source, o.label, o.kind, o.x, o.y, o.angle
        )?;
    }
    Ok(())
}

/// `tasks sheet --tier phyq` (or on a `--tasks` level set): the initial pictures of the first
/// `per_template` levels of each chosen template (codes or paper numbers, comma-separated;
/// default all, in the table's order, then a set's levels without a template), shrunk,
/// labelled with their ids.
pub fn sheet(
    levels: &[Entry],
    templates: Option<&str>,
    per_template: usize,
    columns: usize,
    shrink: usize,
    out_path: &std::path::Path,
) -> Result<()> {
    check_writable(out_path)?;
    let chosen: Vec<&phyq::templates::Template> = match templates {
        None => phyq::templates::templates().iter().collect(),
        Some(list) => list
            .split(',')
            .map(|name| {
                let name = name.trim();
                phyq::templates::find(name).ok_or_else(|| {
                    anyhow::anyhow!(
                        "no Phy-Q template {name:?} (use a code such as 1_1_4 or a paper number such as 1.1)"
                    )
                })
            })
            .collect::<Result<_>>()?,
    };
    let per = per_template.max(1);
    let mut pictures = Vec::new();
    let mut labels = Vec::new();
    let mut add = |e: &Entry, label: String| {
        pictures.push(phyq::picture::render_level(&e.level));
        labels.push(label);
    };
    for t in &chosen {
        for e in levels
            .iter()
            .filter(|e| template_of(&e.id).is_some_and(|x| x.code == t.code))
            .take(per)
        {
            add(e, format!("{} {}", e.id, t.paper));
        }
    }
    if templates.is_none() {
        for e in levels.iter().filter(|e| template_of(&e.id).is_none()) {
            add(e, e.id.to_string());
        }
    }
    if pictures.is_empty() {
        bail!("no level to draw: none of the chosen templates' levels is here");
    }
    let label_refs: Vec<&str> = labels.iter().map(String::as_str).collect();
    let sheet = phyq::picture::sheet(&pictures, &label_refs, columns, shrink);
    write_atomic(out_path, &phyq::picture::png_bytes(&sheet)?)?;
    println!(
        "{} scenes -> {} ({}×{} px)",
        pictures.len(),
        out_path.display(),
        sheet.width,
        sheet.height
    );
    Ok(())
}

/// `tasks list --tier phyq` (or on a `--tasks` level set): one line per level, of one template
/// with `--template`.
pub fn list(levels: &[Entry], template: Option<&str>) -> Result<()> {
    let only = match template {
        Some(name) => Some(phyq::templates::find(name).ok_or_else(|| {
            anyhow::anyhow!("no Phy-Q template {name:?} (use a code such as 1_1_4 or a paper number such as 1.1)")
        })?),
        None => None,
    };
    let mut out = std::io::stdout().lock();
    for e in levels {
        let t = template_of(&e.id);
        if only.is_some_and(|o| t.is_none_or(|t| o.code != t.code)) {
            continue;
        }
        match t {
            Some(t) => writeln!(
                out,
                "{}\tscenario {}\ttemplate {}\t{} objects",
                e.id,
                t.scenario,
                t.paper,
                e.level.objects.len()
            )?,
            None => writeln!(
                out,
                "{}\t{}\t{} objects",
                e.id,
                e.source,
                e.level.objects.len()
            )?,
        }
    }
    out.flush()?;
    Ok(())
}

/// What `simulate` reports on a Phy-Q task (also its `--json` form).
#[derive(Debug, serde::Serialize)]
struct PlayReport {
    task: String,
    /// The shots as given: x, y (pixels of the level's picture, y up), tap (s).
    shots_given: Vec<[f64; 3]>,
    /// passed, not_passed or invalid (more shots than birds).
    status: phyq::game::Status,
    pigs_left: u32,
    /// Shots taken (play stops when the last pig is destroyed).
    shots: u32,
    /// Physics steps, 50 per second of game time.
    steps: u32,
    /// Hash of the final state (world and every object's life), hex.
    final_hash: String,
    /// Science Birds' score: pigs, blocks, birds' damaging hits, birds left at the end.
    score: u32,
    gif: Option<String>,
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
    let level = &entry.level;
    let shots: Vec<phyq::game::Shot> = given.iter().map(|s| s.to_shot(level)).collect();
    let framing = phyq::picture::Framing::of_level(level);
    // Frames every GIF_FRAME_STEPS steps, and the final state when it is not one already.
    let mut frames = Vec::new();
    let (outcome, end) = phyq::game::play_observed(level, &shots, &mut |g| {
        if a.gif.is_some() && g.steps() % GIF_FRAME_STEPS == 0 {
            frames.push(phyq::picture::render(&g.scene(level), &framing));
        }
    })?;
    let mut gif = None;
    if let Some(path) = &a.gif {
        if frames.is_empty() || end.steps() % GIF_FRAME_STEPS != 0 {
            frames.push(phyq::picture::render(&end.scene(level), &framing));
        }
        let big: Vec<_> = frames
            .iter()
            .map(|f| raster::canvas::enlarge(f, a.scale as usize))
            .collect();
        let bytes = raster::canvas::gif_bytes(&big, &phyq::colours::palette(), GIF_DELAY_CS)?;
        write_atomic(path, &bytes)?;
        gif = Some(path.display().to_string());
    }
    let report = PlayReport {
        task: entry.id.to_string(),
        shots_given: given.iter().map(|s| [s.x, s.y, s.tap]).collect(),
        status: outcome.status,
        pigs_left: outcome.pigs_left,
        shots: outcome.shots,
        steps: outcome.steps,
        final_hash: format!("{:016x}", outcome.final_hash),
        score: end.score(),
        gif,
    };
    let mut out = std::io::stdout().lock();
    if a.json {
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    } else {
        writeln!(out, "task:        {}", report.task)?;
        writeln!(
            out,
            "status:      {}",
            serde_json::to_value(report.status)?.as_str().unwrap_or("?")
        )?;
        writeln!(out, "pigs left:   {}", report.pigs_left)?;
        writeln!(out, "shots taken: {} of {}", report.shots, given.len())?;
        writeln!(
            out,
            "steps:       {} ({:.2} s of game time)",
            report.steps,
            f64::from(report.steps) / 50.0
        )?;
        writeln!(out, "final hash:  {}", report.final_hash)?;
        writeln!(out, "score:       {}", report.score)?;
        if let Some(g) = &report.gif {
            writeln!(out, "gif:         {g}")?;
        }
    }
    Ok(())
}
