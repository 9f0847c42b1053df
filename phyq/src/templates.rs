//! The 75 Phy-Q templates (`data/templates/*.xml`, MIT, see `data/NOTICE`) and their table
//! (`data/templates.csv`): scenario, paper number, hierarchy code, broad-generalization role.

use crate::level::Level;
use crate::xml::{parse_level, XmlError};
use std::sync::OnceLock;

/// Every template file, by file name (`L_C_K_1.xml`, sorted). Listed by hand because
/// `include_bytes!` needs each path written out.
pub const FILES: [(&str, &[u8]); 75] = [
    (
        "1_1_1_1.xml",
        include_bytes!("../data/templates/1_1_1_1.xml"),
    ),
    (
        "1_1_2_1.xml",
        include_bytes!("../data/templates/1_1_2_1.xml"),
    ),
    (
        "1_1_4_1.xml",
        include_bytes!("../data/templates/1_1_4_1.xml"),
    ),
    (
        "1_1_5_1.xml",
        include_bytes!("../data/templates/1_1_5_1.xml"),
    ),
    (
        "1_1_6_1.xml",
        include_bytes!("../data/templates/1_1_6_1.xml"),
    ),
    (
        "1_2_1_1.xml",
        include_bytes!("../data/templates/1_2_1_1.xml"),
    ),
    (
        "1_2_2_1.xml",
        include_bytes!("../data/templates/1_2_2_1.xml"),
    ),
    (
        "1_2_4_1.xml",
        include_bytes!("../data/templates/1_2_4_1.xml"),
    ),
    (
        "1_2_5_1.xml",
        include_bytes!("../data/templates/1_2_5_1.xml"),
    ),
    (
        "1_2_6_1.xml",
        include_bytes!("../data/templates/1_2_6_1.xml"),
    ),
    (
        "2_1_2_1.xml",
        include_bytes!("../data/templates/2_1_2_1.xml"),
    ),
    (
        "2_1_3_1.xml",
        include_bytes!("../data/templates/2_1_3_1.xml"),
    ),
    (
        "2_1_5_1.xml",
        include_bytes!("../data/templates/2_1_5_1.xml"),
    ),
    (
        "2_1_6_1.xml",
        include_bytes!("../data/templates/2_1_6_1.xml"),
    ),
    (
        "2_1_8_1.xml",
        include_bytes!("../data/templates/2_1_8_1.xml"),
    ),
    (
        "2_1_9_1.xml",
        include_bytes!("../data/templates/2_1_9_1.xml"),
    ),
    (
        "2_2_1_1.xml",
        include_bytes!("../data/templates/2_2_1_1.xml"),
    ),
    (
        "2_2_2_1.xml",
        include_bytes!("../data/templates/2_2_2_1.xml"),
    ),
    (
        "2_2_3_1.xml",
        include_bytes!("../data/templates/2_2_3_1.xml"),
    ),
    (
        "2_2_6_1.xml",
        include_bytes!("../data/templates/2_2_6_1.xml"),
    ),
    (
        "2_2_8_1.xml",
        include_bytes!("../data/templates/2_2_8_1.xml"),
    ),
    (
        "2_3_1_1.xml",
        include_bytes!("../data/templates/2_3_1_1.xml"),
    ),
    (
        "2_3_2_1.xml",
        include_bytes!("../data/templates/2_3_2_1.xml"),
    ),
    (
        "2_3_3_1.xml",
        include_bytes!("../data/templates/2_3_3_1.xml"),
    ),
    (
        "2_3_4_1.xml",
        include_bytes!("../data/templates/2_3_4_1.xml"),
    ),
    (
        "2_3_5_1.xml",
        include_bytes!("../data/templates/2_3_5_1.xml"),
    ),
    (
        "2_4_1_1.xml",
        include_bytes!("../data/templates/2_4_1_1.xml"),
    ),
    (
        "2_4_2_1.xml",
        include_bytes!("../data/templates/2_4_2_1.xml"),
    ),
    (
        "2_4_3_1.xml",
        include_bytes!("../data/templates/2_4_3_1.xml"),
    ),
    (
        "2_4_4_1.xml",
        include_bytes!("../data/templates/2_4_4_1.xml"),
    ),
    (
        "2_4_5_1.xml",
        include_bytes!("../data/templates/2_4_5_1.xml"),
    ),
    (
        "2_4_6_1.xml",
        include_bytes!("../data/templates/2_4_6_1.xml"),
    ),
    (
        "3_1_1_1.xml",
        include_bytes!("../data/templates/3_1_1_1.xml"),
    ),
    (
        "3_1_2_1.xml",
        include_bytes!("../data/templates/3_1_2_1.xml"),
    ),
    (
        "3_1_3_1.xml",
        include_bytes!("../data/templates/3_1_3_1.xml"),
    ),
    (
        "3_1_4_1.xml",
        include_bytes!("../data/templates/3_1_4_1.xml"),
    ),
    (
        "3_1_6_1.xml",
        include_bytes!("../data/templates/3_1_6_1.xml"),
    ),
    (
        "3_2_1_1.xml",
        include_bytes!("../data/templates/3_2_1_1.xml"),
    ),
    (
        "3_2_2_1.xml",
        include_bytes!("../data/templates/3_2_2_1.xml"),
    ),
    (
        "3_2_3_1.xml",
        include_bytes!("../data/templates/3_2_3_1.xml"),
    ),
    (
        "3_2_4_1.xml",
        include_bytes!("../data/templates/3_2_4_1.xml"),
    ),
    (
        "3_3_1_1.xml",
        include_bytes!("../data/templates/3_3_1_1.xml"),
    ),
    (
        "3_3_2_1.xml",
        include_bytes!("../data/templates/3_3_2_1.xml"),
    ),
    (
        "3_3_3_1.xml",
        include_bytes!("../data/templates/3_3_3_1.xml"),
    ),
    (
        "3_3_4_1.xml",
        include_bytes!("../data/templates/3_3_4_1.xml"),
    ),
    (
        "3_4_1_1.xml",
        include_bytes!("../data/templates/3_4_1_1.xml"),
    ),
    (
        "3_4_2_1.xml",
        include_bytes!("../data/templates/3_4_2_1.xml"),
    ),
    (
        "3_4_3_1.xml",
        include_bytes!("../data/templates/3_4_3_1.xml"),
    ),
    (
        "3_4_4_1.xml",
        include_bytes!("../data/templates/3_4_4_1.xml"),
    ),
    (
        "3_5_1_1.xml",
        include_bytes!("../data/templates/3_5_1_1.xml"),
    ),
    (
        "3_5_2_1.xml",
        include_bytes!("../data/templates/3_5_2_1.xml"),
    ),
    (
        "3_5_3_1.xml",
        include_bytes!("../data/templates/3_5_3_1.xml"),
    ),
    (
        "3_5_4_1.xml",
        include_bytes!("../data/templates/3_5_4_1.xml"),
    ),
    (
        "3_5_5_1.xml",
        include_bytes!("../data/templates/3_5_5_1.xml"),
    ),
    (
        "3_6_1_1.xml",
        include_bytes!("../data/templates/3_6_1_1.xml"),
    ),
    (
        "3_6_3_1.xml",
        include_bytes!("../data/templates/3_6_3_1.xml"),
    ),
    (
        "3_6_4_1.xml",
        include_bytes!("../data/templates/3_6_4_1.xml"),
    ),
    (
        "3_6_5_1.xml",
        include_bytes!("../data/templates/3_6_5_1.xml"),
    ),
    (
        "3_6_6_1.xml",
        include_bytes!("../data/templates/3_6_6_1.xml"),
    ),
    (
        "3_6_7_1.xml",
        include_bytes!("../data/templates/3_6_7_1.xml"),
    ),
    (
        "3_7_1_1.xml",
        include_bytes!("../data/templates/3_7_1_1.xml"),
    ),
    (
        "3_7_2_1.xml",
        include_bytes!("../data/templates/3_7_2_1.xml"),
    ),
    (
        "3_7_3_1.xml",
        include_bytes!("../data/templates/3_7_3_1.xml"),
    ),
    (
        "3_7_4_1.xml",
        include_bytes!("../data/templates/3_7_4_1.xml"),
    ),
    (
        "3_7_5_1.xml",
        include_bytes!("../data/templates/3_7_5_1.xml"),
    ),
    (
        "3_8_1_1.xml",
        include_bytes!("../data/templates/3_8_1_1.xml"),
    ),
    (
        "3_8_2_1.xml",
        include_bytes!("../data/templates/3_8_2_1.xml"),
    ),
    (
        "3_9_1_1.xml",
        include_bytes!("../data/templates/3_9_1_1.xml"),
    ),
    (
        "3_9_2_1.xml",
        include_bytes!("../data/templates/3_9_2_1.xml"),
    ),
    (
        "3_9_3_1.xml",
        include_bytes!("../data/templates/3_9_3_1.xml"),
    ),
    (
        "3_9_4_1.xml",
        include_bytes!("../data/templates/3_9_4_1.xml"),
    ),
    (
        "3_9_5_1.xml",
        include_bytes!("../data/templates/3_9_5_1.xml"),
    ),
    (
        "3_9_6_1.xml",
        include_bytes!("../data/templates/3_9_6_1.xml"),
    ),
    (
        "3_9_7_1.xml",
        include_bytes!("../data/templates/3_9_7_1.xml"),
    ),
    (
        "3_9_8_1.xml",
        include_bytes!("../data/templates/3_9_8_1.xml"),
    ),
];

