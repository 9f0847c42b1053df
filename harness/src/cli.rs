//! The command line of `rephyre`: every command, option and help text (clap derive). Parsing
//! only; the work is in [`crate::commands`].

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use studies::shard::Shard;
use tasks::Tier;

const MAIN_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks list --tier ball --template 00002
  rephyre simulate 00002:017 --action 0.42,0.71,0.3
  rephyre render 00002:017 --action 0.42,0.71,0.3 --step 120 --out frame.png
  rephyre solvability --tier ball --templates 00000-00004 --out solvability.csv --summary solvability.md
  rephyre --threads 2 bench

Exit status: 0 on success, 2 on any error (one line on stderr: `rephyre: error: ...`).";

/// rephyre: the PHYRE physical-reasoning benchmark on a bit-reproducible fixed-point engine.
#[derive(Debug, Parser)]
#[command(name = "rephyre", version, after_help = MAIN_EXAMPLES)]
pub struct Cli {
    /// Use the tasks of FILE instead of the built-in ones: PHYRE tasks (rephyre's task format,
    /// made by `rephyre tasks import`) or a Phy-Q level set (made by `rephyre tasks
    /// import-levels`), told apart by their content.
    #[arg(long, global = true, value_name = "FILE")]
    pub tasks: Option<PathBuf>,

    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,

    /// Show a progress bar on stderr (default: only when stderr is a terminal).
    #[arg(long, global = true)]
    pub progress: bool,

    /// Never show a progress bar.
    #[arg(long, global = true, conflicts_with = "progress")]
    pub quiet: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List, show and import tasks.
    #[command(subcommand)]
    Tasks(TasksCommand),
    /// Simulate one action on one task and report the outcome.
    Simulate(crate::commands::simulate::SimulateArgs),
    /// Draw a task's scene (optionally with an action, after some steps) as PNG or raw bytes.
    Render(crate::commands::render::RenderArgs),
    /// Decide per task whether random actions solve it (SPEC §8), with a CSV and a summary.
    Solvability(crate::commands::solvability::SolvabilityArgs),
    /// Histogram of how many tasks of a template one random action solves (SPEC §8).
    Diversity(DiversityArgs),
    /// Share of tasks a random agent solves versus the number of attempts (PHYRE paper, Fig. 2a).
    RandomCurve(RandomCurveArgs),
    /// The harness's own speed benchmark (random actions), beside the original's figures.
    Bench(crate::commands::bench::BenchArgs),
    /// Compare rephyre's outcomes with the original PHYRE's on the reference actions.
    Parity(crate::commands::parity::ParityArgs),
    /// Evaluate agents (RAND, MEM, MEM-O, OPTIMAL, DQN, DQN-O) on setups and folds: AUCCESS, success@10.
    #[command(after_help = EVAL_EXAMPLES)]
    Eval(Box<EvalArgs>),
    /// One-sided Wilcoxon signed-rank test: is agent A better than B over paired folds?
    #[command(after_help = COMPARE_EXAMPLES)]
    Compare(CompareArgs),
    /// Determinism audit against the committed golden hashes (or write a new golden).
    #[command(after_help = crate::commands::audit::AUDIT_EXAMPLES)]
    Audit(crate::commands::audit::AuditArgs),
    /// Find one stable solution per task (a proof that it is solvable), or re-check a file of them.
    #[command(after_help = crate::commands::witness::WITNESS_EXAMPLES)]
    Witness(crate::commands::witness::WitnessArgs),
    /// Make every Phy-Q task sound: at rest, and shots that pass it (redrawn when not), or
    /// re-check a file of them.
    #[command(name = "phyq-witness", after_help = crate::commands::phyq_witness::PHYQ_WITNESS_EXAMPLES)]
    PhyqWitness(crate::commands::phyq_witness::PhyqWitnessArgs),
    /// Evaluate a Phy-Q agent (random, pig-shooter, optimal, dqn) in a generalization setting:
    /// pass rates per task, template and scenario, and the Phy-Q score.
    #[command(name = "phyq-eval", after_help = crate::commands::phyq_eval::PHYQ_EVAL_EXAMPLES)]
    PhyqEval(crate::commands::phyq_eval::PhyqEvalArgs),
    /// Combine the part files of a sharded run (`--shard K/N`) into the single run's report, or
    /// `eval --checkpoint` files of runs made apart into one checkpoint.
    #[command(after_help = crate::commands::merge::MERGE_EXAMPLES)]
    Merge(crate::commands::merge::MergeArgs),
    /// Run a study sharded on a Slurm cluster: submit a job array of its shards and a merge job
    /// that runs after them.
    #[command(after_help = crate::commands::slurm::SLURM_EXAMPLES)]
    Slurm(crate::commands::slurm::SlurmArgs),
    /// Serve the web player: every built-in task, and the levels of a `--tasks` level set,
    /// playable in a browser, with the command line's bits.
    #[command(after_help = crate::commands::serve::SERVE_EXAMPLES)]
    Serve(crate::commands::serve::ServeArgs),
    /// Serve Science Birds' agent protocol on the Phy-Q levels: agents written for the original
    /// game play rephyre unchanged.
    #[command(name = "phyq-server", after_help = crate::commands::phyq_server::EXAMPLES)]
    PhyqServer(crate::commands::phyq_server::PhyqServerArgs),
}

