//! Training the Phy-Q DQN (`agents::dqn::phyq`): experiences collected on the training tasks of
//! a setting with the simulator, then the network trained on them. The only place the DQN's
//! data touches the simulator; the agent it makes plays from the picture alone.
//!
//! Collection: each training task is played `episodes` times. At each bird's decision the
//! observation is recorded, `explore` distinct shots of the action set (drawn per (seed, task,
//! episode)) are each simulated from a copy of the game, and each gives an experience (the
//! shot, whether the level is passed after it); the episode goes on with the shot that left the
//! fewest pigs (the first drawn of equals), until the level is passed or no bird is left. Tasks
//! are collected in parallel and concatenated in task order, so the experiences, and with a
//! seed the model, are the same on any thread count.

use crate::phyq_eval::{train_tasks, EvalTask, Setting};
use agents::dqn::phyq::{action_shot, observe, train, Config, Experience, Model, ACTIONS};
use agents::phyq::Draws;
use anyhow::{bail, Result};
use phyq::game::Game;
use phyq::levelset::Entry;
use rayon::prelude::*;
use tasks::rng::fnv64;

/// What determines a trained model.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub setting: Setting,
    /// Attempts per training task.
    pub episodes: u32,
    /// Shots tried per decision (1..=ACTIONS).
    pub explore: u32,
    /// The network and its training (its seed is the run's).
    pub config: Config,
    /// Train on every `stride`-th training task only (1: all).
    pub stride: usize,
}

impl Params {
    /// The defaults: 1 episode, 8 shots per decision, every task, [`Config::new`].
    pub fn new(setting: Setting, seed: u64) -> Params {
        Params {
            setting,
            episodes: 1,
            explore: 8,
            config: Config::new(seed),
            stride: 1,
        }
    }

    pub fn check(&self) -> Result<()> {
        if self.episodes == 0 || self.episodes > 1000 {
            bail!("--dqn-episodes must be 1 to 1000, got {}", self.episodes);
        }
        if self.explore == 0 || self.explore as usize > ACTIONS {
            bail!("--dqn-explore must be 1 to {ACTIONS}, got {}", self.explore);
        }
        if self.config.updates == 0 {
            bail!("--dqn-updates must be at least 1");
        }
        if self.stride == 0 {
            bail!("--dqn-stride must be at least 1");
        }
        Ok(())
    }
}

/// The experiences of a run: observations and what was tried on each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Experiences {
    pub observations: Vec<Vec<u8>>,
    pub experiences: Vec<Experience>,
    /// Simulated shots.
    pub shots: u64,
    /// Tasks that could not be played (skipped).
    pub errors: usize,
}

/// Random stream offset of the collection's draws ("PQ-EXPL").
const EXPLORE: u64 = 0x0050_512d_4558_504c;

/// The experiences of one task (module doc); `Err` when the level cannot be played.
pub fn collect_task(task: &EvalTask, params: &Params) -> Result<Experiences, String> {
    let level = &task.level;
    let stream = fnv64(task.id.to_string().as_bytes()) ^ EXPLORE;
    let mut out = Experiences::default();
    for episode in 0..params.episodes {
        let mut draws = Draws::new(params.config.seed, stream, u64::from(episode));
        let mut game = Game::new(level).map_err(|e| e.to_string())?;
        game.settle();
        while game.pigs_left() > 0 && game.birds_left() > 0 {
            // `explore` distinct actions: a partial Fisher-Yates shuffle of the action set.
            let mut order: Vec<u16> = (0..ACTIONS as u16).collect();
            let k = params.explore as usize;
            for i in 0..k {
                let j = draws.int_in(i as i64, ACTIONS as i64 - 1) as usize;
                order.swap(i, j);
            }
            let obs = out.observations.len() as u32;
            out.observations.push(observe(&game, level));
            let mut best: Option<(u32, Game)> = None;
            for &a in &order[..k] {
                let mut g = game.clone();
                let shot = action_shot(&g, level, usize::from(a)).to_shot(level);
                g.shoot(&shot).map_err(|e| e.to_string())?;
                out.shots += 1;
                out.experiences.push(Experience {
                    obs,
                    action: a,
                    passed: g.pigs_left() == 0,
                });
                if best.as_ref().is_none_or(|(p, _)| g.pigs_left() < *p) {
                    best = Some((g.pigs_left(), g));
                }
            }
            match best {
                Some((_, g)) => game = g,
                None => break,
            }
        }
    }
    Ok(out)
}

