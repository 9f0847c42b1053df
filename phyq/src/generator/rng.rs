//! The generator's random numbers: counter-based, so each number is a pure function of
//! (seed, template, task index, attempt, draw) and no draw depends on which others were made
//! or in what order.
//!
//! The construction is the one `tasks::rng::word` uses for PHYRE's action sampling (SplitMix64's
//! finaliser, [`engine::mix64`], over the mixed-in coordinates), with one more coordinate. It is
//! written here rather than shared because `phyq` does not depend on `tasks`, and eight lines do
//! not justify a new crate or moving `tasks`' pinned function.

use super::geometry::Coord;
use engine::mix64;

/// The random numbers of one attempt at one task.
#[derive(Clone, Copy, Debug)]
pub struct Draws {
    pub seed: u64,
    /// The template's code as a number: level · 10^6 + capability · 10^3 + template.
    pub template: u64,
    pub index: u64,
    pub attempt: u64,
}

impl Draws {
    /// The 64-bit word of draw `draw`.
    pub fn word(&self, draw: u64) -> u64 {
        let mut k = mix64(self.seed ^ 0x9e37_79b9_7f4a_7c15);
        for (v, m) in [
            (self.template, 0xd1b5_4a32_d192_ed03u64),
            (self.index, 0x8cb9_2ba7_2f3d_8dd7),
            (self.attempt, 0xa24b_aed4_963e_e407),
            (draw, 0x9fb2_1c65_1e98_df25),
        ] {
            k = mix64(k ^ v.wrapping_mul(m).wrapping_add(1));
        }
        k
    }

    /// A uniform integer in `0..n` (`n` ≥ 1): the high word of word × n (bias below n / 2^64).
    pub fn below(&self, draw: u64, n: u64) -> u64 {
        ((self.word(draw) as u128 * n as u128) >> 64) as u64
    }

    /// A uniform coordinate in `lo..=hi` (`lo` ≤ `hi`).
    pub fn uniform(&self, draw: u64, lo: Coord, hi: Coord) -> Coord {
        lo + self.below(draw, (hi - lo) as u64 + 1) as Coord
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_and_pinned() {
        let d = Draws {
            seed: 0,
            template: 1_001_001,
            index: 1,
            attempt: 0,
        };
        assert_eq!(d.word(0), d.word(0));
        assert_ne!(d.word(0), d.word(1));
        assert_ne!(d.word(0), Draws { attempt: 1, ..d }.word(0));
        assert_ne!(d.word(0), Draws { seed: 1, ..d }.word(0));
        // Pinned: a change here changes every generated task (and the golden hash).
        assert_eq!(d.word(0), 10_376_653_321_029_840_681);
        for i in 0..1000 {
            let v = Draws { index: i, ..d }.uniform(3, -5, 5);
            assert!((-5..=5).contains(&v));
        }
        assert_eq!(d.uniform(7, 4, 4), 4);
    }
}