const EVAL_EXAMPLES: &str = "\
EXAMPLES:
  rephyre eval --agent all --setup all --folds 0-9 --actions 200 --cache table --out results.csv --table table.md --plot curves.svg
  rephyre eval --agent mem --setup ball_cross_template --folds 0-9 --out mem.csv
  rephyre eval --agent memo --setup ball_cross_template --folds 0 --split dev --out memo-dev.csv
  rephyre eval --agent dqn --setup ball_cross_template --folds 0-9 --actions 1000 --cache table --models models --out dqn.csv
  rephyre eval --agent dqn --setup ball_within_template --cache table --models models --out dqn.csv --checkpoint dqn.ckpt --resume

The agents rank one fixed set of --actions random actions per tier (the paper: 10,000), sampled
like the original's set (balls inside the scene and apart; only occlusion makes an action invalid
on a task). The status of every (task, action) pair of the tier is computed once (parallel,
resumable with --cache) and shared by every agent, setup and fold. DQN and DQN-O train per fold
on that table's rows of the tasks they learn from (--learn-from; `--dqn-profile cpu`: minutes per
fold on 2 cores; `paper`: the paper's network and 100,000 updates); `--agent all` is the four
untrained baselines. With --checkpoint FILE every finished (agent, setup, fold) is saved as it
finishes; --resume runs only the ones FILE lacks.";

const COMPARE_EXAMPLES: &str = "\
EXAMPLES:
  rephyre eval --agent memo --setup ball_cross_template --out memo.csv
  rephyre eval --agent mem --setup ball_cross_template --out mem.csv
  rephyre compare memo.csv mem.csv
  rephyre compare memo.csv mem.csv --setup ball_cross_template

Pairs folds by (setup, fold); scipy's wilcoxon(zero_method='wilcox', correction=False,
alternative='greater') on the per-fold AUCCESS; significant when p < 0.01.";

/// Arguments of `rephyre eval`. `-h`/`--help` shows the common options; `--help-all` adds the
/// DQN's tuning and network-shape options.
#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct EvalArgs {
    /// Print help (the common options; --help-all for every one).
    #[arg(short, long, action = clap::ArgAction::HelpShort)]
    pub help: Option<bool>,
    /// Print help with every option, the DQN's tuning and network shape included.
    #[arg(long, action = clap::ArgAction::HelpLong)]
    pub help_all: Option<bool>,
    /// The agent to evaluate, or all of them.
    #[arg(long, value_enum, default_value_t = AgentChoice::All)]
    pub agent: AgentChoice,
    /// The evaluation setup, or all four.
    #[arg(long, value_enum, default_value_t = SetupChoice::All)]
    pub setup: SetupChoice,
    /// Folds, e.g. 0-9 or 0,3,5.
    #[arg(long, default_value = "0-9")]
    pub folds: String,
    /// Evaluate on the test or the dev split, or on the training tasks the agents learn from
    /// (their fit, to set beside the test or dev split's generalization).
    #[arg(long, value_enum, default_value_t = SplitChoice::Test)]
    pub split: SplitChoice,
    /// What the trained agents (MEM, MEM-O, DQN, DQN-O) learn from: the fold's training tasks,
    /// or its training and dev tasks (the original's protocol for the test split; MEM-O's
    /// online weight is still chosen on the dev tasks with the training tasks alone). Default:
    /// train-dev for the test split, train otherwise.
    #[arg(long, value_enum)]
    pub learn_from: Option<LearnFromChoice>,
    /// Size of the agents' fixed action set per tier (the paper: 10,000).
    #[arg(long, default_value_t = 10_000)]
    pub actions: usize,
    /// Seed of the action set and of RAND's orders.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Checkpoint the outcome table to FILE.<tier>.ckpt and resume from it. One cache serves
    /// any --actions of the same --seed: a larger set computes only the columns it lacks.
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// Per-fold results (CSV); with --shard, the shard's part file.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Save every finished (agent, setup, fold) to FILE the moment it finishes (the outcome
    /// table has --cache, DQN models --models), so that a stopped run loses none of them.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Take the (agent, setup, fold) results --checkpoint holds instead of running them again
    /// (a missing file starts afresh; a file of another action set, seed, split, --learn-from or
    /// task set is refused; a DQN result is taken only by a run of the same DQN options, and one
    /// file keeps the results of several). The outputs are those of one uninterrupted run, but
    /// for the restored rows' `seconds`, which are the time they took when they ran.
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
    /// Compute only part K of N of the outcome tables (not the agents) and write it to --out
    /// (--cache FILE is then the shard's checkpoint); `rephyre merge PARTS --out CACHE` makes the
    /// cache that `rephyre eval --cache CACHE` evaluates from.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Markdown table shaped like the paper's Table 1.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Success-curve plot (SVG).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// CSV of every evaluated task: agent, setup, fold, split, task, the attempt that solved
    /// it (empty when unsolved).
    #[arg(long, value_name = "FILE")]
    pub per_task: Option<PathBuf>,
    /// The DQN and DQN-O options (other agents ignore them).
    #[command(flatten)]
    pub dqn: DqnArgs,
}

