//! The Python-free core of the bindings: one action's rollout (status, frames, object features),
//! the stable-solution status, and batches of statuses on rayon. Everything the Python module
//! returns is computed here, so the workspace's tests cover it without a Python interpreter.
//!
//! Floats appear only at the boundary: actions arrive as f64 (validated and quantized once by
//! [`tasks::validate_action`]) and object features leave as f32 ([`raster::features_of`]).

use engine::run;
use engine::World;
use rayon::prelude::*;
use tasks::{
    simulated_status, stability_of_solved, validate_action, ObjectDescriptor, ShapeType,
    SimOptions, SimulationSetup, Stability, Status, Task, TaskScene, TaskSet, Tier,
};

/// Numbers per object feature row.
pub const FEATURES: usize = raster::FEATURES;
/// Bytes of one observation (256 × 256).
pub const PIXELS: usize = raster::PIXELS;

/// PHYRE 0.2.2's `SimulationStatus` values.
pub mod code {
    /// `INVALID_INPUT`.
    pub const INVALID_INPUT: i8 = 0;
    /// `NOT_SOLVED`.
    pub const NOT_SOLVED: i8 = -1;
    /// `SOLVED`.
    pub const SOLVED: i8 = 1;
    /// `UNSTABLY_SOLVED` (only with `stable=True`).
    pub const UNSTABLY_SOLVED: i8 = 2;
    /// `STABLY_SOLVED` (only with `stable=True`).
    pub const STABLY_SOLVED: i8 = 3;
}

/// The built-in tasks.
pub fn builtin() -> &'static TaskSet {
    TaskSet::builtin()
}

/// The tier named `name` (`ball` or `two_balls`).
pub fn parse_tier(name: &str) -> Result<Tier, String> {
    // The library's spellings (`ball` / `BALL`, `two_balls` / `TWO_BALLS`), as the CLI takes.
    Tier::parse(name).ok_or_else(|| {
        format!(
            "unknown action tier {:?} (expected 'ball' or 'two_balls')",
            name.chars().take(64).collect::<String>()
        )
    })
}

/// What a rollout should record besides its status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Observations every `stride` steps.
    pub images: bool,
    /// Object features every `stride` steps.
    pub features: bool,
    /// Frames after steps 1, 1 + stride, … (at least 1).
    pub stride: u32,
    /// Replace SOLVED by STABLY_SOLVED / UNSTABLY_SOLVED (SPEC §8's rule).
    pub stable: bool,
}

/// One action's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Rollout {
    /// A [`code`] value.
    pub status: i8,
    /// Step at which the goal's hold completed (solved runs).
    pub solved_step: Option<u32>,
    /// Frames recorded (images and features have the same frames).
    pub frames: usize,
    /// `frames` × 65,536 bytes, row 0 = bottom (when images were asked for).
    pub images: Vec<u8>,
    /// Objects per frame (scene objects, then user balls; walls excluded).
    pub objects: usize,
    /// `frames` × `objects` × 14 (when features were asked for).
    pub features: Vec<f32>,
}

/// The raster's description of the task's objects.
pub fn object_descs(objects: &[ObjectDescriptor]) -> Vec<raster::ObjectDesc> {
    objects
        .iter()
        .filter_map(|o| {
            let shape = match o.shape_type {
                ShapeType::Ball => raster::ShapeKind::Ball,
                ShapeType::Bar => raster::ShapeKind::Bar,
                ShapeType::Jar => raster::ShapeKind::Jar,
                ShapeType::StandingSticks => raster::ShapeKind::StandingSticks,
                ShapeType::Undefined => return None,
            };
            Some(raster::ObjectDesc {
                body: o.body,
                shape,
                diameter_px: o.diameter,
                colour: o.colour.code(),
            })
        })
        .collect()
}

fn push_features(out: &mut Vec<f32>, world: &World, descs: &[raster::ObjectDesc]) {
    for f in raster::object_features(world, descs) {
        out.extend_from_slice(&f);
    }
}

/// The scene before any action: its observation (65,536 bytes) and its object features
/// (`objects` × 14), or a message when the world cannot be built (never for PHYRE tasks).
pub fn initial_scene(task: &Task) -> Result<(Vec<u8>, Vec<f32>, usize), String> {
    let setup = task
        .build_world(&[])
        .map_err(|e| format!("cannot build the world of {}: {e}", task.id()))?;
    let obs = raster::render(&setup.world, &setup.colours);
    let descs = object_descs(&setup.objects);
    let mut features = Vec::new();
    push_features(&mut features, &setup.world, &descs);
    let n = features.len() / FEATURES;
    Ok((obs.as_bytes().to_vec(), features, n))
}

