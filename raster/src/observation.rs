//! The observation buffer: 256 × 256 bytes, one per pixel, row 0 at the bottom of the world.

use core::fmt;

/// Width and height of an observation in pixels.
pub const SIZE: usize = 256;

/// Number of pixels (and bytes) of an observation.
pub const PIXELS: usize = SIZE * SIZE;

/// Pixel values (SPEC §5). A body's colour is one of these; 0 means "not drawn".
pub mod colour {
    /// White background; as a body colour: not drawn (the walls).
    pub const BACKGROUND: u8 = 0;
    /// User bodies.
    pub const RED: u8 = 1;
    /// Goal body 1.
    pub const GREEN: u8 = 2;
    /// Goal body 2 when dynamic.
    pub const BLUE: u8 = 3;
    /// Goal body 2 when static.
    pub const PURPLE: u8 = 4;
    /// Other dynamic bodies.
    pub const GRAY: u8 = 5;
    /// Other static bodies.
    pub const BLACK: u8 = 6;
    /// Number of distinct pixel values.
    pub const COUNT: usize = 7;
}

/// A 256 × 256 observation: `pixels[y * 256 + x]`, row 0 = bottom, values 0–6.
///
/// Boxed so that moving one around (frames of a rollout, batches) copies a pointer, not 64 KiB.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Observation {
    /// The raw bytes, row-major from the bottom row up.
    pub pixels: Box<[u8; PIXELS]>,
}

impl Default for Observation {
    fn default() -> Self {
        Observation {
            pixels: Box::new([0; PIXELS]),
        }
    }
}

impl fmt::Debug for Observation {
    /// A summary (pixel count per value) rather than 65,536 numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Observation {:?}", self.histogram())
    }
}

impl Observation {
    /// An all-background observation.
    pub fn new() -> Observation {
        Observation::default()
    }

    /// An observation from 65,536 raw bytes (row 0 = bottom); `None` for any other length.
    pub fn from_bytes(bytes: &[u8]) -> Option<Observation> {
        let arr: &[u8; PIXELS] = bytes.try_into().ok()?;
        Some(Observation {
            pixels: Box::new(*arr),
        })
    }

    /// The value at column `x`, row `y` (row 0 = bottom). Panics outside 0..256.
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> u8 {
        assert!(x < SIZE && y < SIZE, "pixel ({x}, {y}) outside the image");
        self.pixels[y * SIZE + x]
    }

    /// Row `y` (row 0 = bottom).
    #[inline]
    pub fn row(&self, y: usize) -> &[u8] {
        &self.pixels[y * SIZE..(y + 1) * SIZE]
    }

    /// The raw 65,536 bytes (row 0 = bottom).
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.pixels[..]
    }

    /// Reset every pixel to the background.
    #[inline]
    pub fn clear(&mut self) {
        self.pixels.fill(colour::BACKGROUND);
    }

    /// How many pixels hold each value 0–6 (values above 6 are not counted).
    pub fn histogram(&self) -> [usize; colour::COUNT] {
        let mut h = [0usize; colour::COUNT];
        for &p in self.pixels.iter() {
            if let Some(slot) = h.get_mut(p as usize) {
                *slot += 1;
            }
        }
        h
    }
}

/// Pixel agreement between an observation and a reference (e.g. the original PHYRE's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Pixels with the same value in both.
    pub matching: usize,
    /// Pixels compared.
    pub total: usize,
    /// Pixels drawn (non-zero) in the reference but background in ours.
    pub missing: usize,
    /// Pixels drawn in ours but background in the reference.
    pub extra: usize,
    /// Pixels drawn in both with different values (painter's order or colour disagreements).
    pub recoloured: usize,
}

impl Agreement {
    /// Share of matching pixels in [0, 1] (1 when nothing was compared).
    #[allow(clippy::float_arithmetic)]
    pub fn fraction(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            self.matching as f64 / self.total as f64
        }
    }

    /// Add another comparison's counts (for totals over many scenes).
    pub fn merge(&mut self, o: &Agreement) {
        self.matching += o.matching;
        self.total += o.total;
        self.missing += o.missing;
        self.extra += o.extra;
        self.recoloured += o.recoloured;
    }
}

/// Compare `ours` with a reference given as raw bytes in the same layout (row 0 = bottom).
/// A reference of the wrong length is compared over the common prefix and every pixel it lacks
/// (or has in excess) counts as a mismatch, so a truncated file can never look like agreement.
pub fn compare(reference: &[u8], ours: &Observation) -> Agreement {
    let mut a = Agreement {
        total: PIXELS.max(reference.len()),
        ..Agreement::default()
    };
    for (&r, &o) in reference.iter().zip(ours.pixels.iter()) {
        match (r == o, r, o) {
            (true, _, _) => a.matching += 1,
            (false, _, 0) => a.missing += 1,
            (false, 0, _) => a.extra += 1,
            _ => a.recoloured += 1,
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_counts_each_kind_of_mismatch() {
        let mut ours = Observation::new();
        let mut reference = vec![0u8; PIXELS];
        ours.pixels[0] = colour::RED; // extra
        reference[1] = colour::GREEN; // missing
        ours.pixels[2] = colour::BLUE; // recoloured
        reference[2] = colour::GRAY;
        ours.pixels[3] = colour::BLACK; // same
        reference[3] = colour::BLACK;
        let a = compare(&reference, &ours);
        assert_eq!((a.matching, a.total), (PIXELS - 3, PIXELS));
        assert_eq!((a.extra, a.missing, a.recoloured), (1, 1, 1));
        // A short reference cannot agree on the pixels it lacks.
        let short = compare(&reference[..100], &ours);
        assert_eq!(short.matching, 97);
        assert_eq!(short.total, PIXELS);
    }

    #[test]
    fn bytes_round_trip_and_rows_are_bottom_up() {
        let mut bytes = vec![0u8; PIXELS];
        bytes[SIZE + 5] = colour::PURPLE; // row 1, column 5
        let o = Observation::from_bytes(&bytes).unwrap();
        assert_eq!(o.get(5, 1), colour::PURPLE);
        assert_eq!(o.row(1)[5], colour::PURPLE);
        assert_eq!(o.as_bytes(), &bytes[..]);
        assert!(Observation::from_bytes(&bytes[1..]).is_none());
        assert_eq!(o.histogram()[colour::PURPLE as usize], 1);
    }
}
