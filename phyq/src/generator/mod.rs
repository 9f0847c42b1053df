//! The Phy-Q task generator: 100 variations of each of the 75 templates, seeded and
//! reproducible bit for bit (the `phyq` tier, 7,500 tasks).
//!
//! A variation follows its template's rule ([`rules::RULES`], derived from the original
//! generator): a random place for the rule's anchor, the template's objects moved with it, then
//! up to three random blocks on the ground ([`distractors`]). It is then checked without
//! physics:
//! * every object that moved or was added lies inside the level (its box within the level's
//!   width, ±17.5 for the templates' width 2) and sinks no deeper than the ground or its own
//!   depth in the template;
//! * no two objects overlap (bounding boxes of the catalogue's colliders) unless they already
//!   did in the template;
//! * the anchor is under the reachability line when the rule keeps it reachable.
//!
//! A variation that fails is drawn again from the next attempt number (all draws are
//! functions of seed, template, index, attempt and draw number), never dropped; the attempt
//! that succeeded is kept in the entry's `source`. The physics-based soundness checks (starts
//! at rest, passable) can refuse a task and ask for the next one with
//! [`regenerate`]`(template, index, seed, attempt + 1)`; the built-in tier keeps the draw its
//! witness file names ([`crate::witnesses`], written by `rephyre phyq-witness`).
//!
//! Output levels keep the template's objects in its order, kinds, rotations and texts; moved
//! coordinates are written as exact decimals (at most five places); distractors follow the
//! template's objects.

pub mod distractors;
pub mod geometry;
pub mod reach;
pub mod rng;
pub mod rules;

use crate::level::{Level, Object, ObjectKind};
use crate::levelset::{Entry, LevelId, LevelSet};
use crate::templates::{templates, Template};
use geometry::{bounds_at, coord_of, decimal_of, Bounds, Coord};
use rng::Draws;
use rules::{Anchor, Moves, Pick, Place, Rule};
use std::sync::OnceLock;

/// Tasks per template in the built-in tier.
pub const TASKS_PER_TEMPLATE: u32 = 100;
/// The built-in tier's seed.
pub const BUILTIN_SEED: u64 = 0;
/// Attempts tried for one task before giving up (a rule that needs more is broken).
pub const MAX_ATTEMPTS: u32 = 1000;
/// Largest task index (ids have five digits).
pub const MAX_INDEX: u32 = 99_999;
/// Half the level width per unit of `Level@width`: 17.5 / 2 world units.
const HALF_WIDTH_PER_WIDTH: Coord = geometry::q("8.75");

/// Why no task could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    #[error("no template {0} (use a code such as 1_1_4 or a paper number such as 1.1)")]
    UnknownTemplate(String),
    #[error("task index {0} is not in 1..={MAX_INDEX}")]
    Index(u32),
    #[error("template {code}: {message}")]
    Rule { code: String, message: String },
    #[error("template {code}, task {index}: no valid variation in attempts {from}..{to}")]
    Exhausted {
        code: String,
        index: u32,
        from: u32,
        to: u32,
    },
}

/// Why one drawn variation was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    /// Object (index in the output level) outside the level or sunk below the ground.
    OutOfBounds { object: usize },
    /// Two objects overlap that did not in the template.
    Overlap { a: usize, b: usize },
    /// The anchor is above the reachability line.
    Unreachable,
}

/// A variation that passed the checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    pub level: Level,
    /// Distractors left out for want of a clear place on the ground.
    pub distractors_left_out: usize,
}

/// A task and how it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    pub level: Level,
    /// The attempt that gave it.
    pub attempt: u32,
    /// Attempts refused before it (from the attempt asked for), by reason.
    pub refused: Vec<Reject>,
    /// Distractors left out for want of a clear place on the ground.
    pub distractors_left_out: usize,
}

