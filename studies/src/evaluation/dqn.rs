use super::types::{AgentKind, LearnFrom};
use agents::dqn::{
    Dqn, DqnContext, DqnEnsemble, NetConfig, Observations, Profile, ShapeError, TrainConfig,
    TrainProgress,
};
use agents::{ActionSet, Agent, StatusTable};
use anyhow::{bail, Result};
use std::path::PathBuf;
use std::sync::Arc;
use tasks::{Setup, Task};

/// The command line's changes to the profile's network shape (`None`: the profile's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetOverrides {
    /// Side of the down-sampled observation (a divisor of 256).
    pub obs_size: Option<usize>,
    /// Kernel of the stride-2 stem convolution.
    pub stem_kernel: Option<usize>,
    /// A 3×3 stride-2 max pool after the stem.
    pub stem_pool: Option<bool>,
    /// Channels of the stem and of each stage.
    pub widths: Option<Vec<usize>>,
    /// Residual blocks per stage.
    pub blocks: Option<usize>,
    /// Each pixel's x and y beside the colour planes.
    pub coord_planes: Option<bool>,
}

impl NetOverrides {
    fn apply(&self, net: &mut NetConfig) {
        if let Some(s) = self.obs_size {
            net.obs_size = s;
        }
        if let Some(k) = self.stem_kernel {
            net.stem_kernel = k;
        }
        if let Some(p) = self.stem_pool {
            net.stem_pool = p;
        }
        if let Some(w) = &self.widths {
            net.widths = w.clone();
        }
        if let Some(b) = self.blocks {
            net.blocks = b;
        }
        if let Some(c) = self.coord_planes {
            net.coord_planes = c;
        }
    }
}

/// How the DQNs are trained.
#[derive(Clone)]
pub struct DqnParams {
    pub profile: Profile,
    /// Overrides the profile's number of updates.
    pub updates: Option<usize>,
    /// Override the profile's batch size, examples drawn per scene in a batch, and peak
    /// learning rate. A model trained otherwise is refused on loading (its header says
    /// how it was trained), as for `updates`.
    pub batch: Option<usize>,
    pub actions_per_scene: Option<usize>,
    pub lr: Option<f64>,
    /// Override the profile's decoupled weight decay (0: plain Adam).
    pub weight_decay: Option<f64>,
    /// Override the profile's non-solving draws per scene taken among near misses.
    pub near_misses: Option<usize>,
    /// Override the profile's DQN-O updates after each test task and their learning rate
    /// (the paper chose both by cross-validation).
    pub online_updates: Option<usize>,
    pub online_lr: Option<f64>,
    /// Seed of the weights and batches.
    pub seed: u64,
    /// Override the profile's mirror augmentation of training and mirrored ranking.
    pub mirror: Option<bool>,
    pub mirror_ranking: Option<bool>,
    /// Override the profile's network shape.
    pub net: NetOverrides,
    /// Networks per agent (seeds `seed`, `seed + 1`, …), ranking by their mean logit.
    pub ensemble: usize,
    /// Train on the statuses of the first this many actions of the set (at least
    /// `Params::actions`, which the agents rank; `None`: the ranked set). The original
    /// trained on its cache of 100,000 actions per task and re-ranked 1,000 of them for B
    /// cross (its code's issue #15).
    pub train_actions: Option<usize>,
    /// A fold's model is loaded from here when there, else trained and saved here.
    pub models: Option<PathBuf>,
    pub progress: Arc<dyn TrainProgress>,
}

