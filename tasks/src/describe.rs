//! Tasks described in words: a task's summary and its line in a listing (`rephyre tasks show`,
//! `rephyre tasks list`).

use crate::model::{Part, ShapeType, Task};
use engine::BodyKind;
use std::fmt::Write as _;

/// A task's line in a listing: id, tier, number of objects (walls left out), description.
pub fn list_line(t: &Task) -> String {
    let objects = t
        .bodies()
        .iter()
        .filter(|b| b.shape_type != ShapeType::Undefined)
        .count();
    format!(
        "{}\t{}\t{} objects\t{}",
        t.id(),
        t.tier(),
        objects,
        t.description()
    )
}

fn shape_name(s: ShapeType) -> &'static str {
    match s {
        ShapeType::Undefined => "wall",
        ShapeType::Ball => "ball",
        ShapeType::Bar => "bar",
        ShapeType::Jar => "jar",
        ShapeType::StandingSticks => "standing sticks",
    }
}

fn colour_name(code: u8) -> &'static str {
    match code {
        1 => "red",
        2 => "green",
        3 => "blue",
        4 => "purple",
        5 => "gray",
        6 => "black",
        _ => "-",
    }
}

fn kind_name(k: BodyKind) -> &'static str {
    match k {
        BodyKind::Static => "static",
        BodyKind::Dynamic => "dynamic",
    }
}

/// The human-readable description of a task (`rephyre tasks show`): its tier, template, goal
/// and a table of its bodies.
pub fn summary(task: &Task) -> String {
    let mut out = String::new();
    let goal = task.goal();
    let b1 = &task.bodies()[goal.body1];
    let b2 = &task.bodies()[goal.body2];
    let _ = writeln!(out, "task:        {}", task.id());
    let _ = writeln!(out, "tier:        {}", task.tier());
    let _ = writeln!(out, "template:    {}", task.id().template_str());
    let _ = writeln!(out, "description: {}", task.description());
    let _ = writeln!(
        out,
        "goal:        body {} ({} {} {}) TOUCHING body {} ({} {} {}) for {} steps ({} s)",
        goal.body1,
        colour_name(task.colour(goal.body1).code()),
        kind_name(b1.kind),
        shape_name(b1.shape_type),
        goal.body2,
        colour_name(task.colour(goal.body2).code()),
        kind_name(b2.kind),
        shape_name(b2.shape_type),
        crate::GOAL_HOLD_STEPS,
        i64::from(crate::GOAL_HOLD_STEPS) / engine::settings::STEPS_PER_SECOND,
    );
    let _ = writeln!(out, "bodies:      {} (px, radians)", task.bodies().len());
    let _ = writeln!(
        out,
        "  {:>3}  {:<15} {:<7} {:<6} {:>9} {:>9} {:>8} {:>9}  parts",
        "#", "shape", "kind", "colour", "x", "y", "angle", "diameter"
    );
    for (i, b) in task.bodies().iter().enumerate() {
        let parts: Vec<String> = b
            .parts
            .iter()
            .map(|p| match p {
                Part::Circle { radius, .. } => format!("circle r={:.3}", radius.to_f64()),
                Part::Polygon { vertices } => format!("polygon {}", vertices.len()),
            })
            .collect();
        let _ = writeln!(
            out,
            "  {:>3}  {:<15} {:<7} {:<6} {:>9.3} {:>9.3} {:>8.4} {:>9.3}  {}",
            i,
            shape_name(b.shape_type),
            kind_name(b.kind),
            colour_name(task.colour(i).code()),
            b.position.x.to_f64(),
            b.position.y.to_f64(),
            b.angle.to_f64(),
            b.diameter.to_f64(),
            parts.join(", ")
        );
    }
    out
}