/// A template made ready: its level, rule, exact positions, boxes and anchor.
struct Prepared {
    code: String,
    file_name: String,
    key: u64,
    level: Level,
    rule: &'static Rule,
    pos: Vec<(Coord, Coord)>,
    boxes: Vec<Bounds>,
    /// The anchor's object, if it is one, and its position.
    anchor_object: Option<usize>,
    anchor: (Coord, Coord),
    /// Pairs overlapping in the template (row-major n × n).
    overlapping: Vec<bool>,
    half_width: Coord,
}

fn rule_error(code: &str, message: impl Into<String>) -> GenError {
    GenError::Rule {
        code: code.to_owned(),
        message: message.into(),
    }
}

fn prepare(t: &Template) -> Result<Prepared, GenError> {
    let code = t.code.clone();
    let rule = rules::rule_of(&code).ok_or_else(|| rule_error(&code, "no rule"))?;
    let level = t.level().map_err(|e| rule_error(&code, e.to_string()))?;
    let mut pos = Vec::with_capacity(level.objects.len());
    for (i, o) in level.objects.iter().enumerate() {
        match (coord_of(&o.x), coord_of(&o.y)) {
            (Some(x), Some(y)) => pos.push((x, y)),
            _ => {
                return Err(rule_error(
                    &code,
                    format!("object {i}: a position with more than five decimals"),
                ))
            }
        }
    }
    let boxes: Vec<Bounds> = level
        .objects
        .iter()
        .zip(&pos)
        .map(|(o, &(x, y))| bounds_at(o, x, y))
        .collect();
    let n = boxes.len();
    let mut overlapping = vec![false; n * n];
    for i in 0..n {
        for j in 0..n {
            overlapping[i * n + j] = i != j && boxes[i].overlaps(&boxes[j]);
        }
    }
    let anchor_object = find_anchor(&code, &level, &pos, rule)?;
    let anchor = match (rule.anchor, anchor_object) {
        (Anchor::Point { x, y }, _) => (x, y),
        (_, Some(i)) => pos[i],
        _ => return Err(rule_error(&code, "the anchor is not in the template")),
    };
    if rule.moves == Moves::AnchorOnly && anchor_object.is_none() {
        return Err(rule_error(&code, "only an object can move alone"));
    }
    let nums: Vec<u64> = code.split('_').filter_map(|s| s.parse().ok()).collect();
    let key = match nums[..] {
        [l, c, k] => l * 1_000_000 + c * 1_000 + k,
        _ => return Err(rule_error(&code, "not an L_C_K code")),
    };
    Ok(Prepared {
        file_name: t.file_name(),
        code,
        key,
        half_width: HALF_WIDTH_PER_WIDTH * level.width as Coord,
        level,
        rule,
        pos,
        boxes,
        anchor_object,
        anchor,
        overlapping,
    })
}

/// The object a rule's anchor names, if it names one.
fn find_anchor(
    code: &str,
    level: &Level,
    pos: &[(Coord, Coord)],
    rule: &Rule,
) -> Result<Option<usize>, GenError> {
    let matches = |o: &Object| match (rule.anchor, &o.kind) {
        (Anchor::Pig, ObjectKind::Pig { .. }) => true,
        (
            Anchor::Block {
                shape, material, ..
            },
            ObjectKind::Block {
                shape: s,
                material: m,
            },
        ) => shape == *s && material == *m,
        (Anchor::Platform { .. }, ObjectKind::Platform { .. }) => true,
        _ => false,
    };
    let pick = match rule.anchor {
        Anchor::Point { .. } => return Ok(None),
        Anchor::Pig => Pick::First,
        Anchor::Block { pick, .. } | Anchor::Platform { pick } => pick,
    };
    let found: Vec<usize> = (0..level.objects.len())
        .filter(|&i| matches(&level.objects[i]))
        .collect();
    let best = |key: &dyn Fn(usize) -> Coord| {
        // The first of the largest key.
        found
            .iter()
            .copied()
            .fold(None, |b: Option<usize>, i| match b {
                Some(j) if key(j) >= key(i) => Some(j),
                _ => Some(i),
            })
    };
    let chosen = match pick {
        Pick::First => found.first().copied(),
        Pick::Only => {
            if found.len() != 1 {
                return Err(rule_error(
                    code,
                    format!("{} objects match the anchor, expected one", found.len()),
                ));
            }
            found.first().copied()
        }
        Pick::HighestY => best(&|i| pos[i].1),
        Pick::LowestY => best(&|i| -pos[i].1),
        Pick::HighestX => best(&|i| pos[i].0),
    };
    chosen
        .map(Some)
        .ok_or_else(|| rule_error(code, "no object matches the anchor"))
}

