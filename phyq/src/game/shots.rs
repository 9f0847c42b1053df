//! Shots as people and agents write them: `x,y,tap` in pixels of the level's 640 × 480 picture
//! (x right, y up, from the bird's rest point on the slingshot) and seconds, parsed and checked
//! here so that every front end refuses the same inputs with the same words.

use super::play::{tap_step, Shot, MAX_SHOT_STEPS, STEPS_PER_SECOND};
use crate::level::Level;
use crate::picture::{Framing, WIDTH};
use engine::{Fixed, Vec2};

/// Largest release offset accepted, in pixels (the drag radius clamps any offset longer than
/// about 18 pixels anyway; this only keeps the numbers sane).
pub const MAX_OFFSET_PX: f64 = 10_000.0;
/// Most shots in one list.
pub const MAX_SHOTS: usize = 100;

/// Why a shot list was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShotError {
    #[error("empty shot list (expected x,y,tap;x,y,tap…, e.g. -60,20,0)")]
    Empty,
    #[error("shot {index}: expected 3 numbers x,y,tap, got {got}")]
    Arity { index: usize, got: usize },
    #[error("shot {index}: {what} {text:?} is not a number")]
    NotANumber {
        index: usize,
        what: &'static str,
        text: String,
    },
    #[error("shot {index}: {what} is {text} (must be a finite number)")]
    NotFinite {
        index: usize,
        what: &'static str,
        text: String,
    },
    #[error("shot {index}: {what} {value} is out of range ({range})")]
    OutOfRange {
        index: usize,
        what: &'static str,
        value: String,
        range: String,
    },
    #[error("shot {index}: tap time {value} s is before the launch (0 means no tap)")]
    TapBeforeLaunch { index: usize, value: String },
    #[error("more than {MAX_SHOTS} shots")]
    TooMany,
}

/// One shot in pixels and seconds, as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelShot {
    pub x: f64,
    pub y: f64,
    /// Seconds after the launch; 0: no tap.
    pub tap: f64,
}

/// `x,y,tap` as [`parse_shots`] reads it (Rust's shortest round-trip form of each number).
impl std::fmt::Display for PixelShot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{}", self.x, self.y, self.tap)
    }
}

/// Shots as `--shots` takes them: `x,y,tap;x,y,tap…`.
pub fn format_shots(shots: &[PixelShot]) -> String {
    shots
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(";")
}

fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Parses `x,y,tap;x,y,tap…` (spaces allowed around numbers; an empty last shot after a
/// trailing `;` is ignored).
pub fn parse_shots(text: &str) -> Result<Vec<PixelShot>, ShotError> {
    let mut out = Vec::new();
    let parts: Vec<&str> = text.split(';').collect();
    let n = parts.len() - usize::from(parts.last().is_some_and(|p| p.trim().is_empty()));
    for (index, part) in parts[..n].iter().enumerate() {
        if out.len() == MAX_SHOTS {
            return Err(ShotError::TooMany);
        }
        let fields: Vec<&str> = part.split(',').map(str::trim).collect();
        if fields.len() != 3 {
            return Err(ShotError::Arity {
                index,
                got: if part.trim().is_empty() {
                    0
                } else {
                    fields.len()
                },
            });
        }
        let mut v = [0.0; 3];
        for (k, (what, text)) in ["x", "y", "tap"].into_iter().zip(&fields).enumerate() {
            let x: f64 = text.parse().map_err(|_| ShotError::NotANumber {
                index,
                what,
                text: short(text),
            })?;
            if !x.is_finite() {
                return Err(ShotError::NotFinite {
                    index,
                    what,
                    text: short(text),
                });
            }
            v[k] = x;
        }
        for (what, x) in [("x", v[0]), ("y", v[1])] {
            if x.abs() > MAX_OFFSET_PX {
                return Err(ShotError::OutOfRange {
                    index,
                    what,
                    value: x.to_string(),
                    range: format!("at most {MAX_OFFSET_PX} pixels either way"),
                });
            }
        }
        let max_tap = f64::from(MAX_SHOT_STEPS / STEPS_PER_SECOND);
        if v[2] < 0.0 {
            return Err(ShotError::TapBeforeLaunch {
                index,
                value: v[2].to_string(),
            });
        }
        if v[2] > max_tap {
            return Err(ShotError::OutOfRange {
                index,
                what: "tap time",
                value: v[2].to_string(),
                range: format!("0 to {max_tap} s"),
            });
        }
        out.push(PixelShot {
            x: v[0],
            y: v[1],
            tap: v[2],
        });
    }
    if out.is_empty() {
        return Err(ShotError::Empty);
    }
    Ok(out)
}

/// Hundredths of a pixel: the grid of [`PixelShot::nearest`].
const PIXEL_GRID: i64 = 100;

impl PixelShot {
    /// The shot on the grid people type that is nearest to `shot` for `level`: release in
    /// hundredths of a pixel, tap on a whole step. Playing `nearest(s).to_shot(level)` is
    /// exactly what `--shots` with its text plays, so a search that plays these writes
    /// witnesses anyone can replay.
    pub fn nearest(shot: &Shot, level: &Level) -> PixelShot {
        let per_pixel = Framing::of_level(level).width.div_int(WIDTH as i64);
        let hundredths = |m: Fixed| ((m / per_pixel).mul_int(PIXEL_GRID) + Fixed::HALF).floor_int();
        let grid = |k: i64| k as f64 / PIXEL_GRID as f64;
        let steps = shot.tap.map_or(0, tap_step);
        PixelShot {
            x: grid(hundredths(shot.release.x)),
            y: grid(hundredths(shot.release.y)),
            tap: steps as f64 / f64::from(STEPS_PER_SECOND),
        }
    }

    /// The shot in the game's units for `level`: pixels of its picture's framing (its camera's
    /// `maxWidth` across 640 pixels: 35/640 m for every built-in task) to metres, converted
    /// once to Q32.32 and scaled exactly.
    pub fn to_shot(self, level: &Level) -> Shot {
        let per_pixel = Framing::of_level(level).width.div_int(WIDTH as i64);
        let fixed = |x: f64| Fixed::from_f64(x).expect("checked finite and in range");
        Shot {
            release: Vec2::new(fixed(self.x) * per_pixel, fixed(self.y) * per_pixel),
            tap: (self.tap > 0.0).then(|| fixed(self.tap)),
        }
    }
}

/// A shot as the original's agents send it to the game: `(x, y)` where the bird is let go, in
/// whole pixels of the 640 × 480 screen of `framing` (x right, y down; the pixel's corner, as the
/// game takes it), and the tap `tap_ms` milliseconds of game time after the launch (0 or less:
/// no tap). The original fires the power on the first frame at least `tap_ms` after the release;
/// rephyre taps at the first physics step whose time since the launch is at least `tap_ms` (20 ms
/// a step). A tap after the longest shot never comes: none. `rest` is the bird's rest point.
pub fn screen_shot(x: i64, y: i64, tap_ms: i64, rest: Vec2, framing: &Framing) -> Shot {
    let per_pixel = framing.width.div_int(WIDTH as i64);
    let point = Vec2::new(
        framing.left + per_pixel.mul_int(x),
        framing.top - per_pixel.mul_int(y),
    );
    let step_ms = 1000 / i64::from(STEPS_PER_SECOND);
    let tap = match tap_ms {
        ms if ms <= 0 || ms > MAX_TAP_MS => None,
        // The first whole step at or after it, in seconds (exact: a step is 1/50 s).
        ms => {
            let steps = (ms + step_ms - 1) / step_ms;
            Some(Fixed::from_int(steps as i32).div_int(i64::from(STEPS_PER_SECOND)))
        }
    };
    Shot {
        release: point - rest,
        tap,
    }
}

/// The latest tap [`screen_shot`] takes, in milliseconds: the longest shot's last step.
pub const MAX_TAP_MS: i64 = MAX_SHOT_STEPS as i64 * 1000 / STEPS_PER_SECOND as i64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shots_parse_and_refuse_with_one_reason() {
        let s = parse_shots("-60,20,0; -55.5 , 30 ,1.2;").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            s[1],
            PixelShot {
                x: -55.5,
                y: 30.0,
                tap: 1.2
            }
        );
        let err = |t: &str| parse_shots(t).unwrap_err().to_string();
        assert_eq!(
            err(""),
            "empty shot list (expected x,y,tap;x,y,tap…, e.g. -60,20,0)"
        );
        assert_eq!(err("-60,20"), "shot 0: expected 3 numbers x,y,tap, got 2");
        assert_eq!(
            err("1,2,3;4,5,6,7"),
            "shot 1: expected 3 numbers x,y,tap, got 4"
        );
        assert_eq!(
            err("-60,NaN,0"),
            "shot 0: y is NaN (must be a finite number)"
        );
        assert_eq!(err("-60,abc,0"), "shot 0: y \"abc\" is not a number");
        assert_eq!(
            err("-60,20,-1"),
            "shot 0: tap time -1 s is before the launch (0 means no tap)"
        );
        assert!(err("1e9,0,0").contains("out of range"));
        assert!(err("0,0,61").contains("tap time 61 is out of range (0 to 60 s)"));
        assert_eq!(err(&"0,0,0;".repeat(101)), "more than 100 shots");
    }

    #[test]
    fn shots_are_written_as_they_are_read() {
        let shots = [
            PixelShot {
                x: -55.5,
                y: 30.0,
                tap: 1.2,
            },
            PixelShot {
                x: -60.0,
                y: 20.0,
                tap: 0.0,
            },
        ];
        assert_eq!(format_shots(&shots), "-55.5,30,1.2;-60,20,0");
        assert_eq!(parse_shots(&format_shots(&shots)).unwrap(), shots);
    }

    #[test]
    fn the_limits_are_inclusive() {
        // 10,000 pixels either way and a tap at 60 s are the last values accepted.
        let s = parse_shots("10000,-10000,60").unwrap();
        assert_eq!((s[0].x, s[0].y, s[0].tap), (10_000.0, -10_000.0, 60.0));
        let err = |t: &str| parse_shots(t).unwrap_err().to_string();
        assert!(err("10000.5,0,0").contains("x 10000.5 is out of range"));
        assert!(err("0,-10000.5,0").contains("y -10000.5 is out of range"));
        assert!(err("0,0,60.01").contains("tap time 60.01 is out of range"));
    }

    #[test]
    fn nearest_rounds_to_hundredths_of_a_pixel_and_whole_steps() {
        // maxWidth 35 m over 640 pixels: 7/128 m a pixel. 1 m is 128/7 = 18.2857… pixels:
        // 18.29; 0.5 m is 9.1428…: 9.14; −1 m −18.29. A tap at 0.515 s is 25.75 steps: the
        // 26th, 0.52 s; one at 0.005 s the first step after the launch, 0.02 s.
        let level = crate::templates::find("1_1_4").unwrap().level().unwrap();
        let shot = |x: Fixed, y: Fixed, tap: Option<Fixed>| Shot {
            release: Vec2::new(x, y),
            tap,
        };
        let near = PixelShot::nearest(
            &shot(Fixed::ONE, Fixed::HALF, Some(Fixed::ratio(515, 1000))),
            &level,
        );
        assert_eq!((near.x, near.y, near.tap), (18.29, 9.14, 0.52));
        let near = PixelShot::nearest(
            &shot(-Fixed::ONE, Fixed::ZERO, Some(Fixed::ratio(5, 1000))),
            &level,
        );
        assert_eq!((near.x, near.y, near.tap), (-18.29, 0.0, 0.02));
        let near = PixelShot::nearest(&shot(Fixed::ZERO, -Fixed::HALF, None), &level);
        assert_eq!((near.x, near.y, near.tap), (0.0, -9.14, 0.0));
    }

    #[test]
    fn screen_shots_measure_from_the_pictures_corner_down() {
        // A made-up framing: left −17.5 m, top 12 m, 35 m across (7/128 m a pixel). Pixel
        // (128, 256) is 7 m right of the left edge and 14 m below the top: (−10.5, −2); from a
        // rest point (−12, −1.5) the release is (1.5, −0.5).
        let framing = Framing {
            left: Fixed::from_int(-35) * Fixed::HALF,
            top: Fixed::from_int(12),
            width: Fixed::from_int(35),
        };
        let rest = Vec2::new(Fixed::from_int(-12), Fixed::from_int(-3) * Fixed::HALF);
        let at = |tap_ms| screen_shot(128, 256, tap_ms, rest, &framing);
        let s = at(0);
        assert_eq!(
            s.release,
            Vec2::new(Fixed::from_int(3) * Fixed::HALF, -Fixed::HALF)
        );
        assert_eq!(s.tap, None);
        // A tap on the first whole step at or after it: 25 ms and 40 ms are the second (0.04 s),
        // 41 ms the third; none before the launch or after the longest shot.
        let step = |n: i32| Some(Fixed::from_int(n).div_int(50));
        assert_eq!(at(25).tap, step(2));
        assert_eq!(at(40).tap, step(2));
        assert_eq!(at(41).tap, step(3));
        assert_eq!(at(-5).tap, None);
        assert_eq!(at(MAX_TAP_MS).tap, step(3000));
        assert_eq!(at(MAX_TAP_MS + 1).tap, None);
    }

    #[test]
    fn pixels_become_metres_by_the_level_framing() {
        let level = crate::templates::find("1_1_4").unwrap().level().unwrap();
        // maxWidth 35: 640 pixels = 35 m.
        let shot = PixelShot {
            x: -64.0,
            y: 32.0,
            tap: 0.0,
        }
        .to_shot(&level);
        assert!((shot.release.x.to_f64() + 3.5).abs() < 1e-9);
        assert!((shot.release.y.to_f64() - 1.75).abs() < 1e-9);
        assert_eq!(shot.tap, None);
        let tapped = PixelShot {
            x: 0.0,
            y: 0.0,
            tap: 0.5,
        }
        .to_shot(&level);
        assert_eq!(tapped.tap, Some(Fixed::HALF));
    }
}
