//! Pictures for people: PNG frames in the display palette (scaled up by an integer factor and
//! flipped so that the world's up is the picture's up), animated GIFs of rollouts with the
//! action (the user balls' initial outlines) drawn over every frame, and contact sheets of many
//! scenes with optional small labels.
//!
//! Pictures are indexed-colour images ([`Indexed`]) in [`PALETTE`]: the seven observation
//! colours, then a few overlay colours. Writers return [`PictureError`] for unwritable paths
//! and impossible sizes; nothing here panics on bad input.

use crate::font;
use crate::observation::{Observation, SIZE};
use engine::Fixed;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Display colours of the pixel values 0–6 (white, #f34f46, #6bcebb, #1877f2, #4b4aa4,
/// #b9cad2, black), then the overlay colours [`OUTLINE`], [`GAP`] and [`TEXT`].
pub const PALETTE: [[u8; 3]; 10] = [
    [0xff, 0xff, 0xff],
    [0xf3, 0x4f, 0x46],
    [0x6b, 0xce, 0xbb],
    [0x18, 0x77, 0xf2],
    [0x4b, 0x4a, 0xa4],
    [0xb9, 0xca, 0xd2],
    [0x00, 0x00, 0x00],
    [0x8b, 0x00, 0x00],
    [0xdd, 0xdd, 0xdd],
    [0x40, 0x40, 0x40],
];
/// Palette index of action outlines (dark red).
pub const OUTLINE: u8 = 7;
/// Palette index of the gaps between contact-sheet tiles (light gray).
pub const GAP: u8 = 8;
/// Palette index of label text (dark gray).
pub const TEXT: u8 = 9;

/// Largest scale factor [`Indexed::from_observation`] applies (8,192 × 8,192 pixels); larger
/// requests are reduced to it rather than exhausting memory.
pub const MAX_SCALE: usize = 32;

/// Gap between contact-sheet tiles, in pixels.
pub const SHEET_GAP: usize = 4;
/// Height of a label strip under a contact-sheet tile (5-pixel glyphs, 2 pixels above and
/// below).
pub const LABEL_HEIGHT: usize = font::GLYPH_H + 4;

/// Why a picture could not be written.
#[derive(Debug)]
pub enum PictureError {
    /// The file could not be created or written.
    Io(PathBuf, std::io::Error),
    /// The encoder refused the picture (e.g. a GIF wider than 65,535 pixels, frames of
    /// different sizes, no frames).
    Encode(String),
}

impl core::fmt::Display for PictureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PictureError::Io(p, _) => write!(f, "cannot write {}", p.display()),
            PictureError::Encode(e) => write!(f, "cannot encode picture: {e}"),
        }
    }
}

impl std::error::Error for PictureError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PictureError::Io(_, e) => Some(e),
            PictureError::Encode(_) => None,
        }
    }
}

/// An indexed-colour image: `pixels[row * width + column]` are [`PALETTE`] indices, **row 0 at
/// the top** (display order, unlike observations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexed {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Palette indices, row-major from the top row.
    pub pixels: Vec<u8>,
}

impl Indexed {
    /// A `width` × `height` image filled with palette index `fill`.
    pub fn new(width: usize, height: usize, fill: u8) -> Indexed {
        Indexed {
            width,
            height,
            pixels: vec![fill; width * height],
        }
    }

    /// An observation scaled by `scale` (1 ≤ scale ≤ [`MAX_SCALE`], clamped) and flipped so
    /// that the world's up is the image's up.
    pub fn from_observation(obs: &Observation, scale: usize) -> Indexed {
        let s = scale.clamp(1, MAX_SCALE);
        let n = SIZE * s;
        let mut img = Indexed::new(n, n, 0);
        for (row, out) in img.pixels.chunks_exact_mut(n).enumerate() {
            let src = obs.row(SIZE - 1 - row / s);
            for (x, &v) in src.iter().enumerate() {
                out[x * s..(x + 1) * s].fill(v);
            }
        }
        img
    }

    /// Paste `src` with its top-left corner at (`left`, `top`), clipped to this image.
    pub fn blit(&mut self, src: &Indexed, left: usize, top: usize) {
        if left >= self.width || top >= self.height {
            return;
        }
        let w = src.width.min(self.width - left);
        for r in 0..src.height.min(self.height - top) {
            let d = (top + r) * self.width + left;
            self.pixels[d..d + w].copy_from_slice(&src.pixels[r * src.width..r * src.width + w]);
        }
    }

