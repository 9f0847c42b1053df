//! The state hash: a 64-bit digest over integer values (never bytes in memory, so it does not
//! depend on endianness or layout). Each word is folded in as `h = (rotl(h, 5) ^ w) · K`, and the
//! result goes through the SplitMix64 finaliser.

use crate::fixed::Fixed;
use crate::math::Vec2;

const K: u64 = 0x517c_c1b7_2722_0a95;

/// Incremental hasher of simulation state.
#[derive(Clone, Copy, Debug)]
pub struct StateHasher(u64);

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher::new()
    }
}

impl StateHasher {
    pub const fn new() -> StateHasher {
        StateHasher(0x9e37_79b9_7f4a_7c15)
    }

    #[inline]
    pub fn u64(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
    }

    #[inline]
    pub fn u32(&mut self, w: u32) {
        self.u64(w as u64);
    }

    #[inline]
    pub fn fixed(&mut self, v: Fixed) {
        self.u64(v.raw() as u64);
    }

    #[inline]
    pub fn vec2(&mut self, v: Vec2) {
        self.fixed(v.x);
        self.fixed(v.y);
    }

    /// The digest so far.
    pub fn finish(&self) -> u64 {
        mix64(self.0)
    }
}

/// SplitMix64 finaliser: a bijective 64-bit mixer with good avalanche. The state hash ends with
/// it, and rephyre's counter-based random numbers (`tasks::rng`) are built from it.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Chain a per-step hash onto a running one (for per-step hash chains).
pub fn chain(prev: u64, step_hash: u64) -> u64 {
    let mut h = StateHasher(prev);
    h.u64(step_hash);
    h.finish()
}
