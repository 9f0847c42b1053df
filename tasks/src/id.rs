//! Task identifiers: `TTTTT:III` (five-digit template number, colon, three-digit index).

use core::fmt;
use core::str::FromStr;

/// The id of one task, e.g. `00012:034` (template 12, task 34 of that template).
///
/// Ordering is by template, then index, which is also the order of the id strings (both parts
/// have fixed width), so sorting `TaskId`s and sorting their strings agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaskId {
    template: u32,
    index: u32,
}

/// Largest template number (five decimal digits).
pub const MAX_TEMPLATE: u32 = 99_999;
/// Largest task index within a template (three decimal digits).
pub const MAX_INDEX: u32 = 999;

/// Why a string is not a task id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseTaskIdError {
    /// Not exactly five ASCII digits, `:`, three ASCII digits (the offending text is kept,
    /// cut to 32 characters so that a huge input does not end up in a message).
    Malformed(String),
}

impl fmt::Display for ParseTaskIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseTaskIdError::Malformed(s) => {
                write!(
                    f,
                    "malformed task id {s:?} (expected TTTTT:III, e.g. 00012:034)"
                )
            }
        }
    }
}

impl std::error::Error for ParseTaskIdError {}

impl TaskId {
    /// The id of task `index` of template `template`; `None` when either is too large for the
    /// fixed-width text form.
    pub const fn new(template: u32, index: u32) -> Option<TaskId> {
        if template > MAX_TEMPLATE || index > MAX_INDEX {
            None
        } else {
            Some(TaskId { template, index })
        }
    }

    /// Template number (`TTTTT`).
    pub const fn template(self) -> u32 {
        self.template
    }

    /// Index within the template (`III`).
    pub const fn index(self) -> u32 {
        self.index
    }

    /// The template part as text, `TTTTT` (as used by the fold salts).
    pub fn template_str(self) -> String {
        format!("{:05}", self.template)
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:05}:{:03}", self.template, self.index)
    }
}

impl FromStr for TaskId {
    type Err = ParseTaskIdError;

    /// Strict: exactly `DDDDD:DDD` with ASCII digits; no sign, no spaces, no other widths.
    fn from_str(s: &str) -> Result<TaskId, ParseTaskIdError> {
        let b = s.as_bytes();
        let ok = b.len() == 9
            && b[5] == b':'
            && b[..5].iter().all(u8::is_ascii_digit)
            && b[6..].iter().all(u8::is_ascii_digit);
        if !ok {
            return Err(ParseTaskIdError::Malformed(s.chars().take(32).collect()));
        }
        let num = |d: &[u8]| d.iter().fold(0u32, |n, &c| n * 10 + u32::from(c - b'0'));
        Ok(TaskId {
            template: num(&b[..5]),
            index: num(&b[6..]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_orders_like_strings() {
        let id: TaskId = "00012:034".parse().unwrap();
        assert_eq!((id.template(), id.index()), (12, 34));
        assert_eq!(id.to_string(), "00012:034");
        assert_eq!(id.template_str(), "00012");
        let a: TaskId = "00002:999".parse().unwrap();
        let b: TaskId = "00010:000".parse().unwrap();
        assert!(a < b && a.to_string() < b.to_string());
        assert_eq!(TaskId::new(99_999, 999).unwrap().to_string(), "99999:999");
        assert_eq!(TaskId::new(100_000, 0), None);
        assert_eq!(TaskId::new(0, 1000), None);
    }

    #[test]
    fn rejects_malformed_ids() {
        for bad in [
            "",
            "0001:000",
            "00001:00",
            "00001-000",
            "00001:0000",
            "000010:00",
            "+0001:000",
            "00001:-00",
            " 0001:000",
            "00001:000 ",
            "0000a:000",
            "00001:00\u{663}",
            "é0001:000",
        ] {
            assert!(bad.parse::<TaskId>().is_err(), "{bad:?} accepted");
        }
        let long = "x".repeat(10_000);
        let err = long.parse::<TaskId>().unwrap_err();
        assert!(err.to_string().len() < 100);
    }
}
