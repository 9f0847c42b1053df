//! Span filling: set `row[x0..=x1]` to one value.
//!
//! Every shape reaches the image as one span of columns per row, so this is the rasterizer's
//! only store loop. Four implementations write exactly the same bytes:
//!
//! * [`SpanFiller::Scalar`]: a plain byte loop, the reference;
//! * [`SpanFiller::Swar`]: 8-byte stores of a repeated byte (SIMD within a register), portable,
//!   the fallback on CPUs without one of the vector paths below;
//! * [`SpanFiller::Sse2`]: 16-byte vectors (x86_64, always present there);
//! * [`SpanFiller::Avx2`]: 32-byte vectors (x86_64 with AVX2, detected at run time).
//!
//! Most spans are short (a thin bar crosses a row in 5–10 pixels) and their lengths vary from
//! row to row, so a filler that branches on the length mispredicts often. The vector paths
//! therefore fill any span of up to one vector width `w` without a length-dependent branch:
//! they load the `w` bytes of the row at `min(x0, row_len − w)`, which always contain the
//! span, select the span's lanes with one unsigned comparison `(lane − x0) ≤ len − 1`, blend
//! in the value and store the `w` bytes back (bytes outside the span are written back
//! unchanged). Longer spans take `⌈len / w⌉` plain stores, the last shifted back to end exactly
//! at `x1` (it overlaps the one before, harmlessly, as every byte gets the same value).

/// Which implementation fills spans. All give identical bytes; only speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpanFiller {
    /// One byte at a time (the reference).
    Scalar,
    /// 8-byte stores from a general-purpose register (any CPU).
    Swar,
    /// 16-byte SSE2 vectors (x86_64).
    Sse2,
    /// 32-byte AVX2 vectors (x86_64 with AVX2).
    Avx2,
}

impl SpanFiller {
    /// The fastest filler this CPU supports.
    pub fn detect() -> SpanFiller {
        if SpanFiller::Avx2.is_available() {
            SpanFiller::Avx2
        } else if SpanFiller::Sse2.is_available() {
            SpanFiller::Sse2
        } else {
            SpanFiller::Swar
        }
    }

    /// Every filler usable on this CPU, the scalar reference first (for tests and benchmarks).
    pub fn available() -> Vec<SpanFiller> {
        [
            SpanFiller::Scalar,
            SpanFiller::Swar,
            SpanFiller::Sse2,
            SpanFiller::Avx2,
        ]
        .into_iter()
        .filter(|f| f.is_available())
        .collect()
    }

    /// Whether this CPU can run the filler. Unavailable fillers are never executed: every entry
    /// point replaces them by [`SpanFiller::Swar`] (same bytes), so naming one is always safe.
    pub fn is_available(self) -> bool {
        match self {
            SpanFiller::Scalar | SpanFiller::Swar => true,
            #[cfg(target_arch = "x86_64")]
            SpanFiller::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            SpanFiller::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            SpanFiller::Sse2 | SpanFiller::Avx2 => false,
        }
    }

    /// This filler if the CPU has it, else the portable [`SpanFiller::Swar`].
    pub(crate) fn usable(self) -> SpanFiller {
        if self.is_available() {
            self
        } else {
            SpanFiller::Swar
        }
    }

    /// Set `row[x0..=x1]` to `value`; the rest of `row` is left as it was. Panics when
    /// `x0 > x1` or `x1 ≥ row.len()`.
    ///
    /// This entry point checks CPU support on every call; the renderer instead dispatches once
    /// per frame into code compiled for the chosen instruction set (see `render.rs`).
    pub fn fill(self, row: &mut [u8], x0: usize, x1: usize, value: u8) {
        assert!(
            x0 <= x1 && x1 < row.len(),
            "span {x0}..={x1} outside a row of {}",
            row.len()
        );
        match self.usable() {
            // SAFETY (all arms): bounds checked above; the portable fillers need no CPU
            // feature, and `usable` returns Sse2 / Avx2 only where the CPU has them.
            SpanFiller::Scalar => unsafe { Scalar::fill(row, x0, x1, value) },
            SpanFiller::Swar => unsafe { Swar::fill(row, x0, x1, value) },
            #[cfg(target_arch = "x86_64")]
            SpanFiller::Sse2 => unsafe { Sse2::fill(row, x0, x1, value) },
            #[cfg(target_arch = "x86_64")]
            SpanFiller::Avx2 => unsafe { Avx2::fill(row, x0, x1, value) },
            #[cfg(not(target_arch = "x86_64"))]
            SpanFiller::Sse2 | SpanFiller::Avx2 => unsafe { Swar::fill(row, x0, x1, value) },
        }
    }
}