impl std::fmt::Debug for DqnParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DqnParams")
            .field("profile", &self.profile)
            .field("updates", &self.updates)
            .field("batch", &self.batch)
            .field("actions_per_scene", &self.actions_per_scene)
            .field("lr", &self.lr)
            .field("weight_decay", &self.weight_decay)
            .field("near_misses", &self.near_misses)
            .field("online_updates", &self.online_updates)
            .field("online_lr", &self.online_lr)
            .field("seed", &self.seed)
            .field("mirror", &self.mirror)
            .field("mirror_ranking", &self.mirror_ranking)
            .field("net", &self.net)
            .field("ensemble", &self.ensemble)
            .field("train_actions", &self.train_actions)
            .field("models", &self.models)
            .finish_non_exhaustive()
    }
}

impl DqnParams {
    /// The DQNs' configuration for `setup`: the profile's preset for its setting, then the
    /// command line's choices.
    pub fn config(&self, setup: Setup) -> TrainConfig {
        let mut c = setting_preset(self.profile, setup, self.seed);
        if let Some(u) = self.updates {
            c.updates = u;
        }
        if let Some(b) = self.batch {
            c.batch = b;
        }
        if let Some(k) = self.actions_per_scene {
            c.actions_per_scene = k;
        }
        if let Some(lr) = self.lr {
            c.lr = lr;
        }
        if let Some(w) = self.weight_decay {
            c.weight_decay = w;
        }
        if let Some(n) = self.near_misses {
            c.near_misses = n;
        }
        if let Some(u) = self.online_updates {
            c.online_updates = u;
        }
        if let Some(lr) = self.online_lr {
            c.online_lr = lr;
        }
        if let Some(m) = self.mirror {
            c.mirror = m;
        }
        if let Some(m) = self.mirror_ranking {
            c.mirror_ranking = m;
        }
        self.net.apply(&mut c.net);
        c
    }

    /// Refuse a configuration that cannot be trained (before any table or training), in
    /// the command line's terms.
    pub fn check(&self, setup: Setup) -> Result<()> {
        let c = self.config(setup);
        if let Err(e) = c.net.check() {
            // The rule's words are agents'; only the flag's name is the command line's.
            let rule = e.rule().unwrap_or_default();
            match e {
                ShapeError::ObsSize(s) => {
                    bail!("--dqn-obs-size {s} {rule} (e.g. 64, 128, 256)")
                }
                ShapeError::StemKernel(k) => bail!("--dqn-stem-kernel {k} {rule}"),
                ShapeError::Stages(_) => bail!("--dqn-widths: {e}"),
                ShapeError::TooSmall { .. } => bail!("--dqn-obs-size and --dqn-widths: {e}"),
                ShapeError::Blocks(b) => bail!("--dqn-blocks {b} {rule}"),
            }
        }
        if c.batch < 2 || c.batch > 4096 {
            bail!("--dqn-batch {} must be 2 to 4096", c.batch);
        }
        if c.actions_per_scene == 0 || !c.batch.is_multiple_of(c.actions_per_scene) {
            bail!(
                "--dqn-actions-per-scene {} must be at least 1 and divide the batch ({})",
                c.actions_per_scene,
                c.batch
            );
        }
        let negatives = agents::dqn::data::non_solving_per_scene(c.actions_per_scene);
        if c.near_misses > negatives {
            bail!(
                "--dqn-near-misses {} must be at most the non-solving actions per scene ({} \
                 of --dqn-actions-per-scene {})",
                c.near_misses,
                negatives,
                c.actions_per_scene
            );
        }
        Ok(())
    }

    /// Everything of these parameters that a DQN's results on `setup` depend on (what the
    /// models directory and progress bar do not change), for `eval --checkpoint`.
    pub(super) fn fingerprint(&self, setup: Setup) -> Result<String> {
        Ok(format!(
            "{} ensemble {} train_actions {:?} compute {:?}",
            serde_json::to_string(&self.config(setup))?,
            self.ensemble,
            self.train_actions,
            agents::dqn::compute()
        ))
    }