fn prepared_all() -> &'static [Result<Prepared, GenError>] {
    static CELL: OnceLock<Vec<Result<Prepared, GenError>>> = OnceLock::new();
    CELL.get_or_init(|| templates().iter().map(prepare).collect())
}

fn prepared(t: &Template) -> Result<&'static Prepared, GenError> {
    let i = templates()
        .iter()
        .position(|x| x.code == t.code)
        .ok_or_else(|| GenError::UnknownTemplate(t.code.clone()))?;
    prepared_all()[i].as_ref().map_err(Clone::clone)
}

/// A template's anchor: the object it is (if one) and its position in the template.
pub fn anchor(template: &Template) -> Result<(Option<usize>, (Coord, Coord)), GenError> {
    let p = prepared(template)?;
    Ok((p.anchor_object, p.anchor))
}

/// One attempt: the variation it draws, or why the checks refuse it. `Err` only for a bad
/// index or a broken rule.
pub fn variation(
    template: &Template,
    index: u32,
    seed: u64,
    attempt: u32,
) -> Result<Result<Drawn, Reject>, GenError> {
    if !(1..=MAX_INDEX).contains(&index) {
        return Err(GenError::Index(index));
    }
    let p = prepared(template)?;
    let d = Draws {
        seed,
        template: p.key,
        index: index as u64,
        attempt: attempt as u64,
    };
    let (nx, ny) = p
        .rule
        .place
        .sample(&d, p.anchor)
        .map_err(|e| rule_error(&p.code, e.0))?;
    let (dx, dy) = (nx - p.anchor.0, ny - p.anchor.1);
    let n = p.pos.len();
    let shift = |i: usize| -> (Coord, Coord) {
        let moves = match p.rule.moves {
            _ if p.rule.place == Place::Stay => false,
            Moves::All => true,
            Moves::AnchorOnly => p.anchor_object == Some(i),
        };
        if moves {
            (dx, dy)
        } else {
            (0, 0)
        }
    };
    let mut boxes: Vec<Bounds> = Vec::with_capacity(n + distractors::COUNT);
    for i in 0..n {
        let (sx, sy) = shift(i);
        let b = p.boxes[i].shifted(sx, sy);
        if (sx, sy) != (0, 0) && !inside(p, b, p.boxes[i].y_lo) {
            return Ok(Err(Reject::OutOfBounds { object: i }));
        }
        boxes.push(b);
    }
    if p.rule.place.keeps_reachable() && !reach::reachable(nx, ny) {
        return Ok(Err(Reject::Unreachable));
    }
    let mut added = Vec::new();
    for k in 0..distractors::COUNT {
        if let Some(o) = distractors::distractor(&d, k, &boxes) {
            let b = distractors::bounds_of(&o)
                .ok_or_else(|| rule_error(&p.code, "a distractor off the grid"))?;
            if !inside(p, b, distractors::GROUND) {
                return Ok(Err(Reject::OutOfBounds { object: n + k }));
            }
            boxes.push(b);
            added.push(o);
        }
    }
    let left_out = distractors::COUNT - added.len();
    for a in 0..boxes.len() {
        for b in a + 1..boxes.len() {
            let before = a < n && b < n && p.overlapping[a * n + b];
            if !before && boxes[a].overlaps(&boxes[b]) {
                return Ok(Err(Reject::Overlap { a, b }));
            }
        }
    }
    let mut level = p.level.clone();
    for (i, o) in level.objects.iter_mut().enumerate() {
        let (sx, sy) = shift(i);
        if sx != 0 {
            o.x = decimal_of(p.pos[i].0 + sx);
        }
        if sy != 0 {
            o.y = decimal_of(p.pos[i].1 + sy);
        }
    }
    level.objects.extend(added);
    Ok(Ok(Drawn {
        level,
        distractors_left_out: left_out,
    }))
}