/// The [`code`] of a stable-solution test's answer.
fn stability_code(s: Stability) -> i8 {
    match s {
        Stability::Invalid => code::INVALID_INPUT,
        Stability::NotSolved => code::NOT_SOLVED,
        Stability::Unstable(_) => code::UNSTABLY_SOLVED,
        Stability::Stable => code::STABLY_SOLVED,
    }
}

/// Status (and solved step) of `action` on `task` in `tier`, from a status-only run, as
/// [`tasks::status`] computes it; with `stable`, a solution is classified by its neighbours
/// ([`tasks::stability`]). NaN or infinite components give INVALID_INPUT here (the Python layer
/// rejects them first).
pub fn status_of(task: &Task, tier: Tier, action: &[f64], stable: bool) -> (i8, Option<u32>) {
    status_in(&TaskScene::plain(task), tier, action, stable)
}

/// A status code and its solved step (see [`status_of`]).
type Answer = (i8, Option<u32>);

/// [`status_of`] on `scene`'s task, simulating through `scene` (recorded: the same answer,
/// faster when many actions of one task are asked for).
fn status_in(scene: &TaskScene, tier: Tier, action: &[f64], stable: bool) -> Answer {
    let task = scene.task();
    let mut solved_step = None;
    let mut own_run = true;
    // The action's own run comes first (then its neighbours'): its solved step is the answer's.
    let mut status = |v: &tasks::ValidAction| {
        let run = scene.simulate(v, SimOptions::STATUS_ONLY);
        if std::mem::take(&mut own_run) {
            solved_step = run
                .as_ref()
                .ok()
                .filter(|o| o.solved)
                .and_then(|o| o.solved_step);
        }
        Status::of_run(&run)
    };
    let code = if stable {
        stability_code(tasks::stability(task, tier, action, &mut status))
    } else {
        match validate_action(task, tier, action) {
            Err(_) => code::INVALID_INPUT,
            Ok(v) => status(&v).phyre_code(),
        }
    };
    (code, solved_step)
}

/// Simulate `action` on `task` and record what `req` asks for. Without images and features it
/// is [`status_of`]; otherwise a full run (its status is the same).
pub fn rollout(task: &Task, tier: Tier, action: &[f64], req: Request) -> Rollout {
    let empty = |status, solved_step| Rollout {
        status,
        solved_step,
        frames: 0,
        images: Vec::new(),
        objects: 0,
        features: Vec::new(),
    };
    if !req.images && !req.features {
        let (status, solved_step) = status_of(task, tier, action, req.stable);
        return empty(status, solved_step);
    }
    let Ok(valid) = validate_action(task, tier, action) else {
        return empty(code::INVALID_INPUT, None);
    };
    let Ok(mut setup) = task.build_world(valid.balls()) else {
        return empty(code::INVALID_INPUT, None);
    };
    let SimulationSetup {
        world,
        goal,
        colours,
        objects,
        ..
    } = &mut setup;
    let descs = object_descs(objects);
    let stride = req.stride.max(1);
    let filler = raster::SpanFiller::detect();
    let mut frames = 0usize;
    let mut images = Vec::new();
    let mut features = Vec::new();
    let outcome = run(world, goal, tasks::PHYRE_RUN, |step, w| {
        if (step - 1) % stride != 0 {
            return;
        }
        frames += 1;
        if req.images {
            let mut obs = raster::Observation::default();
            raster::render_into(w, colours, &mut obs, filler);
            images.extend_from_slice(obs.as_bytes());
        }
        if req.features {
            push_features(&mut features, w, &descs);
        }
    });
    let objects = if req.features && frames > 0 {
        features.len() / FEATURES / frames
    } else {
        0
    };
    let status = match (outcome.solved, req.stable) {
        (false, _) => code::NOT_SOLVED,
        (true, false) => code::SOLVED,
        (true, true) => stability_code(stability_of_solved(task, &valid, |n| {
            simulated_status(task, n)
        })),
    };
    Rollout {
        status,
        solved_step: outcome.solved_step,
        frames,
        images,
        objects,
        features,
    }
}