    /// How many actions of the set the DQNs train on when the agents rank `ranked`.
    pub fn training_actions(&self, ranked: usize) -> Result<usize> {
        match self.train_actions {
            Some(n) if n < ranked => bail!(
                "--dqn-train-actions ({n}) must be at least --actions ({ranked}): the DQNs train on a superset of the actions they rank"
            ),
            Some(n) => Ok(n),
            None => Ok(ranked),
        }
    }
}

/// The observations and action set of a tier for its DQNs: `set` holds the actions they
/// train on, of which they rank the first `ranked`.
pub fn context(
    tasks: &[&Task],
    set: &ActionSet,
    ranked: usize,
    p: &DqnParams,
) -> Result<Arc<DqnContext>> {
    // The observation size is the same in every setup of the tier (`within_template`
    // keeps the profile's): the profile's network with the command line's changes.
    let mut net = TrainConfig::preset(p.profile, set.tier.action_len(), p.seed).net;
    p.net.apply(&mut net);
    let size = net.obs_size;
    let obs = Observations::of_tasks(tasks, size).map_err(anyhow::Error::msg)?;
    Ok(Arc::new(DqnContext::new(obs, set.actions.clone(), ranked)))
}

/// The model file of (setup, fold) trained under `cfg` in the models directory `dir`:
/// named by everything that determines it but the data's content (checked against the
/// file's header on loading); `actions` is the number it trained on; `fold3+dev` when it
/// learned from the fold's dev tasks too.
pub fn model_path(
    dir: &std::path::Path,
    cfg: &TrainConfig,
    setup: Setup,
    fold: u32,
    learn: LearnFrom,
    actions: usize,
) -> PathBuf {
    dir.join(format!(
        "dqn-{}-fold{fold}{}-{}{}-{actions}actions{}-seed{}.model",
        setup,
        match learn {
            LearnFrom::Train => "",
            LearnFrom::TrainAndDev => "+dev",
        },
        cfg.profile.name(),
        net_tag(cfg, setup),
        if cfg.mirror { "-mirror" } else { "" },
        cfg.seed
    ))
}

/// The profile's preset for `setup`'s setting (within templates: [`TrainConfig::within_template`]).
fn setting_preset(profile: Profile, setup: Setup, seed: u64) -> TrainConfig {
    let preset = TrainConfig::preset(profile, setup.tier().action_len(), seed);
    if setup.is_cross_template() {
        preset
    } else {
        preset.within_template()
    }
}

/// The network's shape in a model's file name where it is not the profile's for `setup`
/// (`-obs128-k5-pool-w16.32.64.128`, then `-b2` and `-coord`/`-nocoord` where the blocks or
/// the coordinate planes differ), so that models of two shapes can share a directory.
fn net_tag(cfg: &TrainConfig, setup: Setup) -> String {
    let preset = setting_preset(cfg.profile, setup, cfg.seed);
    let (n, p) = (&cfg.net, &preset.net);
    if (n.obs_size, n.stem_kernel, n.stem_pool, &n.widths)
        == (p.obs_size, p.stem_kernel, p.stem_pool, &p.widths)
        && (n.blocks, n.coord_planes) == (p.blocks, p.coord_planes)
    {
        return String::new();
    }
    let widths: Vec<String> = n.widths.iter().map(|w| w.to_string()).collect();
    format!(
        "-obs{}-k{}{}-w{}{}{}",
        n.obs_size,
        n.stem_kernel,
        if n.stem_pool { "-pool" } else { "" },
        widths.join("."),
        if n.blocks == p.blocks {
            String::new()
        } else {
            format!("-b{}", n.blocks)
        },
        match (n.coord_planes == p.coord_planes, n.coord_planes) {
            (true, _) => "",
            (false, true) => "-coord",
            (false, false) => "-nocoord",
        }
    )
}

