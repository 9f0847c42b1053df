//! Success curves and AUCCESS (SPEC §7): the share of tasks solved within k valid attempts,
//! weighted by w_k = ln(k+1) − ln(k), so early successes count more.

/// The first attempt (1-based) at which each task was solved, or `None` when it was not
/// solved within the attempts made.
pub type SolvedAt = Option<u32>;

/// s_k for k = 1..=max_attempts: the share of tasks solved within k attempts.
pub fn success_curve(solved_at: &[SolvedAt], max_attempts: u32) -> Vec<f64> {
    let n = solved_at.len().max(1) as f64;
    let mut counts = vec![0u64; max_attempts as usize + 2];
    for s in solved_at.iter().flatten() {
        if *s >= 1 && *s <= max_attempts {
            counts[*s as usize] += 1;
        }
    }
    let mut running = 0u64;
    (1..=max_attempts as usize)
        .map(|k| {
            running += counts[k];
            running as f64 / n
        })
        .collect()
}

/// AUCCESS = Σ_k w_k·s_k / Σ_k w_k over k = 1..=max_attempts.
pub fn auccess(solved_at: &[SolvedAt], max_attempts: u32) -> f64 {
    let curve = success_curve(solved_at, max_attempts);
    let mut num = 0.0;
    let mut den = 0.0;
    for (i, s) in curve.iter().enumerate() {
        let k = (i + 1) as f64;
        let w = (k + 1.0).ln() - k.ln();
        num += w * s;
        den += w;
    }
    num / den
}

/// Share of tasks solved within `k` attempts.
pub fn success_at(solved_at: &[SolvedAt], k: u32) -> f64 {
    let n = solved_at.len().max(1) as f64;
    solved_at
        .iter()
        .filter(|s| matches!(s, Some(a) if *a <= k))
        .count() as f64
        / n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_test_value() {
        // Two tasks solved at attempts 1 and 12, evaluated at 12 attempts.
        let got = auccess(&[Some(1), Some(12)], 12);
        let l13 = 13f64.ln();
        let want = (l13 + (l13 - 12f64.ln())) / l13 / 2.0;
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }

    #[test]
    fn bounds_and_monotonicity() {
        assert_eq!(auccess(&[Some(1); 5], 100), 1.0);
        assert_eq!(auccess(&[None; 5], 100), 0.0);
        let early = auccess(&[Some(2), None], 100);
        let late = auccess(&[Some(50), None], 100);
        assert!(early > late && late > 0.0);
        assert_eq!(success_at(&[Some(3), Some(11), None, Some(10)], 10), 0.5);
        let c = success_curve(&[Some(3), None], 5);
        assert_eq!(c, vec![0.0, 0.0, 0.5, 0.5, 0.5]);
    }
}
