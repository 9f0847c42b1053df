//! What the network sees ([`observe`]): the game's 640 × 480 picture of the level in play
//! (`phyq::picture::render`) down-sampled to a [`GRID_W`] × [`GRID_H`] grid of 20-pixel cells,
//! one plane per colour class ([`PLANES`]: the share of the cell's pixels, in 255ths), and the
//! next bird's kind one-hot ([`BIRDS`]). The agent reads only this picture, never the
//! simulator's state.

use phyq::colours::{fill, Painted};
use phyq::game::Game;
use phyq::picture::{render, Framing};
use phyq::{BirdKind, Level, Material};

/// Grid of the observation: columns, rows.
pub const GRID_W: usize = 32;
pub const GRID_H: usize = 24;
/// The colour classes of the observation's planes, in order.
pub const PLANES: [Painted; 8] = [
    Painted::Pigs,
    Painted::Block(Material::Wood),
    Painted::Block(Material::Ice),
    Painted::Block(Material::Stone),
    Painted::Tnt,
    Painted::Platform,
    Painted::Ground,
    Painted::Slingshot,
];
/// The birds of the one-hot, in order.
pub const BIRDS: [BirdKind; 5] = [
    BirdKind::Red,
    BirdKind::Blue,
    BirdKind::Yellow,
    BirdKind::Black,
    BirdKind::White,
];
/// Numbers in an observation.
pub const OBS_LEN: usize = PLANES.len() * GRID_W * GRID_H + BIRDS.len();

/// The observation of `game` on `level` (module doc): [`OBS_LEN`] bytes, 255 = 1.
pub fn observe(game: &Game, level: &Level) -> Vec<u8> {
    let img = render(&game.scene(level), &Framing::of_level(level));
    let mut plane_of = [u8::MAX; 256];
    for (p, painted) in PLANES.iter().enumerate() {
        plane_of[usize::from(fill(*painted))] = p as u8;
    }
    let (cw, ch) = (img.width / GRID_W, img.height / GRID_H);
    let mut counts = vec![0u32; PLANES.len() * GRID_W * GRID_H];
    for (y, row) in img.pixels.chunks_exact(img.width).enumerate() {
        let gy = (y / ch.max(1)).min(GRID_H - 1);
        for (x, &code) in row.iter().enumerate() {
            let p = plane_of[usize::from(code)];
            if p != u8::MAX {
                let gx = (x / cw.max(1)).min(GRID_W - 1);
                counts[(usize::from(p) * GRID_H + gy) * GRID_W + gx] += 1;
            }
        }
    }
    let cell = (cw * ch).max(1) as u32;
    let mut out: Vec<u8> = counts
        .iter()
        .map(|&n| ((n.min(cell) * 255 + cell / 2) / cell) as u8)
        .collect();
    let bird = game.next_bird();
    out.extend(BIRDS.iter().map(|b| if Some(*b) == bird { 255 } else { 0 }));
    out
}