/// A DQN (or DQN-O) trained on (or loaded for) one fold's `tasks` (its training tasks, with
/// its dev tasks as `learn` says): with `ensemble` K > 1, K networks of seeds `seed`,
/// `seed + 1`, … (each its own model file) ranking by their mean logit.
#[allow(clippy::too_many_arguments)]
pub(super) fn fitted(
    kind: AgentKind,
    ctx: &Arc<DqnContext>,
    p: &DqnParams,
    table: &StatusTable,
    (tasks, learn): (&[usize], LearnFrom),
    setup: Setup,
    fold: u32,
    action_seed: u64,
    rank_threads: usize,
) -> Result<Box<dyn Agent>> {
    // The model is named by the actions it trained on, not by those it ranks.
    let actions = ctx.actions.len();
    let with_dev = match learn {
        LearnFrom::Train => "",
        LearnFrom::TrainAndDev => " and its dev tasks",
    };
    let trained_on =
        format!("{setup} fold {fold}{with_dev}, {actions} actions (action seed {action_seed})");
    let size = p.ensemble.max(1);
    let mut members = Vec::with_capacity(size);
    for k in 0..size as u64 {
        let mut cfg = p.config(setup);
        cfg.seed = p.seed.wrapping_add(k);
        let path = p
            .models
            .as_ref()
            .map(|d| model_path(d, &cfg, setup, fold, learn, actions));
        let mut agent = Dqn::new(
            ctx.clone(),
            cfg,
            kind == AgentKind::DqnO,
            p.progress.clone(),
        );
        agent
            .fit(table, tasks, path.as_ref(), &trained_on)
            .map_err(anyhow::Error::msg)?;
        members.push(agent);
    }
    Ok(if members.len() == 1 {
        let mut agent = members.remove(0);
        agent.rank_on(rank_threads);
        Box::new(agent)
    } else {
        let mut ensemble = DqnEnsemble::new(members);
        ensemble.rank_on(rank_threads);
        Box::new(ensemble)
    })
}

#[cfg(test)]
mod tests {
    use super::{DqnParams, NetOverrides};
    use agents::dqn::{NoProgress, Profile};
    use std::sync::Arc;
    use tasks::Setup;

    fn params(mirror_ranking: Option<bool>) -> DqnParams {
        DqnParams {
            profile: Profile::Cpu,
            updates: None,
            batch: None,
            actions_per_scene: None,
            lr: None,
            weight_decay: None,
            near_misses: None,
            online_updates: None,
            online_lr: None,
            seed: 0,
            mirror: None,
            mirror_ranking,
            net: Default::default(),
            ensemble: 1,
            train_actions: None,
            models: None,
            progress: Arc::new(NoProgress),
        }
    }

