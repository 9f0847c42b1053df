//! Pictures for people: PNG frames in the display palette (scaled up, y flipped so up is up),
//! animated GIFs of rollouts with the action outlined, and contact sheets of many scenes.

use crate::scene::{Observation, SIZE};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Display colours of the pixel values 0–6 (white, red, green, blue, purple, gray, black),
/// then two colours for overlays: dark red (action outline) and light gray (sheet gaps).
pub const PALETTE: [[u8; 3]; 9] = [
    [0xff, 0xff, 0xff],
    [0xf3, 0x4f, 0x46],
    [0x6b, 0xce, 0xbb],
    [0x18, 0x77, 0xf2],
    [0x4b, 0x4a, 0xa4],
    [0xb9, 0xca, 0xd2],
    [0x00, 0x00, 0x00],
    [0x8b, 0x00, 0x00],
    [0xdd, 0xdd, 0xdd],
];
/// Overlay palette index for the action outline.
pub const OUTLINE: u8 = 7;
/// Overlay palette index for gaps in a contact sheet.
pub const GAP: u8 = 8;

/// Errors of the picture writers.
#[derive(Debug)]
pub enum PictureError {
    Io(std::path::PathBuf, std::io::Error),
    Encode(String),
}

impl core::fmt::Display for PictureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PictureError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
            PictureError::Encode(e) => write!(f, "cannot encode picture: {e}"),
        }
    }
}

impl std::error::Error for PictureError {}

/// An indexed image (palette indices), row 0 at the top, for the encoders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexed {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

impl Indexed {
    /// An observation scaled by `scale` and flipped so that the world's up is the image's up.
    pub fn from_observation(obs: &Observation, scale: usize) -> Indexed {
        let scale = scale.max(1);
        let n = SIZE * scale;
        let mut pixels = vec![0u8; n * n];
        for (row, out) in pixels.chunks_exact_mut(n).enumerate() {
            let y = SIZE - 1 - row / scale;
            for (col, p) in out.iter_mut().enumerate() {
                *p = obs.get(col / scale, y);
            }
        }
        Indexed {
            width: n,
            height: n,
            pixels,
        }
    }

    /// Draw a circle outline (world pixel coordinates, before scaling and flipping).
    pub fn outline_circle(&mut self, cx: f64, cy: f64, r: f64, scale: usize, index: u8) {
        #[allow(clippy::float_arithmetic)]
        {
            let s = scale.max(1) as f64;
            let steps = ((r * s * 8.0) as usize).max(32);
            for k in 0..steps {
                let t = k as f64 / steps as f64 * std::f64::consts::TAU;
                let x = (cx + r * t.cos()) * s;
                let y = (SIZE as f64 - (cy + r * t.sin())) * s;
                if x >= 0.0 && y >= 0.0 && (x as usize) < self.width && (y as usize) < self.height {
                    self.pixels[y as usize * self.width + x as usize] = index;
                }
            }
        }
    }
}

fn create(path: &Path) -> Result<BufWriter<File>, PictureError> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| PictureError::Io(path.to_path_buf(), e))
}

fn palette_bytes() -> Vec<u8> {
    PALETTE.iter().flatten().copied().collect()
}

/// Encode an indexed image as PNG bytes.
pub fn png_bytes(img: &Indexed) -> Result<Vec<u8>, PictureError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, img.width as u32, img.height as u32);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(palette_bytes());
        let mut w = enc
            .write_header()
            .map_err(|e| PictureError::Encode(e.to_string()))?;
        w.write_image_data(&img.pixels)
            .map_err(|e| PictureError::Encode(e.to_string()))?;
    }
    Ok(out)
}

/// Write an indexed image as a PNG file.
pub fn write_png(path: &Path, img: &Indexed) -> Result<(), PictureError> {
    let bytes = png_bytes(img)?;
    let mut f = create(path)?;
    f.write_all(&bytes)
        .and_then(|_| f.flush())
        .map_err(|e| PictureError::Io(path.to_path_buf(), e))
}

/// Write an observation as a PNG, scaled by `scale`.
pub fn write_observation_png(
    path: &Path,
    obs: &Observation,
    scale: usize,
) -> Result<(), PictureError> {
    write_png(path, &Indexed::from_observation(obs, scale))
}

/// Write frames as an animated GIF (`delay_cs` hundredths of a second per frame, looping).
pub fn write_gif(path: &Path, frames: &[Indexed], delay_cs: u16) -> Result<(), PictureError> {
    let Some(first) = frames.first() else {
        return Err(PictureError::Encode("no frames".into()));
    };
    let f = create(path)?;
    let enc_err = |e: gif::EncodingError| PictureError::Encode(e.to_string());
    let mut enc = gif::Encoder::new(f, first.width as u16, first.height as u16, &palette_bytes())
        .map_err(enc_err)?;
    enc.set_repeat(gif::Repeat::Infinite).map_err(enc_err)?;
    for img in frames {
        let mut frame = gif::Frame::from_indexed_pixels(
            img.width as u16,
            img.height as u16,
            img.pixels.clone(),
            None,
        );
        frame.delay = delay_cs;
        enc.write_frame(&frame).map_err(enc_err)?;
    }
    Ok(())
}

/// Tile observations into a grid (`columns` wide, 4-pixel gaps), unscaled.
pub fn contact_sheet(observations: &[Observation], columns: usize) -> Indexed {
    let columns = columns.clamp(1, observations.len().max(1));
    let rows = observations.len().div_ceil(columns).max(1);
    let gap = 4;
    let width = columns * SIZE + (columns + 1) * gap;
    let height = rows * SIZE + (rows + 1) * gap;
    let mut pixels = vec![GAP; width * height];
    for (i, obs) in observations.iter().enumerate() {
        let (gx, gy) = (i % columns, i / columns);
        let (ox, oy) = (gap + gx * (SIZE + gap), gap + gy * (SIZE + gap));
        let tile = Indexed::from_observation(obs, 1);
        for r in 0..SIZE {
            pixels[(oy + r) * width + ox..(oy + r) * width + ox + SIZE]
                .copy_from_slice(&tile.pixels[r * SIZE..(r + 1) * SIZE]);
        }
    }
    Indexed {
        width,
        height,
        pixels,
    }
}
