//! What the network sees: down-sampled one-hot observations of every task, and balanced batches
//! of (task, action, solved?) drawn from the status table.

use crate::protocol::{Simulator, Status};
use tasks::rng;

/// Colour channels of an observation (one-hot per pixel value, `raster::colour::COUNT`).
pub const CHANNELS: usize = 7;

/// The initial scene of every task of a tier, down-sampled to `size × size`: each pixel holds a
/// bit mask of the colours present in its `(256 / size)²` block (block max pooling of the
/// one-hot planes, so a thin bar or a small ball never vanishes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observations {
    pub size: usize,
    /// `tasks × size × size` colour masks.
    masks: Vec<u8>,
}

impl Observations {
    /// Render the initial scene of each task (no user ball) and down-sample it.
    pub fn of_tasks(tasks: &[&tasks::Task], size: usize) -> Result<Observations, String> {
        if size == 0 || !raster::SIZE.is_multiple_of(size) {
            return Err(format!(
                "observation size {size} does not divide {}",
                raster::SIZE
            ));
        }
        let mut masks = Vec::with_capacity(tasks.len() * size * size);
        for t in tasks {
            let setup = t
                .build_world(&[])
                .map_err(|e| format!("task {}: {e:?}", t.id()))?;
            let obs = raster::render(&setup.world, &setup.colours);
            masks.extend(downsample(&obs.pixels[..], size));
        }
        Ok(Observations { size, masks })
    }

    /// Observations from colour masks directly (tests, synthetic data).
    pub fn from_masks(size: usize, masks: Vec<u8>) -> Observations {
        assert_eq!(masks.len() % (size * size), 0, "whole observations");
        Observations { size, masks }
    }

    pub fn len(&self) -> usize {
        self.masks.len() / (self.size * self.size)
    }

    pub fn is_empty(&self) -> bool {
        self.masks.is_empty()
    }

    /// Append task `task`'s one-hot planes (`CHANNELS × size × size`) to `out`; `mirrored`:
    /// of the scene mirrored left to right (column `c` becomes column `size − 1 − c`).
    pub fn push_planes(&self, task: usize, mirrored: bool, out: &mut Vec<f32>) {
        let (s, px) = (self.size, self.size * self.size);
        let m = &self.masks[task * px..(task + 1) * px];
        for c in 0..CHANNELS {
            let bit = |b: u8| f32::from((b >> c) & 1);
            if mirrored {
                for row in m.chunks_exact(s) {
                    out.extend(row.iter().rev().map(|&b| bit(b)));
                }
            } else {
                out.extend(m.iter().map(|&b| bit(b)));
            }
        }
    }
}

/// An action of the mirrored scene: each ball's centre mirrored about the scene's vertical
/// centre line (x = 128 px, the line that maps pixel column `c` to `255 − c`). The tasks map
/// a ball's x to 255·x px, so x becomes (256 − 255·x) / 255, which exceeds 1 by up to 1/255
/// for a ball at the left edge: a network input, never an action to simulate.
pub fn mirror_action(action: &[f64]) -> Vec<f64> {
    let mut out = action.to_vec();
    for ball in out.chunks_exact_mut(3) {
        ball[0] = (256.0 - 255.0 * ball[0]) / 255.0;
    }
    out
}

/// RNG stream of the mirror augmentation's coin flips.
const MIRROR_STREAM: u64 = 0x4451_4e2d_4d49_5252; // "DQN-MIRR"

/// Which examples of one update a batch shows mirrored (scene and action together, a fair coin
/// per scene, keyed by (seed, update, scene slot)). PHYRE's physics is symmetric left to right,
/// so a mirrored (scene, action) pair is another example with the same outcome, up to the
/// solver's order of bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mirror {
    pub seed: u64,
    pub update: u64,
}

impl Mirror {
    /// Whether scene slot `slot` of the update is mirrored.
    pub fn flips(self, slot: usize) -> bool {
        rng::word(self.seed, MIRROR_STREAM, self.update, slot as u64) & 1 == 1
    }
}

/// Block max pooling of a 256×256 colour image to `size × size` colour masks.
fn downsample(pixels: &[u8], size: usize) -> Vec<u8> {
    let block = raster::SIZE / size;
    let mut out = vec![0u8; size * size];
    for y in 0..raster::SIZE {
        for x in 0..raster::SIZE {
            let c = pixels[y * raster::SIZE + x];
            out[(y / block) * size + x / block] |= 1 << c;
        }
    }
    out
}

