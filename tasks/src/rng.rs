//! Counter-based random numbers for action sampling (harness, agents and audits share them): the value for (seed, stream, index) is a pure function of those
//! three integers, so any subset of a run can be recomputed in any order, on any number of
//! threads, before or after a resume, and give the same numbers.
//!
//! Construction: SplitMix64's finaliser applied to a key mixed from the three inputs, one call
//! per 64-bit output word (`word` selects the word within an action).

/// SplitMix64 finaliser: the engine's (its state hash ends with it), one definition for both.
pub use engine::mix64;

/// The `word`-th random 64-bit word of item `index` of `stream` under `seed`.
#[inline]
pub fn word(seed: u64, stream: u64, index: u64, word: u64) -> u64 {
    let k = mix64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let k = mix64(k ^ stream.wrapping_mul(0xd1b5_4a32_d192_ed03));
    let k = mix64(k ^ index.wrapping_mul(0x8cb9_2ba7_2f3d_8dd7));
    mix64(k ^ word.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(1))
}

/// A uniform f64 in [0, 1) with 53 random bits (exact: an integer times 2^-53).
#[inline]
#[allow(clippy::float_arithmetic)] // exact: a 53-bit integer times a power of two
pub fn unit_f64(w: u64) -> f64 {
    (w >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// `dims` uniform numbers in [0, 1) for item `index` of `stream`.
pub fn uniform_vector(seed: u64, stream: u64, index: u64, dims: usize) -> Vec<f64> {
    (0..dims as u64)
        .map(|d| unit_f64(word(seed, stream, index, d)))
        .collect()
}

/// FNV-1a over bytes: the one content hash of rephyre's inputs (stream numbers, fingerprints of
/// task data and reference files in checkpoints).
pub fn fnv64(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A stable 64-bit key for a string (e.g. a task id), used as a stream number.
pub fn stream_of(s: &str) -> u64 {
    mix64(fnv64(s.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PINNED: u64 = 7_140_268_055_983_315_432;

    #[test]
    fn values_are_pure_functions_of_their_coordinates() {
        assert_eq!(word(1, 2, 3, 0), word(1, 2, 3, 0));
        assert_ne!(word(1, 2, 3, 0), word(1, 2, 4, 0));
        assert_ne!(word(1, 2, 3, 0), word(2, 2, 3, 0));
        assert_ne!(word(1, 2, 3, 0), word(1, 2, 3, 1));
        // Pinned value: a change here changes every sampled action set and every report.
        assert_eq!(word(0, 0, 0, 0), PINNED);
    }

    #[test]
    #[allow(clippy::float_arithmetic)]
    fn unit_floats_are_uniform_enough() {
        let n = 100_000;
        let mean: f64 = (0..n).map(|i| unit_f64(word(7, 1, i, 0))).sum::<f64>() / n as f64;
        assert!((mean - 0.5).abs() < 0.005, "mean {mean}");
        assert!((0..n).all(|i| (0.0..1.0).contains(&unit_f64(word(7, 1, i, 0)))));
        assert_eq!(unit_f64(u64::MAX), 1.0 - 1.0 / (1u64 << 53) as f64);
    }
}
