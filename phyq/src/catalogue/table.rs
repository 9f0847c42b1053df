//! The catalogue as the Markdown table of docs/phyq-observations.md.

use super::{catalogue, Entry, Kind, Material, Shape};
use crate::number::Decimal;
use engine::{Fixed, Vec2};

/// The catalogue table of docs/phyq-observations.md (Markdown), generated from the data.
pub fn markdown_table() -> String {
    let cat = catalogue();
    let mut out = String::from(
        "| kind | material | collider | mass | gravity scale | friction | bounciness | life | defence |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    let one = Vec2::new(Fixed::ONE, Fixed::ONE);
    for e in cat.entries() {
        let mats: Vec<Option<Material>> = match e.kind {
            Kind::Block(_) => Material::ALL.iter().map(|&m| Some(m)).collect(),
            _ => vec![None],
        };
        for m in mats {
            let scale = match e.kind {
                Kind::Bird(_) | Kind::Egg => Vec2::new(e.scale.0.value(), e.scale.1.value()),
                _ => one,
            };
            let pm = cat.contact_material(e.kind, m);
            let mass = cat
                .mass(e.kind, m, scale)
                .map_or("kinematic".to_owned(), |v| format!("{:.4}", v.to_f64()));
            let text = |d: Option<&Decimal>| d.map_or("-".to_owned(), |d| d.text().to_owned());
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                e.kind,
                m.map_or("-", Material::name),
                collider_text(e),
                mass,
                e.gravity_scale,
                pm.friction,
                pm.bounciness,
                text(cat.life(e.kind, m)),
                text(cat.defense(e.kind, m)),
            ));
        }
    }
    out
}

/// A short description of a kind's enabled, solid colliders.
fn collider_text(e: &Entry) -> String {
    let parts: Vec<String> = e
        .colliders
        .iter()
        .filter(|c| c.enabled && !c.trigger)
        .map(|c| match &c.shape {
            Shape::Circle { radius } => format!("circle r {radius}"),
            Shape::Box { width, height } => format!("box {width} × {height}"),
            Shape::Polygon { paths } => {
                let holes = paths.len() - 1;
                let mut s = format!("polygon, {} points", paths[0].len());
                if holes > 0 {
                    s.push_str(&format!(", {holes} hole"));
                }
                s
            }
        })
        .collect();
    let mut s = parts.join(" + ");
    if e.colliders.iter().any(|c| !c.enabled) {
        s.push_str(" (+ disabled circle)");
    }
    if !(e.scale.0.text() == "1" && e.scale.1.text() == "1")
        && matches!(e.kind, Kind::Bird(_) | Kind::Egg)
    {
        s.push_str(&format!(", scale {} × {}", e.scale.0, e.scale.1));
    }
    s
}
