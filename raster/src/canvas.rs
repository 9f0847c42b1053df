//! Drawing into an [`Indexed`] picture of any size, in any palette of up to 256 colours: filled
//! convex polygons and discs, shrinking and enlarging by whole factors, labelled contact sheets
//! of equal-sized pictures, and PNG encoding with a palette given by the caller.
//!
//! This is the generic half of non-PHYRE observations (the Phy-Q pictures, whose scene, framing
//! and colours live in the `phyq` crate). PHYRE's 256 × 256 observations keep their own
//! rasterizer ([`crate::render`]), which this module does not touch.
//!
//! # The pixel rule
//!
//! Coordinates are **picture units**: 1/65,536 of a pixel ([`ONE`] per pixel), x to the right,
//! y **down**, (0, 0) the top-left corner of the picture. Pixel (column c, row r) has its centre
//! at (c·ONE + ONE/2, r·ONE + ONE/2), and takes a shape's value when that centre lies inside the
//! shape **or on its boundary**; no anti-aliasing. Every decision is exact integer arithmetic
//! (128-bit products, floor and ceiling divisions), so the same input gives the same pixels on
//! every platform. Coordinates are clamped to ±2^40 units (±2^24 px) and radii to 2^40 units,
//! which keeps every product within 128 bits; shapes far outside the picture are clipped, never
//! an error.

use crate::font;
use crate::picture::{Indexed, PictureError};

/// Fractional bits of picture units.
pub const FRAC: u32 = 16;
/// One pixel in picture units.
pub const ONE: i64 = 1 << FRAC;
/// Half a pixel in picture units.
pub const HALF: i64 = ONE / 2;
/// Coordinates are clamped to ±this many units.
pub const COORD_LIMIT: i64 = 1 << 40;

/// ⌊a / b⌋ for b ≠ 0 of either sign.
fn floor_div(a: i128, b: i128) -> i128 {
    if b < 0 {
        (-a).div_euclid(-b)
    } else {
        a.div_euclid(b)
    }
}

/// ⌈a / b⌉ for b ≠ 0 of either sign.
fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

fn clamp_coord(v: i64) -> i128 {
    i128::from(v.clamp(-COORD_LIMIT, COORD_LIMIT))
}

/// Centre of column or row `i`, in units.
fn centre(i: i128) -> i128 {
    i * i128::from(ONE) + i128::from(HALF)
}

/// Rows (or columns) whose centres lie in [lo, hi] (units), clipped to 0..n.
fn centres_between(lo: i128, hi: i128, n: usize) -> Option<(i128, i128)> {
    let one = i128::from(ONE);
    let half = i128::from(HALF);
    let first = ceil_div(lo - half, one).max(0);
    let last = floor_div(hi - half, one).min(n as i128 - 1);
    (first <= last).then_some((first, last))
}

fn fill_span(img: &mut Indexed, row: i128, lo: i128, hi: i128, value: u8) {
    let lo = lo.max(0);
    let hi = hi.min(img.width as i128 - 1);
    if lo <= hi {
        let start = row as usize * img.width;
        img.pixels[start + lo as usize..=start + hi as usize].fill(value);
    }
}

