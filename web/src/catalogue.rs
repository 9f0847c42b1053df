//! What the player's menus list: both tiers' templates and task ids, as JSON.

use phyq::levelset::Entry;
use serde::Serialize;
use taskref::TaskRef;
use tasks::TaskSet;

#[derive(Serialize)]
struct Catalogue {
    phyre: Vec<PhyreTemplate>,
    phyq: Vec<PhyqTemplate>,
}

#[derive(Serialize)]
struct PhyreTemplate {
    /// `00000` … `00124`.
    template: String,
    /// `ball` or `two_balls`.
    tier: &'static str,
    tasks: Vec<String>,
}

#[derive(Serialize)]
struct PhyqTemplate {
    /// The hierarchy code `L_C_K`.
    code: String,
    /// The paper's number `S.T`.
    paper: String,
    scenario: u8,
    scenario_name: String,
    strategy: String,
    tasks: Vec<String>,
}

/// The built-in PHYRE templates (tasks sorted by id) and the 75 Phy-Q templates (in the
/// paper's order, tasks 1 to 100), as JSON.
pub fn json() -> String {
    let set = TaskSet::builtin();
    let phyre = set
        .templates()
        .into_iter()
        .map(|t| {
            let tasks = set.template(t);
            PhyreTemplate {
                template: format!("{t:05}"),
                tier: tasks[0].tier().name(),
                tasks: tasks.iter().map(|task| task.id().to_string()).collect(),
            }
        })
        .collect();
    let phyq = phyq::templates::templates()
        .iter()
        .map(|t| PhyqTemplate {
            code: t.code.clone(),
            paper: t.paper.clone(),
            scenario: t.scenario,
            scenario_name: t.scenario_name.clone(),
            strategy: t.strategy.clone(),
            tasks: (1..=phyq::generator::TASKS_PER_TEMPLATE)
                .map(|i| phyq::generator::task_id(t, i).to_string())
                .collect(),
        })
        .collect();
    serde_json::to_string(&Catalogue { phyre, phyq }).expect("plain fields serialize")
}

#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum TaskInfo {
    Phyre {
        id: String,
        template: String,
        tier: &'static str,
        description: String,
    },
    Phyq {
        id: String,
        /// `phyq` (built in) or `set` (the loaded level set).
        tier: &'static str,
        /// The template (code, paper number, scenario, strategy) when the id names one: every
        /// built-in task, a set's level imported from a file named `L_C_K_N.xml`.
        template: Option<String>,
        paper: Option<String>,
        scenario: Option<u8>,
        scenario_name: Option<String>,
        strategy: Option<String>,
        birds: Vec<String>,
        pigs: usize,
        /// A set's level: where it came from (the level-set file's `source`).
        #[serde(skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
}

/// [`crate::task_info`]: one built-in task's entry, as JSON; an unknown id is an error.
pub fn task_info(id: &str) -> Result<String, String> {
    task_info_in(id, None)
}

/// One task's entry in `tier`, as JSON: a built-in task (no tier, a PHYRE tier, `phyq`), or a
/// level of the loaded level set (`set`); an unknown id is an error.
pub fn task_info_in(id: &str, tier: Option<&str>) -> Result<String, String> {
    let info = if tier == Some(crate::levels::SET_TIER) {
        let entry = crate::levels::loaded()?.entry(id)?;
        phyq_info(&entry, crate::levels::SET_TIER, Some(entry.source.clone()))
    } else {
        match taskref::find_builtin(id).map_err(|e| e.to_string())? {
            TaskRef::Phyq(entry) => {
                if phyq::generator::template_of(&entry.id).is_none() {
                    return Err(format!("{id} has no template"));
                }
                phyq_info(&entry, "phyq", None)
            }
            TaskRef::Phyre(task) => TaskInfo::Phyre {
                id: task.id().to_string(),
                template: task.id().template_str(),
                tier: task.tier().name(),
                description: task.description().to_string(),
            },
        }
    };
    Ok(serde_json::to_string(&info).expect("plain fields serialize"))
}

fn phyq_info(entry: &Entry, tier: &'static str, source: Option<String>) -> TaskInfo {
    let t = phyq::generator::template_of(&entry.id);
    TaskInfo::Phyq {
        id: entry.id.to_string(),
        tier,
        template: t.map(|t| t.code.clone()),
        paper: t.map(|t| t.paper.clone()),
        scenario: t.map(|t| t.scenario),
        scenario_name: t.map(|t| t.scenario_name.clone()),
        strategy: t.map(|t| t.strategy.clone()),
        birds: entry
            .level
            .birds
            .iter()
            .map(|b| crate::phyq::bird_word(*b))
            .collect(),
        pigs: entry
            .level
            .objects
            .iter()
            .filter(|o| matches!(o.kind, phyq::ObjectKind::Pig { .. }))
            .count(),
        source,
    }
}