/// A span-filling strategy, resolved at compile time so the renderer's loops can be
/// monomorphised (and, for the vector paths, compiled with the matching target features).
pub(crate) trait Fill {
    /// Set `row[x0..=x1]` to `value`, leaving the other bytes of `row` as they were.
    ///
    /// # Safety
    /// `x0 ≤ x1 < row.len()`, and the CPU supports the implementation's instruction set.
    unsafe fn fill(row: &mut [u8], x0: usize, x1: usize, value: u8);
}

pub(crate) struct Scalar;
pub(crate) struct Swar;
#[cfg(target_arch = "x86_64")]
pub(crate) struct Sse2;
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx2;

impl Fill for Scalar {
    #[inline]
    unsafe fn fill(row: &mut [u8], x0: usize, x1: usize, value: u8) {
        // Deliberately the obvious loop: this is what the other paths are checked against.
        for p in row[x0..=x1].iter_mut() {
            *p = value;
        }
    }
}

/// Two overlapping stores of `N` bytes cover any span of `N..=2N` bytes.
#[inline(always)]
fn two_stores<const N: usize>(span: &mut [u8], value: u8) {
    let n = span.len();
    debug_assert!((N..=2 * N).contains(&n));
    let pattern = [value; N];
    // Fixed-size copies compile to single (unaligned) stores.
    span[..N].copy_from_slice(&pattern);
    span[n - N..].copy_from_slice(&pattern);
}

/// The portable wide fill of a whole span: 8-byte stores, the last one overlapping; spans
/// under 8 bytes with two overlapping stores of 4, 2 or 1 bytes.
#[inline]
fn fill_swar(span: &mut [u8], value: u8) {
    let n = span.len();
    match n {
        0 => {}
        1 => span[0] = value,
        2..=3 => two_stores::<2>(span, value),
        4..=7 => two_stores::<4>(span, value),
        _ => {
            let word = [value; 8];
            let mut i = 0;
            while i + 8 < n {
                span[i..i + 8].copy_from_slice(&word);
                i += 8;
            }
            span[n - 8..].copy_from_slice(&word);
        }
    }
}

impl Fill for Swar {
    #[inline]
    unsafe fn fill(row: &mut [u8], x0: usize, x1: usize, value: u8) {
        fill_swar(&mut row[x0..=x1], value)
    }
}