    /// Draw a circle outline about 2 image pixels thick. The circle is given in **world
    /// pixels** (centre (`cx`, `cy`), y up, radius `r`) of an image made by
    /// [`Indexed::from_observation`] with the same `scale`. Non-finite input draws nothing.
    #[allow(clippy::float_arithmetic)]
    pub fn outline_circle(&mut self, cx: f64, cy: f64, r: f64, scale: usize, index: u8) {
        if !(cx.is_finite() && cy.is_finite() && r.is_finite()) || r < 0.0 {
            return;
        }
        let s = scale.clamp(1, MAX_SCALE) as f64;
        // Centre and radius in image pixels (y down).
        let (icx, icy, ir) = (cx * s, (SIZE as f64 - cy) * s, r * s);
        let half_width = 1.0;
        let reach = ir + half_width + 1.0;
        let clip = |v: f64, n: usize| v.clamp(0.0, n as f64) as usize;
        let (x0, x1) = (clip(icx - reach, self.width), clip(icx + reach, self.width));
        let (y0, y1) = (
            clip(icy - reach, self.height),
            clip(icy + reach, self.height),
        );
        for y in y0..y1 {
            for x in x0..x1 {
                let dx = x as f64 + 0.5 - icx;
                let dy = y as f64 + 0.5 - icy;
                if ((dx * dx + dy * dy).sqrt() - ir).abs() <= half_width {
                    self.pixels[y * self.width + x] = index;
                }
            }
        }
    }

