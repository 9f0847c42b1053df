//! PHYRE's evaluation setups and their 10 folds (SPEC §6): deterministic train/dev/test splits
//! made by sorting on md5 hashes with fixed salts.

use core::fmt;
use core::str::FromStr;

use crate::checksum::md5_hex;
use crate::id::TaskId;
use crate::model::Tier;
use crate::taskset::TaskSet;

/// Folds per setup.
pub const FOLDS: u32 = 10;

/// An evaluation setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Setup {
    /// `ball_cross_template`: ball tier, test templates unseen in training.
    BallCrossTemplate,
    /// `ball_within_template`: ball tier, test tasks from the training templates.
    BallWithinTemplate,
    /// `two_balls_cross_template`.
    TwoBallsCrossTemplate,
    /// `two_balls_within_template`.
    TwoBallsWithinTemplate,
}

impl Setup {
    /// The four setups, in PHYRE's order.
    pub const ALL: [Setup; 4] = [
        Setup::BallCrossTemplate,
        Setup::BallWithinTemplate,
        Setup::TwoBallsCrossTemplate,
        Setup::TwoBallsWithinTemplate,
    ];

    /// PHYRE's name, e.g. `ball_cross_template`.
    pub const fn name(self) -> &'static str {
        match self {
            Setup::BallCrossTemplate => "ball_cross_template",
            Setup::BallWithinTemplate => "ball_within_template",
            Setup::TwoBallsCrossTemplate => "two_balls_cross_template",
            Setup::TwoBallsWithinTemplate => "two_balls_within_template",
        }
    }

    /// The tier whose tasks (and actions) the setup uses.
    pub const fn tier(self) -> Tier {
        match self {
            Setup::BallCrossTemplate | Setup::BallWithinTemplate => Tier::Ball,
            Setup::TwoBallsCrossTemplate | Setup::TwoBallsWithinTemplate => Tier::TwoBalls,
        }
    }

    /// Whether test tasks come from templates unseen in training.
    pub const fn is_cross_template(self) -> bool {
        matches!(
            self,
            Setup::BallCrossTemplate | Setup::TwoBallsCrossTemplate
        )
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Setup {
    type Err = FoldError;
    fn from_str(s: &str) -> Result<Setup, FoldError> {
        Setup::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| FoldError::UnknownSetup(s.chars().take(64).collect()))
    }
}

/// Why a split could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoldError {
    UnknownSetup(String),
    /// Folds are 0 to 9.
    BadFold(u32),
    /// The task set does not have the 25 templates × 100 tasks of the setup's tier.
    WrongTaskSet {
        templates: usize,
        tasks: usize,
    },
}

impl fmt::Display for FoldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FoldError::UnknownSetup(s) => write!(
                f,
                "unknown evaluation setup {s:?} (expected one of {})",
                Setup::ALL.map(Setup::name).join(", ")
            ),
            FoldError::BadFold(k) => {
                write!(f, "fold {k} does not exist (folds are 0 to {})", FOLDS - 1)
            }
            FoldError::WrongTaskSet { templates, tasks } => write!(
                f,
                "the tier has {templates} templates and {tasks} tasks (expected 25 and 2500)"
            ),
        }
    }
}

impl std::error::Error for FoldError {}

/// A train/dev/test split; every list sorted by id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// Training tasks (1600).
    pub train: Vec<TaskId>,
    /// Development (validation) tasks (400).
    pub dev: Vec<TaskId>,
    /// Test tasks (500).
    pub test: Vec<TaskId>,
}

/// The split of fold `fold` of `setup` over the built-in tasks: 1600 train, 400 dev, 500 test.
pub fn split(setup: Setup, fold: u32) -> Result<Split, FoldError> {
    split_tasks(TaskSet::builtin(), setup, fold)
}

/// The split of fold `fold` of `setup` over the tasks of `tasks` (of the setup's tier; the
/// original's 25 templates × 100 tasks are required).
pub fn split_tasks(tasks: &TaskSet, setup: Setup, fold: u32) -> Result<Split, FoldError> {
    if fold >= FOLDS {
        return Err(FoldError::BadFold(fold));
    }
    let ids: Vec<TaskId> = tasks.tier(setup.tier()).map(|t| t.id()).collect();
    let mut templates: Vec<u32> = ids.iter().map(|id| id.template()).collect();
    templates.dedup(); // ids are sorted, so equal templates are adjacent
    let wrong = || FoldError::WrongTaskSet {
        templates: templates.len(),
        tasks: ids.len(),
    };
    if templates.len() != 25 || ids.len() != 2500 {
        return Err(wrong());
    }
    if templates
        .iter()
        .any(|&t| ids.iter().filter(|id| id.template() == t).count() != 100)
    {
        return Err(wrong());
    }
    let mut s = if setup.is_cross_template() {
        cross_template(&ids, &templates, fold)
    } else {
        within_template(&ids, &templates, fold)
    };
    s.train.sort_unstable();
    s.dev.sort_unstable();
    s.test.sort_unstable();
    Ok(s)
}

/// Sort `items` by the hex md5 of `text(item) + salt` (then by text, a total order even if two
/// hashes were equal).
fn shuffle<T: Copy>(items: &mut [T], text: impl Fn(T) -> String, salt: &str) {
    let mut keyed: Vec<(String, String, T)> = items
        .iter()
        .map(|&x| {
            let t = text(x);
            (md5_hex(format!("{t}{salt}").as_bytes()), t, x)
        })
        .collect();
    keyed.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    for (slot, (_, _, x)) in items.iter_mut().zip(keyed) {
        *slot = x;
    }
}

fn template_text(t: u32) -> String {
    format!("{t:05}")
}

fn cross_template(ids: &[TaskId], templates: &[u32], fold: u32) -> Split {
    let mut ts = templates.to_vec();
    // The same salt for both tiers, as in the original.
    shuffle(
        &mut ts,
        template_text,
        &format!("ball_cross_template_half_{fold}"),
    );
    let (train_dev, test) = ts.split_at(20);
    let mut train_dev = train_dev.to_vec();
    // The dev salt carries the fold too: the original's get_fold builds dev with
    // `dev_seed=seed` (checked against phyre 0.2.2 for every setup and fold, tests/folds.rs).
    shuffle(
        &mut train_dev,
        template_text,
        &format!("dev_ball_cross_template_half_{fold}"),
    );
    let (train, dev) = train_dev.split_at(16);
    let of = |sel: &[u32]| -> Vec<TaskId> {
        ids.iter()
            .copied()
            .filter(|id| sel.contains(&id.template()))
            .collect()
    };
    Split {
        train: of(train),
        dev: of(dev),
        test: of(test),
    }
}

fn within_template(ids: &[TaskId], templates: &[u32], fold: u32) -> Split {
    let salt = format!("ball_online_ind_tasks{fold}");
    let mut train_all = Vec::with_capacity(2000);
    let mut test = Vec::with_capacity(500);
    for &t in templates {
        let mut of_t: Vec<TaskId> = ids
            .iter()
            .copied()
            .filter(|id| id.template() == t)
            .collect();
        shuffle(&mut of_t, |id| id.to_string(), &salt);
        train_all.extend_from_slice(&of_t[..80]);
        test.extend_from_slice(&of_t[80..]);
    }
    // Salted with the fold, as the original's get_fold passes `dev_seed=seed`.
    shuffle(
        &mut train_all,
        |id| id.to_string(),
        &format!("make_dev{fold}"),
    );
    let dev = train_all.split_off(1600);
    Split {
        train: train_all,
        dev,
        test,
    }
}
