//! What the command line shows of Phy-Q levels (built-in or from a level set): a level's
//! summary (`tasks show`), the listing (`tasks list`), the contact sheet (`tasks sheet`), a
//! level's picture (`render`) and a played level's report and GIF (`simulate --shots`), each
//! as text or bytes for the caller to print or write.

use anyhow::{bail, Result};
use phyq::generator::template_of;
use phyq::levelset::Entry;
use phyq::templates::Template;
use std::fmt::Write as _;

/// Steps between two frames of a Phy-Q GIF (0.2 s of game time), and each frame's delay.
const GIF_FRAME_STEPS: u32 = 10;
const GIF_DELAY_CS: u16 = 20;

/// What `render --raw` writes, in words.
pub const RAW_PICTURE: &str =
    "raw picture, 307200 bytes, 480 rows of 640 colour codes RRRGGGBB, row 0 = top";

/// The level's initial picture: raw colour codes, or a PNG enlarged `scale` times.
pub fn picture(entry: &Entry, raw: bool, scale: u32) -> Result<Vec<u8>> {
    let img = phyq::picture::render_level(&entry.level);
    if raw {
        return Ok(img.pixels);
    }
    Ok(phyq::picture::png_bytes(&raster::canvas::enlarge(
        &img,
        scale as usize,
    ))?)
}

/// The original's symbolic representation of the level (JSON).
pub fn symbolic_json(entry: &Entry) -> String {
    phyq::symbolic::to_json(&phyq::symbolic::of_level(
        &entry.level,
        Some(entry.id.to_string()),
    ))
}

/// `tasks show`'s summary: the template, the birds, the slingshot, the ground and a table of
/// the objects with their screen boxes.
pub fn summary(entry: &Entry) -> String {
    let sym = phyq::symbolic::of_level(&entry.level, Some(entry.id.to_string()));
    let level = &entry.level;
    let mut out = String::new();
    let _ = writeln!(out, "task:        {}", entry.id);
    if let Some(t) = template_of(&entry.id) {
        let _ = writeln!(
            out,
            "template:    {} (paper {}, scenario {} {})",
            t.code, t.paper, t.scenario, t.scenario_name
        );
        let _ = writeln!(out, "strategy:    {}", t.strategy);
    }
    let _ = writeln!(out, "source:      {}", entry.source);
    let _ = writeln!(out, "birds:       {}", sym.birds_left.join(", "));
    let _ = writeln!(
        out,
        "slingshot:   ({}, {})",
        level.slingshot.x, level.slingshot.y
    );
    let _ = writeln!(
        out,
        "ground:      y {} (screen row {})",
        sym.ground.y, sym.ground.screen_y
    );
    let _ = writeln!(
        out,
        "objects:     {} (world units, degrees; screen box in pixels of the 640 × 480 picture; --json for the symbolic representation)",
        sym.objects.len()
    );
    let _ = writeln!(
        out,
        "  {:>3}  {:<11} {:<20} {:<12} {:>9} {:>9} {:>9}  screen box",
        "#", "source", "type", "kind", "x", "y", "angle"
    );
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
        let _ = writeln!(
            out,
            "  {:>3}  {:<11} {:<20} {:<12} {:>9.3} {:>9.3} {:>9.3}  ({x0}, {y0})-({x1}, {y1})",
            o.index, o.source, o.label, o.kind, o.x, o.y, o.angle
        );
    }
    out
}

/// The template a code (1_1_4) or paper number (1.1) names.
pub fn template(name: &str) -> Result<&'static Template> {
    phyq::templates::find(name).ok_or_else(|| {
        anyhow::anyhow!(
            "no Phy-Q template {name:?} (use a code such as 1_1_4 or a paper number such as 1.1)"
        )
    })
}

/// `tasks list`: one line per level, of one template with `template`.
pub fn list(levels: &[Entry], template: Option<&str>) -> Result<String> {
    let only = template.map(self::template).transpose()?;
    let mut out = String::new();
    for e in levels {
        let t = template_of(&e.id);
        if only.is_some_and(|o| t.is_none_or(|t| o.code != t.code)) {
            continue;
        }
        let _ = match t {
            Some(t) => writeln!(
                out,
                "{}\tscenario {}\ttemplate {}\t{} objects",
                e.id,
                t.scenario,
                t.paper,
                e.level.objects.len()
            ),
            None => writeln!(
                out,
                "{}\t{}\t{} objects",
                e.id,
                e.source,
                e.level.objects.len()
            ),
        };
    }
    Ok(out)
}