    /// Write `text` in the 3 × 5 font, each font pixel `size` × `size` image pixels, with its
    /// top-left corner at (`left`, `top`); clipped to the image.
    pub fn text(&mut self, text: &str, left: usize, top: usize, size: usize, index: u8) {
        let size = size.max(1);
        for (i, c) in text.chars().enumerate() {
            let gx = left + i * font::ADVANCE * size;
            if gx >= self.width {
                break;
            }
            for (gy, bits) in font::glyph(c).iter().enumerate() {
                for bit in 0..font::GLYPH_W {
                    if bits & (1 << (font::GLYPH_W - 1 - bit)) == 0 {
                        continue;
                    }
                    for dy in 0..size {
                        for dx in 0..size {
                            let (x, y) = (gx + bit * size + dx, top + gy * size + dy);
                            if x < self.width && y < self.height {
                                self.pixels[y * self.width + x] = index;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A circle of the action (a user ball's initial position), in scene pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionCircle {
    /// Centre x (px).
    pub x: Fixed,
    /// Centre y (px, y up).
    pub y: Fixed,
    /// Radius (px).
    pub r: Fixed,
}

/// Frames of a rollout as pictures, each with the action's circles outlined (where the user
/// balls started), scaled by `scale`.
pub fn action_frames(
    frames: &[Observation],
    action: &[ActionCircle],
    scale: usize,
) -> Vec<Indexed> {
    frames
        .iter()
        .map(|f| {
            let mut img = Indexed::from_observation(f, scale);
            for c in action {
                img.outline_circle(c.x.to_f64(), c.y.to_f64(), c.r.to_f64(), scale, OUTLINE);
            }
            img
        })
        .collect()
}

/// Encode an indexed image as PNG bytes (8-bit palette, default compression) in [`PALETTE`].
pub fn png_bytes(img: &Indexed) -> Result<Vec<u8>, PictureError> {
    png_bytes_in(img, &PALETTE)
}

/// Write bytes to `path`, mapping every failure to [`PictureError::Io`].
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), PictureError> {
    let io = |e| PictureError::Io(path.to_path_buf(), e);
    let mut f = File::create(path).map_err(io)?;
    f.write_all(bytes).map_err(io)?;
    f.sync_all().map_err(io)
}

/// Write an indexed image as a PNG file.
pub fn write_png(path: &Path, img: &Indexed) -> Result<(), PictureError> {
    // Encode first: an encoding error never leaves a half-written file behind.
    write_file(path, &png_bytes(img)?)
}

/// Write an observation as a PNG in the display palette, scaled by `scale`, up at the top.
pub fn write_observation_png(
    path: &Path,
    obs: &Observation,
    scale: usize,
) -> Result<(), PictureError> {
    write_png(path, &Indexed::from_observation(obs, scale))
}

/// Encode frames as an animated, looping GIF (`delay_cs` hundredths of a second per frame).
/// All frames must have the size of the first, at most 65,535 pixels a side.
pub fn gif_bytes(frames: &[Indexed], delay_cs: u16) -> Result<Vec<u8>, PictureError> {
    gif_bytes_in(frames, &PALETTE, delay_cs)
}

/// Write frames as an animated, looping GIF file (see [`gif_bytes`]).
pub fn write_gif(path: &Path, frames: &[Indexed], delay_cs: u16) -> Result<(), PictureError> {
    write_file(path, &gif_bytes(frames, delay_cs)?)
}

/// Write a rollout as an animated GIF with the action outlined on every frame: the usual way to
/// look at a simulation (frames from [`crate::rollout_frames`]).
pub fn write_rollout_gif(
    path: &Path,
    frames: &[Observation],
    action: &[ActionCircle],
    scale: usize,
    delay_cs: u16,
) -> Result<(), PictureError> {
    write_gif(path, &action_frames(frames, action, scale), delay_cs)
}

/// Tile observations into a grid `columns` wide (at least 1) with [`SHEET_GAP`]-pixel gaps,
/// unscaled, in reading order.
pub fn contact_sheet(observations: &[Observation], columns: usize) -> Indexed {
    sheet(observations, None, columns)
}

/// [`contact_sheet`] with a label strip ([`LABEL_HEIGHT`] pixels, e.g. the task id) under each
/// tile; labels beyond the observations are ignored, missing ones left blank, long ones clipped
/// at the tile's width (64 characters).
pub fn contact_sheet_labelled(
    observations: &[Observation],
    labels: &[&str],
    columns: usize,
) -> Indexed {
    sheet(observations, Some(labels), columns)
}

fn sheet(observations: &[Observation], labels: Option<&[&str]>, columns: usize) -> Indexed {
    let columns = columns.clamp(1, observations.len().max(1));
    let rows = observations.len().div_ceil(columns).max(1);
    let label_h = if labels.is_some() { LABEL_HEIGHT } else { 0 };
    let (tile_w, tile_h) = (SIZE + SHEET_GAP, SIZE + label_h + SHEET_GAP);
    let mut img = Indexed::new(columns * tile_w + SHEET_GAP, rows * tile_h + SHEET_GAP, GAP);
    for (i, obs) in observations.iter().enumerate() {
        let left = SHEET_GAP + (i % columns) * tile_w;
        let top = SHEET_GAP + (i / columns) * tile_h;
        img.blit(&Indexed::from_observation(obs, 1), left, top);
        if let Some(labels) = labels {
            let strip = Indexed::new(SIZE, label_h, 0);
            img.blit(&strip, left, top + SIZE);
            if let Some(label) = labels.get(i) {
                let clipped: String = label.chars().take(SIZE / font::ADVANCE).collect();
                img.text(&clipped, left + 1, top + SIZE + 2, 1, TEXT);
            }
        }
    }
    img
}

/// Checks that a picture has its pixels and that every pixel indexes into `palette` (1 to 256
/// colours).
fn check_picture(img: &Indexed, palette: &[[u8; 3]]) -> Result<(), PictureError> {
    if palette.is_empty() || palette.len() > 256 {
        return Err(PictureError::Encode(format!(
            "a palette has 1 to 256 colours, not {}",
            palette.len()
        )));
    }
    if img.width == 0 || img.height == 0 || img.pixels.len() != img.width * img.height {
        return Err(PictureError::Encode(format!(
            "a {}×{} image needs {} pixels, has {}",
            img.width,
            img.height,
            img.width * img.height,
            img.pixels.len()
        )));
    }
    if let Some(bad) = img.pixels.iter().find(|&&p| p as usize >= palette.len()) {
        return Err(PictureError::Encode(format!(
            "palette index {bad} outside the {}-colour palette",
            palette.len()
        )));
    }
    Ok(())
}

fn encode_error(e: impl core::fmt::Display) -> PictureError {
    PictureError::Encode(e.to_string())
}

/// The picture as RGBA bytes (row 0 at the top, alpha 255), the form a browser canvas takes:
/// the same colours its PNG ([`png_bytes_in`]) decodes to. Checked like the PNG.
pub fn rgba_in(img: &Indexed, palette: &[[u8; 3]]) -> Result<Vec<u8>, PictureError> {
    check_picture(img, palette)?;
    let mut out = Vec::with_capacity(img.pixels.len() * 4);
    for &p in &img.pixels {
        let [r, g, b] = palette[p as usize];
        out.extend_from_slice(&[r, g, b, 0xff]);
    }
    Ok(out)
}

/// Encode an indexed picture as PNG bytes (8-bit palette, default compression) with the given
/// palette (1 to 256 colours; every pixel must index into it).
pub fn png_bytes_in(img: &Indexed, palette: &[[u8; 3]]) -> Result<Vec<u8>, PictureError> {
    check_picture(img, palette)?;
    let w = u32::try_from(img.width).map_err(encode_error)?;
    let h = u32::try_from(img.height).map_err(encode_error)?;
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(palette.iter().flatten().copied().collect::<Vec<u8>>());
    let mut writer = enc.write_header().map_err(encode_error)?;
    writer.write_image_data(&img.pixels).map_err(encode_error)?;
    writer.finish().map_err(encode_error)?;
    Ok(out)
}

/// Encode frames of one size as an animated GIF (looping, `delay_cs` hundredths of a second
/// per frame) with the given palette.
pub fn gif_bytes_in(
    frames: &[Indexed],
    palette: &[[u8; 3]],
    delay_cs: u16,
) -> Result<Vec<u8>, PictureError> {
    let first = frames
        .first()
        .ok_or_else(|| PictureError::Encode("a GIF needs at least one frame".into()))?;
    let w = u16::try_from(first.width).map_err(encode_error)?;
    let h = u16::try_from(first.height).map_err(encode_error)?;
    for f in frames {
        check_picture(f, palette)?;
        if (f.width, f.height) != (first.width, first.height) {
            return Err(PictureError::Encode(format!(
                "GIF frames differ in size: {}×{} and {}×{}",
                first.width, first.height, f.width, f.height
            )));
        }
    }
    let flat: Vec<u8> = palette.iter().flatten().copied().collect();
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, w, h, &flat).map_err(encode_error)?;
        enc.set_repeat(gif::Repeat::Infinite)
            .map_err(encode_error)?;
        for f in frames {
            let mut frame = gif::Frame::from_indexed_pixels(w, h, f.pixels.clone(), None);
            frame.delay = delay_cs;
            enc.write_frame(&frame).map_err(encode_error)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_observation_flips_and_scales() {
        let mut obs = Observation::new();
        obs.pixels[0] = 1; // bottom-left
        obs.pixels[255 * SIZE + 255] = 6; // top-right
        let img = Indexed::from_observation(&obs, 2);
        assert_eq!((img.width, img.height), (512, 512));
        // Bottom-left of the world is the bottom-left 2 × 2 block of the picture.
        assert_eq!(img.pixels[511 * 512], 1);
        assert_eq!(img.pixels[510 * 512 + 1], 1);
        assert_eq!(img.pixels[510 * 512 + 2], 0);
        // Top-right of the world is the picture's top-right block.
        assert_eq!(img.pixels[511], 6);
        assert_eq!(img.pixels[512 + 510], 6);
        // Absurd scales are clamped, not allocated.
        assert_eq!(Indexed::from_observation(&obs, 0).width, 256);
        assert_eq!(
            Indexed::from_observation(&obs, 1 << 40).width,
            SIZE * MAX_SCALE
        );
    }

    #[test]
    fn outline_is_a_ring_around_the_world_position() {
        let mut img = Indexed::new(256, 256, 0);
        img.outline_circle(100.0, 50.0, 10.0, 1, OUTLINE);
        // World (110, 50) is image (110, 206): on the ring; the centre is not.
        assert_eq!(img.pixels[206 * 256 + 109], OUTLINE);
        assert_eq!(img.pixels[206 * 256 + 100], 0);
        let before = img.clone();
        img.outline_circle(f64::NAN, 1.0, 1.0, 1, OUTLINE);
        img.outline_circle(1e300, -1e300, 1e300, 1, OUTLINE);
        assert_eq!(img, before);
    }

    #[test]
    fn labels_are_drawn_in_the_strip() {
        let obs = vec![Observation::new(); 3];
        let img = contact_sheet_labelled(&obs, &["00001:002", "X"], 2);
        assert_eq!(img.width, 2 * (SIZE + SHEET_GAP) + SHEET_GAP);
        assert_eq!(
            img.height,
            2 * (SIZE + LABEL_HEIGHT + SHEET_GAP) + SHEET_GAP
        );
        let strip_rows = SHEET_GAP + SIZE..SHEET_GAP + SIZE + LABEL_HEIGHT;
        let ink = |x0: usize, x1: usize| {
            strip_rows
                .clone()
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| img.pixels[y * img.width + x] == TEXT)
                .count()
        };
        assert!(ink(SHEET_GAP, SHEET_GAP + SIZE) > 20);
        // The third tile (second row) has no label: its strip is blank.
        let top = SHEET_GAP + (SIZE + LABEL_HEIGHT + SHEET_GAP) + SIZE;
        assert!((top..top + LABEL_HEIGHT).all(|y| img.pixels
            [y * img.width + SHEET_GAP..y * img.width + SHEET_GAP + SIZE]
            .iter()
            .all(|&p| p == 0)));
    }

    #[test]
    fn encoders_reject_bad_images_instead_of_panicking() {
        let bad = Indexed {
            width: 4,
            height: 4,
            pixels: vec![0; 3],
        };
        assert!(matches!(png_bytes(&bad), Err(PictureError::Encode(_))));
        let off_palette = Indexed::new(2, 2, 200);
        assert!(png_bytes(&off_palette).is_err());
        assert!(gif_bytes(&[], 10).is_err());
        let a = Indexed::new(8, 8, 0);
        let b = Indexed::new(9, 8, 0);
        assert!(gif_bytes(&[a.clone(), b], 10).is_err());
        let wide = Indexed::new(70_000, 1, 0);
        assert!(gif_bytes(&[wide], 10).is_err());
        assert!(gif_bytes(&[a], 10).is_ok());
    }
}
