//! The witness file of the built-in tier (`data/witnesses.csv`, written by
//! `rephyre phyq-witness`): per task, the generator's draw that is sound (starts at rest,
//! passable), the draws refused before it and why, what the search cost, and the shots that
//! pass it, exactly as `rephyre simulate ID --shots` takes them.
//!
//! Columns: `task_id,template,attempt,found,refused,shots_tried,steps,shots`; `refused` is a
//! space-separated list of `attempt:rest` or `attempt:search`. The built-in tier
//! ([`crate::generator::builtin_tasks`]) keeps each task's `attempt`.

use crate::game::soundness::Unsound;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The file's header line.
pub const HEADER: &str = "task_id,template,attempt,found,refused,shots_tried,steps,shots";

/// One row of a witness file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub task_id: String,
    pub template: String,
    pub index: u32,
    pub attempt: u32,
    pub found: bool,
    /// (attempt, reason).
    pub refused: Vec<(u32, Unsound)>,
    pub shots_tried: u64,
    pub steps: u64,
    pub shots: String,
}

/// Reads a witness file (the format of the module doc); the error names the line and the field.
pub fn parse(text: &str) -> Result<Vec<Row>, String> {
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return Err(format!(
            "not a Phy-Q witness file (the first line must be {HEADER:?})"
        ));
    }
    lines
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, line)| parse_row(line).map_err(|e| format!("line {}: {e}", i + 2)))
        .collect()
}

fn parse_row(line: &str) -> Result<Row, String> {
    let f: Vec<&str> = line.splitn(8, ',').collect();
    let [id, template, attempt, found, refused, tried, steps, shots] = f[..] else {
        return Err(format!("expected 8 fields, got {}", f.len()));
    };
    let num = |what: &str, s: &str| -> Result<u64, String> {
        s.parse()
            .map_err(|_| format!("{what} {s:?} is not a whole number"))
    };
    let small = |what: &str, s: &str| -> Result<u32, String> {
        u32::try_from(num(what, s)?).map_err(|_| format!("{what} {s:?} is too large"))
    };
    // A generated task's index; 0 for a level named by its file (an imported level set's).
    let index = match id.parse::<crate::LevelId>() {
        Ok(crate::LevelId::Coded { index, .. }) => index,
        Ok(crate::LevelId::Named(_)) => 0,
        Err(e) => return Err(format!("task id {id:?}: {e}")),
    };
    let refused = refused
        .split_whitespace()
        .map(|r| {
            let (a, w) = r
                .split_once(':')
                .ok_or_else(|| format!("refused draw {r:?} is not attempt:reason"))?;
            let why = Unsound::from_word(w)
                .ok_or_else(|| format!("refused draw {r:?}: the reason must be rest or search"))?;
            Ok((small("refused attempt", a)?, why))
        })
        .collect::<Result<_, String>>()?;
    let found = match found {
        "true" => true,
        "false" => false,
        _ => return Err(format!("found must be true or false, not {found:?}")),
    };
    if found == shots.is_empty() {
        return Err(format!("found is {found} but shots is {shots:?}"));
    }
    Ok(Row {
        task_id: id.into(),
        template: template.into(),
        index,
        attempt: small("attempt", attempt)?,
        found,
        refused,
        shots_tried: num("shots_tried", tried)?,
        steps: num("steps", steps)?,
        shots: shots.into(),
    })
}

impl Row {
    /// The row as a line of the file (without the newline).
    pub fn line(&self) -> String {
        let refused: Vec<String> = self
            .refused
            .iter()
            .map(|(a, w)| format!("{a}:{}", w.word()))
            .collect();
        format!(
            "{},{},{},{},{},{},{},{}",
            self.task_id,
            self.template,
            self.attempt,
            self.found,
            refused.join(" "),
            self.shots_tried,
            self.steps,
            self.shots
        )
    }
}

/// The built-in tier's witness file, parsed once.
pub fn builtin() -> &'static [Row] {
    static CELL: OnceLock<Vec<Row>> = OnceLock::new();
    CELL.get_or_init(|| {
        // Embedded and tested (tests/witnesses.rs): failing here is a bug in this crate.
        parse(include_str!("../data/witnesses.csv"))
            .unwrap_or_else(|e| panic!("data/witnesses.csv: {e}"))
    })
}

/// The draw the built-in tier keeps for task `index` of template `code`: the witness file's
/// attempt, or 0 (the generator's first valid draw) for a task it has no witness for.
pub fn kept_attempt(code: &str, index: u32) -> u32 {
    static CELL: OnceLock<BTreeMap<(String, u32), u32>> = OnceLock::new();
    CELL.get_or_init(|| {
        builtin()
            .iter()
            .filter(|r| r.found)
            .map(|r| ((r.template.clone(), r.index), r.attempt))
            .collect()
    })
    .get(&(code.to_string(), index))
    .copied()
    .unwrap_or(0)
}
