//! What the network sees: down-sampled one-hot observations of every task, and balanced batches
//! of (task, action, solved?) drawn from the status table.

use crate::protocol::{Simulator, Status};
use tasks::rng;

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

    /// Append task `task`'s one-hot planes (`CHANNELS × size × size`) to `out`.
    pub fn push_planes(&self, task: usize, out: &mut Vec<f32>) {
        let px = self.size * self.size;
        let m = &self.masks[task * px..(task + 1) * px];
        for c in 0..super::model::CHANNELS {
            out.extend(m.iter().map(|&b| f32::from((b >> c) & 1)));
        }
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
    let pick = |slot: usize, len: usize| -> usize {
        let w = rng::word(seed, BATCH_STREAM, update, slot as u64);
        // Multiply-shift: uniform enough for pools far below 2^32, and free of modulo bias
        // beyond that scale.
        ((u128::from(w) * len as u128) >> 64) as usize
    };
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

/// The network's inputs for `examples`.
pub fn batch_of(
    examples: &[(Example, bool)],
    obs: &Observations,
    actions: &[Vec<f64>],
) -> super::model::Batch {
    let mut b = super::model::Batch {
        obs: Vec::new(),
        actions: Vec::new(),
        labels: Vec::with_capacity(examples.len()),
    };
    for &(e, solved) in examples {
        obs.push_planes(e.task, &mut b.obs);
        b.actions
            .extend(actions[e.action].iter().map(|&v| v as f32));
        b.labels.push(if solved { 1.0 } else { 0.0 });
    }
    b
}
