//! `rephyre phyq-server`: Science Birds' agent protocol on rephyre's Phy-Q game
//! ([`phyq_server`]), so that agents written for the original game play rephyre unchanged.
//! Arguments → the level list and settings → the server, until the process is stopped.

use crate::context::Ctx;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use phyq_server::levels::{self, Selection};
use phyq_server::record::Record;
use phyq_server::truth::Labels;
use phyq_server::{Server, Shared};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;

pub const EXAMPLES: &str = "\
EXAMPLES:
  rephyre phyq-server                                   # the 7,500 built-in tasks on localhost:2004
  rephyre phyq-server --per-template 20 --record run.csv   # 20 a template, as the original's test config
  rephyre phyq-server --from-task 81 --per-template 20     # tasks 81-100: the paper's heuristic test tasks
  rephyre phyq-server --templates 1_1_4,2_1_2 --port 0  # two templates, any free port
  rephyre --tasks levels.json phyq-server              # a level set (rephyre tasks import-levels)
  rephyre phyq-server --config sciencebirds/config.xml  # the levels a Science Birds config lists

Agents connect as to the original game (its Java agents to localhost:2004). Every connection
plays a game of its own; Ctrl-C stops the server. The record (one CSV row per level won or
lost) gives pass rates: rephyre phyq-eval --from-record run.csv";

/// `rephyre phyq-server`'s options.
#[derive(Debug, Args)]
pub struct PhyqServerArgs {
    /// Port to listen on (0: any free one). The original's agents connect to 2004.
    #[arg(long, default_value_t = 2004)]
    pub port: u16,
    /// Address to listen on (the default is this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,

    /// Built-in templates to serve, in this order (e.g. 1_1_4,2_1_2; default: all 75).
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "LIST",
        conflicts_with = "config"
    )]
    pub templates: Vec<String>,
    /// The first N tasks of each template (the original's test set takes 20; default: all 100).
    #[arg(long, value_name = "N", conflicts_with = "config")]
    pub per_template: Option<u32>,
    /// Start each template at its K-th task (e.g. 81 with --per-template 20: tasks 81-100, the
    /// paper's test tasks for its heuristic agents).
    #[arg(long, value_name = "K", conflicts_with = "config")]
    pub from_task: Option<u32>,
    /// Serve the levels a Science Birds config.xml lists (`game_levels level_path`, relative
    /// to the file's folder).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Append one row per level won or lost to this CSV (agent, level, task, passed, shots,
    /// pigs left, birds used, score, final hash, seconds).
    #[arg(long, value_name = "F.csv")]
    pub record: Option<PathBuf>,
    /// Seed of the noisy ground truth (the same seed gives the same noise).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Label every object `Object` in the ground truth, as the game's normal mode does (default:
    /// the sprite names of its developer mode, as Phy-Q ran it).
    #[arg(long)]
    pub plain_labels: bool,
}

pub fn run(ctx: &Ctx, a: PhyqServerArgs) -> Result<()> {
    let levels = match (&ctx.tasks_file, &a.config) {
        (Some(_), Some(_)) => bail!("--tasks and --config both give levels: use one"),
        (Some(f), None) => {
            if !a.templates.is_empty() || a.per_template.is_some() || a.from_task.is_some() {
                bail!(
                    "--templates, --per-template and --from-task choose built-in tasks, not a --tasks level set"
                );
            }
            levels::from_set_file(f)
                .map_err(|e| anyhow!("cannot load --tasks {} as Phy-Q levels: {e}", f.display()))?
        }
        (None, Some(c)) => levels::from_config(c)?,
        (None, None) => levels::builtin(&Selection {
            templates: a.templates.clone(),
            per_template: a.per_template,
            from_task: a.from_task,
        })?,
    };
    let record = match &a.record {
        Some(p) => Some(
            Record::open(p).map_err(|e| anyhow!("cannot open --record {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let addr: SocketAddr = (a.host.as_str(), a.port)
        .to_socket_addrs()
        .map_err(|e| anyhow!("--host {}: {e}", a.host))?
        .next()
        .ok_or_else(|| anyhow!("--host {} has no address", a.host))?;
    let n = levels.len();
    let shared = Shared {
        levels,
        seed: a.seed,
        labels: if a.plain_labels {
            Labels::Plain
        } else {
            Labels::Developer
        },
    };
    let log: phyq_server::Log = Arc::new(|line: &str| eprintln!("phyq-server: {line}"));
    let server = Server::bind(addr, shared, record, log)
        .map_err(|e| anyhow!("cannot listen on {addr}: {e}"))?;
    let bound = server.local_addr()?;
    println!(
        "rephyre: Science Birds' agent protocol on {bound}, {n} levels{}; Ctrl-C stops it",
        a.record
            .as_ref()
            .map_or(String::new(), |p| format!(", record {}", p.display()))
    );
    server.run()?;
    Ok(())
}