    #[test]
    fn the_cpu_profile_takes_its_within_template_preset_in_those_setups_unless_told() {
        let cross = Setup::BallCrossTemplate;
        for within in [Setup::BallWithinTemplate, Setup::TwoBallsWithinTemplate] {
            let (c, w) = (params(None).config(cross), params(None).config(within));
            assert!(c.mirror_ranking && !w.mirror_ranking);
            assert_eq!((c.updates, w.updates), (5_000, 15_000));
            assert_eq!((c.net.action_fourier, w.net.action_fourier), (0, 6));
            assert_eq!((c.net.fused_stages, w.net.fused_stages), (1, 2));
            assert!(
                !c.trains_like(&w),
                "within templates trains another network"
            );
            // The command line overrides the preset; the ranking's view alone leaves the
            // training as it is, so one saved model serves both views.
            assert!(params(Some(true)).config(within).mirror_ranking);
            assert!(!params(Some(false)).config(cross).mirror_ranking);
            assert!(params(Some(true)).config(within).trains_like(&w));
            let told = DqnParams {
                updates: Some(5_000),
                ..params(None)
            };
            assert_eq!(told.config(within).updates, 5_000);
            // A network shape from the command line replaces only what it names, keeps the
            // setting's preset otherwise, and trains another model.
            let shaped = DqnParams {
                net: NetOverrides {
                    obs_size: Some(128),
                    stem_pool: Some(true),
                    ..Default::default()
                },
                ..params(None)
            };
            let s = shaped.config(within);
            assert_eq!((s.net.obs_size, s.net.stem_pool), (128, true));
            assert_eq!(
                (s.net.widths.clone(), s.updates),
                (w.net.widths.clone(), 15_000)
            );
            assert!(!s.trains_like(&w));
            shaped.check(within).unwrap();
            let dir = std::path::Path::new("m");
            let named = |p: &DqnParams| {
                super::model_path(
                    dir,
                    &p.config(within),
                    within,
                    0,
                    super::LearnFrom::Train,
                    10,
                )
                .display()
                .to_string()
            };
            assert!(!named(&params(None)).contains("obs"));
            assert!(named(&shaped).contains("-cpu-obs128-k3-pool-w8.16.32.64-10actions-"));
            // Deeper stages are a shape too; the batch, its grouping and the learning rate
            // are training choices that the model's header records (not its name).
            let deeper = DqnParams {
                net: NetOverrides {
                    blocks: Some(2),
                    ..Default::default()
                },
                batch: Some(128),
                actions_per_scene: Some(4),
                lr: Some(3e-3),
                ..params(None)
            };
            let d = deeper.config(within);
            assert_eq!(
                (d.net.blocks, d.batch, d.actions_per_scene, d.lr),
                (2, 128, 4, 3e-3)
            );
            assert_eq!((w.net.blocks, w.batch, w.actions_per_scene), (1, 64, 8));
            assert!(!d.trains_like(&w));
            deeper.check(within).unwrap();
            assert!(named(&deeper).contains("-cpu-obs64-k3-w8.16.32.64-b2-10actions-"));
            // So are the coordinate planes: off, the model is another one, named for it.
            let flat = DqnParams {
                net: NetOverrides {
                    coord_planes: Some(false),
                    ..Default::default()
                },
                ..params(None)
            };
            let f = flat.config(within);
            assert!(w.net.coord_planes && !f.net.coord_planes);
            assert!(!f.trains_like(&w));
            flat.check(within).unwrap();
            assert!(named(&flat).contains("-cpu-obs64-k3-w8.16.32.64-nocoord-10actions-"));
            // What cannot be trained is refused in the command line's words.
            let refused = |p: DqnParams| p.check(within).unwrap_err().to_string();
            let net = |n: NetOverrides| DqnParams {
                net: n,
                ..params(None)
            };
            assert!(refused(net(NetOverrides {
                blocks: Some(0),
                ..Default::default()
            }))
            .starts_with("--dqn-blocks 0"));
            assert!(refused(net(NetOverrides {
                widths: Some(vec![8, 16]),
                ..Default::default()
            }))
            .contains("at least 3 stages"));
            assert!(refused(DqnParams {
                actions_per_scene: Some(3),
                ..params(None)
            })
            .starts_with("--dqn-actions-per-scene 3"));
            assert!(refused(DqnParams {
                batch: Some(1),
                ..params(None)
            })
            .starts_with("--dqn-batch 1"));
            // Near misses replace some of a scene's non-solving draws: at most all of them.
            let near = |n: usize, per_scene: usize| DqnParams {
                near_misses: Some(n),
                actions_per_scene: Some(per_scene),
                ..params(None)
            };
            near(4, 8).check(within).unwrap();
            assert_eq!(near(4, 8).config(within).near_misses, 4);
            assert!(!near(2, 8).config(within).trains_like(&w));
            assert!(refused(near(5, 8)).starts_with("--dqn-near-misses 5 must be at most"));
            assert!(refused(near(1, 1)).starts_with("--dqn-near-misses 1"));
        }
        // The paper's profile is the paper's network in every setup.
        let paper = DqnParams {
            profile: Profile::Paper,
            ..params(None)
        };
        assert_eq!(paper.config(cross), paper.config(Setup::BallWithinTemplate));
    }
}