/// `rephyre eval`'s options for DQN and DQN-O, a group of their own in the help. The tuning
/// and network-shape options show in `--help-all` only. Levers measured as no gain and off
/// in both profiles (near misses as negatives, weight decay, mirrored training scenes) are not
/// options any more: docs/agents.md, "Levers measured as no gain".
#[derive(Debug, Args)]
#[command(next_help_heading = "DQN and DQN-O")]
pub struct DqnArgs {
    /// DQN training preset: `cpu` (64×64 observations, a small ResNet, 5,000 updates) or
    /// `paper` (256×256, ResNet-18, 100,000 updates).
    #[arg(long, value_enum, default_value_t = DqnProfileChoice::Cpu)]
    pub dqn_profile: DqnProfileChoice,
    /// DQN updates per fold (default: the profile's).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub dqn_updates: Option<u64>,
    /// DQN examples per update (default: the profile's, 64).
    #[arg(long, hide_short_help = true, value_name = "N")]
    pub dqn_batch: Option<usize>,
    /// DQN examples drawn per scene in a batch, a divisor of the batch (default: the
    /// profile's, 8 or 1); 1 draws every example from anywhere, as the paper did.
    #[arg(long, hide_short_help = true, value_name = "N")]
    pub dqn_actions_per_scene: Option<usize>,
    /// DQN peak learning rate of the cosine schedule (default: the profile's, 1e-2 or 3e-4).
    #[arg(long, hide_short_help = true, value_name = "LR", value_parser = parse_learning_rate)]
    pub dqn_lr: Option<f64>,
    /// DQN-O: updates after each test task (default: the profile's; 0 makes DQN-O rank like
    /// DQN). A saved model serves any value.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub dqn_online_updates: Option<u64>,
    /// DQN-O: learning rate of those updates (default: the profile's).
    #[arg(long, hide_short_help = true, value_name = "LR", value_parser = parse_learning_rate)]
    pub dqn_online_lr: Option<f64>,
    /// Seed of the DQN's weights and batches.
    #[arg(long, default_value_t = 0)]
    pub dqn_seed: u64,
    /// DQN observation side in pixels, a divisor of 256 (default: the profile's, 64 or 256).
    /// A network shape other than the profile's names its model files after it.
    #[arg(long, hide_short_help = true, value_name = "PIXELS")]
    pub dqn_obs_size: Option<usize>,
    /// Kernel of the DQN's stride-2 stem convolution, odd (default: the profile's, 3 or 7).
    #[arg(long, hide_short_help = true, value_name = "K")]
    pub dqn_stem_kernel: Option<usize>,
    /// A 3×3 stride-2 max pool after the DQN's stem (default: the profile's).
    #[arg(long, hide_short_help = true, value_name = "BOOL")]
    pub dqn_stem_pool: Option<bool>,
    /// Channels of the DQN's stem and stages, comma-separated (default: the profile's,
    /// 8,16,32,64 or 64,128,256,512).
    #[arg(
        long,
        hide_short_help = true,
        value_name = "C,C,…",
        value_delimiter = ','
    )]
    pub dqn_widths: Option<Vec<usize>>,
    /// Residual blocks in each of the DQN's stages, 1 to 8 (default: the profile's, 1 or 2).
    #[arg(long, hide_short_help = true, value_name = "N")]
    pub dqn_blocks: Option<usize>,
    /// Two coordinate planes (each pixel's x and y) beside the DQN's colour planes (default:
    /// the profile's, true in `cpu`, false in `paper`).
    #[arg(long, hide_short_help = true, value_name = "BOOL")]
    pub dqn_coord_planes: Option<bool>,
    /// DQN and DQN-O score an action by the mean of the scene's and the mirrored scene's logits
    /// (default: the profile's). A saved model serves either.
    #[arg(long, hide_short_help = true, value_name = "BOOL")]
    pub dqn_mirror_ranking: Option<bool>,
    /// DQN and DQN-O are K networks of seeds --dqn-seed, --dqn-seed + 1, … (each trained, saved
    /// and loaded as its own model), ranking by their mean logit; K times the training.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub dqn_ensemble: u64,
    /// DQN and DQN-O train on the statuses of the first N actions of the set, at least
    /// --actions, which they rank (default: --actions). The original trained on 100,000 per
    /// task and ranked 1,000 for B cross; the table is computed (and cached) to N columns.
    #[arg(long, value_name = "N")]
    pub dqn_train_actions: Option<usize>,
    /// Directory of DQN models: a fold's model is loaded from it when there (its training
    /// configuration must match), else trained and saved in it. A training in progress keeps
    /// its snapshot there (every minute, `.train` beside the `.model`): run the same command
    /// again after a kill and it goes on from it, to the same model.
    #[arg(long, value_name = "DIR")]
    pub models: Option<PathBuf>,
    /// Where DQN and DQN-O train and rank: `cpu` (bit-reproducible) or `gpu` (the default GPU
    /// through Vulkan; needs a build with `--features gpu`; its results are replicates, not
    /// bit-identical copies). Other agents ignore it.
    #[arg(long, value_enum, default_value_t = DqnDeviceChoice::Cpu)]
    pub dqn_device: DqnDeviceChoice,
}

