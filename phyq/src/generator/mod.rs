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
use rules::{Anchor, Moves, Pick, Rule};
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
    rule: Rule,
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
    let rule = *rules::rule_of(&code).ok_or_else(|| rule_error(&code, "no rule"))?;
    let level = t.level().map_err(|e| rule_error(&code, e.to_string()))?;
    prepare_level(code, t.file_name(), level, rule)
}

/// [`prepare`] for a template's level and rule as given (the unit tests' own templates).
fn prepare_level(
    code: String,
    file_name: String,
    level: Level,
    rule: Rule,
) -> Result<Prepared, GenError> {
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
    let anchor_object = find_anchor(&code, &level, &pos, &rule)?;
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
        file_name,
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
    draw(p, &d)
}

/// One variation of a prepared template with these draws, checked.
fn draw(p: &Prepared, d: &Draws) -> Result<Result<Drawn, Reject>, GenError> {
    let (nx, ny) = p
        .rule
        .place
        .sample(d, p.anchor)
        .map_err(|e| rule_error(&p.code, e.0))?;
    let (dx, dy) = (nx - p.anchor.0, ny - p.anchor.1);
    let n = p.pos.len();
    // `Place::Stay` places the anchor where it is: a shift of zero.
    let shift = |i: usize| -> (Coord, Coord) {
        let moves = match p.rule.moves {
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
        if let Some(o) = distractors::distractor(d, k, &boxes) {
            let b = distractors::bounds_of(&o)
                .ok_or_else(|| rule_error(&p.code, "a distractor off the grid"))?;
            if !inside(p, b, distractors::GROUND) {
                // Its index in the level it would have made.
                return Ok(Err(Reject::OutOfBounds {
                    object: boxes.len(),
                }));
            }
            boxes.push(b);
            added.push(o);
        }
    }
    let left_out = distractors::COUNT - added.len();
    for a in 0..boxes.len() {
        for b in a + 1..boxes.len() {
            // a < b: both are the template's when b is.
            let before = b < n && p.overlapping[a * n + b];
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
    /// Counts one task made and what it cost.
    fn add(&mut self, g: &Generated) {
        for r in &g.refused {
            match r {
                Reject::OutOfBounds { .. } => self.out_of_bounds += 1,
                Reject::Overlap { .. } => self.overlaps += 1,
                Reject::Unreachable => self.unreachable += 1,
            }
        }
        self.tasks += 1;
        self.distractors_left_out += g.distractors_left_out as u32;
    }

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
            s.add(&g);
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

#[cfg(test)]
mod tests {
    //! The checks on hand-made templates: no draw of the 75 templates' tier is refused for an
    //! overlap, a distractor out of the level or the reachability line (the rules' places and
    //! the distractors' clear spans keep them out), so only these trip them.
    use super::*;
    use geometry::q;
    use rules::{span, Place};

    /// A template holding these objects, in a level `width` wide (17.5 world units each), made
    /// ready under a rule whose anchor is its first pig.
    fn template(objects: &str, width: u32, moves: Moves, place: Place) -> Prepared {
        let xml = format!(
            "<Level width=\"{width}\"><Camera x=\"0\" y=\"-1\" minWidth=\"25\" maxWidth=\"35\" /><Score highScore=\"0\" />\
             <Birds><Bird type=\"BirdRed\" /></Birds><Slingshot x=\"-12\" y=\"-2.5\" />\
             <GameObjects>{objects}</GameObjects></Level>"
        );
        let level = crate::xml::parse_level(xml.as_bytes()).expect("a level");
        let rule = Rule {
            code: "9_9_9",
            source: "a test",
            target: "the pig",
            anchor: Anchor::Pig,
            moves,
            place,
        };
        prepare_level("9_9_9".into(), "9_9_9_1.xml".into(), level, rule).expect("prepared")
    }

    /// A place that is one point: every attempt draws it.
    fn at(x: &str, y: &str) -> Place {
        Place::Box {
            x: span(q(x), q(x)),
            y: span(q(y), q(y)),
        }
    }

    fn attempt(p: &Prepared, attempt: u64) -> Result<Drawn, Reject> {
        let d = Draws {
            seed: 0,
            template: p.key,
            index: 1,
            attempt,
        };
        draw(p, &d).expect("no rule error")
    }

    const PIG: &str = r#"<Pig type="BasicSmall" x="0" y="0" rotation="0" />"#;
    const BLOCK_AT_5: &str = r#"<Block type="RectFat" material="wood" x="5" y="0" rotation="0" />"#;

    #[test]
    fn a_pig_moved_alone_onto_a_block_is_refused_and_beside_it_kept() {
        let objects = format!("{PIG}{BLOCK_AT_5}");
        let onto = template(&objects, 2, Moves::AnchorOnly, at("5", "0"));
        assert_eq!(onto.key, 9_009_009);
        assert_eq!(attempt(&onto, 0), Err(Reject::Overlap { a: 0, b: 1 }));
        let beside = template(&objects, 2, Moves::AnchorOnly, at("2", "0"));
        let drawn = attempt(&beside, 0).expect("kept");
        let l = &drawn.level;
        assert_eq!(
            (l.objects[0].x.to_string(), l.objects[0].y.to_string()),
            ("2".into(), "0".into())
        );
        assert_eq!(l.objects[1], beside.level.objects[1], "the block stays");
        // Three distractors on the open ground, each resting on it.
        assert_eq!((l.objects.len(), drawn.distractors_left_out), (5, 0));
    }

    #[test]
    fn objects_overlapping_in_the_template_may_go_on_overlapping() {
        let objects =
            format!(r#"{PIG}<Block type="RectFat" material="wood" x="0.1" y="0" rotation="0" />"#);
        let p = template(&objects, 2, Moves::AnchorOnly, at("0.2", "0"));
        assert!(
            p.boxes[0].overlaps(&p.boxes[1]),
            "they overlap in the template"
        );
        assert!(attempt(&p, 0).is_ok());
        let all = template(&objects, 2, Moves::All, at("3", "0"));
        let l = attempt(&all, 0).expect("kept").level;
        assert_eq!(
            (l.objects[0].x.to_string(), l.objects[1].x.to_string()),
            ("3".into(), "3.1".into())
        );
    }

    #[test]
    fn a_distractor_out_of_the_level_is_refused_by_its_index() {
        // A low platform 17.28 wide from x = -9.14 to 8.14: the ground is clear only right of
        // 9.19 (its edge and the 1.05 clearance), outside a level one unit (±8.75) wide.
        let objects = format!(
            r#"{PIG}<Platform type="Platform" x="-0.5" y="-3.2" rotation="0" scaleX="27" scaleY="1" />"#
        );
        let p = template(&objects, 1, Moves::All, Place::Stay);
        assert_eq!(p.half_width, q("8.75"));
        let spans = distractors::clear_spans(&p.boxes);
        assert_eq!(spans, vec![(q("9.19"), distractors::X_RANGE.1)]);
        for a in 0..5 {
            assert_eq!(attempt(&p, a), Err(Reject::OutOfBounds { object: 2 }));
        }
        // A level twice as wide (±17.5) keeps the first distractor there; the two others find
        // no clear ground left.
        let wide = template(&objects, 2, Moves::All, Place::Stay);
        let d = attempt(&wide, 0).expect("kept");
        assert_eq!((d.level.objects.len(), d.distractors_left_out), (3, 2));
    }

    #[test]
    fn distractors_with_no_clear_ground_are_left_out_and_counted() {
        // Ground clear from 8.81 to 9.397 only: the first distractor takes it (and its
        // clearance), the other two find none.
        let narrow = format!(
            r#"{PIG}<Platform type="Platform" x="-1.2" y="-3.2" rotation="0" scaleX="28" scaleY="1" />"#
        );
        let p = template(&narrow, 2, Moves::All, Place::Stay);
        assert_eq!(
            distractors::clear_spans(&p.boxes),
            vec![(q("8.81"), distractors::X_RANGE.1)]
        );
        let d = attempt(&p, 0).expect("kept");
        assert_eq!((d.level.objects.len(), d.distractors_left_out), (3, 2));
        // The ground covered from end to end: all three left out.
        let covered = format!(
            r#"{PIG}<Platform type="Platform" x="0" y="-3.2" rotation="0" scaleX="32" scaleY="1" />"#
        );
        let p = template(&covered, 2, Moves::All, Place::Stay);
        assert!(distractors::clear_spans(&p.boxes).is_empty());
        let d = attempt(&p, 0).expect("kept");
        assert_eq!((d.level.objects.len(), d.distractors_left_out), (2, 3));
    }

    #[test]
    fn an_anchor_left_above_the_line_is_refused() {
        // x is cut where the line crosses y = -3, but the pig keeps its own y: at 8 it is above
        // the line everywhere (its highest point is 7.1); at -3 it is under it.
        let place = Place::LeftOfLine {
            x: span(reach::X_MIN, reach::X_MAX),
            y: q("-3"),
        };
        let high = template(
            r#"<Pig type="BasicSmall" x="0" y="8" rotation="0" />"#,
            2,
            Moves::All,
            place,
        );
        assert_eq!(attempt(&high, 0), Err(Reject::Unreachable));
        let low = template(
            r#"<Pig type="BasicSmall" x="0" y="-3" rotation="0" />"#,
            2,
            Moves::All,
            place,
        );
        assert!(attempt(&low, 0).is_ok());
    }

    #[test]
    fn stats_count_each_reason_the_tasks_and_the_distractors_left_out() {
        let level = template(PIG, 2, Moves::All, Place::Stay).level;
        let g = |refused: Vec<Reject>, left_out| Generated {
            level: level.clone(),
            attempt: refused.len() as u32,
            refused,
            distractors_left_out: left_out,
        };
        let oob = Reject::OutOfBounds { object: 1 };
        let overlap = Reject::Overlap { a: 0, b: 1 };
        let mut s = TemplateStats::default();
        s.add(&g(
            vec![oob, overlap, oob, Reject::Unreachable, oob, overlap],
            2,
        ));
        s.add(&g(vec![], 1));
        assert_eq!(
            (
                s.tasks,
                s.out_of_bounds,
                s.overlaps,
                s.unreachable,
                s.distractors_left_out
            ),
            (2, 3, 2, 1, 3)
        );
        assert_eq!(s.redraws(), 6);
    }
}
