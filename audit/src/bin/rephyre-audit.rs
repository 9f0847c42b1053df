//! Minimal, single-threaded audit runner for cross-platform checks (see scripts/cross-audit.sh).
//!
//!   rephyre-audit --golden FILE [--subset ci|full]     compare; exit 1 on any mismatch
//!   rephyre-audit --write-golden FILE [--subset ci|full]
//!   rephyre-audit --trace TASK_ID:ACTION_INDEX [--steps N]
//!   rephyre-audit --trace phyq:L_C_K:NNNNN            per-step hashes of one Phy-Q run
use std::process::ExitCode;

fn main() -> ExitCode {
    match real_main() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rephyre-audit: error: {e}");
            ExitCode::from(2)
        }
    }
}

fn real_main() -> Result<ExitCode, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut golden = None;
    let mut write = None;
    let mut trace = None;
    let mut subset = "ci".to_string();
    let mut steps = 1000u32;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
        match a.as_str() {
            "--golden" => golden = Some(value()?),
            "--write-golden" => write = Some(value()?),
            "--subset" => subset = value()?,
            "--trace" => trace = Some(value()?),
            "--steps" => {
                steps = value()?
                    .parse()
                    .map_err(|_| "--steps takes a number".to_string())?
            }
            "-h" | "--help" => {
                println!("rephyre-audit --golden FILE | --write-golden FILE [--subset ci|full] | --trace TASK:ACTION [--steps N] | --trace phyq:L_C_K:NNNNN");
                return Ok(ExitCode::SUCCESS);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    // `--trace` is a Phy-Q level's id, or a PHYRE task's id and an action index.
    let phyq_trace = trace
        .as_deref()
        .filter(|t| taskref::Benchmark::of_id(t) == taskref::Benchmark::Phyq);
    if let Some(t) = phyq_trace {
        let id: phyq::LevelId = t.parse()?;
        print!(
            "{}",
            audit::phyq_audit::phyq_trace_text(&id).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let set = tasks::TaskSet::builtin();
    if let Some(t) = trace {
        let (id, idx) = t
            .split_once(':')
            .and_then(|(a, b)| b.rsplit_once(':').map(|(b1, i)| (format!("{a}:{b1}"), i)))
            .ok_or("--trace takes TASK_ID:ACTION_INDEX, e.g. 00000:001:0")?;
        let task = set.lookup(&id).map_err(|e| e.to_string())?;
        let idx: u64 = idx.parse().map_err(|_| "bad action index")?;
        let a = audit::audit_action(task, idx);
        let valid = tasks::validate_action(task, task.tier(), &a)
            .map_err(|e| format!("audit action {idx} of {id} is invalid: {e}"))?;
        print!("{}", audit::trace_text(&audit::trace(task, &valid, steps)));
        return Ok(ExitCode::SUCCESS);
    }
    let plan = audit::AuditPlan::by_name(&subset).ok_or("--subset takes ci or full")?;
    // Read the golden before the run, so a bad path or line fails at once.
    let want = match (&write, &golden) {
        (Some(_), _) => None,
        (None, Some(path)) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            Some(audit::parse_golden(&text).map_err(|e| e.to_string())?)
        }
        (None, None) => return Err("give --golden FILE, --write-golden FILE or --trace".into()),
    };
    let records = audit::audit_all(set, plan).map_err(|e| e.to_string())?;
    let Some(want) = want else {
        let path = write.unwrap_or_default();
        std::fs::write(&path, audit::golden_text(plan, &records))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        println!("wrote {} to {path}", records.counts());
        return Ok(ExitCode::SUCCESS);
    };
    match want.first_mismatch(&records, plan.checkpoint_stride) {
        None => {
            println!("MATCH {}", records.counts());
            Ok(ExitCode::SUCCESS)
        }
        Some(m) => {
            println!("MISMATCH {m}");
            Ok(ExitCode::from(1))
        }
    }
}