/// `eval --dqn-device`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DqnDeviceChoice {
    Cpu,
    Gpu,
}

/// `eval --dqn-profile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DqnProfileChoice {
    Cpu,
    Paper,
}

/// Arguments of `rephyre compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Results of agent A (from `rephyre eval`).
    pub a: PathBuf,
    /// Results of agent B.
    pub b: PathBuf,
    /// Only compare the folds of this setup (default: every setup both files hold).
    #[arg(long, value_enum)]
    pub setup: Option<SetupChoice>,
}

/// `eval --agent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AgentChoice {
    Rand,
    Mem,
    Memo,
    Optimal,
    Dqn,
    #[value(name = "dqn-o")]
    DqnO,
    All,
}

/// `eval --setup`, `compare --setup`: PHYRE's setup names, or all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum SetupChoice {
    BallCrossTemplate,
    BallWithinTemplate,
    TwoBallsCrossTemplate,
    TwoBallsWithinTemplate,
    All,
}

impl SetupChoice {
    /// The setups chosen.
    pub fn setups(self) -> Vec<tasks::Setup> {
        use tasks::Setup;
        match self {
            SetupChoice::BallCrossTemplate => vec![Setup::BallCrossTemplate],
            SetupChoice::BallWithinTemplate => vec![Setup::BallWithinTemplate],
            SetupChoice::TwoBallsCrossTemplate => vec![Setup::TwoBallsCrossTemplate],
            SetupChoice::TwoBallsWithinTemplate => vec![Setup::TwoBallsWithinTemplate],
            SetupChoice::All => Setup::ALL.to_vec(),
        }
    }
}

/// `eval --split`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SplitChoice {
    Test,
    Dev,
    Train,
}

/// `eval --learn-from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LearnFromChoice {
    Train,
    TrainDev,
}

const TASKS_LIST_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks list
  rephyre tasks list --tier two_balls
  rephyre tasks list --template 00013
  rephyre tasks list --tier phyq
  rephyre tasks list --tier phyq --template 1.1
  rephyre --tasks mine.rpts tasks list";

const TASKS_SHOW_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks show 00000:000
  rephyre tasks show 00100:000 --png scene.png --scale 2
  rephyre tasks show phyq:1_1_4:00001 --png level.png
  rephyre tasks show phyq:1_1_4:00001 --json > level.json