/// Whether a moved or added box is inside the level: within its width, its bottom no lower
/// than the ground or than `floor` (its bottom in the template, for a partly buried object).
fn inside(p: &Prepared, b: Bounds, floor: Coord) -> bool {
    b.x_lo >= -p.half_width && b.x_hi <= p.half_width && b.y_lo >= floor.min(distractors::GROUND)
}

/// The first valid variation from attempt `from` on: the hook for the soundness checks, which
/// call it with the refused task's attempt + 1.
pub fn regenerate(
    template: &Template,
    index: u32,
    seed: u64,
    from: u32,
) -> Result<Generated, GenError> {
    let mut refused = Vec::new();
    let to = from.saturating_add(MAX_ATTEMPTS);
    for attempt in from..to {
        match variation(template, index, seed, attempt)? {
            Ok(d) => {
                return Ok(Generated {
                    level: d.level,
                    attempt,
                    refused,
                    distractors_left_out: d.distractors_left_out,
                })
            }
            Err(why) => refused.push(why),
        }
    }
    Err(GenError::Exhausted {
        code: template.code.clone(),
        index,
        from,
        to,
    })
}

/// Task `index` (1..=[`MAX_INDEX`]; the tier uses 1..=100) of a template under `seed`.
pub fn generate(template: &Template, index: u32, seed: u64) -> Result<Level, GenError> {
    regenerate(template, index, seed, 0).map(|g| g.level)
}

/// [`generate`] for a hierarchy code (`1_1_4`) or paper number (`1.1`).
pub fn generate_named(name: &str, index: u32, seed: u64) -> Result<Level, GenError> {
    let t = crate::templates::find(name)
        .ok_or_else(|| GenError::UnknownTemplate(crate::number::short(name)))?;
    generate(t, index, seed)
}

/// The id of task `index` of a template: `phyq:L_C_K:NNNNN`, as the original names its files
/// (`L_CC_KK_NNNNN.xml`, from 00001).
pub fn task_id(template: &Template, index: u32) -> LevelId {
    let n: Vec<u32> = template
        .code
        .split('_')
        .filter_map(|s| s.parse().ok())
        .collect();
    match n[..] {
        [level, capability, template] => LevelId::Coded {
            level,
            capability,
            template,
            index,
        },
        _ => LevelId::Named(template.code.clone()),
    }
}

/// The template of a task id (`phyq:L_C_K:…`).
pub fn template_of(id: &LevelId) -> Option<&'static Template> {
    crate::templates::find(&id.template_code()?)
}

/// What generating a set cost, per template.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TemplateStats {
    pub code: String,
    pub tasks: u32,
    pub out_of_bounds: u32,
    pub overlaps: u32,
    pub unreachable: u32,
    pub distractors_left_out: u32,
}

impl TemplateStats {
    /// Variations drawn again.
    pub fn redraws(&self) -> u32 {
        self.out_of_bounds + self.overlaps + self.unreachable
    }
}

/// `per_template` tasks of every template under `seed`, each the first valid draw, and what it
/// cost.
pub fn generate_set(
    seed: u64,
    per_template: u32,
) -> Result<(LevelSet, Vec<TemplateStats>), GenError> {
    generate_set_from(seed, per_template, &|_, _| 0)
}