const TABLE: &str = include_str!("../data/templates.csv");

/// A template's split in the broad-generalization setting (the paper's Table 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    Train,
    Test,
}

/// One template's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// Scenario 1..=15.
    pub scenario: u8,
    pub scenario_name: String,
    /// The paper's number `S.T`.
    pub paper: String,
    /// The hierarchy code `L_C_K` (its file is `L_C_K_1.xml`).
    pub code: String,
    pub role: Role,
    /// The strategic rule of the paper's Tables 4-5 (its words).
    pub strategy: String,
}

impl Template {
    /// The file name of the template's XML.
    pub fn file_name(&self) -> String {
        format!("{}_1.xml", self.code)
    }

    /// The template's XML bytes.
    pub fn xml(&self) -> &'static [u8] {
        let name = self.file_name();
        FILES
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(&[], |(_, b)| *b)
    }

    /// The template's level.
    pub fn level(&self) -> Result<Level, XmlError> {
        parse_level(self.xml())
    }
}

/// The 75 templates in the paper's order (scenario, then template number).
pub fn templates() -> &'static [Template] {
    static CELL: OnceLock<Vec<Template>> = OnceLock::new();
    CELL.get_or_init(|| match parse_table(TABLE) {
        Ok(t) => t,
        // Embedded and checked by the tests: a failure is a bug in this crate.
        Err(e) => panic!("data/templates.csv: {e}"),
    })
}

/// The template with this hierarchy code (`1_1_4`) or paper number (`1.1`).
pub fn find(name: &str) -> Option<&'static Template> {
    templates()
        .iter()
        .find(|t| t.code == name || t.paper == name)
}

fn parse_table(text: &str) -> Result<Vec<Template>, String> {
    #[derive(serde::Deserialize)]
    struct Row {
        scenario: u8,
        scenario_name: String,
        paper: String,
        code: String,
        role: String,
        strategy: String,
    }
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for r in reader.deserialize() {
        let r: Row = r.map_err(|e| e.to_string())?;
        let role = match r.role.as_str() {
            "train" => Role::Train,
            "test" => Role::Test,
            other => return Err(format!("role \"{other}\"")),
        };
        out.push(Template {
            scenario: r.scenario,
            scenario_name: r.scenario_name,
            paper: r.paper,
            code: r.code,
            role,
            strategy: r.strategy,
        });
    }
    if out.len() != FILES.len() {
        return Err(format!("{} rows for {} files", out.len(), FILES.len()));
    }
    Ok(out)
}
