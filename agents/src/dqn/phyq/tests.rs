//! The Phy-Q DQN's tests: observation and actions, deterministic and resumable training, the
//! plain forward pass against burn's, model files, and an agent that never simulates.

use super::training::EachLoss;
use super::*;
use crate::dqn::device::plain_device;
use crate::dqn::training::{optimizer, SnapshotOf};
use crate::phyq::{Draws, ShotAgent};
use burn::tensor::{Tensor, TensorData};
use phyq::game::Game;
use phyq::Level;

fn level() -> Level {
    phyq::generator::builtin_tasks().entries()[0].level.clone()
}

fn settled(level: &Level) -> Game {
    let mut g = Game::new(level).expect("a playable level");
    g.settle();
    g
}

/// Experiences over `n` made-up observations, half passing.
fn synthetic(n: usize) -> (Vec<Vec<u8>>, Vec<Experience>) {
    let obs: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            (0..OBS_LEN)
                .map(|k| (tasks::rng::word(1, 2, i as u64, k as u64) % 4 * 60) as u8)
                .collect()
        })
        .collect();
    let exps = (0..n)
        .map(|i| Experience {
            obs: i as u32,
            action: (i % ACTIONS) as u16,
            passed: i % 2 == 0,
        })
        .collect();
    (obs, exps)
}

fn tiny(seed: u64) -> Config {
    Config {
        hidden: 8,
        updates: 12,
        lr: 1e-2,
        seed,
    }
}

#[test]
fn the_observation_shows_the_pigs_and_the_bird() {
    let level = level();
    let game = settled(&level);
    let obs = observe(&game, &level);
    assert_eq!(obs.len(), OBS_LEN);
    let pigs: u32 = obs[..GRID_W * GRID_H].iter().map(|&v| u32::from(v)).sum();
    assert!(pigs > 0, "no pig pixel in the pig plane");
    let birds = &obs[OBS_LEN - BIRDS.len()..];
    assert_eq!(birds.iter().filter(|&&b| b == 255).count(), 1);
    assert!(birds.iter().all(|&b| b == 0 || b == 255));
}

#[test]
fn actions_release_behind_the_slingshot_at_their_angle() {
    let level = level();
    let game = settled(&level);
    let flat = action_shot(&game, &level, 5); // 0°
    assert!(flat.x < -10.0 && flat.y.abs() < 0.02, "{flat:?}");
    let steep = action_shot(&game, &level, ACTIONS - 1); // 88°
    assert!(
        steep.y < -10.0 && steep.x.abs() < steep.y.abs() / 10.0,
        "{steep:?}"
    );
    assert_eq!(angle_of(0), -10);
    assert_eq!(angle_of(ACTIONS - 1), 88);
}

#[test]
fn training_is_deterministic_for_a_seed() {
    let (obs, exps) = synthetic(40);
    let a = train(&tiny(3), &obs, &exps, |_, _| {}).expect("trains");
    let b = train(&tiny(3), &obs, &exps, |_, _| {}).expect("trains");
    assert_eq!(a.to_bytes(), b.to_bytes());
    let c = train(&tiny(4), &obs, &exps, |_, _| {}).expect("trains");
    assert_ne!(a.to_bytes(), c.to_bytes());
    assert_eq!(a.header.summary.passing, 20);
    assert!(a.header.summary.final_loss.is_finite());
    // On a pool of 16 + 16 kinds the loss falls.
    let mut cfg = tiny(3);
    cfg.updates = 60;
    let mut losses = Vec::new();
    train(&cfg, &obs, &exps, |_, l| losses.push(l)).expect("trains");
    assert!(losses[59] < losses[0], "{} then {}", losses[0], losses[59]);
}

#[test]
fn configurations_that_train_nothing_are_refused() {
    let (obs, exps) = synthetic(4);
    let refused = |cfg: Config| train(&cfg, &obs, &exps, |_, _| {}).unwrap_err();
    let no_units = Config {
        hidden: 0,
        ..tiny(1)
    };
    assert!(refused(no_units).contains("at least one unit"));
    let no_updates = Config {
        updates: 0,
        ..tiny(1)
    };
    assert!(refused(no_updates).contains("at least one update"));
    assert_eq!(
        Config::new(9),
        Config {
            seed: 9,
            ..Config::DEFAULT
        }
    );
    assert_eq!(Config::DEFAULT.check(), Ok(()));
}