/// One labelled example: action `action` of the set on task `task`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    pub task: usize,
    pub action: usize,
}

/// Solving and non-solving examples (invalid actions are left out: they cost nothing at test
/// time and the original's training drops them too).
#[derive(Clone, Debug, Default)]
pub struct Pools {
    pub solved: Vec<Example>,
    pub not_solved: Vec<Example>,
}

impl Pools {
    /// Every valid (task, action) pair of `tasks` over actions `0..actions`, in (task, action)
    /// order.
    pub fn from_table(sim: &dyn Simulator, tasks: &[usize], actions: usize) -> Pools {
        let mut p = Pools::default();
        for &task in tasks {
            for action in 0..actions {
                p.add(Example { task, action }, sim.status(task, action));
            }
        }
        p
    }

    pub fn add(&mut self, e: Example, status: Status) {
        match status {
            Status::Solved => self.solved.push(e),
            Status::NotSolved => self.not_solved.push(e),
            Status::Invalid => {}
        }
    }

    pub fn len(&self) -> usize {
        self.solved.len() + self.not_solved.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// RNG stream of batch sampling.
const BATCH_STREAM: u64 = 0x4451_4e2d_4241_5443; // "DQN-BATC"

/// The examples of update `update`: with `balanced`, the first half solving and the second half
/// not (the paper's class balancing), each drawn uniformly with replacement from its pool; else
/// drawn uniformly from both pools together. A pool that is empty makes the batch unbalanced.
/// Keyed by (seed, update, slot), so a batch does not depend on anything drawn before it.
pub fn sample(
    pools: &Pools,
    batch: usize,
    balanced: bool,
    seed: u64,
    update: u64,
) -> Vec<(Example, bool)> {
    let pick = |slot: usize, len: usize| pick(seed, update, slot, len);
    let both = !pools.solved.is_empty() && !pools.not_solved.is_empty();
    (0..batch)
        .map(|slot| {
            if balanced && both {
                if slot < batch / 2 {
                    (pools.solved[pick(slot, pools.solved.len())], true)
                } else {
                    (pools.not_solved[pick(slot, pools.not_solved.len())], false)
                }
            } else {
                let i = pick(slot, pools.len());
                if i < pools.solved.len() {
                    (pools.solved[i], true)
                } else {
                    (pools.not_solved[i - pools.solved.len()], false)
                }
            }
        })
        .collect()
}

/// The examples of each task that has any, for batches that draw several actions of one scene.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskPools {
    /// Tasks with at least one example, ascending.
    tasks: Vec<usize>,
    /// Per task of `tasks`: its solving and its non-solving actions, ascending.
    solved: Vec<Vec<usize>>,
    not_solved: Vec<Vec<usize>>,
    /// Indices into `tasks` of the tasks with examples of both kinds.
    mixed: Vec<usize>,
    /// Per task of `tasks` (empty unless [`TaskPools::with_near_misses`]): its near misses,
    /// the non-solving actions among the [`NEAR_MISSES_PER_SOLUTION`] nearest to any of its
    /// solving actions, ascending.
    near: Vec<Vec<usize>>,
    /// The actions the near misses were measured on (`None`: no near misses kept).
    near_of: Option<std::sync::Arc<[Vec<f64>]>>,
}

/// How many nearest non-solving actions of each solving action count as near misses.
pub const NEAR_MISSES_PER_SOLUTION: usize = 4;

/// The non-solving actions of `not_solved` among the `k` nearest (Euclidean over the action's
/// numbers; ties by index) to any action of `solved`, ascending: where a solution stops
/// solving, the boundary the ranking has to place.
pub fn near_misses(
    actions: &[Vec<f64>],
    solved: &[usize],
    not_solved: &[usize],
    k: usize,
) -> Vec<usize> {
    let mut out = Vec::new();
    let mut best: Vec<(f64, usize)> = Vec::with_capacity(k + 1);
    for &s in solved {
        let a = &actions[s];
        best.clear();
        for &n in not_solved {
            let d: f64 = a
                .iter()
                .zip(&actions[n])
                .map(|(x, y)| (x - y) * (x - y))
                .sum();
            if best.len() < k || (d, n) < best[best.len() - 1] {
                let at = best.partition_point(|&(bd, bn)| (bd, bn) < (d, n));
                best.insert(at, (d, n));
                best.truncate(k);
            }
        }
        out.extend(best.iter().map(|&(_, n)| n));
    }
    out.sort_unstable();
    out.dedup();
    out
}

impl TaskPools {
    pub fn new(pools: &Pools) -> TaskPools {
        let mut by_task: std::collections::BTreeMap<usize, (Vec<usize>, Vec<usize>)> =
            std::collections::BTreeMap::new();
        for e in &pools.solved {
            by_task.entry(e.task).or_default().0.push(e.action);
        }
        for e in &pools.not_solved {
            by_task.entry(e.task).or_default().1.push(e.action);
        }
        let mut p = TaskPools::default();
        for (task, (mut solved, mut not_solved)) in by_task {
            solved.sort_unstable();
            not_solved.sort_unstable();
            if !solved.is_empty() && !not_solved.is_empty() {
                p.mixed.push(p.tasks.len());
            }
            p.tasks.push(task);
            p.solved.push(solved);
            p.not_solved.push(not_solved);
        }
        p
    }

