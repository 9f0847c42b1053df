//! Phy-Q pictures: a [`Scene`] as the 640 × 480 screenshot the game gives its agents, in the
//! original's colour codes ([`crate::colours`]).
//!
//! # Framing
//!
//! The game's camera (`ABGameplayCamera.cs`, `ABGameWorld.DecodeLevel`) is orthographic with the
//! screen's aspect, 640 × 480. Zoomed fully out (the camera's widest: `ZoomCamera` clamps its
//! width at the level's `Camera@maxWidth`) it shows `maxWidth` world units across; its x
//! settles at `LeftBound()` = width/2 − maxWidth/2 = 0 (the level's middle), its y is the
//! level's `Camera@y`; with a width-limited view
//! (`CalculateOrthographicSize`) the height is 3/4 of the width. rephyre frames every picture
//! that way ([`Framing::of_level`]): for the 75 templates (all `Camera y="-1" maxWidth="35"`)
//! x from −17.5 to 17.5 (the whole level, `width` 2 × 17.5) and y from −14.125 to 12.125,
//! 640/35 ≈ 18.29 pixels per unit. What is not in the reference: the camera's starting
//! orthographic size (set in the scene file), the damped motion towards that view and the zoom
//! an agent works at (`AdaptCameraWidthToLevel` starts narrower, fitted to the objects); rephyre
//! takes the settled, fully zoomed-out view, which shows the whole level.
//!
//! # Drawing
//!
//! Background ([`crate::colours::Painted::Background`]), then the ground (every pixel whose
//! centre is at or below the ground's surface), then each scene object in the scene's order,
//! each filled with its kind's code by [`raster::canvas`]'s exact rule: a pixel takes the
//! colour when its centre is inside or on the outline. World points go to picture units
//! (1/65,536 px) by one exact rounding of Q32.32 arithmetic ([`Framing::units`]); polygons with
//! holes and concave ones are first split into convex pieces, exactly, on the world points
//! ([`crate::decompose::convex_pieces`]). No floating point decides a pixel.

use crate::colours::{fill, fill_of, palette, Painted, SHEET_GAP, SHEET_STRIP, SHEET_TEXT};
use crate::decompose::convex_pieces;
use crate::level::Level;
use crate::scene::{Outline, Scene};
use engine::{Fixed, Vec2};
use raster::canvas::{self, SheetStyle, ONE};
use raster::Indexed;

/// Picture width in pixels.
pub const WIDTH: usize = 640;
/// Picture height in pixels.
pub const HEIGHT: usize = 480;

/// Which part of the world a picture shows: `width` world units across 640 pixels, the
/// top-left corner at (`left`, `top`), the same scale down (480 pixels = 3/4 of `width`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Framing {
    pub left: Fixed,
    pub top: Fixed,
    pub width: Fixed,
}

impl Framing {
    /// The game's fully zoomed-out view of a level (module doc).
    pub fn of_level(level: &Level) -> Framing {
        let width = level.camera.max_width.value();
        let half = width * Fixed::HALF;
        Framing {
            left: -half,
            top: level.camera.y.value() + width.mul_div(Fixed::from_int(3), Fixed::from_int(8)),
            width,
        }
    }

    /// A world point in picture units (1/65,536 px, x right, y down from the top-left corner),
    /// rounded to nearest, ties up: `(x − left)·640·65536 / width`, `(top − y)·640·65536 /
    /// width`, in 128-bit integers on the raw Q32.32 values.
    pub fn units(&self, p: Vec2) -> (i64, i64) {
        let den = i128::from(self.width.raw()).max(1);
        let scale = WIDTH as i128 * i128::from(ONE);
        let round = |num: i128| -> i64 {
            // ⌊num/den + ½⌋ = ⌊(2·num + den) / (2·den)⌋.
            let q = (2 * num + den).div_euclid(2 * den);
            q.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
        };
        (
            round((i128::from(p.x.raw()) - i128::from(self.left.raw())) * scale),
            round((i128::from(self.top.raw()) - i128::from(p.y.raw())) * scale),
        )
    }

    /// A world point in whole screen pixels (x right, y down from the top-left), rounded to
    /// nearest, ties up: the original's screen coordinates (`Mathf.Round` of Unity's screen
    /// point, y measured from the top).
    pub fn pixel(&self, p: Vec2) -> (i64, i64) {
        let (x, y) = self.units(p);
        let half = ONE / 2;
        ((x + half).div_euclid(ONE), (y + half).div_euclid(ONE))
    }

    /// A world length in picture units (rounded to nearest).
    pub fn length_units(&self, l: Fixed) -> i64 {
        let (a, _) = self.units(Vec2::new(self.left + l, self.top));
        a
    }
}