#[cfg(target_arch = "x86_64")]
impl Fill for Sse2 {
    #[inline]
    unsafe fn fill(row: &mut [u8], x0: usize, x1: usize, value: u8) {
        // SAFETY: forwarded contract (bounds; SSE2 is in the x86_64 baseline).
        unsafe { fill_sse2(row, x0, x1, value) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Fill for Avx2 {
    #[inline]
    unsafe fn fill(row: &mut [u8], x0: usize, x1: usize, value: u8) {
        // SAFETY: forwarded contract (bounds; the caller checked AVX2).
        unsafe { fill_avx2(row, x0, x1, value) }
    }
}

/// Lane indices 0, 1, 2, … as bytes.
#[cfg(target_arch = "x86_64")]
const LANES: [u8; 32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 27, 28, 29, 30, 31,
];

/// # Safety
/// `x0 ≤ x1 < row.len()`; SSE2 available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn fill_sse2(row: &mut [u8], x0: usize, x1: usize, value: u8) {
    use std::arch::x86_64::*;
    const W: usize = 16;
    let n = row.len();
    let len = x1 - x0 + 1;
    let p = row.as_mut_ptr();
    let v = _mm_set1_epi8(value as i8);
    if len <= W && n >= W {
        // The window [base, base + 16) lies in the row and contains the span (x0 − base ≤ 15
        // and len ≤ 16). A lane's offset from x0, wrapped to a byte, is ≤ len − 1 exactly for
        // the span's lanes: lanes left of x0 wrap to 241…255.
        let base = x0.min(n - W);
        // SAFETY: LANES has 32 bytes; the unaligned load reads the first 16.
        let lanes = unsafe { _mm_loadu_si128(LANES.as_ptr().cast()) };
        let offset = _mm_add_epi8(lanes, _mm_set1_epi8(base.wrapping_sub(x0) as u8 as i8));
        let limit = _mm_set1_epi8((len - 1) as u8 as i8);
        let mask = _mm_cmpeq_epi8(_mm_min_epu8(offset, limit), offset);
        // SAFETY: base + 16 ≤ n: the window is inside `row`.
        unsafe {
            let old = _mm_loadu_si128(p.add(base).cast());
            let new = _mm_or_si128(_mm_and_si128(mask, v), _mm_andnot_si128(mask, old));
            _mm_storeu_si128(p.add(base).cast(), new);
        }
        return;
    }
    if len < W {
        // Only for rows narrower than a vector.
        return fill_swar(&mut row[x0..=x1], value);
    }
    let mut i = x0;
    while i + W <= x1 {
        // SAFETY: i + 16 ≤ x1 < n.
        unsafe { _mm_storeu_si128(p.add(i).cast(), v) };
        i += W;
    }
    // SAFETY: len ≥ 16, so x1 + 1 − 16 ≥ x0 and the last 16 bytes end at x1 < n.
    unsafe { _mm_storeu_si128(p.add(x1 + 1 - W).cast(), v) };
}

/// # Safety
/// `x0 ≤ x1 < row.len()`; AVX2 available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn fill_avx2(row: &mut [u8], x0: usize, x1: usize, value: u8) {
    use std::arch::x86_64::*;
    const W: usize = 32;
    let n = row.len();
    let len = x1 - x0 + 1;
    let p = row.as_mut_ptr();
    let v = _mm256_set1_epi8(value as i8);
    if len <= W && n >= W {
        // As in `fill_sse2`, with a 32-byte window (x0 − base ≤ 31, offsets left of x0 wrap to
        // 225…255, above any len − 1 ≤ 31).
        let base = x0.min(n - W);
        // SAFETY: LANES has exactly 32 bytes.
        let lanes = unsafe { _mm256_loadu_si256(LANES.as_ptr().cast()) };
        let offset = _mm256_add_epi8(lanes, _mm256_set1_epi8(base.wrapping_sub(x0) as u8 as i8));
        let limit = _mm256_set1_epi8((len - 1) as u8 as i8);
        let mask = _mm256_cmpeq_epi8(_mm256_min_epu8(offset, limit), offset);
        // SAFETY: base + 32 ≤ n: the window is inside `row`.
        unsafe {
            let old = _mm256_loadu_si256(p.add(base).cast());
            _mm256_storeu_si256(p.add(base).cast(), _mm256_blendv_epi8(old, v, mask));
        }
        return;
    }
    if len < W {
        // Only for rows narrower than a vector.
        // SAFETY: forwarded contract; AVX2 implies SSE2.
        return unsafe { fill_sse2(row, x0, x1, value) };
    }
    let mut i = x0;
    while i + W <= x1 {
        // SAFETY: i + 32 ≤ x1 < n.
        unsafe { _mm256_storeu_si256(p.add(i).cast(), v) };
        i += W;
    }
    // SAFETY: len ≥ 32, so x1 + 1 − 32 ≥ x0 and the last 32 bytes end at x1 < n.
    unsafe { _mm256_storeu_si256(p.add(x1 + 1 - W).cast(), v) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every span of a 256-byte row (all 32,896 of them) and of short rows, each filler
    /// against the scalar loop, on rows pre-filled with a pattern so that any stray or missing
    /// byte shows.
    #[test]
    fn every_filler_writes_exactly_the_span() {
        for n in [256usize, 40, 31, 16, 9, 1] {
            let background: Vec<u8> = (0..n).map(|i| (i % 7 + 10) as u8).collect();
            for filler in SpanFiller::available() {
                for x0 in 0..n {
                    for x1 in x0..n {
                        let mut want = background.clone();
                        want[x0..=x1].fill(3);
                        let mut got = background.clone();
                        filler.fill(&mut got, x0, x1, 3);
                        assert_eq!(got, want, "{filler:?} row {n} span {x0}..={x1}");
                    }
                }
            }
        }
    }

    #[test]
    fn detect_is_available_and_unavailable_fillers_fall_back() {
        assert!(SpanFiller::detect().is_available());
        assert_eq!(SpanFiller::available()[0], SpanFiller::Scalar);
        for f in [SpanFiller::Sse2, SpanFiller::Avx2] {
            let mut row = [0u8; 64];
            // Safe to name whether or not the CPU has it.
            f.fill(&mut row, 3, 50, 9);
            assert!(row[3..=50].iter().all(|&b| b == 9));
            assert_eq!((row[2], row[51]), (0, 0));
        }
    }

    #[test]
    #[should_panic(expected = "outside a row")]
    fn a_span_past_the_row_panics_rather_than_writing_outside_it() {
        let mut row = [0u8; 16];
        SpanFiller::detect().fill(&mut row, 4, 16, 1);
    }

    #[test]
    #[should_panic(expected = "outside a row")]
    fn a_reversed_span_panics() {
        let mut row = [0u8; 16];
        SpanFiller::Scalar.fill(&mut row, 5, 4, 1);
    }
}
