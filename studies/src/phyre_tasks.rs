//! What the command line shows of PHYRE tasks: a scene's picture after some steps (`render`,
//! `tasks show`), the contact sheet (`tasks sheet`) and a simulated action's report and GIF
//! (`simulate`), each as text or bytes for the caller to print or write. The Phy-Q levels'
//! counterparts are [`crate::phyq_levels`].

use crate::phyq_levels::Sheet;
use anyhow::{bail, Context, Result};
use raster::{ActionCircle, Indexed, Observation};
use std::fmt::Write as _;
use tasks::{simulate_observed, validate_action, SimOptions, Status, Task, TaskSet, Tier};
use tasks::{UserBall, ValidAction};

/// GIF frame delay (hundredths of a second): a frame is 60 steps = 1 s of simulated time, so
/// the animation runs 4× faster than real time.
const GIF_DELAY_CS: u16 = 25;

/// What `render --raw` writes, in words.
pub const RAW_OBSERVATION: &str = "raw observation, 65536 bytes, row 0 = bottom";

/// The observation of `task` with `balls` after `steps` steps of plain physics (the goal does
/// not stop it).
pub fn observe(task: &Task, balls: &[UserBall], steps: u32) -> Result<Observation> {
    let mut setup = task
        .build_world(balls)
        .with_context(|| format!("cannot build the world of {}", task.id()))?;
    for _ in 0..steps {
        setup.world.step();
    }
    Ok(raster::render(&setup.world, &setup.colours))
}

/// The picture of `task` with `balls` after `steps` steps: the raw observation bytes, or a PNG
/// in the display palette, up at the top, each pixel `scale` × `scale`.
pub fn picture(
    task: &Task,
    balls: &[UserBall],
    steps: u32,
    raw: bool,
    scale: u32,
) -> Result<Vec<u8>> {
    let obs = observe(task, balls, steps)?;
    if raw {
        return Ok(obs.as_bytes().to_vec());
    }
    let img = Indexed::from_observation(&obs, scale as usize);
    Ok(raster::picture::png_bytes(&img)?)
}

/// `tasks sheet`: the initial scenes of the first `per_template` tasks of each of `templates`
/// (default: every template; of `tier` only when given), `columns` a row.
pub fn sheet(
    set: &TaskSet,
    tier: Option<Tier>,
    templates: Option<&[u32]>,
    per_template: usize,
    columns: usize,
) -> Result<Sheet> {
    let mut wanted = match templates {
        Some(list) => list.to_vec(),
        None => set.templates(),
    };
    if let Some(t) = tier {
        wanted.retain(|&tpl| set.template(tpl).iter().any(|task| task.tier() == t));
    }
    let mut scenes = Vec::new();
    for tpl in wanted {
        for task in set.template(tpl).iter().take(per_template.max(1)) {
            scenes.push(observe(task, &[], 0)?);
        }
    }
    if scenes.is_empty() {
        bail!("no tasks in the selected templates");
    }
    let sheet = raster::contact_sheet(&scenes, columns);
    Ok(Sheet {
        png: raster::picture::png_bytes(&sheet)?,
        scenes: scenes.len(),
        width: sheet.width,
        height: sheet.height,
    })
}

/// What `simulate` reports on a PHYRE task (also its `--json` form).
#[derive(Debug, serde::Serialize)]
pub struct PlayReport {
    pub task: String,
    pub tier: String,
    pub action: Vec<f64>,
    /// SOLVED, NOT_SOLVED or INVALID.
    pub status: &'static str,
    /// Why the action is invalid.
    pub reason: Option<String>,
    /// Steps the run covers (the solving step, or 1000).
    pub steps: Option<u32>,
    /// Steps actually computed (fewer when everything came to rest early).
    pub stepped: Option<u32>,
    pub first_touch_step: Option<u32>,
    pub solved_step: Option<u32>,
    /// Engine state hash after the last covered step, hex.
    pub final_hash: Option<String>,
    /// The GIF's path, once the caller has written it.
    pub gif: Option<String>,
}

