//! The action set: [`ACTIONS`] launches at full drag at an angle of −10° to 88° in steps of 2°
//! ([`angle_of`]); a bird with a power taps at a fixed share of its drag-free flight (the middle
//! of the AIBirds naive agent's interval for its kind). Each shot is put on the grid people type
//! ([`PixelShot::nearest`]), so every attempt replays with `rephyre simulate ID --shots`.

use engine::{sin_cos, Fixed, Vec2};
use phyq::game::{Game, PixelShot, Shot};
use phyq::{BirdKind, Level};

/// Shots in the action set.
pub const ACTIONS: usize = 50;

/// The launch angle of action `a` in degrees (−10, −8, …, 88).
pub fn angle_of(a: usize) -> i32 {
    -10 + 2 * a as i32
}

/// The tap of a bird with a power, percent of its flight: the middle of the AIBirds naive
/// agent's interval.
fn tap_share(bird: Option<BirdKind>) -> i64 {
    match bird {
        Some(BirdKind::Yellow) => 77,
        Some(BirdKind::Blue) => 75,
        _ => 80,
    }
}

/// The shot of action `a` for the next bird of `game` (`a < ACTIONS`; with no bird left, a
/// plain release of −50 px: the caller does not ask then). Closed-form: the bird's reach and
/// flight time, no simulation.
pub fn action_shot(game: &Game, level: &Level, a: usize) -> PixelShot {
    let Some(reach) = game.next_reach() else {
        return PixelShot {
            x: -50.0,
            y: 0.0,
            tap: 0.0,
        };
    };
    let (s, c) = sin_cos(phyq::number::radians(Fixed::from_int(angle_of(a))));
    let release = Vec2::new(-(c * reach.drag_radius), -(s * reach.drag_radius));
    let tap = if reach.has_power {
        game.flight_time(release)
            .map(|t| t * Fixed::ratio(tap_share(game.next_bird()), 100))
    } else {
        None
    };
    PixelShot::nearest(&Shot { release, tap }, level)
}