    /// Keep each task's near misses among `actions` (the action set the examples index), for
    /// batches that draw some non-solving actions from them ([`sample_grouped`]'s `near`).
    pub fn with_near_misses(mut self, actions: &[Vec<f64>]) -> TaskPools {
        let actions: std::sync::Arc<[Vec<f64>]> = actions.into();
        self.near = (0..self.tasks.len())
            .map(|t| {
                near_misses(
                    &actions,
                    &self.solved[t],
                    &self.not_solved[t],
                    NEAR_MISSES_PER_SOLUTION,
                )
            })
            .collect();
        self.near_of = Some(actions);
        self
    }

    /// Add the examples of `task` (DQN-O's attempts on a finished test task), as if
    /// [`TaskPools::new`] had been given them with the others: the same pools, in O(tasks)
    /// instead of a rebuild from every example.
    pub fn add_task(&mut self, task: usize, solved: &[usize], not_solved: &[usize]) {
        if solved.is_empty() && not_solved.is_empty() {
            return;
        }
        let t = match self.tasks.binary_search(&task) {
            Ok(t) => t,
            Err(t) => {
                self.tasks.insert(t, task);
                self.solved.insert(t, Vec::new());
                self.not_solved.insert(t, Vec::new());
                if self.near_of.is_some() {
                    self.near.insert(t, Vec::new());
                }
                t
            }
        };
        self.solved[t].extend_from_slice(solved);
        self.solved[t].sort_unstable();
        self.not_solved[t].extend_from_slice(not_solved);
        self.not_solved[t].sort_unstable();
        if let Some(actions) = &self.near_of {
            self.near[t] = near_misses(
                actions,
                &self.solved[t],
                &self.not_solved[t],
                NEAR_MISSES_PER_SOLUTION,
            );
        }
        self.mixed = (0..self.tasks.len())
            .filter(|&i| !self.solved[i].is_empty() && !self.not_solved[i].is_empty())
            .collect();
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }
}

/// Uniform index below `len` for (seed, update, slot) on the batch stream.
fn pick(seed: u64, update: u64, slot: usize, len: usize) -> usize {
    let w = rng::word(seed, BATCH_STREAM, update, slot as u64);
    // Multiply-shift: uniform enough for pools far below 2^32, and free of modulo bias beyond
    // that scale.
    ((u128::from(w) * len as u128) >> 64) as usize
}

/// How many of a balanced group of `per_scene` actions of one scene are non-solving
/// ([`sample_grouped`]): the group's second half, the larger one when `per_scene` is odd; none
/// below two, where a group is a single draw.
pub fn non_solving_per_scene(per_scene: usize) -> usize {
    if per_scene < 2 {
        0
    } else {
        per_scene - per_scene / 2
    }
}

/// The examples of update `update` in groups of `per_scene` actions of one task (a batch of
/// `batch / per_scene` scenes; the network encodes each scene once). With `balanced`, a group's
/// task is drawn uniformly from the tasks with both solving and non-solving actions, and the
/// first half of the group is its solving actions, the second half its non-solving ones (each
/// uniform with replacement): every scene teaches which of its actions work, and each task
/// counts the same however many of its actions solve it. Else the task is drawn uniformly from
/// every task with examples and its actions uniformly from all of its examples. With `near` and
/// `balanced`, the last `near` of a group's non-solving actions are drawn from its task's near
/// misses ([`TaskPools::with_near_misses`]; uniformly from all of them where it has none).
/// Keyed by (seed, update, slot) like [`sample`].
pub fn sample_grouped(
    pools: &TaskPools,
    batch: usize,
    per_scene: usize,
    balanced: bool,
    near: usize,
    seed: u64,
    update: u64,
) -> Vec<(Example, bool)> {
    let per_scene = per_scene.clamp(1, batch.max(1));
    let scenes = batch / per_scene;
    let candidates: Vec<usize> = if balanced && !pools.mixed.is_empty() {
        pools.mixed.clone()
    } else {
        (0..pools.tasks.len()).collect()
    };
    let mut out = Vec::with_capacity(scenes * per_scene);
    if candidates.is_empty() {
        return out;
    }
    let balanced = balanced && !pools.mixed.is_empty();
    for g in 0..scenes {
        let t = candidates[pick(seed, update, batch + g, candidates.len())];
        let task = pools.tasks[t];
        let (solved, not_solved) = (&pools.solved[t], &pools.not_solved[t]);
        let near_misses = match pools.near.get(t) {
            Some(n) if !n.is_empty() => n,
            _ => not_solved,
        };
        for j in 0..per_scene {
            let slot = g * per_scene + j;
            let (action, is_solved) = if balanced {
                if j < per_scene / 2 {
                    (solved[pick(seed, update, slot, solved.len())], true)
                } else if j >= per_scene - near.min(non_solving_per_scene(per_scene)) {
                    let i = pick(seed, update, slot, near_misses.len());
                    (near_misses[i], false)
                } else {
                    (
                        not_solved[pick(seed, update, slot, not_solved.len())],
                        false,
                    )
                }
            } else {
                let i = pick(seed, update, slot, solved.len() + not_solved.len());
                if i < solved.len() {
                    (solved[i], true)
                } else {
                    (not_solved[i - solved.len()], false)
                }
            };
            out.push((Example { task, action }, is_solved));
        }
    }
    out
}

/// Labels of a training batch.
pub struct Batch {
    /// `[n, CHANNELS, s, s]` one-hot observations, row-major.
    pub obs: Vec<f32>,
    /// `[n, action_dim]`.
    pub actions: Vec<f32>,
    /// 1 for solved, 0 for not solved.
    pub labels: Vec<f32>,
    /// Consecutive examples sharing one observation: `obs` holds `n / per_scene` of them.
    pub per_scene: usize,
}

/// The network's inputs for `examples` in groups of `per_scene` consecutive examples of one
/// task each (from [`sample_grouped`]): each group's scene is stored once. With `mirror`, the
/// groups it flips are shown mirrored.
pub fn batch_of_grouped(
    examples: &[(Example, bool)],
    per_scene: usize,
    obs: &Observations,
    actions: &[Vec<f64>],
    mirror: Option<Mirror>,
) -> Batch {
    let per_scene = per_scene.max(1);
    let flipped = |group: usize| mirror.is_some_and(|m| m.flips(group));
    let mut b = actions_and_labels(examples, per_scene, actions, |i| flipped(i / per_scene));
    for (g, group) in examples.chunks(per_scene).enumerate() {
        debug_assert!(group.iter().all(|(e, _)| e.task == group[0].0.task));
        obs.push_planes(group[0].0.task, flipped(g), &mut b.obs);
    }
    b
}

/// The network's inputs for `examples` (with `mirror`, the examples it flips mirrored).
pub fn batch_of(
    examples: &[(Example, bool)],
    obs: &Observations,
    actions: &[Vec<f64>],
    mirror: Option<Mirror>,
) -> Batch {
    let flipped = |i: usize| mirror.is_some_and(|m| m.flips(i));
    let mut b = actions_and_labels(examples, 1, actions, flipped);
    for (i, &(e, _)) in examples.iter().enumerate() {
        obs.push_planes(e.task, flipped(i), &mut b.obs);
    }
    b
}

/// A batch of `examples`' actions (example `i` mirrored where `flipped(i)`) and labels, with no
/// observation yet.
fn actions_and_labels(
    examples: &[(Example, bool)],
    per_scene: usize,
    actions: &[Vec<f64>],
    flipped: impl Fn(usize) -> bool,
) -> Batch {
    let mut b = Batch {
        obs: Vec::new(),
        actions: Vec::new(),
        labels: Vec::with_capacity(examples.len()),
        per_scene,
    };
    for (i, &(e, solved)) in examples.iter().enumerate() {
        let a = &actions[e.action];
        if flipped(i) {
            b.actions.extend(mirror_action(a).iter().map(|&v| v as f32));
        } else {
            b.actions.extend(a.iter().map(|&v| v as f32));
        }
        b.labels.push(if solved { 1.0 } else { 0.0 });
    }
    b
}