/// Fill a convex polygon (vertices in picture units, either orientation; consecutive vertices
/// joined, the last to the first) with `value`. A polygon without area (fewer than three
/// vertices, or all on one line) draws nothing. For a polygon that is not convex the pixels
/// drawn are those inside every edge's half-plane (a caller decomposes concave outlines first).
pub fn fill_convex(img: &mut Indexed, vertices: &[(i64, i64)], value: u8) {
    let n = vertices.len();
    if n < 3 || img.width == 0 || img.height == 0 {
        return;
    }
    let mut vs: Vec<(i128, i128)> = vertices
        .iter()
        .map(|&(x, y)| (clamp_coord(x), clamp_coord(y)))
        .collect();
    let area2: i128 = (0..n)
        .map(|i| {
            let (a, b) = (vs[i], vs[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    if area2 == 0 {
        return;
    }
    if area2 < 0 {
        vs.reverse();
    }
    // With a positive signed area (x right, y down) a point P is inside when
    // cross(W − V, P − V) ≥ 0 for every edge V → W.
    let y_lo = vs.iter().map(|v| v.1).min().unwrap_or(0);
    let y_hi = vs.iter().map(|v| v.1).max().unwrap_or(0);
    let Some((first, last)) = centres_between(y_lo, y_hi, img.height) else {
        return;
    };
    let one = i128::from(ONE);
    let half = i128::from(HALF);
    'rows: for row in first..=last {
        let py = centre(row);
        let mut lo = 0i128;
        let mut hi = img.width as i128 - 1;
        for i in 0..n {
            let (v, w) = (vs[i], vs[(i + 1) % n]);
            let (dx, dy) = (w.0 - v.0, w.1 - v.1);
            if dy == 0 {
                if dx * (py - v.1) < 0 {
                    continue 'rows;
                }
                continue;
            }
            // cross = dx·(py − vy) − dy·(px − vx) ≥ 0  ⇔  dy·px ≤ N.
            let n_ = dx * (py - v.1) + dy * v.0;
            // px = c·ONE + HALF.
            if dy > 0 {
                hi = hi.min(floor_div(n_ - half * dy, one * dy));
            } else {
                lo = lo.max(ceil_div(n_ - half * dy, one * dy));
            }
        }
        if lo <= hi {
            fill_span(img, row, lo, hi, value);
        }
    }
}

/// Fill the disc of centre (`cx`, `cy`) and radius `r` (picture units) with `value`. A
/// negative radius draws nothing; radius 0 covers only a pixel centre exactly at the centre.
pub fn fill_circle(img: &mut Indexed, cx: i64, cy: i64, r: i64, value: u8) {
    if r < 0 || img.width == 0 || img.height == 0 {
        return;
    }
    let (cx, cy) = (clamp_coord(cx), clamp_coord(cy));
    let r = i128::from(r.min(COORD_LIMIT));
    let Some((first, last)) = centres_between(cy - r, cy + r, img.height) else {
        return;
    };
    let one = i128::from(ONE);
    let half = i128::from(HALF);
    for row in first..=last {
        let dy = centre(row) - cy;
        let rem = r * r - dy * dy;
        if rem < 0 {
            continue;
        }
        // Pixel-centre abscissae are integers (units): |px − cx| ≤ ⌊√rem⌋ exactly.
        let s = (rem as u128).isqrt() as i128;
        let lo = ceil_div(cx - s - half, one);
        let hi = floor_div(cx + s - half, one);
        if lo <= hi {
            fill_span(img, row, lo, hi, value);
        }
    }
}

/// The picture shrunk by `factor` (1 to 64, clamped): output pixel (c, r) is input pixel
/// (c·f + f/2, r·f + f/2), the one nearest the block's centre. Sizes are rounded down.
pub fn shrink(img: &Indexed, factor: usize) -> Indexed {
    let f = factor.clamp(1, 64);
    let (w, h) = (img.width / f, img.height / f);
    let mut out = Indexed::new(w, h, 0);
    for r in 0..h {
        let src = (r * f + f / 2) * img.width;
        for c in 0..w {
            out.pixels[r * w + c] = img.pixels[src + c * f + f / 2];
        }
    }
    out
}

/// The picture enlarged by `factor` (1 to 32, clamped): each pixel becomes factor × factor.
pub fn enlarge(img: &Indexed, factor: usize) -> Indexed {
    let f = factor.clamp(1, 32);
    let w = img.width * f;
    let mut out = Indexed::new(w, img.height * f, 0);
    for (r, row) in out.pixels.chunks_exact_mut(w.max(1)).enumerate() {
        let src = &img.pixels[(r / f) * img.width..(r / f + 1) * img.width];
        for (c, &v) in src.iter().enumerate() {
            row[c * f..(c + 1) * f].fill(v);
        }
    }
    out
}

/// The palette indices a contact sheet uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetStyle {
    /// The gaps between tiles.
    pub gap: u8,
    /// The label strip under each tile.
    pub strip: u8,
    /// The label text.
    pub text: u8,
}

/// Gap between contact-sheet tiles, in pixels.
pub const SHEET_GAP: usize = 4;
/// Height of a label strip (5-pixel glyphs, 2 pixels above and below).
pub const LABEL_HEIGHT: usize = font::GLYPH_H + 4;

/// Tile pictures of one size (the first's; larger ones are clipped, smaller ones padded with
/// the gap colour) into a grid `columns` wide (at least 1) with [`SHEET_GAP`]-pixel gaps, in
/// reading order, each with a [`LABEL_HEIGHT`] label strip under it when `labels` is given
/// (labels beyond the tiles are ignored, missing ones left blank, long ones clipped at the
/// tile's width). No tiles give an empty gap-coloured square of `SHEET_GAP`·2 pixels.
pub fn sheet(
    tiles: &[Indexed],
    labels: Option<&[&str]>,
    columns: usize,
    style: SheetStyle,
) -> Indexed {
    let (tw, th) = tiles.first().map_or((0, 0), |t| (t.width, t.height));
    let columns = columns.clamp(1, tiles.len().max(1));
    let rows = tiles.len().div_ceil(columns);
    let label_h = if labels.is_some() { LABEL_HEIGHT } else { 0 };
    let (cell_w, cell_h) = (tw + SHEET_GAP, th + label_h + SHEET_GAP);
    let mut img = Indexed::new(
        columns * cell_w + SHEET_GAP,
        rows * cell_h + SHEET_GAP,
        style.gap,
    );
    for (i, tile) in tiles.iter().enumerate() {
        let left = SHEET_GAP + (i % columns) * cell_w;
        let top = SHEET_GAP + (i / columns) * cell_h;
        let clipped = Indexed {
            width: tile.width.min(tw),
            height: tile.height.min(th),
            pixels: (0..tile.height.min(th))
                .flat_map(|r| &tile.pixels[r * tile.width..r * tile.width + tile.width.min(tw)])
                .copied()
                .collect(),
        };
        img.blit(&clipped, left, top);
        if let Some(labels) = labels {
            img.blit(&Indexed::new(tw, label_h, style.strip), left, top + th);
            if let Some(label) = labels.get(i) {
                let text: String = label.chars().take(tw / font::ADVANCE).collect();
                img.text(&text, left + 1, top + th + 2, 1, style.text);
            }
        }
    }
    img
}

/// The picture as RGBA bytes (row 0 at the top, alpha 255), the form a browser canvas takes:
/// the same colours its PNG ([`png_bytes`]) decodes to. Checked like the PNG.
pub fn rgba(img: &Indexed, palette: &[[u8; 3]]) -> Result<Vec<u8>, PictureError> {
    crate::picture::rgba_in(img, palette)
}

/// Encode an indexed picture as PNG bytes (8-bit palette, default compression) with the given
/// palette (1 to 256 colours; every pixel must index into it).
pub fn png_bytes(img: &Indexed, palette: &[[u8; 3]]) -> Result<Vec<u8>, PictureError> {
    crate::picture::png_bytes_in(img, palette)
}

/// Encode frames of one size as an animated GIF (looping, `delay_cs` hundredths of a second
/// per frame) with the given palette.
pub fn gif_bytes(
    frames: &[Indexed],
    palette: &[[u8; 3]],
    delay_cs: u16,
) -> Result<Vec<u8>, PictureError> {
    crate::picture::gif_bytes_in(frames, palette, delay_cs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn px(v: i64) -> i64 {
        v * ONE
    }

    fn count(img: &Indexed, value: u8) -> usize {
        img.pixels.iter().filter(|&&p| p == value).count()
    }

    /// Brute force: every pixel centre tested against every edge (positive orientation).
    fn brute_inside(vs: &[(i64, i64)], c: i64, r: i64) -> bool {
        let (x, y) = (i128::from(c * ONE + HALF), i128::from(r * ONE + HALF));
        let n = vs.len();
        (0..n).all(|i| {
            let (v, w) = (vs[i], vs[(i + 1) % n]);
            let (vx, vy, wx, wy) = (
                i128::from(v.0),
                i128::from(v.1),
                i128::from(w.0),
                i128::from(w.1),
            );
            (wx - vx) * (y - vy) - (wy - vy) * (x - vx) >= 0
        })
    }

    #[test]
    fn polygons_cover_the_hand_counted_pixel_centres() {
        // A 4 × 4 square on pixel edges: 16 centres.
        let mut img = Indexed::new(10, 10, 0);
        fill_convex(
            &mut img,
            &[(0, 0), (px(4), 0), (px(4), px(4)), (0, px(4))],
            1,
        );
        assert_eq!(count(&img, 1), 16);
        assert_eq!(img.pixels[3 * 10 + 3], 1);
        assert_eq!(img.pixels[4 * 10 + 4], 0);
        // A square through pixel centres 0.5 .. 2.5: boundary centres count, 3 × 3.
        let mut img = Indexed::new(10, 10, 0);
        let (a, b) = (HALF, px(2) + HALF);
        fill_convex(&mut img, &[(a, a), (a, b), (b, b), (b, a)], 2);
        assert_eq!(count(&img, 2), 9);
        // The right triangle (0,0), (4,0), (0,4): centres with x + y ≤ 4, i.e. c + r ≤ 3:
        // 4 + 3 + 2 + 1 = 10 (the hypotenuse passes through six centres, all inside).
        let mut img = Indexed::new(10, 10, 0);
        fill_convex(&mut img, &[(0, 0), (px(4), 0), (0, px(4))], 3);
        assert_eq!(count(&img, 3), 10);
        // Either orientation, same pixels.
        let mut again = Indexed::new(10, 10, 0);
        fill_convex(&mut again, &[(0, px(4)), (px(4), 0), (0, 0)], 3);
        assert_eq!(img, again);
        // No area, no pixels; a half-outside square is clipped.
        let mut img = Indexed::new(10, 10, 0);
        fill_convex(&mut img, &[(0, 0), (px(2), px(2)), (px(4), px(4))], 4);
        fill_convex(&mut img, &[(0, 0), (px(4), 0)], 4);
        assert_eq!(count(&img, 4), 0);
        fill_convex(
            &mut img,
            &[
                (px(-3), px(8)),
                (px(3), px(8)),
                (px(3), px(14)),
                (px(-3), px(14)),
            ],
            5,
        );
        assert_eq!(count(&img, 5), 3 * 2);
    }

    #[test]
    fn slanted_polygons_match_the_brute_force_rule() {
        let shapes: [&[(i64, i64)]; 3] = [
            &[(12_345, 70_001), (900_000, 15_000), (600_123, 1_000_007)],
            &[
                (3 * ONE, HALF),
                (17 * ONE + 7, 9 * ONE),
                (9 * ONE, 19 * ONE + 3),
                (HALF, 8 * ONE),
            ],
            &[
                (-5 * ONE, 2 * ONE),
                (30 * ONE, 3 * ONE + 1),
                (2 * ONE, 25 * ONE),
            ],
        ];
        for vs in shapes {
            let mut img = Indexed::new(20, 20, 0);
            fill_convex(&mut img, vs, 1);
            for r in 0..20 {
                for c in 0..20 {
                    let want = brute_inside(vs, c, r);
                    assert_eq!(
                        img.pixels[(r * 20 + c) as usize] == 1,
                        want,
                        "{vs:?} {c} {r}"
                    );
                }
            }
        }
    }

    #[test]
    fn discs_cover_the_hand_counted_pixel_centres() {
        // Centre (5, 5), radius 2: centres at offsets ±0.5 and ±1.5 with d² ≤ 4:
        // (±0.5, ±0.5) 4 of them, (±1.5, ±0.5) and (±0.5, ±1.5) 8 more; (±1.5, ±1.5) is out.
        let mut img = Indexed::new(10, 10, 0);
        fill_circle(&mut img, px(5), px(5), px(2), 1);
        assert_eq!(count(&img, 1), 12);
        // Radius 1.5: (1.5, 0.5) has d² = 2.5 > 2.25: only the four inner centres.
        let mut img = Indexed::new(10, 10, 0);
        fill_circle(&mut img, px(5), px(5), px(3) / 2, 1);
        assert_eq!(count(&img, 1), 4);
        // Centred on a pixel centre, radius 1: the centre and its four neighbours (on the
        // boundary, inside).
        let mut img = Indexed::new(10, 10, 0);
        fill_circle(&mut img, px(5) + HALF, px(5) + HALF, px(1), 1);
        assert_eq!(count(&img, 1), 5);
        assert_eq!(img.pixels[4 * 10 + 5], 1);
        // Radius 0 on a centre: one pixel; negative: none; clipped at the picture's edge.
        let mut img = Indexed::new(10, 10, 0);
        fill_circle(&mut img, HALF, HALF, 0, 1);
        fill_circle(&mut img, px(5), px(5), -1, 2);
        assert_eq!((count(&img, 1), count(&img, 2)), (1, 0));
        let mut img = Indexed::new(10, 10, 0);
        fill_circle(&mut img, 0, 0, px(2), 3);
        assert_eq!(count(&img, 3), 3);
    }

    #[test]
    fn wild_input_neither_overflows_nor_hangs() {
        let mut img = Indexed::new(8, 6, 0);
        let big = i64::MAX;
        fill_convex(
            &mut img,
            &[(-big, -big), (big, -big), (big, big), (-big, big)],
            1,
        );
        assert_eq!(count(&img, 1), 48);
        fill_circle(&mut img, i64::MIN, i64::MAX, i64::MAX, 2);
        fill_circle(&mut img, 0, 0, i64::MAX, 3);
        assert_eq!(count(&img, 3), 48);
        let mut empty = Indexed::new(0, 0, 0);
        fill_convex(&mut empty, &[(0, 0), (ONE, 0), (0, ONE)], 1);
        fill_circle(&mut empty, 0, 0, ONE, 1);
    }

    #[test]
    fn shrink_enlarge_sheet_and_png() {
        let mut img = Indexed::new(8, 4, 0);
        img.pixels[8 + 1] = 7; // (1, 1): the centre pixel of block (0, 0) at factor 2
        let small = shrink(&img, 2);
        assert_eq!((small.width, small.height), (4, 2));
        assert_eq!(small.pixels[0], 7);
        let big = enlarge(&small, 3);
        assert_eq!((big.width, big.height), (12, 6));
        assert_eq!(big.pixels[2 * 12 + 2], 7);
        assert_eq!(big.pixels[3 * 12 + 3], 0);
        let style = SheetStyle {
            gap: 1,
            strip: 2,
            text: 3,
        };
        let tiles = vec![Indexed::new(40, 10, 0); 3];
        let s = sheet(&tiles, Some(&["AB:1", "X"]), 2, style);
        assert_eq!(s.width, 2 * (40 + SHEET_GAP) + SHEET_GAP);
        assert_eq!(s.height, 2 * (10 + LABEL_HEIGHT + SHEET_GAP) + SHEET_GAP);
        assert!(count(&s, 3) > 10);
        let palette: Vec<[u8; 3]> = (0..=255u8).map(|i| [i, i, i]).collect();
        let bytes = png_bytes(&s, &palette).unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        assert_eq!(
            (info.width as usize, info.height as usize),
            (s.width, s.height)
        );
        assert_eq!(&buf[..info.buffer_size()], &s.pixels[..]);
        assert!(png_bytes(&s, &palette[..3]).is_err());
        assert!(png_bytes(&s, &[]).is_err());
        assert!(png_bytes(&Indexed::new(0, 0, 0), &palette).is_err());
    }

    #[test]
    fn rgba_is_what_the_png_decodes_to() {
        let mut img = Indexed::new(3, 2, 0);
        img.pixels = vec![0, 1, 2, 2, 1, 0];
        let palette = [[10, 20, 30], [40, 50, 60], [70, 80, 90]];
        let bytes = png_bytes(&img, &palette).unwrap();
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
        dec.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        assert_eq!(rgba(&img, &palette).unwrap(), &buf[..info.buffer_size()]);
        assert_eq!(&rgba(&img, &palette).unwrap()[4..8], &[40, 50, 60, 255]);
        assert!(rgba(&img, &palette[..2]).is_err());
    }
}