A Phy-Q id (phyq:L_C_K:NNNNN, see tasks list --tier phyq) shows the task's objects with their
original sprite names, positions and screen boxes; --json prints the original's symbolic
representation instead (docs/phyq-observations.md), --png draws the 640 × 480 picture.";

const TASKS_IMPORT_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks import tasks.bin.lzma --out phyre.rpts
  rephyre --tasks phyre.rpts tasks list --template 00000";

const TASKS_IMPORT_LEVELS_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks import-levels phyq/data/templates --out phyq-templates.json
  rephyre tasks import-levels generated/ extra/1_1_1_7.xml --out phyq-levels.json

A folder means every *.xml below it. A file named L_C_K_N.xml gets the id phyq:L_C_K:NNNNN,
any other file phyq:STEM. The level-set file's format: phyq/FORMAT.md.";

#[derive(Debug, Subcommand)]
pub enum TasksCommand {
    /// One line per task: id, tier, number of scene objects, description. With --tier phyq:
    /// the Phy-Q tasks (id, scenario, template's paper number, number of objects).
    #[command(after_help = TASKS_LIST_EXAMPLES)]
    List {
        /// Only tasks of this tier: ball or two_balls (PHYRE), or phyq (the 7,500 generated
        /// Phy-Q tasks).
        #[arg(long, value_parser = parse_list_tier)]
        tier: Option<ListTier>,
        /// Only tasks of this template (e.g. 00013 or 13; with --tier phyq a code such as 1_1_4
        /// or a paper number such as 1.1).
        #[arg(long, value_name = "T")]
        template: Option<String>,
    },
    /// Bodies, goal, tier and description of one task (Phy-Q: objects, or --json).
    #[command(after_help = TASKS_SHOW_EXAMPLES)]
    Show {
        /// Task id: TTTTT:III (PHYRE) or phyq:L_C_K:NNNNN (Phy-Q).
        id: String,
        /// Also draw the initial scene to this PNG file.
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        /// Picture scale: each observation pixel becomes N×N pixels (1 to 8).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=8))]
        scale: u32,
        /// Phy-Q tasks: print the symbolic representation (JSON) instead of the summary.
        #[arg(long)]
        json: bool,
    },
    /// Convert the original PHYRE task file (tasks.bin.lzma: xz + Thrift) to rephyre's format.
    #[command(after_help = TASKS_IMPORT_EXAMPLES)]
    Import {
        /// The original task file.
        file: PathBuf,
        /// Where to write the rephyre task file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Read Phy-Q / Science Birds level XML files (or folders of them) into a level-set file.
    #[command(after_help = TASKS_IMPORT_LEVELS_EXAMPLES)]
    ImportLevels {
        /// Level XML files, or folders searched for *.xml.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Where to write the level-set file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// A contact sheet: the initial scenes of many tasks in one PNG grid, to check tasks by eye.
    #[command(after_help = TASKS_SHEET_EXAMPLES)]
    Sheet {
        /// Only tasks of this tier: ball or two_balls (PHYRE), or phyq (the built-in Phy-Q
        /// tasks, drawn as 640 × 480 pictures shrunk by --shrink).
        #[arg(long, value_parser = parse_list_tier)]
        tier: Option<ListTier>,
        /// Templates to include, e.g. 00012 or 0-4 (default: every template of the tier); with
        /// --tier phyq codes or paper numbers, e.g. 1_1_4,2.1.
        #[arg(long, value_name = "LIST")]
        templates: Option<String>,
        /// Tasks per template (first by id).
        #[arg(long, value_name = "N", default_value_t = 10)]
        per_template: usize,
        /// Scenes per row.
        #[arg(long, value_name = "N", default_value_t = 10)]
        columns: usize,
        /// --tier phyq: shrink each 640 × 480 picture N times (1 to 8; default 2).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=8))]
        shrink: Option<u32>,
        /// The PNG to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

const TASKS_SHEET_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks sheet --templates 00012 --out template12.png
  rephyre tasks sheet --templates 0-24 --per-template 4 --columns 8 --out ball-tier.png
  rephyre tasks sheet --tier ball --per-template 1 --out one-per-template.png
  rephyre tasks sheet --tier phyq --per-template 1 --columns 8 --out phyq.png
  rephyre tasks sheet --tier phyq --templates 1.1,2_1_3 --per-template 4 --shrink 1 --out t.png";

/// `--checkpoint FILE` and `--resume`: every resumable run's.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// Save progress to FILE every few seconds.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from --checkpoint (a missing checkpoint file starts afresh).
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
}

/// Checkpoint and shard options shared by the long-running commands.
#[derive(Debug, Args)]
pub struct CheckpointArgs {
    #[command(flatten)]
    pub save: ResumeArgs,
    /// Seconds between checkpoints.
    #[arg(long, hide = true, default_value_t = 10.0)]
    pub checkpoint_secs: f64,
    /// Run only part K of N of the job (1 <= K <= N; e.g. a Slurm array task's
    /// $SLURM_ARRAY_TASK_ID/N) and write that part's result to --out; `rephyre merge` combines
    /// the N parts into the single run's report. The split does not depend on the machine.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
}

/// A learning rate: a finite number in (0, 1].
pub fn parse_learning_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(lr) if lr > 0.0 && lr <= 1.0 => Ok(lr),
        _ => Err(format!("must be a number in (0, 1], got {s:?}")),
    }
}

/// Parse `--shard K/N` for clap.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s).map_err(|e| e.to_string())
}