/// Statuses (and solved steps) of `actions[i]` on `tasks[task_indices[i]]`, in parallel on
/// rayon's pool (`threads` workers, or rayon's default when `None`). The actions of a task
/// asked for more than once share its recorded scene ([`TaskScene`], the same outcomes bit for
/// bit), so each entry is what [`status_of`] gives: the result is the same for any thread count
/// and the same as calling it one by one. `actions` holds `task_indices.len()` rows of
/// `tier.action_len()` numbers.
pub fn batch(
    tasks: &[Task],
    task_indices: &[usize],
    tier: Tier,
    actions: &[f64],
    stable: bool,
    threads: Option<usize>,
) -> Result<Vec<(i8, Option<u32>)>, String> {
    let dim = tier.action_len();
    if actions.len() != task_indices.len() * dim {
        return Err(format!(
            "{} actions of {dim} numbers expected ({} numbers given)",
            task_indices.len(),
            actions.len()
        ));
    }
    if let Some((i, &t)) = task_indices
        .iter()
        .enumerate()
        .find(|(_, &t)| t >= tasks.len())
    {
        return Err(format!(
            "task index {t} at position {i} is out of range ({} tasks)",
            tasks.len()
        ));
    }
    // Entries grouped by task (in order within a task); each group records its task's scene
    // once when it has several entries.
    let mut order: Vec<usize> = (0..task_indices.len()).collect();
    order.sort_by_key(|&i| (task_indices[i], i));
    let groups: Vec<&[usize]> = order
        .chunk_by(|&a, &b| task_indices[a] == task_indices[b])
        .collect();
    let work = || {
        let answers: Vec<Vec<(usize, Answer)>> = groups
            .par_iter()
            .map(|group| {
                let task = &tasks[task_indices[group[0]]];
                let scene = match group.len() {
                    1 => TaskScene::plain(task),
                    _ => TaskScene::new(task),
                };
                group
                    .par_iter()
                    .map(|&i| {
                        let a = &actions[i * dim..(i + 1) * dim];
                        (i, status_in(&scene, tier, a, stable))
                    })
                    .collect()
            })
            .collect();
        let mut out = vec![(0, None); task_indices.len()];
        for (i, answer) in answers.into_iter().flatten() {
            out[i] = answer;
        }
        out
    };
    match threads {
        None => Ok(work()),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map(|pool| pool.install(work))
            .map_err(|e| format!("cannot start {n} worker threads: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str) -> &'static Task {
        builtin().lookup(id).unwrap()
    }

    #[test]
    fn status_matches_the_tasks_crate() {
        let t = task("00000:000");
        for a in [
            [0.5, 0.5, 0.3],
            [0.1, 0.9, 0.1],
            [0.8, 0.2, 0.9],
            [2.0, 0.5, 0.5],
        ] {
            let want = tasks::status(t, Tier::Ball, &a).phyre_code();
            assert_eq!(status_of(t, Tier::Ball, &a, false).0, want);
            let full = rollout(
                t,
                Tier::Ball,
                &a,
                Request {
                    images: true,
                    features: true,
                    stride: 60,
                    stable: false,
                },
            );
            assert_eq!(full.status, want);
            if want != code::INVALID_INPUT {
                assert_eq!(full.images.len(), full.frames * PIXELS);
                assert_eq!(full.features.len(), full.frames * full.objects * FEATURES);
            }
        }
    }

    #[test]
    fn full_unsolved_run_has_17_frames() {
        let t = task("00000:000");
        let mut index = 0;
        loop {
            let a = tasks::sample_action(Tier::Ball, 7, 1, &mut index);
            let r = rollout(
                t,
                Tier::Ball,
                &a,
                Request {
                    images: true,
                    features: false,
                    stride: 60,
                    stable: false,
                },
            );
            if r.status == code::NOT_SOLVED {
                assert_eq!(r.frames, 17);
                break;
            }
        }
    }

    #[test]
    fn batch_equals_serial_for_any_thread_count() {
        let set = builtin();
        let tasks = set.tasks();
        let mut index = 0;
        let mut ids = Vec::new();
        let mut actions = Vec::new();
        // 12 tasks seen once, and 8 tasks seen 6 times each in interleaved order (their scenes
        // are recorded and shared): the answers must not depend on it.
        for k in 0..60 {
            let t = if k < 12 { 1000 + k * 37 } else { (k % 8) * 37 };
            ids.push(t % 2500); // ball-tier tasks come first in id order
            actions.extend(tasks::sample_action(Tier::Ball, 3, 2, &mut index));
        }
        for stable in [false, true] {
            let serial: Vec<_> = ids
                .iter()
                .zip(actions.chunks(3))
                .map(|(&t, a)| status_of(&tasks[t], Tier::Ball, a, stable))
                .collect();
            for threads in [Some(1), Some(2), Some(3), None] {
                let b = batch(tasks, &ids, Tier::Ball, &actions, stable, threads).unwrap();
                assert_eq!(b, serial);
            }
        }
        assert!(batch(tasks, &[9999], Tier::Ball, &[0.5, 0.5, 0.5], false, None).is_err());
        assert!(batch(tasks, &[0], Tier::Ball, &[0.5, 0.5], false, None).is_err());
    }

    #[test]
    fn tiers_parse() {
        assert_eq!(parse_tier("ball"), Ok(Tier::Ball));
        assert_eq!(parse_tier("two_balls"), Ok(Tier::TwoBalls));
        for name in ["ball", "BALL", "two_balls", "TWO_BALLS", "Ball", "ramp", ""] {
            assert_eq!(parse_tier(name).ok(), Tier::parse(name), "{name}");
        }
        assert!(parse_tier("three_balls")
            .unwrap_err()
            .contains("unknown action tier"));
    }
}
