//! Span filling: set `row[x0..=x1]` to one value. A plain scalar loop is the reference; on
//! x86_64 the SIMD paths write 32 bytes (AVX2, detected at run time) or 16 bytes (SSE2, always
//! present on x86_64) per store. Every path writes exactly the same bytes.

/// Which implementation fills spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanFiller {
    /// One byte at a time (the reference).
    Scalar,
    /// 16-byte SSE2 stores (x86_64).
    Sse2,
    /// 32-byte AVX2 stores (x86_64 with AVX2).
    Avx2,
}

impl SpanFiller {
    /// The fastest filler this CPU supports.
    pub fn detect() -> SpanFiller {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return SpanFiller::Avx2;
            }
            SpanFiller::Sse2
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            SpanFiller::Scalar
        }
    }

    /// Every filler usable on this CPU (for tests and benchmarks).
    pub fn available() -> Vec<SpanFiller> {
        let mut v = vec![SpanFiller::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            v.push(SpanFiller::Sse2);
            if std::arch::is_x86_feature_detected!("avx2") {
                v.push(SpanFiller::Avx2);
            }
        }
        v
    }

    /// Set `row[x0..=x1]` to `value` (`x0 ≤ x1 < row.len()`).
    #[inline]
    pub fn fill(self, row: &mut [u8], x0: usize, x1: usize, value: u8) {
        let span = &mut row[x0..=x1];
        match self {
            SpanFiller::Scalar => fill_scalar(span, value),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86_64 baseline.
            SpanFiller::Sse2 => unsafe { fill_sse2(span, value) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx2` is only produced by `detect`/`available` after run-time detection.
            SpanFiller::Avx2 => unsafe { fill_avx2(span, value) },
            #[cfg(not(target_arch = "x86_64"))]
            _ => fill_scalar(span, value),
        }
    }
}

/// The reference: a plain byte loop (kept out of `slice::fill` so it stays the obvious version).
pub fn fill_scalar(span: &mut [u8], value: u8) {
    for p in span.iter_mut() {
        *p = value;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
unsafe fn fill_sse2(span: &mut [u8], value: u8) {
    use std::arch::x86_64::{_mm_set1_epi8, _mm_storeu_si128};
    let v = _mm_set1_epi8(value as i8);
    let mut chunks = span.chunks_exact_mut(16);
    for c in &mut chunks {
        // SAFETY: `c` is exactly 16 writable bytes; unaligned stores are allowed.
        unsafe { _mm_storeu_si128(c.as_mut_ptr().cast(), v) };
    }
    fill_scalar(chunks.into_remainder(), value);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fill_avx2(span: &mut [u8], value: u8) {
    use std::arch::x86_64::{_mm256_set1_epi8, _mm256_storeu_si256};
    let v = _mm256_set1_epi8(value as i8);
    let mut chunks = span.chunks_exact_mut(32);
    for c in &mut chunks {
        // SAFETY: `c` is exactly 32 writable bytes; unaligned stores are allowed.
        unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) };
    }
    let rest = chunks.into_remainder();
    // SAFETY: the caller enabled AVX2, which implies SSE2.
    unsafe { fill_sse2(rest, value) };
}
