//! Parsers and checks of command-line values that clap's types do not cover: task ids, actions,
//! template lists, output paths.

use anyhow::{bail, Result};
use tasks::{Task, TaskSet, Tier};

/// Parse a comma-separated action, e.g. `0.5,0.5,0.3`. Every component must be a finite
/// number (NaN and infinities are refused here, as input errors; range and placement are the
/// validity rule's business).
pub fn parse_action(text: &str) -> Result<Vec<f64>> {
    let shown = shorten(text);
    if text.trim().is_empty() {
        bail!("empty action (expected comma-separated numbers, e.g. 0.5,0.5,0.3)");
    }
    let mut out = Vec::new();
    for (i, part) in text.split(',').enumerate() {
        let p = part.trim();
        let v: f64 = p.parse().map_err(|_| {
            anyhow::anyhow!(
                "malformed action {shown:?}: component {i} ({:?}) is not a number",
                shorten(p)
            )
        })?;
        if !v.is_finite() {
            bail!(
                "malformed action {shown:?}: component {i} is {p} (must be a finite number in [0, 1])"
            );
        }
        out.push(v);
        if out.len() > 64 {
            bail!("malformed action {shown:?}: too many components");
        }
    }
    Ok(out)
}

/// Check that `action` has the length `tier` takes.
pub fn check_action_len(action: &[f64], tier: Tier) -> Result<()> {
    if action.len() != tier.action_len() {
        bail!(
            "the {} tier takes {} action components (x,y,r per ball), got {}",
            tier,
            tier.action_len(),
            action.len()
        );
    }
    Ok(())
}

/// Cut user text for an error message.
fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        let mut t: String = s.chars().take(40).collect();
        t.push('…');
        t
    } else {
        s.to_string()
    }
}

/// Parse one template number: `00013` or `13`.
pub fn parse_template(s: &str) -> Result<u32> {
    let t = s.trim();
    if t.is_empty() || t.len() > 5 || !t.bytes().all(|b| b.is_ascii_digit()) {
        bail!(
            "malformed template {:?} (expected up to five digits, e.g. 00013)",
            shorten(t)
        );
    }
    Ok(t.parse().expect("at most five digits"))
}

/// Parse a template list: comma-separated numbers and inclusive ranges, e.g. `0-4,00010,12-13`.
/// Returns ascending, without duplicates.
pub fn parse_templates(text: &str) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for item in text.split(',') {
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (parse_template(a)?, parse_template(b)?);
                if a > b {
                    bail!("empty template range {:?}", item.trim());
                }
                out.extend(a..=b);
            }
            None => out.push(parse_template(item)?),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// The tasks a batch command works on ([`studies::selection::select_tasks`]) with the
/// templates of a `--templates` list.
pub fn select_tasks<'a>(
    set: &'a TaskSet,
    tier: Tier,
    templates: Option<&str>,
    per_template: Option<u32>,
) -> Result<Vec<&'a Task>> {
    let templates = templates.map(parse_templates).transpose()?;
    studies::selection::select_tasks(set, tier, templates.as_deref(), per_template)
}

/// Check all the given output paths before any long work starts.
pub fn check_outputs<'a>(paths: impl IntoIterator<Item = &'a std::path::Path>) -> Result<()> {
    for p in paths {
        studies::files::check_writable(p)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_parse_strictly() {
        assert_eq!(parse_action("0.5, 0.5,0.3").unwrap(), vec![0.5, 0.5, 0.3]);
        assert!(parse_action("0.5,x")
            .unwrap_err()
            .to_string()
            .contains("not a number"));
        assert!(parse_action("0.5,NaN,1")
            .unwrap_err()
            .to_string()
            .contains("finite"));
        assert!(parse_action("inf").is_err());
        assert!(parse_action("").is_err());
        assert!(parse_action("0.5,,0.3").is_err());
    }

    #[test]
    fn template_lists_and_ranges() {
        assert_eq!(parse_templates("00003,1-2,2").unwrap(), vec![1, 2, 3]);
        assert_eq!(parse_templates("00100-00102").unwrap(), vec![100, 101, 102]);
        assert!(parse_templates("5-3").is_err());
        assert!(parse_templates("123456").is_err());
        assert!(parse_templates("a").is_err());
        assert!(parse_templates("").is_err());
    }
}
