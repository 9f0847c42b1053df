//! rephyre's web player, the wasm side: the engine, both tiers' tasks and the raster, compiled
//! to wasm32 with wasm-bindgen and called by the page (`web/www/player.js`). Everything the
//! page shows is computed here by the same library functions as the command line, so a run in
//! the page gives `rephyre simulate`'s status and final hash bit for bit.
//!
//! * [`phyre`]: a PHYRE task's action, validated, run step by step with its goal timer;
//! * [`phyq`]: a Phy-Q level played shot by shot (drag, tap, run to rest);
//! * [`report`]: the automation handle's answer (`window.rephyre.simulate`);
//! * [`catalogue`]: the templates and task ids the menus list;
//! * [`levels`]: a Phy-Q level set the page was served with (`rephyre --tasks SET serve`).
//!
//! A Phy-Q task is looked up in a tier: `phyq` (or none given), the built-in tasks, or `set`,
//! the loaded level set (whose ids may be built-in ids too).
//!
//! The exported functions below only convert: errors become JavaScript exceptions with the
//! library's one-line message, pictures are RGBA bytes (row 0 at the top).

pub mod catalogue;
pub mod levels;
pub mod phyq;
pub mod phyre;
pub mod report;

use wasm_bindgen::prelude::*;

fn js(e: String) -> JsError {
    JsError::new(&e)
}

/// The templates and task ids of both tiers (JSON, [`catalogue::json`]).
#[wasm_bindgen]
pub fn catalogue() -> String {
    catalogue::json()
}

/// Which benchmark's id `task_id` is written as: `phyre` or `phyq` (`taskref`'s rule, the
/// page's only way to tell them apart).
#[wasm_bindgen]
pub fn benchmark(task_id: &str) -> String {
    match taskref::Benchmark::of_id(task_id) {
        taskref::Benchmark::Phyre => "phyre",
        taskref::Benchmark::Phyq => "phyq",
    }
    .to_string()
}

/// Loads a Phy-Q level set (the level-set file's bytes, `name` for messages), replacing any
/// loaded before; its levels are then tier `set`. Returns the menu ([`levels::Levels::json`]);
/// a bad file throws with the reader's words.
#[wasm_bindgen]
pub fn load_levels(bytes: &[u8], name: &str) -> Result<String, JsError> {
    let levels = levels::Levels::from_bytes(bytes, name).map_err(js)?;
    let menu = levels.json();
    levels::load(levels);
    Ok(menu)
}

/// `rephyre simulate TASK --action …` for a PHYRE task: status, hash and steps as JSON.
/// `tier` empty: the task's own.
#[wasm_bindgen]
pub fn simulate_phyre(task_id: &str, tier: &str, action: Vec<f64>) -> Result<String, JsError> {
    let task = phyre::task(task_id).map_err(js)?;
    let tier = phyre::tier_of(task, Some(tier)).map_err(js)?;
    Ok(phyre::simulate(task, tier, &action).map_err(js)?.to_json())
}

/// `rephyre simulate TASK --shots …` for a Phy-Q task of `tier` (`phyq`, the default, or
/// `set`: `rephyre --tasks SET simulate …`): status, hash, steps, pigs left, shots.
#[wasm_bindgen]
pub fn simulate_phyq(task_id: &str, shots: &str, tier: Option<String>) -> Result<String, JsError> {
    let entry = phyq::task_in(task_id, tier.as_deref()).map_err(js)?;
    Ok(phyq::simulate(&entry, shots).map_err(js)?.to_json())
}

/// What the player says about a task (JSON): its tier, template and description (PHYRE), or
/// its tier, template, scenario, strategic rule and birds (Phy-Q; `tier` `set`: a level of the
/// loaded set).
#[wasm_bindgen]
pub fn task_info(task_id: &str, tier: Option<String>) -> Result<String, JsError> {
    catalogue::task_info_in(task_id, tier.as_deref()).map_err(js)
}

/// Shots as `--shots` reads them, flattened to x, y, tap, x, y, tap, …; bad ones throw with
/// the command line's words.
#[wasm_bindgen]
pub fn phyq_parse_shots(shots: &str) -> Result<Vec<f64>, JsError> {
    let shots = ::phyq::game::parse_shots(shots).map_err(|e| js(e.to_string()))?;
    Ok(shots.iter().flat_map(|s| [s.x, s.y, s.tap]).collect())
}

/// A PHYRE task's initial scene (RGBA, 256·`scale` square), with the action's balls when it
/// is given and valid.
#[wasm_bindgen]
pub fn phyre_scene(
    task_id: &str,
    tier: &str,
    action: Option<Vec<f64>>,
    scale: u32,
) -> Result<Vec<u8>, JsError> {
    let task = phyre::task(task_id).map_err(js)?;
    let tier = phyre::tier_of(task, Some(tier)).map_err(js)?;
    phyre::scene_rgba(task, tier, action.as_deref(), scale.clamp(1, 8) as usize).map_err(js)
}

