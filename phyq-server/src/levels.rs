//! The server's level list: what `load level N` loads (level numbers count from 1).
//!
//! Made once at start from the built-in tier (all of it in id order, or some templates, or the
//! first N tasks of each), a level set, or a Science Birds `config.xml` (its `game_levels
//! level_path` list, the files read as the game reads them), and shared by every connection.

use phyq::generator::builtin_tasks;
use phyq::levelset::{Entry, LevelSet};
use phyq::templates;
use std::path::{Path, PathBuf};

/// Why a level list could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LevelsError {
    #[error("unknown template {0:?} (templates are named like 1_1_4; `rephyre tasks list --tier phyq` lists them)")]
    UnknownTemplate(String),
    #[error("{0}")]
    Set(String),
    #[error("{path}: {why}")]
    Config { path: PathBuf, why: String },
    #[error("the level list is empty")]
    Empty,
    #[error("--per-template must be at least 1")]
    ZeroPerTemplate,
    #[error("--from-task counts from 1")]
    ZeroFromTask,
}

/// Which built-in tasks to serve.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Templates by name (`1_1_4`), in the order given; empty: all 75.
    pub templates: Vec<String>,
    /// N tasks of each template (the original's test set takes 20); `None`: all from
    /// `from_task` on.
    pub per_template: Option<u32>,
    /// The first task taken of each template, counting from 1 (`None`: 1). The paper's
    /// heuristic agents were measured on tasks 81-100 (its local generalization's test tasks).
    pub from_task: Option<u32>,
}

/// Levels of the built-in tier: each chosen template's first `per_template` tasks, in id order.
pub fn builtin(sel: &Selection) -> Result<Vec<Entry>, LevelsError> {
    if sel.per_template == Some(0) {
        return Err(LevelsError::ZeroPerTemplate);
    }
    if sel.from_task == Some(0) {
        return Err(LevelsError::ZeroFromTask);
    }
    let mut wanted: Vec<&'static templates::Template> = Vec::new();
    for name in &sel.templates {
        let t = templates::find(name).ok_or_else(|| LevelsError::UnknownTemplate(name.clone()))?;
        if !wanted.iter().any(|w| w.code == t.code) {
            wanted.push(t);
        }
    }
    let set = builtin_tasks();
    let mut out = Vec::new();
    let mut groups: Vec<(String, Vec<&Entry>)> = Vec::new();
    for e in set.entries() {
        let code = phyq::generator::template_of(&e.id).map(|t| t.code.clone());
        let Some(code) = code else { continue };
        match groups.last_mut() {
            Some((c, v)) if *c == code => v.push(e),
            _ => groups.push((code, vec![e])),
        }
    }
    let take = |v: &[&Entry]| -> Vec<Entry> {
        let from = (sel.from_task.unwrap_or(1) as usize - 1).min(v.len());
        let rest = &v[from..];
        let n = sel
            .per_template
            .map_or(rest.len(), |n| rest.len().min(n as usize));
        rest[..n].iter().map(|e| (*e).clone()).collect()
    };
    if wanted.is_empty() {
        for (_, v) in &groups {
            out.extend(take(v));
        }
    } else {
        for t in wanted {
            if let Some((_, v)) = groups.iter().find(|(c, _)| *c == t.code) {
                out.extend(take(v));
            }
        }
    }
    non_empty(out)
}

/// Every level of a level-set file, in its (id) order.
pub fn from_set_file(path: &Path) -> Result<Vec<Entry>, LevelsError> {
    let set = LevelSet::read(path).map_err(|e| LevelsError::Set(e.to_string()))?;
    non_empty(set.entries().to_vec())
}