const DIVERSITY_EXAMPLES: &str = "\
EXAMPLES:
  rephyre diversity --tier ball --out diversity.csv --plot diversity.svg
  rephyre diversity --tier ball --templates 00000-00002 --samples 10000 --out d.csv
  rephyre diversity --tier ball --samples 100000 --out d.csv --checkpoint d.ckpt --resume

Every sampled action is tried on every task of each template; the CSV counts, per template, how
many actions solve exactly k of its tasks (k = 0 ... number of tasks). The same actions are used
for every template.";

#[derive(Debug, Args)]
#[command(after_help = DIVERSITY_EXAMPLES)]
pub struct DiversityArgs {
    /// Action tier; also selects the default templates.
    #[arg(long, value_parser = parse_tier)]
    pub tier: Tier,
    /// Random actions to sample.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub samples: u64,
    #[command(flatten)]
    pub study: SampledStudyArgs,
}

/// The tasks a sampling study runs on (some or all of the tier's templates) and its seed.
#[derive(Debug, Args)]
pub struct SampleArgs {
    /// Templates, e.g. 00000,00001 or ranges 0-4 (default: all of the tier).
    #[arg(long, value_name = "LIST")]
    pub templates: Option<String>,
    /// Only the first N tasks (by id) of each template.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub tasks_per_template: Option<u32>,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// What a sampling study (diversity, random-curve) runs on, writes and checkpoints.
#[derive(Debug, Args)]
pub struct SampledStudyArgs {
    #[command(flatten)]
    pub sample: SampleArgs,
    /// CSV report (diversity: the histograms; random-curve: the curve).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// SVG plot of the report.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub ckpt: CheckpointArgs,
}

const RANDOM_CURVE_EXAMPLES: &str = "\
EXAMPLES:
  rephyre random-curve --tier ball --out curve.csv --plot curve.svg
  rephyre random-curve --tier two_balls --runs 3 --attempts 20 --tasks-per-template 10 --out c.csv

A random agent tries random valid actions on each task until one solves it or the attempts are
used up (invalid actions are free). The CSV gives, for k = 1 ... --attempts, the share of tasks
solved within k attempts in each run, their mean and sample standard deviation; stdout also gives
the AUCCESS of each run.";

#[derive(Debug, Args)]
#[command(after_help = RANDOM_CURVE_EXAMPLES)]
pub struct RandomCurveArgs {
    /// Action tier; also selects the tasks (that tier's templates).
    #[arg(long, value_parser = parse_tier, default_value = "ball")]
    pub tier: Tier,
    /// Independent runs of the random agent.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub runs: u32,
    /// Valid attempts per task.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub attempts: u32,
    #[command(flatten)]
    pub study: SampledStudyArgs,
}

/// Parse a tier name for clap.
/// What `tasks list --tier` selects: a PHYRE tier, or the Phy-Q tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListTier {
    Phyre(Tier),
    Phyq,
}

pub fn parse_list_tier(s: &str) -> Result<ListTier, String> {
    if s == "phyq" {
        return Ok(ListTier::Phyq);
    }
    Tier::parse(s)
        .map(ListTier::Phyre)
        .ok_or_else(|| format!("unknown tier {s:?} (expected ball, two_balls or phyq)"))
}

pub fn parse_tier(s: &str) -> Result<Tier, String> {
    Tier::parse(s).ok_or_else(|| format!("unknown tier {s:?} (expected ball or two_balls)"))
}
