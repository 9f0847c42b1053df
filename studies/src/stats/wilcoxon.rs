//! One-sided Wilcoxon signed-rank test for paired samples (agent A vs agent B over folds),
//! matching scipy's (1.17) `wilcoxon(x, y, zero_method='wilcox', correction=False,
//! alternative='greater')` with its default `method='auto'`:
//! * zero differences are dropped; |d| gets average ranks; the statistic is T+;
//! * no ties and no zeros, n ≤ 50: the exact null distribution of T+;
//! * ties or zeros and n ≤ 13 (so always for 10 folds): the exact permutation distribution,
//!   i.e. all 2^n sign assignments of the (average) ranks, as scipy enumerates them;
//! * otherwise the normal approximation with the tie correction and no continuity correction
//!   (scipy would use a random permutation sample for 13 < n ≤ 50 with ties; we stay
//!   deterministic).

use statrs::distribution::{ContinuousCDF, Normal};

/// Result of the test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wilcoxon {
    /// Sum of the ranks of the positive differences.
    pub t_plus: f64,
    /// Number of non-zero differences.
    pub n: usize,
    /// P(T+ ≥ observed) under H0.
    pub p_value: f64,
    /// Whether the exact distribution was used.
    pub exact: bool,
}

/// Test whether `a` tends to be greater than `b` (paired).
pub fn wilcoxon_greater(a: &[f64], b: &[f64]) -> Option<Wilcoxon> {
    if a.len() != b.len() {
        return None;
    }
    let d: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(x, y)| x - y)
        .filter(|d| *d != 0.0)
        .collect();
    let n = d.len();
    if n == 0 {
        return None;
    }
    // Average ranks of |d| (ties share the mean of their positions).
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&i, &j| d[i].abs().total_cmp(&d[j].abs()).then(i.cmp(&j)));
    let mut ranks = vec![0.0; n];
    let mut tie_groups = Vec::new();
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && d[idx[j + 1]].abs() == d[idx[i]].abs() {
            j += 1;
        }
        let r = (i + j + 2) as f64 / 2.0;
        for &k in &idx[i..=j] {
            ranks[k] = r;
        }
        tie_groups.push((j - i + 1) as f64);
        i = j + 1;
    }
    // `+ 0.0` turns the empty sum's −0.0 into 0.0.
    let t_plus: f64 = (0..n)
        .filter(|&k| d[k] > 0.0)
        .map(|k| ranks[k])
        .sum::<f64>()
        + 0.0;
    let has_ties = tie_groups.iter().any(|&t| t > 1.0);
    let had_zeros = n < a.len();
    if (has_ties || had_zeros) && a.len() <= 13 {
        // Enumerate every sign assignment; ranks are multiples of ½, so compare doubled
        // integers exactly.
        let twice: Vec<u64> = ranks.iter().map(|r| (r * 2.0).round() as u64).collect();
        let observed = (t_plus * 2.0).round() as u64;
        let hits = (0u64..1 << n)
            .filter(|mask| {
                (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| twice[i])
                    .sum::<u64>()
                    >= observed
            })
            .count();
        return Some(Wilcoxon {
            t_plus,
            n,
            p_value: hits as f64 / (1u64 << n) as f64,
            exact: true,
        });
    }
    if !has_ties && !had_zeros && n <= 50 {
        // Exact: number of subsets of {1..n} with sum ≥ T+ over 2^n.
        let max = n * (n + 1) / 2;
        let mut ways = vec![0f64; max + 1];
        ways[0] = 1.0;
        for r in 1..=n {
            for s in (r..=max).rev() {
                ways[s] += ways[s - r];
            }
        }
        let t = t_plus.round() as usize;
        let tail: f64 = ways[t..].iter().sum();
        return Some(Wilcoxon {
            t_plus,
            n,
            p_value: tail / 2f64.powi(n as i32),
            exact: true,
        });
    }
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let tie_term: f64 = tie_groups.iter().map(|t| t * t * t - t).sum::<f64>() / 48.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term;
    let z = (t_plus - mean) / var.sqrt();
    let p = 1.0 - Normal::new(0.0, 1.0).expect("standard normal").cdf(z);
    Some(Wilcoxon {
        t_plus,
        n,
        p_value: p,
        exact: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over all 2^n sign assignments of the ranks.
    fn brute(t_plus: f64, n: usize) -> f64 {
        let mut hits = 0u64;
        for mask in 0u64..(1 << n) {
            let s: u64 = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| i as u64 + 1)
                .sum();
            if s as f64 >= t_plus {
                hits += 1;
            }
        }
        hits as f64 / (1u64 << n) as f64
    }

    #[test]
    fn hand_checked_vectors() {
        // All ten folds better: T+ = 55, p = 1/1024 (scipy: 0.0009765625).
        let a: Vec<f64> = (1..=10).map(|i| 0.2 + i as f64 * 0.01).collect();
        let b = vec![0.1; 10];
        let w = wilcoxon_greater(&a, &b).unwrap();
        assert_eq!(w.t_plus, 55.0);
        assert!((w.p_value - 1.0 / 1024.0).abs() < 1e-15);
        // d = [1, 2, −3, 4, 5, 6, 7, 8, 9, 10]: T+ = 52, p = 5/1024 (scipy: 0.0048828125).
        let d = [1.0, 2.0, -3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
        let w = wilcoxon_greater(&d, &[0.0; 10]).unwrap();
        assert_eq!(w.t_plus, 52.0);
        assert!((w.p_value - 5.0 / 1024.0).abs() < 1e-15);
        // d = [−1, −2, 3]: T+ = 3, p = P(T+ ≥ 3) = 5/8 (scipy: 0.625).
        let w = wilcoxon_greater(&[-1.0, -2.0, 3.0], &[0.0; 3]).unwrap();
        assert!((w.p_value - 0.625).abs() < 1e-15);
        // Zeros are dropped (zero_method='wilcox').
        let w = wilcoxon_greater(&[0.0, 1.0, 2.0], &[0.0, 0.0, 0.0]).unwrap();
        assert_eq!(w.n, 2);
        assert!((w.p_value - 0.25).abs() < 1e-15);
    }

    #[test]
    fn exact_matches_enumeration() {
        for n in 1..=12usize {
            for seed in 0..5u64 {
                let d: Vec<f64> = (0..n)
                    .map(|i| {
                        let mag = (i + 1) as f64;
                        if (seed.wrapping_mul(2654435761).wrapping_add(i as u64 * 40503)) % 3 == 0 {
                            -mag
                        } else {
                            mag
                        }
                    })
                    .collect();
                let w = wilcoxon_greater(&d, &vec![0.0; n]).unwrap();
                assert!(w.exact);
                assert!(
                    (w.p_value - brute(w.t_plus, n)).abs() < 1e-12,
                    "n={n} seed={seed}"
                );
            }
        }
    }

    #[test]
    fn ties_and_zeros_match_scipy() {
        // Values printed by scipy 1.17.1: wilcoxon(d, zero_method='wilcox', correction=False,
        // alternative='greater').pvalue
        let cases: [(&[f64], f64); 5] = [
            (&[1.0, 1.0, 2.0, 2.0, 3.0], 0.03125),
            (&[1.0, 1.0, 2.0, -2.0, 3.0], 0.1875),
            (&[1.0, -1.0, 2.0, 2.0, 3.0, 4.0], 0.046875),
            (
                &[1.0, 2.0, 2.0, -3.0, 4.0, 5.0, 6.0, 6.0, 7.0, -8.0],
                0.09375,
            ),
            (&[0.5, 0.5, 0.5, -0.5, 1.0], 0.15625),
        ];
        for (d, p) in cases {
            let w = wilcoxon_greater(d, &vec![0.0; d.len()]).unwrap();
            assert!((w.p_value - p).abs() < 1e-12, "{d:?}: {} vs {p}", w.p_value);
        }
    }

    #[test]
    fn large_tied_samples_use_the_normal_approximation() {
        // 20 differences with ties: normal approximation with the tie correction.
        let d: Vec<f64> = (0..20)
            .map(|i| {
                if i % 4 == 0 {
                    -((i / 2) as f64) - 1.0
                } else {
                    (i / 2) as f64 + 1.0
                }
            })
            .collect();
        let w = wilcoxon_greater(&d, &[0.0; 20]).unwrap();
        assert!(!w.exact);
        // scipy 1.17.1, method='asymptotic': 0.015836994987053182.
        assert!(
            (w.p_value - 0.015_836_994_987_053_182).abs() < 1e-12,
            "{}",
            w.p_value
        );
    }

    #[test]
    fn mismatched_or_empty_input() {
        assert!(wilcoxon_greater(&[1.0], &[1.0, 2.0]).is_none());
        assert!(wilcoxon_greater(&[1.0, 2.0], &[1.0, 2.0]).is_none());
    }
}
