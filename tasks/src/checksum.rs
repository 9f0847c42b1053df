//! md5 helpers and PHYRE's per-template checksums (`checksum.json`: md5 of the space-joined,
//! sorted task ids of each template).

use md5::{Digest, Md5};

use crate::id::TaskId;

/// The copy of the original's `checksum.json` shipped with the crate.
const CHECKSUM_JSON: &str = include_str!("../data/checksum.json");

/// Lower-case hex md5 of `data` (the form PHYRE sorts by).
pub fn md5_hex(data: &[u8]) -> String {
    let digest = Md5::digest(data);
    let mut s = String::with_capacity(32);
    for b in digest.iter() {
        s.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        s.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    s
}

/// md5 of the ids sorted and joined by single spaces.
pub fn template_checksum(ids: &[TaskId]) -> String {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    let joined: Vec<String> = ids.iter().map(TaskId::to_string).collect();
    md5_hex(joined.join(" ").as_bytes())
}

/// Template number → expected md5, sorted by template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checksums(Vec<(u32, String)>);

impl Checksums {
    /// The shipped copy of `checksum.json`.
    pub fn builtin() -> Checksums {
        // The shipped file is tested to parse; failing here is a packaging bug.
        Checksums::parse(CHECKSUM_JSON).expect("data/checksum.json is valid")
    }

    /// Parse a flat JSON object of `"TTTTT": "md5hex"` pairs (the only shape the file has).
    /// Returns `None` for anything else.
    pub fn parse(json: &str) -> Option<Checksums> {
        let mut s = json.trim();
        s = s.strip_prefix('{')?.strip_suffix('}')?.trim();
        let mut out = Vec::new();
        if s.is_empty() {
            return Some(Checksums(out));
        }
        for entry in s.split(',') {
            let (k, v) = entry.split_once(':')?;
            let k = unquote(k.trim())?;
            let v = unquote(v.trim())?;
            if k.len() != 5 || !k.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            if v.len() != 32 || !v.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            out.push((k.parse().ok()?, v.to_ascii_lowercase()));
        }
        out.sort();
        if out.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        Some(Checksums(out))
    }

    /// The md5 of `template`.
    pub fn get(&self, template: u32) -> Option<&str> {
        self.0
            .binary_search_by_key(&template, |(t, _)| *t)
            .ok()
            .map(|i| self.0[i].1.as_str())
    }

    /// Number of templates listed.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no template is listed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn unquote(s: &str) -> Option<&str> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains(['"', '\\'])).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md5_matches_known_vectors() {
        assert_eq!(md5_hex(b""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(md5_hex(b"abc"), "900150983cd24fb0d6963f7d28e17f72");
    }

    #[test]
    fn shipped_checksums_parse_and_cover_b_and_2b() {
        let c = Checksums::builtin();
        assert_eq!(c.len(), 104);
        assert_eq!(c.get(0), Some("ff750b22841d754a3abc0cc37754a6f3"));
        for t in crate::import::phyre_templates() {
            assert!(c.get(t).is_some(), "{t}");
        }
        assert!(Checksums::parse("{\"00001\": \"x\"}").is_none());
        assert!(Checksums::parse("[]").is_none());
        assert_eq!(Checksums::parse("{}").map(|c| c.len()), Some(0));
    }
}