/// A contact sheet as a PNG, with its number of scenes and its size.
pub struct Sheet {
    pub png: Vec<u8>,
    pub scenes: usize,
    pub width: usize,
    pub height: usize,
}

/// `tasks sheet`: the initial pictures of the first `per_template` levels of each chosen
/// template (codes or paper numbers, comma-separated; default all, in the table's order, then
/// the levels without a template), shrunk, labelled with their ids.
pub fn sheet(
    levels: &[Entry],
    templates: Option<&str>,
    per_template: usize,
    columns: usize,
    shrink: usize,
) -> Result<Sheet> {
    let chosen: Vec<&Template> = match templates {
        None => phyq::templates::templates().iter().collect(),
        Some(list) => list
            .split(',')
            .map(|name| template(name.trim()))
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
    Ok(Sheet {
        png: phyq::picture::png_bytes(&sheet)?,
        scenes: pictures.len(),
        width: sheet.width,
        height: sheet.height,
    })
}

/// What `simulate` reports on a Phy-Q task (also its `--json` form).
#[derive(Debug, serde::Serialize)]
pub struct PlayReport {
    pub task: String,
    /// The shots as given: x, y (pixels of the level's picture, y up), tap (s).
    pub shots_given: Vec<[f64; 3]>,
    /// passed, not_passed or invalid (more shots than birds).
    pub status: phyq::game::Status,
    pub pigs_left: u32,
    /// Shots taken (play stops when the last pig is destroyed).
    pub shots: u32,
    /// Physics steps, 50 per second of game time.
    pub steps: u32,
    /// Hash of the final state (world and every object's life), hex.
    pub final_hash: String,
    /// Science Birds' score: pigs, blocks, birds' damaging hits, birds left at the end.
    pub score: u32,
    /// The GIF's path, once the caller has written it.
    pub gif: Option<String>,
}

impl PlayReport {
    /// The report in words, one line a figure.
    pub fn text(&self) -> String {
        let status = serde_json::to_value(self.status).ok();
        let mut out = String::new();
        let _ = writeln!(out, "task:        {}", self.task);
        let _ = writeln!(
            out,
            "status:      {}",
            status.as_ref().and_then(|v| v.as_str()).unwrap_or("?")
        );
        let _ = writeln!(out, "pigs left:   {}", self.pigs_left);
        let _ = writeln!(
            out,
            "shots taken: {} of {}",
            self.shots,
            self.shots_given.len()
        );
        let _ = writeln!(
            out,
            "steps:       {} ({:.2} s of game time)",
            self.steps,
            f64::from(self.steps) / 50.0
        );
        let _ = writeln!(out, "final hash:  {}", self.final_hash);
        let _ = writeln!(out, "score:       {}", self.score);
        if let Some(g) = &self.gif {
            let _ = writeln!(out, "gif:         {g}");
        }
        out
    }
}

/// Play `given` on the level: its report and, with `gif` (the frames' scale), the GIF of the
/// run (a frame every 0.2 s of game time and the final state).
pub fn play(
    entry: &Entry,
    given: &[phyq::game::PixelShot],
    gif: Option<u32>,
) -> Result<(PlayReport, Option<Vec<u8>>)> {
    let level = &entry.level;
    let shots: Vec<phyq::game::Shot> = given.iter().map(|s| s.to_shot(level)).collect();
    let framing = phyq::picture::Framing::of_level(level);
    // Frames every GIF_FRAME_STEPS steps, and the final state when it is not one already.
    let mut frames = Vec::new();
    let (outcome, end) = phyq::game::play_observed(level, &shots, &mut |g| {
        if gif.is_some() && g.steps() % GIF_FRAME_STEPS == 0 {
            frames.push(phyq::picture::render(&g.scene(level), &framing));
        }
    })?;
    let mut bytes = None;
    if let Some(scale) = gif {
        if frames.is_empty() || end.steps() % GIF_FRAME_STEPS != 0 {
            frames.push(phyq::picture::render(&end.scene(level), &framing));
        }
        let big: Vec<_> = frames
            .iter()
            .map(|f| raster::canvas::enlarge(f, scale as usize))
            .collect();
        bytes = Some(raster::canvas::gif_bytes(
            &big,
            &phyq::colours::palette(),
            GIF_DELAY_CS,
        )?);
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
        gif: None,
    };
    Ok((report, bytes))
}