/// Why an action is invalid for a PHYRE task (`undefined` when it is valid).
#[wasm_bindgen]
pub fn phyre_invalid_reason(
    task_id: &str,
    tier: &str,
    action: Vec<f64>,
) -> Result<Option<String>, JsError> {
    let task = phyre::task(task_id).map_err(js)?;
    let tier = phyre::tier_of(task, Some(tier)).map_err(js)?;
    Ok(phyre::invalid_reason(task, tier, &action))
}

/// The committed witness of a PHYRE task in a tier (`undefined` when it has none).
#[wasm_bindgen]
pub fn phyre_solution(task_id: &str, tier: &str) -> Result<Option<Vec<f64>>, JsError> {
    let task = phyre::task(task_id).map_err(js)?;
    let tier = phyre::tier_of(task, Some(tier)).map_err(js)?;
    Ok(phyre::solution(task, tier))
}

/// A Phy-Q level's initial picture (RGBA, 640 × 480 shrunk by `shrink`).
#[wasm_bindgen]
pub fn phyq_scene(task_id: &str, shrink: u32, tier: Option<String>) -> Result<Vec<u8>, JsError> {
    let entry = phyq::task_in(task_id, tier.as_deref()).map_err(js)?;
    phyq::level_rgba(&entry, shrink.clamp(1, 16) as usize).map_err(js)
}

/// The committed witness shots of a built-in Phy-Q task (`undefined` when it has none; a level
/// of the loaded set has none, whatever its id).
#[wasm_bindgen]
pub fn phyq_solution(task_id: &str, tier: Option<String>) -> Result<Option<String>, JsError> {
    let entry = phyq::task_in(task_id, tier.as_deref()).map_err(js)?;
    Ok((tier.as_deref() != Some(levels::SET_TIER))
        .then(|| phyq::solution(&entry))
        .flatten())
}

/// A PHYRE action's run, shown step by step ([`phyre::Run`]).
#[wasm_bindgen]
pub struct PhyreRun(phyre::Run);

#[wasm_bindgen]
impl PhyreRun {
    /// The run of a valid action (an invalid one throws, saying why).
    #[wasm_bindgen(constructor)]
    pub fn new(task_id: &str, tier: &str, action: Vec<f64>) -> Result<PhyreRun, JsError> {
        let task = phyre::task(task_id).map_err(js)?;
        let tier = phyre::tier_of(task, Some(tier)).map_err(js)?;
        Ok(PhyreRun(phyre::Run::new(task, tier, &action).map_err(js)?))
    }

    /// One step; false at the run's end.
    pub fn step(&mut self) -> bool {
        self.0.step()
    }

    /// The current picture (RGBA, 256·`scale` square).
    pub fn picture(&self, scale: u32) -> Result<Vec<u8>, JsError> {
        self.0.picture(scale.clamp(1, 8) as usize).map_err(js)
    }

    /// Step, goal hold and, at the end, status and hash (JSON, [`phyre::RunState`]).
    pub fn state(&self) -> String {
        serde_json::to_string(&self.0.state()).expect("plain fields serialize")
    }
}

/// A Phy-Q level in play ([`phyq::Play`]).
#[wasm_bindgen]
pub struct PhyqPlay(phyq::Play);

#[wasm_bindgen]
impl PhyqPlay {
    /// A new game of a Phy-Q task of `tier` (`phyq`, the default, or `set`), before its
    /// opening.
    #[wasm_bindgen(constructor)]
    pub fn new(task_id: &str, tier: Option<String>) -> Result<PhyqPlay, JsError> {
        let entry = phyq::task_in(task_id, tier.as_deref()).map_err(js)?;
        Ok(PhyqPlay(phyq::Play::new(entry).map_err(js)?))
    }

    /// One step of the opening or of the shot in flight; false when nothing runs.
    pub fn step(&mut self) -> bool {
        self.0.step()
    }

    /// Runs the opening to its end.
    pub fn skip_opening(&mut self) {
        self.0.skip_opening()
    }

    /// Launches the waiting bird from (`x`, `y`) px off its rest point (y up), tapped `tap` s
    /// after the launch (0: none).
    pub fn launch(&mut self, x: f64, y: f64, tap: f64) -> Result<(), JsError> {
        self.0.launch(x, y, tap).map_err(js)
    }

    /// Uses the flying bird's power now: the tap time written into its shot, or `undefined`.
    pub fn tap(&mut self) -> Option<f64> {
        self.0.tap()
    }

    /// The current picture (RGBA, 640 × 480).
    pub fn picture(&self) -> Result<Vec<u8>, JsError> {
        self.0.picture().map_err(js)
    }

    /// The rest point on the slingshot, `[x, y]` picture pixels from the top-left.
    pub fn rest_point(&self) -> Vec<f64> {
        let (x, y) = self.0.rest_point();
        vec![x, y]
    }

    /// How far the waiting bird can be dragged (picture pixels).
    pub fn drag_radius(&self) -> f64 {
        self.0.drag_radius()
    }

    /// Phase, pigs and birds left, the shots so far and, at the end, status and hash (JSON).
    pub fn state(&self) -> String {
        serde_json::to_string(&self.0.state()).expect("plain fields serialize")
    }
}

#[cfg(test)]
mod tests;
