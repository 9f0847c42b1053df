//! Criterion benchmarks live in `benches/`; run them with `cargo bench -p rephyre-benches`.
//! What two of them share lives here.

use engine::{Fixed, Vec2};
use phyq::game::{Game, Shot};

/// The Phy-Q bench's games: the first built-in task of each of the 75 templates, in template
/// order, after the level's opening (the 2 s before the first shot).
pub fn phyq_openings() -> Vec<Game> {
    let set = phyq::generator::builtin_tasks();
    phyq::templates::templates()
        .iter()
        .map(|t| {
            let e = set
                .entries()
                .iter()
                .find(|e| phyq::generator::template_of(&e.id).is_some_and(|x| x.code == t.code))
                .expect("a task of every template");
            let mut g = Game::new(&e.level).expect("playable");
            g.settle();
            g
        })
        .collect()
}

/// The Phy-Q bench's shot, the same on every template: released 1 m behind the rest point,
/// 30° below the horizontal (launched at 30° up, full power), no tap.
pub fn phyq_shot() -> Shot {
    let (s, c30) = engine::sin_cos(Fixed::PI.div_int(6));
    Shot {
        release: Vec2::new(-c30, -s),
        tap: None,
    }
}
