//! rephyre's pig shooter plans as the paper's ran: on the first task of each template, for every
//! pig, both arcs and both ends of the bird's tap interval, the shot it sends (the release point
//! in screen pixels, the tap time in milliseconds) is the one the original PigShooter sends
//! through the original environment wrapper, to the pixel and the millisecond.
//!
//! The fixture `data/pig_shooter_planner.csv` was written by the original's own code
//! (`scripts/phyq-agents-test.sh --write-planner-fixture`: the framework in
//! `../shared/reference/phy-q/agents`, its random choices scripted, against `rephyre
//! phyq-server`); CI's `phyq-agents` stage writes it again and fails if it differs. Each row also
//! holds what the original read of the screen (the slingshot's box after the pig shooter's swap,
//! the pig's target point), so a difference says whether the view or the plan moved.

use agents::phyq::planner::{
    pig_shooter_shot, pig_target, tap_choices, Choices, ScreenShot, Sling,
};
use phyq::game::Game;
use phyq::generator::builtin_tasks;
use phyq::picture::Framing;
use phyq::screen::AgentView;
use phyq::{BirdKind, LevelId};

const FIXTURE: &str = include_str!("data/pig_shooter_planner.csv");

fn bird_name(b: BirdKind) -> &'static str {
    match b {
        BirdKind::Red => "redBird",
        BirdKind::Yellow => "yellowBird",
        BirdKind::Blue => "blueBird",
        BirdKind::Black => "blackBird",
        BirdKind::White => "whiteBird",
    }
}

/// The choices of the original's scripted `random.randint` calls (`a-b:value` in call order:
/// the pig, the arc when there are two (0 takes the higher), the pig shooter's tap share, the
/// wrapper's tap time), each share or time its interval's start plus the value.
fn choices(draws: &str, bird: BirdKind) -> Choices {
    let calls: Vec<(&str, i64)> = draws
        .split(' ')
        .map(|c| {
            let (range, v) = c.split_once(':').unwrap();
            (range, v.parse().unwrap())
        })
        .collect();
    let mut rest = calls[1..].iter().peekable();
    let high = match rest.peek() {
        Some(("0-1", v)) => {
            rest.next();
            *v == 0
        }
        _ => false,
    };
    let lo = tap_choices(bird).map_or(0, |(lo, _)| lo);
    let mut taps = rest.map(|(_, v)| lo + v);
    Choices {
        pig: calls[0].1 as usize,
        high,
        tap_share: taps.next().unwrap_or(0),
        wrapper_tap_ms: taps.next().unwrap_or(0),
    }
}

#[test]
fn the_pig_shooter_sends_the_originals_shots() {
    let set = builtin_tasks();
    let mut lines = FIXTURE.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        header,
        [
            "task", "pig", "pigs", "bird", "draws", "sling_x", "sling_y", "sling_w", "sling_h",
            "target_x", "target_y", "x", "y", "tap_ms"
        ]
    );
    let (mut rows, mut wrong, mut templates) = (0, Vec::new(), Vec::new());
    let mut cache: Option<(String, AgentView, BirdKind)> = None;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let int = |i: usize| f[i].parse::<i64>().unwrap();
        if cache.as_ref().map(|c| c.0.as_str()) != Some(f[0]) {
            let id: LevelId = f[0].parse().unwrap();
            let level = &set.entries().iter().find(|e| e.id == id).unwrap().level;
            let mut game = Game::new(level).unwrap();
            game.settle();
            let view = AgentView::of(&game.scene(level), &Framing::of_level(level));
            cache = Some((f[0].to_string(), view, game.next_bird().unwrap()));
            templates.push(f[0].to_string());
        }
        let (_, view, bird) = cache.as_ref().unwrap();
        rows += 1;
        assert_eq!(
            bird_name(*bird),
            f[3],
            "{}: the bird on the slingshot",
            f[0]
        );
        assert_eq!(
            view.pigs.len() as i64,
            int(2),
            "{}: pigs on the screen",
            f[0]
        );
        let sling = Sling::of(view.slingshot.unwrap());
        assert_eq!(
            (sling.x, sling.y, sling.w, sling.h),
            (int(5), int(6), int(7), int(8)),
            "{}: the slingshot's box",
            f[0]
        );
        let c = choices(f[4], *bird);
        let target = pig_target(view.pigs[c.pig]);
        let want_target: (f64, f64) = (f[9].parse().unwrap(), f[10].parse().unwrap());
        assert_eq!(target, want_target, "{}: pig {}'s target", f[0], c.pig);
        let got = pig_shooter_shot(view, *bird, &c).unwrap();
        let want = ScreenShot {
            x: int(11),
            y: int(12),
            tap_ms: int(13),
        };
        if got != want {
            wrong.push(format!("{line}: rephyre {got:?}"));
        }
    }
    assert_eq!(templates.len(), 75, "the first task of every template");
    // Every pig, both arcs, both ends of the tap intervals: 208 shots on the tier of 2026-12-06.
    assert!(rows >= 208, "{rows} rows");
    assert!(
        wrong.is_empty(),
        "{} of {rows} shots differ from the original's:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