impl PlayReport {
    /// The report in words, one line a figure.
    pub fn text(&self) -> String {
        let opt = |v: Option<u32>| v.map_or("-".to_string(), |s| s.to_string());
        let mut out = String::new();
        let _ = writeln!(out, "task:             {}", self.task);
        let _ = writeln!(out, "tier:             {}", self.tier);
        let action = crate::action_text(&self.action, ",");
        let _ = writeln!(out, "action:           {action}");
        match &self.reason {
            Some(r) => {
                let _ = writeln!(out, "status:           {} ({r})", self.status);
            }
            None => {
                let _ = writeln!(out, "status:           {}", self.status);
                let _ = writeln!(
                    out,
                    "steps:            {} covered, {} simulated",
                    opt(self.steps),
                    opt(self.stepped)
                );
                let _ = writeln!(out, "first touch step: {}", opt(self.first_touch_step));
                let _ = writeln!(out, "solved step:      {}", opt(self.solved_step));
                let hash = self.final_hash.as_deref().unwrap_or("-");
                let _ = writeln!(out, "final hash:       {hash}");
            }
        }
        if let Some(g) = &self.gif {
            let _ = writeln!(out, "gif:              {g}");
        }
        out
    }
}

/// Simulate `action` (checked by the validity rule of `tier`) on `task`: its report and, with
/// `gif` (the frames' scale), the GIF of the run (the state after steps 1, 61, 121, … and the
/// last step, the action's balls outlined where they started). An invalid action is reported,
/// not simulated, and has no GIF.
pub fn play(
    task: &Task,
    tier: Tier,
    action: &[f64],
    gif: Option<u32>,
) -> Result<(PlayReport, Option<Vec<u8>>)> {
    let mut report = PlayReport {
        task: task.id().to_string(),
        tier: tier.to_string(),
        action: action.to_vec(),
        status: Status::Invalid.name(),
        reason: None,
        steps: None,
        stepped: None,
        first_touch_step: None,
        solved_step: None,
        final_hash: None,
        gif: None,
    };
    let valid = match validate_action(task, tier, action) {
        Err(why) => {
            report.reason = Some(why.to_string());
            return Ok((report, None));
        }
        Ok(valid) => valid,
    };
    let (o, frames) = run_frames(task, &valid, gif.is_some())?;
    report.status = Status::of_solved(o.solved).name();
    report.steps = Some(o.steps);
    report.stepped = Some(o.stepped);
    report.first_touch_step = o.first_touch_step;
    report.solved_step = o.solved_step;
    report.final_hash = Some(format!("{:016x}", o.final_hash));
    let bytes = match gif {
        None => None,
        Some(scale) => {
            let circles: Vec<ActionCircle> = valid
                .balls()
                .iter()
                .map(|&UserBall { x, y, r }| ActionCircle { x, y, r })
                .collect();
            let images = raster::action_frames(&frames, &circles, scale as usize);
            Some(raster::picture::gif_bytes(&images, GIF_DELAY_CS)?)
        }
    };
    Ok((report, bytes))
}

/// The run of a valid action and, when `frames`, its observations at the frame steps and at
/// the end (when that is not a frame step already).
fn run_frames(
    task: &Task,
    valid: &ValidAction,
    frames: bool,
) -> Result<(tasks::Outcome, Vec<Observation>)> {
    let mut out = Vec::new();
    let mut colours = Vec::new();
    if frames {
        colours = task
            .build_world(valid.balls())
            .context("cannot build the world")?
            .colours;
    }
    let (o, end) = simulate_observed(task, valid, SimOptions::default(), |step, world| {
        if frames && raster::is_frame_step(step) {
            out.push(raster::render(world, &colours));
        }
    })
    .context("cannot build the world")?;
    if frames && !raster::is_frame_step(o.steps) {
        out.push(raster::render(&end.world, &colours));
    }
    Ok((o, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_played_action_its_gif_and_an_invalid_one() {
        let task = TaskSet::builtin().lookup("00000:000").unwrap();
        let (report, gif) = play(task, Tier::Ball, &[0.5, 0.5, 0.3], Some(1)).unwrap();
        assert!(report.reason.is_none() && report.final_hash.is_some());
        assert!(gif.expect("a GIF").starts_with(b"GIF89a"));
        assert!(report.text().starts_with("task:             00000:000\n"));
        let (bad, none) = play(task, Tier::Ball, &[0.01, 0.01, 0.9], Some(1)).unwrap();
        assert_eq!((bad.status, none), ("INVALID", None));
        assert!(bad.text().contains("status:           INVALID ("));
    }

    #[test]
    fn pictures_and_sheets() {
        let set = TaskSet::builtin();
        let task = set.lookup("00000:000").unwrap();
        assert_eq!(picture(task, &[], 0, true, 1).unwrap().len(), 65_536);
        assert!(picture(task, &[], 0, false, 2)
            .unwrap()
            .starts_with(b"\x89PNG"));
        let two = sheet(set, Some(Tier::Ball), Some(&[0, 1]), 2, 2).unwrap();
        assert_eq!(two.scenes, 4);
        assert!(sheet(set, Some(Tier::TwoBalls), Some(&[0]), 1, 1).is_err());
    }
}
