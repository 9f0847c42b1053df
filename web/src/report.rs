//! What the page's automation handle returns for one (task, action): the fields of
//! `rephyre simulate --json` that both tiers share, in the command line's words.

/// `window.rephyre.simulate`'s result: `status` as the command line writes it (`SOLVED`,
/// `NOT_SOLVED`, `INVALID` for PHYRE; `passed`, `not_passed`, `invalid` for Phy-Q), the final
/// state hash (16 hex digits, `final_hash` of `simulate --json`) and the steps the run covers;
/// `reason` for an invalid PHYRE action, `pigs_left` and `shots` for Phy-Q.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Simulated {
    pub status: &'static str,
    pub hash: Option<String>,
    pub steps: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pigs_left: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shots: Option<u32>,
}

impl Simulated {
    /// A run that was simulated.
    pub fn ran(status: &'static str, steps: u32, hash: u64) -> Simulated {
        Simulated {
            status,
            hash: Some(hex(hash)),
            steps: Some(steps),
            reason: None,
            pigs_left: None,
            shots: None,
        }
    }

    /// An action refused before simulating.
    pub fn invalid(status: &'static str, reason: String) -> Simulated {
        Simulated {
            status,
            hash: None,
            steps: None,
            reason: Some(reason),
            pigs_left: None,
            shots: None,
        }
    }

    /// As JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("plain fields serialize")
    }
}

/// A state hash as the command line prints it.
pub fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}