/// [`generate_set`] with task `index` of template `t` drawn from attempt `from(t, index)` on
/// (the built-in tier: the draw its witness file keeps).
pub fn generate_set_from(
    seed: u64,
    per_template: u32,
    from: &dyn Fn(&Template, u32) -> u32,
) -> Result<(LevelSet, Vec<TemplateStats>), GenError> {
    let mut entries = Vec::new();
    let mut stats = Vec::new();
    for t in templates() {
        let mut s = TemplateStats {
            code: t.code.clone(),
            ..TemplateStats::default()
        };
        for index in 1..=per_template {
            let g = regenerate(t, index, seed, from(t, index))?;
            for r in &g.refused {
                match r {
                    Reject::OutOfBounds { .. } => s.out_of_bounds += 1,
                    Reject::Overlap { .. } => s.overlaps += 1,
                    Reject::Unreachable => s.unreachable += 1,
                }
            }
            s.tasks += 1;
            s.distractors_left_out += g.distractors_left_out as u32;
            entries.push(Entry {
                id: task_id(t, index),
                source: format!(
                    "generated from {}, seed {seed}, attempt {}",
                    prepared(t)?.file_name,
                    g.attempt
                ),
                level: g.level,
            });
        }
        stats.push(s);
    }
    let set = LevelSet::new(entries).map_err(|e| rule_error("*", e.to_string()))?;
    Ok((set, stats))
}

/// The draw the built-in tier keeps for a task: the sound one its witness file names.
fn builtin_attempt(t: &Template, index: u32) -> u32 {
    crate::witnesses::kept_attempt(&t.code, index)
}

/// The built-in `phyq` tier: [`TASKS_PER_TEMPLATE`] tasks of each template under
/// [`BUILTIN_SEED`], each the sound draw of the witness file ([`crate::witnesses`]), made at
/// first use.
pub fn builtin_tasks() -> &'static LevelSet {
    static CELL: OnceLock<LevelSet> = OnceLock::new();
    CELL.get_or_init(|| {
        match generate_set_from(BUILTIN_SEED, TASKS_PER_TEMPLATE, &builtin_attempt) {
            Ok((set, _)) => set,
            // Every template's rule is exercised by the tests: failing here is a bug in this crate.
            Err(e) => panic!("the built-in phyq tier: {e}"),
        }
    })
}

/// Why [`find_builtin`] found no task.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FindError {
    /// The text is not a Phy-Q task id.
    #[error("{0}")]
    Malformed(String),
    /// A well-formed id outside the built-in tier.
    #[error("unknown Phy-Q task {0} (the tier has phyq:L_C_K:00001 to 00100 of the 75 templates)")]
    Unknown(LevelId),
}

/// The built-in task with this text id ([`builtin_task`]), or why there is none in one line;
/// front ends add where their users find the tier's ids.
pub fn find_builtin(id: &str) -> Result<Entry, FindError> {
    let parsed: LevelId = id.parse().map_err(FindError::Malformed)?;
    builtin_task(&parsed).ok_or(FindError::Unknown(parsed))
}

/// One task of the built-in tier by id, made alone: the same entry (id, source, level) as in
/// [`builtin_tasks`], without making the other 7,499. `None` for an id outside the tier.
pub fn builtin_task(id: &LevelId) -> Option<Entry> {
    let LevelId::Coded { index, .. } = id else {
        return None;
    };
    let t = template_of(id)?;
    if !(1..=TASKS_PER_TEMPLATE).contains(index) || task_id(t, *index) != *id {
        return None;
    }
    let g = regenerate(t, *index, BUILTIN_SEED, builtin_attempt(t, *index)).ok()?;
    Some(Entry {
        id: id.clone(),
        source: format!(
            "generated from {}, seed {BUILTIN_SEED}, attempt {}",
            t.file_name(),
            g.attempt
        ),
        level: g.level,
    })
}
