//! What the player's menus list: both tiers' templates and task ids, as JSON.

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
        template: String,
        paper: String,
        scenario: u8,
        scenario_name: String,
        strategy: String,
        birds: Vec<String>,
        pigs: usize,
    },
}

/// [`crate::task_info`]: one task's entry, as JSON; an unknown id is an error.
pub fn task_info(id: &str) -> Result<String, String> {
    let info = match taskref::find_builtin(id).map_err(|e| e.to_string())? {
        TaskRef::Phyq(entry) => {
            let t = phyq::generator::template_of(&entry.id)
                .ok_or_else(|| format!("{id} has no template"))?;
            TaskInfo::Phyq {
                id: entry.id.to_string(),
                template: t.code.clone(),
                paper: t.paper.clone(),
                scenario: t.scenario,
                scenario_name: t.scenario_name.clone(),
                strategy: t.strategy.clone(),
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
            }
        }
        TaskRef::Phyre(task) => TaskInfo::Phyre {
            id: task.id().to_string(),
            template: task.id().template_str(),
            tier: task.tier().name(),
            description: task.description().to_string(),
        },
    };
    Ok(serde_json::to_string(&info).expect("plain fields serialize"))
}
