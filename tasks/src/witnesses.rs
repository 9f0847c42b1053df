//! The PHYRE witness file: one stable solution per (task, tier) that rephyre's own search found
//! (`rephyre witness`, `studies::witness`), the proof that a task is solvable in rephyre. The
//! search writes the file and re-checks it; this module reads the format, for every front end
//! that shows a task's solution (the command line, the web player). The built-in file is
//! `data/witnesses.csv` ([`builtin`]; how it was made: `data/WITNESSES.md`).
//!
//! Columns ([`HEADER`]): `task_id, tier, found, origin, refinements, simulations, candidates,
//! balls, action`: `origin` is `seed:N`, `carried:N` or `random:N` (empty without a witness),
//! `balls` the quantized balls as `x y r` px triples, `action` numbers in [0, 1] (space
//! separated) that validate to exactly those balls.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::id::TaskId;
use crate::model::Tier;

/// The file's columns, in order.
pub const HEADER: [&str; 9] = [
    "task_id",
    "tier",
    "found",
    "origin",
    "refinements",
    "simulations",
    "candidates",
    "balls",
    "action",
];

/// The committed witness file of the built-in tasks (written by `rephyre witness`).
pub const BUILTIN: &str = include_str!("../data/witnesses.csv");

/// A ball on the action lattice: whole-pixel centre and radius (px).
pub type LatticeBall = [i32; 3];

/// One row of a witness file.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub task_id: String,
    pub tier: Tier,
    pub found: bool,
    /// Where the search started from: `seed`, `carried` or `random`, and which one
    /// (`None` for a row without a witness).
    pub origin: Option<(String, u64)>,
    pub refinements: u32,
    pub simulations: u64,
    pub candidates: u64,
    pub balls: Vec<LatticeBall>,
    /// The solving action (empty for a row without a witness).
    pub action: Vec<f64>,
}

/// Reads a witness file; the error names the line and what is wrong with it.
pub fn parse(text: &str) -> Result<Vec<Row>, String> {
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let headers = rdr
        .headers()
        .map_err(|e| format!("witness file has no header: {e}"))?
        .clone();
    if headers.iter().collect::<Vec<_>>() != HEADER {
        return Err(format!(
            "witness file must have the columns {}",
            HEADER.join(",")
        ));
    }
    let mut rows = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| format!("witness file line {line}: {e}"))?;
        rows.push(parse_record(&rec).map_err(|e| format!("witness file line {line}: {e}"))?);
    }
    Ok(rows)
}

fn parse_record(rec: &csv::StringRecord) -> Result<Row, String> {
    let tier = Tier::parse(&rec[1]).ok_or_else(|| format!("unknown tier {:?}", &rec[1]))?;
    let found = match &rec[2] {
        "true" => true,
        "false" => false,
        f => return Err(format!("found must be true or false, not {f:?}")),
    };
    let ball_numbers: Vec<i32> = rec[7]
        .split_whitespace()
        .map(|v| v.parse::<i32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("bad balls {:?}", &rec[7]))?;
    if !ball_numbers.len().is_multiple_of(3) {
        return Err("balls must be x y r triples".to_string());
    }
    let count = |k: usize| -> Result<u64, String> {
        rec[k].parse().map_err(|_| format!("bad {}", HEADER[k]))
    };
    let origin = match rec[3].split_once(':') {
        Some((kind @ ("seed" | "carried" | "random"), n)) if found => Some((
            kind.to_string(),
            n.parse().map_err(|_| "bad origin".to_string())?,
        )),
        None if !found && rec[3].is_empty() => None,
        _ => return Err(format!("bad origin {:?}", &rec[3])),
    };
    let action = rec[8]
        .split_whitespace()
        .map(|v| v.parse::<f64>())
        .collect::<Result<Vec<f64>, _>>()
        .map_err(|_| format!("bad number in {:?}", &rec[8]))?;
    Ok(Row {
        task_id: rec[0].to_string(),
        tier,
        found,
        origin,
        refinements: u32::try_from(count(4)?).map_err(|_| "bad refinements".to_string())?,
        simulations: count(5)?,
        candidates: count(6)?,
        balls: ball_numbers
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect(),
        action,
    })
}

/// The rows of the built-in file, by (task, tier).
fn builtin_rows() -> &'static BTreeMap<(TaskId, Tier), Row> {
    static ROWS: OnceLock<BTreeMap<(TaskId, Tier), Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        // The file is committed and re-checked by the tests: failing here is a bug.
        let rows = parse(BUILTIN).unwrap_or_else(|e| panic!("data/witnesses.csv: {e}"));
        rows.into_iter()
            .map(|r| {
                let id: TaskId = r
                    .task_id
                    .parse()
                    .unwrap_or_else(|e| panic!("data/witnesses.csv: {e}"));
                ((id, r.tier), r)
            })
            .collect()
    })
}

/// Every row of the built-in witness file, in file order (task, then tier).
pub fn builtin() -> impl Iterator<Item = &'static Row> {
    builtin_rows().values()
}

/// The built-in witness of `task` in `tier`, when the file has one that was found.
pub fn builtin_solution(task: TaskId, tier: Tier) -> Option<&'static Row> {
    builtin_rows().get(&(task, tier)).filter(|r| r.found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_file_covers_every_task() {
        let rows = parse(BUILTIN).expect("parses");
        assert_eq!(rows.len(), builtin().count(), "one row per (task, tier)");
        // Every built-in task in its own tier; one (00019:646) without a witness.
        assert_eq!(rows.len(), 5000);
        assert_eq!(
            rows.iter().filter(|r| r.tier == Tier::TwoBalls).count(),
            2500
        );
        let missing: Vec<&str> = rows
            .iter()
            .filter(|r| !r.found)
            .map(|r| r.task_id.as_str())
            .collect();
        assert_eq!(missing, ["00019:646"]);
        for r in rows.iter().filter(|r| r.found) {
            assert_eq!(r.action.len(), r.tier.action_len(), "{}", r.task_id);
            assert_eq!(r.balls.len(), r.tier.ball_count(), "{}", r.task_id);
        }
        let first = &rows[0];
        let id: TaskId = first.task_id.parse().unwrap();
        assert_eq!(builtin_solution(id, first.tier), Some(first));
    }

    #[test]
    fn a_bad_row_names_its_line() {
        let head = HEADER.join(",");
        let bad = format!("{head}\n00000:000,ball,maybe,,0,0,0,,\n");
        let e = parse(&bad).unwrap_err();
        assert!(e.contains("line 2") && e.contains("maybe"), "{e}");
        let e = parse("a,b\n").unwrap_err();
        assert!(e.contains("columns"), "{e}");
        let origin = format!("{head}\n00000:000,ball,true,nowhere:1,0,1,1,1 2 3,0.1 0.2 0.3\n");
        assert!(parse(&origin).unwrap_err().contains("bad origin"));
    }
}
