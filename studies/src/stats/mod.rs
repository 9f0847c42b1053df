//! The statistics of the studies: the binomial decisions of SPEC §8 (one-sided tail
//! probabilities via statrs), Wilson intervals, and means with their spreads; [`wilcoxon`]: the
//! one-sided signed-rank test that compares two agents over folds.

use statrs::distribution::{Binomial, DiscreteCDF};

pub mod wilcoxon;

pub use wilcoxon::{wilcoxon_greater, Wilcoxon};

/// P(X ≥ k) for X ~ Binomial(n, p).
pub fn binomial_at_least(n: u64, p: f64, k: u64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    let b = Binomial::new(p, n).expect("p in [0, 1]");
    b.sf(k - 1)
}

/// P(X ≤ k) for X ~ Binomial(n, p).
pub fn binomial_at_most(n: u64, p: f64, k: u64) -> f64 {
    if k >= n {
        return 1.0;
    }
    let b = Binomial::new(p, n).expect("p in [0, 1]");
    b.cdf(k)
}

/// What the binomial tests conclude about one kind of solution (any, or stable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Decision {
    /// P(Binomial(n, p0) ≥ k) < α: solutions are more common than p0.
    Solvable,
    /// P(Binomial(n, 2·p0) ≤ k) < α: solutions are rarer than 2·p0.
    Unsolvable,
    /// Neither test is significant yet.
    Undecided,
}

/// The p-values of both tests and the decision (both significant → solvable, as the original).
pub fn decide(n_valid: u64, k: u64, p0: f64, alpha: f64) -> (f64, f64, Decision) {
    let p_solvable = binomial_at_least(n_valid, p0, k);
    let p_unsolvable = binomial_at_most(n_valid, 2.0 * p0, k);
    let d = if p_solvable < alpha {
        Decision::Solvable
    } else if p_unsolvable < alpha {
        Decision::Unsolvable
    } else {
        Decision::Undecided
    };
    (p_solvable, p_unsolvable, d)
}

/// a / b, 0 when b = 0 (a share of nothing).
pub fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Wilson score interval (95 %) of a binomial proportion k / n; (0, 1) when n = 0.
pub fn wilson_95(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (none, all) = (k == 0, k == n);
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At k = 0 (k = n) the bound is 0 (1) exactly; rounding would leave a hair above (below).
    let lo = if none { 0.0 } else { (centre - half).max(0.0) };
    let hi = if all { 1.0 } else { (centre + half).min(1.0) };
    (lo, hi)
}

/// Mean and sample standard deviation (n − 1; 0 for a single value): the spread of independent
/// runs (random-curve).
pub fn mean_and_sample_std(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (mean, 0.0);
    }
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// Mean and population standard deviation (n; 0 for no value): the spread over the folds,
/// as the paper's Table 1 reports it.
pub fn mean_and_population_std(v: &[f64]) -> (f64, f64) {
    let n = v.len().max(1) as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n;
    (m, var.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_checked_decisions() {
        // n = 10,000, k = 2, p0 = 1e-5: P(X ≥ 2) = 1 − e^−0.1·1.1 ≈ 0.00468 → solvable.
        let (ps, _, d) = decide(10_000, 2, 1e-5, 0.05);
        assert!((ps - 0.004_678).abs() < 1e-5, "{ps}");
        assert_eq!(d, Decision::Solvable);
        // k = 0 with n = 160,000: P(X ≤ 0) at 2e-5 = e^−3.2 ≈ 0.0408 → unsolvable.
        let (_, pu, d) = decide(160_000, 0, 1e-5, 0.05);
        assert!((pu - 0.040_76).abs() < 1e-4, "{pu}");
        assert_eq!(d, Decision::Unsolvable);
        // k = 0 with n = 100,000: e^−2 ≈ 0.135 → still undecided.
        assert_eq!(decide(100_000, 0, 1e-5, 0.05).2, Decision::Undecided);
        // k = 1 with n = 10,000: P(X ≥ 1) ≈ 0.095 → undecided.
        assert_eq!(decide(10_000, 1, 1e-5, 0.05).2, Decision::Undecided);
    }

    #[test]
    fn tails_match_closed_forms() {
        let n = 1000;
        let p: f64 = 0.01;
        let p0 = (1.0 - p).powi(n as i32);
        assert!((binomial_at_most(n, p, 0) - p0).abs() < 1e-12);
        assert!((binomial_at_least(n, p, 1) - (1.0 - p0)).abs() < 1e-12);
        assert_eq!(binomial_at_least(n, p, 0), 1.0);
        assert_eq!(binomial_at_least(5, p, 6), 0.0);
    }

    #[test]
    fn sample_and_population_standard_deviations() {
        let (m, s) = mean_and_sample_std(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m, 2.5);
        assert!((s - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(mean_and_sample_std(&[0.3]), (0.3, 0.0));
        let (m, s) = mean_and_population_std(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m, 2.5);
        assert!((s - 1.25f64.sqrt()).abs() < 1e-12);
        assert_eq!(mean_and_population_std(&[]), (0.0, 0.0));
    }
}
