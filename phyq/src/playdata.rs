//! The pass rates the Phy-Q paper measured on the original game in the broad-generalization
//! setting (`data/playdata/`, MIT, see `data/NOTICE`): humans per scenario with their standard
//! deviation (the anchors of the Phy-Q score), and the paper's nine agents per scenario.
//! Also the Pig Shooter per template in the paper's local-generalization test.
//!
//! The files name scenarios by hierarchy category (`L_C`, or `L_CC` in the agents' file):
//! `1_1` is scenario 1 (single force) … `3_9` scenario 15 (manoeuvring), the order of
//! [`crate::templates::templates`].

use std::sync::OnceLock;

const HUMANS: &str = include_str!("../data/playdata/broad_generalisation_human.csv");
const AGENTS: &str = include_str!("../data/playdata/broad_generalization_all_agents.csv");
const PIG_SHOOTER: &str = include_str!("../data/playdata/pig_shooter_per_template.csv");

/// Scenarios of Phy-Q.
pub const SCENARIOS: usize = 15;

/// The humans' pass rate in one scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanRate {
    /// Mean pass rate over the players (1 − the file's `fail_rate`).
    pub pass_rate: f64,
    /// Standard deviation of the players' pass rates.
    pub sd: f64,
}

/// One of the paper's agents: its name as the paper writes it and its pass rate per scenario
/// (index 0: scenario 1).
#[derive(Clone, Debug, PartialEq)]
pub struct PaperAgent {
    pub name: String,
    pub pass_rates: [f64; SCENARIOS],
}

/// The scenario (1..=15) of a hierarchy category `L_C` (`2_1`, or `2_01` as the agents' file
/// writes it).
pub fn scenario_of_category(category: &str) -> Option<u8> {
    let (l, c) = category.split_once('_')?;
    let (l, c): (u8, u8) = (l.parse().ok()?, c.parse().ok()?);
    let per_level = [2u8, 4, 9];
    if l == 0 || l > 3 || c == 0 || c > per_level[usize::from(l) - 1] {
        return None;
    }
    Some(per_level[..usize::from(l) - 1].iter().sum::<u8>() + c)
}

/// The humans' pass rates, by scenario (index 0: scenario 1).
pub fn humans() -> &'static [HumanRate; SCENARIOS] {
    static CELL: OnceLock<[HumanRate; SCENARIOS]> = OnceLock::new();
    CELL.get_or_init(|| match parse_humans(HUMANS) {
        Ok(h) => h,
        // Embedded and checked by the tests: a failure is a bug in this crate.
        Err(e) => panic!("data/playdata/broad_generalisation_human.csv: {e}"),
    })
}

/// The paper's agents, in the file's order (humans first, as the paper's own row).
pub fn paper_agents() -> &'static [PaperAgent] {
    static CELL: OnceLock<Vec<PaperAgent>> = OnceLock::new();
    CELL.get_or_init(|| match parse_agents(AGENTS) {
        Ok(a) => a,
        Err(e) => panic!("data/playdata/broad_generalization_all_agents.csv: {e}"),
    })
}

/// The paper's Pig Shooter per template: (hierarchy code `L_C_K`, average pass rate) in the
/// file's order, from its local-generalization test (tasks 81-100 of each template, 5
/// attempts each; the file's categories `L_CC_KK`).
pub fn pig_shooter_per_template() -> &'static [(String, f64)] {
    static CELL: OnceLock<Vec<(String, f64)>> = OnceLock::new();
    CELL.get_or_init(|| match parse_per_template(PIG_SHOOTER) {
        Ok(v) => v,
        Err(e) => panic!("data/playdata/pig_shooter_per_template.csv: {e}"),
    })
}

fn parse_per_template(text: &str) -> Result<Vec<(String, f64)>, String> {
    #[derive(serde::Deserialize)]
    struct Row {
        category: String,
        pass_rate: f64,
    }
    let mut out: Vec<(String, f64)> = Vec::new();
    for r in csv::Reader::from_reader(text.as_bytes()).deserialize() {
        let r: Row = r.map_err(|e| e.to_string())?;
        let parts: Vec<u32> = r
            .category
            .split('_')
            .map(|p| p.parse().map_err(|_| format!("category {:?}", r.category)))
            .collect::<Result<_, _>>()?;
        let [l, c, k] = parts[..] else {
            return Err(format!("category {:?}", r.category));
        };
        let code = format!("{l}_{c}_{k}");
        if crate::templates::find(&code).is_none() {
            return Err(format!("category {:?}: no template {code}", r.category));
        }
        if out.iter().any(|(c, _)| *c == code) {
            return Err(format!("template {code} twice"));
        }
        if !(0.0..=1.0).contains(&r.pass_rate) {
            return Err(format!("{code}: pass rate {}", r.pass_rate));
        }
        out.push((code, r.pass_rate));
    }
    if out.len() != crate::templates::templates().len() {
        return Err(format!("{} templates, not 75", out.len()));
    }
    Ok(out)
}