/// Hooks that keep the snapshot after `at` updates, and stop the training there when
/// `stop` (as a run killed after writing its checkpoint).
struct KeepAt {
    at: usize,
    stop: bool,
    kept: Option<Snapshot>,
}

impl Hooks for KeepAt {
    fn snapshot_due(&mut self, done: usize) -> bool {
        done == self.at
    }
    fn snapshot(&mut self, snapshot: Snapshot) -> Result<(), String> {
        self.kept = Some(snapshot);
        if self.stop {
            Err("stopped".into())
        } else {
            Ok(())
        }
    }
}

fn snapshot_at(cfg: &Config, obs: &[Vec<u8>], exps: &[Experience], at: usize) -> Snapshot {
    let mut hooks = KeepAt {
        at,
        stop: at < cfg.updates,
        kept: None,
    };
    let r = train_from(cfg, obs, exps, None, &mut hooks);
    assert!(at == cfg.updates || r == Err("stopped".into()), "{r:?}");
    hooks.kept.expect("a snapshot")
}

#[test]
fn a_training_resumed_from_a_snapshot_gives_the_same_model() {
    let (obs, exps) = synthetic(40);
    let cfg = tiny(3);
    let whole = train(&cfg, &obs, &exps, |_, _| {})
        .expect("trains")
        .to_bytes();
    // Stopped after 5 of 12 updates, through the snapshot file's bytes and back.
    let snapshot = snapshot_at(&cfg, &obs, &exps, 5);
    assert_eq!((snapshot.updates, snapshot.losses.len()), (5, 5));
    let (fingerprint, back) =
        Snapshot::from_bytes(&snapshot.to_bytes("run 1")).expect("reads back");
    assert_eq!(fingerprint, "run 1");
    assert_eq!(back, snapshot);
    let mut rest = Vec::new();
    let resumed = train_from(
        &cfg,
        &obs,
        &exps,
        Some(back),
        &mut EachLoss(|u, _| rest.push(u)),
    )
    .expect("resumes");
    assert_eq!(rest, (5..12).collect::<Vec<_>>(), "updates run again");
    assert_eq!(resumed.to_bytes(), whole, "resumed model differs");
    // From the last update's snapshot nothing is left to do, and the model is the same.
    let end = snapshot_at(&cfg, &obs, &exps, 12);
    let done = train_from(&cfg, &obs, &exps, Some(end), &mut EachLoss(|_, _| {}));
    assert_eq!(done.expect("nothing to do").to_bytes(), whole);
    // Adam's state is what makes it exact: the same weights with a fresh optimizer train
    // another model.
    let mut forgetful = snapshot.clone();
    forgetful.optimizer = optimizer(0.0)
        .into_bytes()
        .expect("an empty record")
        .to_vec();
    let other = train_from(&cfg, &obs, &exps, Some(forgetful), &mut EachLoss(|_, _| {}));
    assert_ne!(other.expect("trains").to_bytes(), whole);
    // Snapshots that do not fit, damaged or cut files are refused with a reason.
    let mut short = cfg.clone();
    short.updates = 4;
    let e = train_from(
        &short,
        &obs,
        &exps,
        Some(snapshot.clone()),
        &mut EachLoss(|_, _| {}),
    );
    assert!(e.unwrap_err().contains("a snapshot after 5 updates"));
    let bytes = snapshot.to_bytes("run 1");
    let mut damaged = bytes.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    assert!(Snapshot::from_bytes(&damaged)
        .unwrap_err()
        .contains("damaged"));
    assert!(Snapshot::from_bytes(&bytes[..bytes.len() - 8]).is_err());
    assert!(Snapshot::from_bytes(b"rephyre-phyq-dqn-model 1\n{}\n")
        .unwrap_err()
        .contains("no `rephyre-dqn-training 1` or `rephyre-phyq-dqn-training 1` line"));
    // A PHYRE DQN's snapshot is not a Phy-Q one's to train on.
    let mut phyre = snapshot.clone();
    phyre.of = SnapshotOf::Phyre;
    let (_, read) = Snapshot::from_bytes(&phyre.to_bytes("run 1")).expect("reads");
    assert_eq!(read.of, SnapshotOf::Phyre);
    let e = train_from(&cfg, &obs, &exps, Some(read), &mut EachLoss(|_, _| {}));
    assert!(e
        .unwrap_err()
        .contains("a snapshot of a PHYRE DQN's training, not a Phy-Q DQN's"));
}

