//! Baseline agents and their evaluation for rephyre (the paper's §3.2 and §4 protocol).

pub mod auccess;
pub mod wilcoxon;