/// The experiences of every training task of `params.setting` among `entries` (every
/// `stride`-th), on `threads` threads (`None`: one per core); the result does not depend on
/// it. `progress` is told of each task done.
pub fn collect(
    entries: &[Entry],
    params: &Params,
    threads: Option<usize>,
    progress: &(dyn Fn() + Sync),
) -> Result<Experiences> {
    params.check()?;
    let tasks: Vec<EvalTask> = train_tasks(entries, params.setting)?
        .into_iter()
        .step_by(params.stride)
        .collect();
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        pool = pool.num_threads(t);
    }
    let pool = pool.build()?;
    let parts: Vec<Result<Experiences, String>> = pool.install(|| {
        tasks
            .par_iter()
            .map(|t| {
                let r = collect_task(t, params);
                progress();
                r
            })
            .collect()
    });
    let mut all = Experiences::default();
    for part in parts {
        match part {
            Ok(p) => {
                let base = all.observations.len() as u32;
                all.observations.extend(p.observations);
                all.experiences
                    .extend(p.experiences.into_iter().map(|e| Experience {
                        obs: e.obs + base,
                        ..e
                    }));
                all.shots += p.shots;
            }
            Err(_) => all.errors += 1,
        }
    }
    Ok(all)
}

/// Collect, then train: the model of `params` (its header says what it was trained on).
pub fn run(
    entries: &[Entry],
    params: &Params,
    threads: Option<usize>,
    collected: &(dyn Fn() + Sync),
    updated: impl FnMut(usize, f32) + Send,
) -> Result<(Model, Experiences)> {
    let data = collect(entries, params, threads, collected)?;
    let mut model = match train(
        &params.config,
        &data.observations,
        &data.experiences,
        updated,
    ) {
        Ok(m) => m,
        Err(e) => bail!("cannot train the Phy-Q DQN: {e}"),
    };
    model.header.trained_on = format!(
        "{} setting training tasks (every {}), {} episodes, {} shots per decision: {} decisions, {} shots simulated",
        params.setting.word(),
        params.stride,
        params.episodes,
        params.explore,
        data.observations.len(),
        data.shots
    );
    Ok((model, data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phyq_eval::test_tasks;

    fn tiny(setting: Setting) -> Params {
        let mut p = Params::new(setting, 9);
        p.explore = 3;
        p.stride = 997;
        p.config.hidden = 8;
        p.config.updates = 10;
        p
    }

    #[test]
    fn training_tasks_are_the_settings_other_side() {
        let entries = phyq::generator::builtin_tasks().entries();
        for setting in [Setting::Local, Setting::Broad] {
            let train: Vec<String> = train_tasks(entries, setting)
                .expect("tasks")
                .iter()
                .map(|t| t.id.to_string())
                .collect();
            let test = test_tasks(entries, setting).expect("tasks");
            assert_eq!(train.len() + test.len(), entries.len());
            assert!(test.iter().all(|t| !train.contains(&t.id.to_string())));
            if setting == Setting::Local {
                assert_eq!(train.len(), 75 * 80);
            }
        }
        assert!(train_tasks(entries, Setting::All).is_err());
    }

    #[test]
    fn a_tiny_run_is_the_same_on_any_thread_count() {
        let entries = phyq::generator::builtin_tasks().entries();
        let p = tiny(Setting::Broad);
        let (one, data_one) = run(entries, &p, Some(1), &|| {}, |_, _| {}).expect("runs");
        let (two, data_two) = run(entries, &p, Some(2), &|| {}, |_, _| {}).expect("runs");
        assert_eq!(data_one, data_two);
        assert_eq!(one.to_bytes(), two.to_bytes());
        assert!(!data_one.experiences.is_empty());
        assert_eq!(data_one.shots, data_one.experiences.len() as u64);
        // Every decision tried `explore` distinct shots.
        for d in data_one.experiences.chunks(3) {
            assert!(d.iter().all(|e| e.obs == d[0].obs));
            assert!(d[0].action != d[1].action && d[1].action != d[2].action);
        }
        let mut other = p.clone();
        other.config.seed += 1;
        let (three, _) = run(entries, &other, Some(2), &|| {}, |_, _| {}).expect("runs");
        assert_ne!(one.to_bytes(), three.to_bytes());
    }

    #[test]
    fn bad_params_are_refused() {
        let entries = phyq::generator::builtin_tasks().entries();
        let mut p = tiny(Setting::Local);
        p.explore = 0;
        assert!(collect(entries, &p, Some(1), &|| {}).is_err());
        p.explore = ACTIONS as u32 + 1;
        assert!(collect(entries, &p, Some(1), &|| {}).is_err());
    }
}