fn fill_outline(img: &mut Indexed, framing: &Framing, outline: &Outline, value: u8) {
    match outline {
        Outline::Circle { centre, radius } => {
            let (cx, cy) = framing.units(*centre);
            raster::canvas::fill_circle(img, cx, cy, framing.length_units(*radius), value);
        }
        Outline::Polygon { paths } => {
            // Convex pieces are found on the world points: the decomposition is exact on them.
            // A degenerate outline (a platform scaled flat) has none and draws nothing.
            if let Ok(pieces) = convex_pieces(paths) {
                for piece in pieces {
                    let vs: Vec<(i64, i64)> =
                        piece.vertices().iter().map(|&v| framing.units(v)).collect();
                    canvas::fill_convex(img, &vs, value);
                }
            }
        }
    }
}

/// The picture of a scene in a framing: 640 × 480 codes, row 0 at the top.
pub fn render(scene: &Scene, framing: &Framing) -> Indexed {
    let mut img = Indexed::new(WIDTH, HEIGHT, fill(Painted::Background));
    // The ground: rows whose centre is at or below its surface.
    let (_, ground) = framing.units(Vec2::new(framing.left, scene.ground_y));
    let big = (WIDTH as i64 + 1) * ONE;
    canvas::fill_convex(
        &mut img,
        &[(-ONE, ground), (big, ground), (big, big), (-ONE, big)],
        fill(Painted::Ground),
    );
    for o in &scene.objects {
        let value = fill_of(o.kind, o.material);
        for outline in o.outlines() {
            fill_outline(&mut img, framing, &outline, value);
        }
    }
    img
}

/// The picture of a level's initial state, in the game's framing of it.
pub fn render_level(level: &Level) -> Indexed {
    render(&Scene::initial(level), &Framing::of_level(level))
}

/// A picture as PNG bytes in the 256-code palette.
pub fn png_bytes(img: &Indexed) -> Result<Vec<u8>, raster::PictureError> {
    canvas::png_bytes(img, &palette())
}

/// A labelled contact sheet of pictures, each shrunk `shrink` times (1 to 8), `columns` wide.
pub fn sheet(pictures: &[Indexed], labels: &[&str], columns: usize, shrink: usize) -> Indexed {
    let tiles: Vec<Indexed> = pictures
        .iter()
        .map(|p| canvas::shrink(p, shrink.clamp(1, 8)))
        .collect();
    canvas::sheet(
        &tiles,
        Some(labels),
        columns,
        SheetStyle {
            gap: SHEET_GAP,
            strip: SHEET_STRIP,
            text: SHEET_TEXT,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{BlockShape, Kind, Material};
    use crate::colours::Painted;
    use crate::scene::{SceneObject, Source};

    #[test]
    fn the_templates_framing() {
        let level = crate::templates::find("1.1").unwrap().level().unwrap();
        let f = Framing::of_level(&level);
        assert_eq!(f.units(Vec2::new(f.left, f.top)), (0, 0));
        // The level's right edge, 17.5, is the picture's right edge; y = −14.125 its bottom.
        let corner = Vec2::new(
            Fixed::from_f64(17.5).unwrap(),
            Fixed::from_f64(-14.125).unwrap(),
        );
        assert_eq!(f.units(corner), (640 * ONE, 480 * ONE));
        // The slingshot at (−12, −2.5): x = 5.5 · 640/35 = 100.571…, y = 14.625 · 640/35.
        let sling = f.pixel(Vec2::new(
            Fixed::from_int(-12),
            Fixed::from_f64(-2.5).unwrap(),
        ));
        assert_eq!(sling, (101, 267));
    }

    #[test]
    fn a_block_is_drawn_where_it_is() {
        let level = crate::templates::find("1.1").unwrap().level().unwrap();
        let f = Framing::of_level(&level);
        let mut scene = Scene::initial(&level);
        scene.objects.clear();
        // A stone SquareSmall (0.3772 wide, 6.897 px) centred at the level's middle.
        scene.objects.push(SceneObject::at(
            Source::Object(0),
            Kind::Block(BlockShape::SquareSmall),
            Some(Material::Stone),
            Vec2::ZERO,
            Fixed::ZERO,
        ));
        let img = render(&scene, &f);
        assert_eq!((img.width, img.height), (WIDTH, HEIGHT));
        let stone = fill(Painted::Block(Material::Stone));
        let n = img.pixels.iter().filter(|&&p| p == stone).count();
        // (0, 0) is at (320, 256·…): 6.897 px across, 6 or 7 centres each way.
        assert!((36..=49).contains(&n), "{n}");
        let (cx, cy) = f.pixel(Vec2::ZERO);
        assert_eq!(img.pixels[cy as usize * WIDTH + cx as usize], stone);
        // Sky above, ground below the surface.
        assert_eq!(img.pixels[5 * WIDTH + 5], fill(Painted::Background));
        assert_eq!(img.pixels[470 * WIDTH + 5], fill(Painted::Ground));
    }
}