fn parse_humans(text: &str) -> Result<[HumanRate; SCENARIOS], String> {
    #[derive(serde::Deserialize)]
    struct Row {
        category: String,
        fail_rate: f64,
        sd_human_pass_rate: f64,
    }
    let mut out = [None; SCENARIOS];
    for r in csv::Reader::from_reader(text.as_bytes()).deserialize() {
        let r: Row = r.map_err(|e| e.to_string())?;
        let s = scenario_of_category(&r.category)
            .ok_or_else(|| format!("category {:?}", r.category))?;
        let slot = &mut out[usize::from(s) - 1];
        if slot.is_some() {
            return Err(format!("category {} twice", r.category));
        }
        *slot = Some(HumanRate {
            pass_rate: 1.0 - r.fail_rate,
            sd: r.sd_human_pass_rate,
        });
    }
    let mut all = [HumanRate {
        pass_rate: 0.0,
        sd: 0.0,
    }; SCENARIOS];
    for (i, h) in out.into_iter().enumerate() {
        all[i] = h.ok_or_else(|| format!("no row for scenario {}", i + 1))?;
    }
    Ok(all)
}

fn parse_agents(text: &str) -> Result<Vec<PaperAgent>, String> {
    #[derive(serde::Deserialize)]
    struct Row {
        category: String,
        pass_rate: f64,
        name: String,
    }
    let mut agents: Vec<(String, [Option<f64>; SCENARIOS])> = Vec::new();
    for r in csv::Reader::from_reader(text.as_bytes()).deserialize() {
        let r: Row = r.map_err(|e| e.to_string())?;
        let s = scenario_of_category(&r.category)
            .ok_or_else(|| format!("category {:?}", r.category))?;
        let i = match agents.iter().position(|(n, _)| *n == r.name) {
            Some(i) => i,
            None => {
                agents.push((r.name.clone(), [None; SCENARIOS]));
                agents.len() - 1
            }
        };
        let slot = &mut agents[i].1[usize::from(s) - 1];
        if slot.is_some() {
            return Err(format!("{} twice for {}", r.name, r.category));
        }
        *slot = Some(r.pass_rate);
    }
    agents
        .into_iter()
        .map(|(name, rates)| {
            let mut pass_rates = [0.0; SCENARIOS];
            for (i, r) in rates.into_iter().enumerate() {
                pass_rates[i] = r.ok_or_else(|| format!("{name}: no scenario {}", i + 1))?;
            }
            Ok(PaperAgent { name, pass_rates })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_map_onto_the_fifteen_scenarios() {
        assert_eq!(scenario_of_category("1_1"), Some(1));
        assert_eq!(scenario_of_category("1_02"), Some(2));
        assert_eq!(scenario_of_category("2_1"), Some(3));
        assert_eq!(scenario_of_category("2_04"), Some(6));
        assert_eq!(scenario_of_category("3_1"), Some(7));
        assert_eq!(scenario_of_category("3_09"), Some(15));
        for bad in ["0_1", "1_3", "2_5", "3_10", "4_1", "x", "1-1"] {
            assert_eq!(scenario_of_category(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_paper_figures_load() {
        let h = humans();
        // The paper's Table: humans pass 96.3 % of single force, 56.8 % of adequate timing.
        assert!((h[0].pass_rate - 0.963157895).abs() < 1e-9);
        assert!((h[13].pass_rate - 0.568421053).abs() < 1e-9);
        assert!((h[14].sd - 0.122700455).abs() < 1e-9);
        let names: Vec<&str> = paper_agents().iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names.len(), 10, "humans and the nine agents: {names:?}");
        assert_eq!(names[0], "Human");
        for n in ["Pig Shooter", "Bambirds", "Random Agent", "Datalab"] {
            assert!(names.contains(&n), "{n} in {names:?}");
        }
        let pig = paper_agents()
            .iter()
            .find(|a| a.name == "Pig Shooter")
            .unwrap();
        assert!((pig.pass_rates[0] - 0.8729166666666666).abs() < 1e-12);
        // The humans' row of the agents' file is the humans' file.
        let human = &paper_agents()[0];
        for (s, (mine, theirs)) in human.pass_rates.iter().zip(h).enumerate() {
            assert!((mine - theirs.pass_rate).abs() < 1e-6, "scenario {}", s + 1);
        }
    }

    #[test]
    fn the_pig_shooter_per_template_covers_the_75() {
        let v = pig_shooter_per_template();
        assert_eq!(v.len(), 75);
        // The file's first rows: 1_01_01 0.8291666…, 1_01_04 0.7458333….
        assert_eq!(v[0].0, "1_1_1");
        assert!((v[0].1 - 0.829_166_666).abs() < 1e-6);
        let r = |c: &str| v.iter().find(|(k, _)| k == c).unwrap().1;
        assert!((r("1_1_4") - 0.745_833_333).abs() < 1e-6);
        assert!(parse_per_template("category,pass_rate\n1_01_99,0.5\n").is_err());
    }
}