/// The levels a Science Birds `config.xml` lists (`<game_levels level_path="…"/>`, in document
/// order; a path relative to the file's folder), each read with the level reader.
pub fn from_config(path: &Path) -> Result<Vec<Entry>, LevelsError> {
    let err = |why: String| LevelsError::Config {
        path: path.to_path_buf(),
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut out: Vec<Entry> = Vec::new();
    for value in level_paths(&text).map_err(err)? {
        let file = dir.join(&value);
        let set = phyq::import_paths(std::slice::from_ref(&file))
            .map_err(|e| err(format!("level_path {value:?}: {e}")))?;
        out.extend(set.entries().iter().cloned());
    }
    non_empty(out)
}

/// The `level_path` values of every `game_levels` element, in order.
fn level_paths(text: &str) -> Result<Vec<String>, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut out = Vec::new();
    loop {
        match reader.read_event() {
            Err(e) => return Err(format!("not XML: {e}")),
            Ok(Event::Eof) => break,
            Ok(Event::DocType(_)) => return Err("a DOCTYPE is not accepted".into()),
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) if e.name().as_ref() == b"game_levels" => {
                let mut found = None;
                for a in e.attributes() {
                    let a = a.map_err(|e| format!("bad attribute: {e}"))?;
                    if a.key.as_ref() == b"level_path" {
                        let v = a
                            .unescape_value()
                            .map_err(|e| format!("bad level_path: {e}"))?;
                        found = Some(v.into_owned());
                    }
                }
                out.push(found.ok_or("a game_levels element without level_path")?);
            }
            Ok(_) => {}
        }
        if out.len() > 1_000_000 {
            return Err("more than a million levels".into());
        }
    }
    Ok(out)
}

fn non_empty(v: Vec<Entry>) -> Result<Vec<Entry>, LevelsError> {
    if v.is_empty() {
        Err(LevelsError::Empty)
    } else {
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids_of(sel: &Selection) -> Vec<String> {
        builtin(sel)
            .unwrap()
            .iter()
            .map(|e| e.id.to_string())
            .collect()
    }

    #[test]
    fn config_paths_in_document_order() {
        let xml = r#"<?xml version="1.0"?><evaluation><novelty_detection_measurement/>
          <trials><trial><game_level_set>
            <game_levels level_path="Levels/a.xml"/><game_levels level_path="b.xml"></game_levels>
          </game_level_set></trial></trials></evaluation>"#;
        assert_eq!(level_paths(xml).unwrap(), vec!["Levels/a.xml", "b.xml"]);
        assert!(level_paths("<x><game_levels/></x>").is_err());
        assert!(level_paths("<!DOCTYPE x [<!ENTITY a 'b'>]><x/>").is_err());
    }

    #[test]
    fn a_selection_takes_the_first_tasks_of_each_template_in_order() {
        let sel = Selection {
            templates: vec!["2_1_2".into(), "1_1_4".into()],
            per_template: Some(3),
            from_task: None,
        };
        let ids = ids_of(&sel);
        assert_eq!(
            ids,
            [
                "phyq:2_1_2:00001",
                "phyq:2_1_2:00002",
                "phyq:2_1_2:00003",
                "phyq:1_1_4:00001",
                "phyq:1_1_4:00002",
                "phyq:1_1_4:00003"
            ]
        );
        assert!(matches!(
            builtin(&Selection {
                templates: vec!["9_9_9".into()],
                per_template: None,
                from_task: None,
            }),
            Err(LevelsError::UnknownTemplate(_))
        ));
    }

    #[test]
    fn from_task_starts_each_template_later() {
        let sel = Selection {
            templates: vec!["1_1_4".into(), "3_9_4".into()],
            per_template: Some(2),
            from_task: Some(99),
        };
        let ids = ids_of(&sel);
        assert_eq!(
            ids,
            [
                "phyq:1_1_4:00099",
                "phyq:1_1_4:00100",
                "phyq:3_9_4:00099",
                "phyq:3_9_4:00100"
            ]
        );
        let past = Selection {
            from_task: Some(101),
            ..sel.clone()
        };
        assert!(matches!(builtin(&past), Err(LevelsError::Empty)));
    }
}