#[test]
fn the_plain_forward_pass_is_the_networks() {
    let (obs, exps) = synthetic(10);
    let model = train(&tiny(5), &obs, &exps, |_, _| {}).expect("trains");
    let net = model.to_net().expect("same shapes");
    let x: Vec<f32> = obs[3].iter().map(|&v| f32::from(v) / 255.0).collect();
    let burn_q = net
        .forward(Tensor::<2>::from_data(
            TensorData::new(x, [1, OBS_LEN]),
            &plain_device(),
        ))
        .into_data()
        .convert::<f32>()
        .try_to_vec::<f32>()
        .expect("floats");
    let plain = model.q(&obs[3]);
    assert_eq!(plain.len(), ACTIONS);
    for (p, b) in plain.iter().zip(&burn_q) {
        assert!((p - b).abs() < 1e-4 * (1.0 + b.abs()), "{p} vs {b}");
    }
}

#[test]
fn model_files_round_trip_and_bad_ones_say_why() {
    let (obs, exps) = synthetic(10);
    let model = train(&tiny(6), &obs, &exps, |_, _| {}).expect("trains");
    let bytes = model.to_bytes();
    let back = Model::from_bytes(&bytes).expect("reads back");
    assert_eq!(back.to_bytes(), bytes);
    assert!(Model::from_bytes(b"hello\n{}\n")
        .unwrap_err()
        .contains("no `rephyre-phyq-dqn-model 1` line"));
    let cut = Model::from_bytes(&bytes[..bytes.len() - 4]).unwrap_err();
    assert!(cut.contains("bytes of weights"), "{cut}");
    let dir = std::env::temp_dir().join(format!("phyq-dqn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("bad.model");
    std::fs::write(&path, b"rephyre-phyq-dqn-model 1\nnot json\n").expect("write");
    let e = Model::load(&path).unwrap_err();
    assert!(
        e.contains("is not a rephyre Phy-Q DQN model: header"),
        "{e}"
    );
    let e = PhyqDqn::load(&path).unwrap_err();
    assert!(
        e.contains("is not a rephyre Phy-Q DQN model: header"),
        "{e}"
    );
    // The agent of a model and the agent of its file are the same agent: digest and
    // record. Also for a final loss that serde_json reads back one bit off by default
    // (without its `float_roundtrip`).
    let mut model = model;
    model.header.summary.final_loss = 0.11129142120480537;
    let good = dir.join("good.model");
    model.save(&good).expect("saves");
    let (trained, loaded) = (PhyqDqn::new(model), PhyqDqn::load(&good).expect("loads"));
    assert_eq!(trained.digest(), loaded.digest());
    assert_eq!(trained.fingerprint(), loaded.fingerprint());
    assert_eq!(trained.record(), loaded.record());
    assert_eq!(
        loaded.id,
        tasks::rng::fnv64(&std::fs::read(&good).expect("reads"))
    );
    assert_eq!(loaded.record()[0], ("model".to_string(), loaded.digest()));
    // The file read and written again is the same file, that loss's last bit included.
    let bytes = std::fs::read(&good).expect("reads");
    let again = Model::from_bytes(&bytes).expect("a model").to_bytes();
    assert!(
        again == bytes,
        "a model file read and written again differs"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_agent_shoots_from_the_picture_without_simulating() {
    // By construction: the code outside these tests never advances a game.
    let files = [
        include_str!("mod.rs"),
        include_str!("config.rs"),
        include_str!("observation.rs"),
        include_str!("actions.rs"),
        include_str!("network.rs"),
        include_str!("model.rs"),
        include_str!("training.rs"),
        include_str!("file.rs"),
        include_str!("agent.rs"),
    ];
    for code in files {
        for call in [
            ".shoot",
            ".launch",
            ".settle",
            "step_idle",
            "best_next_shot",
            "Game::new",
        ] {
            assert!(!code.contains(call), "the DQN agent's code calls {call}");
        }
    }
    // And in effect: the game is untouched, and the shot is the best logit's action.
    let (obs, exps) = synthetic(10);
    let agent = PhyqDqn::new(train(&tiny(7), &obs, &exps, |_, _| {}).expect("trains"));
    let level = level();
    let game = settled(&level);
    let (hash, steps) = (game.state_hash(), game.steps());
    let shot = agent
        .shot(&game, &level, &mut Draws::new(0, 0, 0))
        .expect("a shot");
    assert_eq!((game.state_hash(), game.steps()), (hash, steps));
    let best = agent.model.best(&observe(&game, &level));
    assert_eq!(shot, action_shot(&game, &level, best));
    assert!(agent.fingerprint().starts_with("model "));
}
