//! A Phy-Q level set in the player (`rephyre --tasks SET serve`, the page fetches the set's
//! bytes from `/levels.json`): read by the same reader as the command line
//! (`phyq::LevelSet::from_bytes`), its levels found by id as `rephyre --tasks SET` finds them
//! (`taskref::resolve`), and listed for the page's menu, grouped by template code.
//!
//! A set's ids may be the built-in tier's too (the template `1_1_4_1.xml` imported is
//! `phyq:1_1_4:00001`, a generated task of the tier has the same id): the page says which it
//! means with the tier, `phyq` (built-in) or [`SET_TIER`] (the loaded set).

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use phyq::levelset::{Entry, LevelSet};
use serde::Serialize;
use taskref::{TaskFile, TaskRef};

/// The tier that names the loaded level set's levels (the built-in ones: `phyq`).
pub const SET_TIER: &str = "set";

/// A level set, read.
#[derive(Debug)]
pub struct Levels {
    file: TaskFile,
}

/// What the page's menu lists ([`Levels::json`]).
#[derive(Serialize)]
struct Listing<'a> {
    /// The file's name, as the server gave it (for the command lines the page shows).
    name: &'a str,
    count: usize,
    groups: Vec<Group>,
}

/// Levels of one template code, or the named levels, in the set's (id) order.
#[derive(Serialize)]
struct Group {
    /// `L_C_K`, or empty for the levels with a name rather than a code.
    code: String,
    label: String,
    tasks: Vec<String>,
}

impl Levels {
    /// A level-set file's bytes, read and checked as `--tasks` reads them; `name` is what the
    /// messages call the file. A set with no level is refused, as the command line refuses it.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Levels, String> {
        let set = LevelSet::from_bytes(bytes)
            .map_err(|e| format!("cannot load the level set {name}: {e}"))?;
        if set.entries().is_empty() {
            return Err(format!("the level set {name} holds no levels"));
        }
        Ok(Levels {
            file: TaskFile::Phyq(set, PathBuf::from(name)),
        })
    }

    /// The file's name.
    pub fn name(&self) -> String {
        self.file.path().display().to_string()
    }

    /// The levels, sorted by id.
    pub fn entries(&self) -> &[Entry] {
        match &self.file {
            TaskFile::Phyq(set, _) => set.entries(),
            TaskFile::Phyre(..) => &[],
        }
    }

    /// The level `id` names in the set, or why none (`rephyre --tasks SET`'s words).
    pub fn entry(&self, id: &str) -> Result<Entry, String> {
        match taskref::resolve(id, Some(&self.file)).map_err(|e| format!("{e:#}"))? {
            TaskRef::Phyq(entry) => Ok(*entry),
            TaskRef::Phyre(_) => unreachable!("a level set resolves only Phy-Q levels"),
        }
    }

    /// The menu: the file's name, its number of levels, and its levels grouped by template
    /// code (a built-in template's code labelled as the built-in menu labels it), the named
    /// levels last, as JSON.
    pub fn json(&self) -> String {
        let mut groups: Vec<Group> = Vec::new();
        for e in self.entries() {
            let code = e.id.template_code().unwrap_or_default();
            if groups.last().is_none_or(|g| g.code != code) {
                let label = if code.is_empty() {
                    "named levels".to_string()
                } else if let Some(t) = phyq::templates::find(&code) {
                    format!("{} {} ({code})", t.paper, t.scenario_name)
                } else {
                    code.clone()
                };
                groups.push(Group {
                    code,
                    label,
                    tasks: Vec::new(),
                });
            }
            if let Some(g) = groups.last_mut() {
                g.tasks.push(e.id.to_string());
            }
        }
        let name = self.name();
        serde_json::to_string(&Listing {
            name: &name,
            count: self.entries().len(),
            groups,
        })
        .expect("plain fields serialize")
    }
}

/// The set the page loaded (one a page; loading another replaces it).
static LOADED: RwLock<Option<Arc<Levels>>> = RwLock::new(None);

/// Makes `levels` the loaded set.
pub fn load(levels: Levels) {
    *LOADED.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(levels));
}

/// The loaded set, or why there is none.
pub fn loaded() -> Result<Arc<Levels>, String> {
    LOADED
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .ok_or_else(|| {
            "no level set is loaded (the player shows one when it is served with rephyre --tasks SET serve)"
                .to_string()
        })
}
