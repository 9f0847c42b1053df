use super::types::{AgentKind, LearnFrom};
use agents::dqn::{
    Dqn, DqnContext, DqnEnsemble, Observations, Profile, ShapeError, TrainConfig, TrainProgress,
};
use agents::{ActionSet, Agent, StatusTable};
use anyhow::{bail, Result};
use std::path::PathBuf;
use std::sync::Arc;
use tasks::{Setup, Task};

/// What the command line changes of the profile's preset (`None`: the preset's), applied in
/// one place, `TrainOverrides::apply`. A model trained otherwise than its file's header says
/// is refused on loading; a shape other than the profile's names its model files after it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainOverrides {
    /// Updates per fold.
    pub updates: Option<usize>,
    /// Examples per update, and examples drawn per scene in a batch.
    pub batch: Option<usize>,
    pub actions_per_scene: Option<usize>,
    /// Peak learning rate.
    pub lr: Option<f64>,
    /// DQN-O's updates after each test task and their learning rate (the paper chose both by
    /// cross-validation).
    pub online_updates: Option<usize>,
    pub online_lr: Option<f64>,
    /// Ranking by the mean of the scene's and the mirrored scene's logits.
    pub mirror_ranking: Option<bool>,
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

impl TrainOverrides {
    /// The preset `c` with these changes.
    fn apply(&self, c: &mut TrainConfig) {
        fn set<T: Clone>(field: &mut T, value: &Option<T>) {
            if let Some(v) = value {
                *field = v.clone();
            }
        }
        set(&mut c.updates, &self.updates);
        set(&mut c.batch, &self.batch);
        set(&mut c.actions_per_scene, &self.actions_per_scene);
        set(&mut c.lr, &self.lr);
        set(&mut c.online_updates, &self.online_updates);
        set(&mut c.online_lr, &self.online_lr);
        set(&mut c.mirror_ranking, &self.mirror_ranking);
        let net = &mut c.net;
        set(&mut net.obs_size, &self.obs_size);
        set(&mut net.stem_kernel, &self.stem_kernel);
        set(&mut net.stem_pool, &self.stem_pool);
        set(&mut net.widths, &self.widths);
        set(&mut net.blocks, &self.blocks);
        set(&mut net.coord_planes, &self.coord_planes);
    }
}

/// How the DQNs are trained.
#[derive(Clone)]
pub struct DqnParams {
    pub profile: Profile,
    /// Seed of the weights and batches.
    pub seed: u64,
    /// The command line's changes to the profile's preset.
    pub overrides: TrainOverrides,
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
            .field("seed", &self.seed)
            .field("overrides", &self.overrides)
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
        self.overrides.apply(&mut c);
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
    let mut preset = TrainConfig::preset(p.profile, set.tier.action_len(), p.seed);
    p.overrides.apply(&mut preset);
    let size = preset.net.obs_size;
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
    use super::{DqnParams, TrainOverrides};
    use agents::dqn::{NoProgress, Profile};
    use std::sync::Arc;
    use tasks::Setup;

    fn params(mirror_ranking: Option<bool>) -> DqnParams {
        DqnParams {
            profile: Profile::Cpu,
            seed: 0,
            overrides: TrainOverrides {
                mirror_ranking,
                ..Default::default()
            },
            ensemble: 1,
            train_actions: None,
            models: None,
            progress: Arc::new(NoProgress),
        }
    }

    fn with(overrides: TrainOverrides) -> DqnParams {
        DqnParams {
            overrides,
            ..params(None)
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
            let told = with(TrainOverrides {
                updates: Some(5_000),
                ..Default::default()
            });
            assert_eq!(told.config(within).updates, 5_000);
            // A network shape from the command line replaces only what it names, keeps the
            // setting's preset otherwise, and trains another model.
            let shaped = with(TrainOverrides {
                obs_size: Some(128),
                stem_pool: Some(true),
                ..Default::default()
            });
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
            let deeper = with(TrainOverrides {
                blocks: Some(2),
                batch: Some(128),
                actions_per_scene: Some(4),
                lr: Some(3e-3),
                ..Default::default()
            });
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
            let flat = with(TrainOverrides {
                coord_planes: Some(false),
                ..Default::default()
            });
            let f = flat.config(within);
            assert!(w.net.coord_planes && !f.net.coord_planes);
            assert!(!f.trains_like(&w));
            flat.check(within).unwrap();
            assert!(named(&flat).contains("-cpu-obs64-k3-w8.16.32.64-nocoord-10actions-"));
            // What cannot be trained is refused in the command line's words.
            let refused = |p: DqnParams| p.check(within).unwrap_err().to_string();
            assert!(refused(with(TrainOverrides {
                blocks: Some(0),
                ..Default::default()
            }))
            .starts_with("--dqn-blocks 0"));
            assert!(refused(with(TrainOverrides {
                widths: Some(vec![8, 16]),
                ..Default::default()
            }))
            .contains("at least 3 stages"));
            assert!(refused(with(TrainOverrides {
                actions_per_scene: Some(3),
                ..Default::default()
            }))
            .starts_with("--dqn-actions-per-scene 3"));
            assert!(refused(with(TrainOverrides {
                batch: Some(1),
                ..Default::default()
            }))
            .starts_with("--dqn-batch 1"));
        }
        // The paper's profile is the paper's network in every setup.
        let paper = DqnParams {
            profile: Profile::Paper,
            ..params(None)
        };
        assert_eq!(paper.config(cross), paper.config(Setup::BallWithinTemplate));
    }
}
