//! The agent protocol's bytes: requests decoded from what a client sent, replies encoded.
//!
//! Every request is one code byte, then its arguments as big-endian 32-bit integers (`i`/`I`),
//! floats (`f`) or bytes, as the original Python client packs them (`struct.pack("!B…")` in
//! `Client/agent_client.py`). [`decode`] reads one request from the front of a buffer and says
//! how many bytes it took, or that more are needed, or why the bytes cannot be a request; it
//! never allocates more than [`MAX_TEXT`] bytes or [`MAX_IDS`] ids, whatever a length field
//! claims. Replies are built with [`Reply`].

use std::fmt;

/// The longest text a novelty report may carry (bytes); a longer length field is refused.
pub const MAX_TEXT: u32 = 64 * 1024;
/// The most object ids a novelty-likelihood report may list.
pub const MAX_IDS: u32 = 16 * 1024;

/// Request codes (`RequestCodes` of the original client).
pub mod code {
    pub const CONFIGURE: u8 = 1;
    pub const SET_SIMULATION_SPEED: u8 = 2;
    pub const SCREENSHOT: u8 = 11;
    pub const GET_STATE: u8 = 12;
    pub const GET_CURRENT_LEVEL: u8 = 14;
    pub const GET_NUMBER_OF_LEVELS: u8 = 15;
    pub const GET_ALL_LEVEL_SCORES: u8 = 23;
    pub const CARTESIAN_SHOT: u8 = 31;
    pub const POLAR_SHOT: u8 = 32;
    pub const SHOT_SEQUENCE: u8 = 33;
    pub const FULLY_ZOOM_OUT: u8 = 34;
    pub const FULLY_ZOOM_IN: u8 = 35;
    pub const CLICK_IN_CENTRE: u8 = 36;
    pub const SHOT_WITH_GROUND_TRUTH: u8 = 38;
    pub const CARTESIAN_FAST_SHOT: u8 = 41;
    pub const POLAR_FAST_SHOT: u8 = 42;
    pub const SHOT_SEQUENCE_FAST: u8 = 43;
    pub const LOAD_LEVEL: u8 = 51;
    pub const RESTART_LEVEL: u8 = 52;
    pub const LOAD_NEXT_AVAILABLE_LEVEL: u8 = 53;
    pub const GROUND_TRUTH_WITH_SCREENSHOT: u8 = 61;
    pub const GROUND_TRUTH: u8 = 62;
    pub const NOISY_GROUND_TRUTH_WITH_SCREENSHOT: u8 = 63;
    pub const NOISY_GROUND_TRUTH: u8 = 64;
    pub const GET_CURRENT_LEVEL_SCORE: u8 = 65;
    pub const REPORT_NOVELTY_LIKELIHOOD: u8 = 66;
    pub const REPORT_NOVELTY_DESCRIPTION: u8 = 67;
    pub const READY_FOR_NEW_SET: u8 = 68;
    pub const NOVELTY_INFO: u8 = 69;
}

/// A shot as the protocol gives it: a release point and two times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShotArgs {
    /// Cartesian: the release point in screen pixels. Polar: the angle (degrees · 100) and
    /// the drag distance (pixels).
    pub a: i32,
    pub b: i32,
    /// The original's `t1` (ignored by its game) and `t2`, the tap time.
    pub t1: i32,
    pub t2: i32,
}

/// How a shot's release point is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    Cartesian,
    Polar,
}

/// One decoded request.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    Configure {
        agent_id: u32,
        mode: u8,
    },
    SetSimulationSpeed(u32),
    Screenshot,
    GetState,
    GetCurrentLevel,
    GetNumberOfLevels,
    GetAllLevelScores,
    Shoot {
        aim: Aim,
        fast: bool,
        shot: ShotArgs,
    },
    ShootRecordingGroundTruth {
        shot: ShotArgs,
        every: i32,
    },
    /// Shots one after the other (`ShootSeq`, `ShootSeqFast`): a count byte, then each shot as
    /// a code (31 or 32) and four integers.
    ShootSequence {
        fast: bool,
        shots: Vec<(Aim, ShotArgs)>,
    },
    FullyZoomOut,
    FullyZoomIn,
    ClickInCentre,
    LoadLevel(u32),
    RestartLevel,
    LoadNextAvailableLevel,
    GroundTruth {
        noisy: bool,
        screenshot: bool,
    },
    GetCurrentLevelScore,
    ReportNoveltyLikelihood(NoveltyReport),
    ReportNoveltyDescription(Vec<u8>),
    ReadyForNewSet,
    NoveltyInfo,
}

/// An agent's report of how likely the level it plays is novel (the novelty track's message).
#[derive(Clone, Debug, PartialEq)]
pub struct NoveltyReport {
    pub likelihood: f32,
    pub non_likelihood: f32,
    pub ids: Vec<i32>,
    pub level: i32,
    pub description: Vec<u8>,
}

impl fmt::Display for NoveltyReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "novelty likelihood {}, non-novelty {}, level {}, {} ids, description {:?}",
            self.likelihood,
            self.non_likelihood,
            self.level,
            self.ids.len(),
            String::from_utf8_lossy(&self.description)
        )
    }
}

/// Why bytes are not a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    UnknownCode(u8),
    /// A length field over its limit (what, the length, the limit).
    TooLong(&'static str, i64, u32),
    /// A sequence of shots holding something else.
    BadSequence(u8),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::UnknownCode(c) => write!(f, "unknown request code {c}"),
            WireError::TooLong(what, n, max) => {
                write!(f, "{what} of {n} is over the limit of {max}")
            }
            WireError::BadSequence(c) => {
                write!(
                    f,
                    "a shot sequence holds request code {c}, not a shot (31 or 32)"
                )
            }
        }
    }
}

/// What [`decode`] found at the front of a buffer.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoded {
    /// A whole request and the bytes it took.
    Request(Request, usize),
    /// The bytes so far are the start of a request: read more.
    NeedMore,
}

/// A cursor over the bytes received; `None` from a read means the request is not all there.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i32(&mut self) -> Option<i32> {
        self.u32().map(|v| v as i32)
    }
    fn f32(&mut self) -> Option<f32> {
        self.u32().map(f32::from_bits)
    }
    fn shot(&mut self) -> Option<ShotArgs> {
        Some(ShotArgs {
            a: self.i32()?,
            b: self.i32()?,
            t1: self.i32()?,
            t2: self.i32()?,
        })
    }
    /// A length field, checked against its limit before anything is read after it.
    fn length(&mut self, what: &'static str, max: u32) -> Result<Option<u32>, WireError> {
        match self.i32() {
            None => Ok(None),
            Some(n) if n < 0 || n as u32 > max => Err(WireError::TooLong(what, i64::from(n), max)),
            Some(n) => Ok(Some(n as u32)),
        }
    }
}

/// Decodes the request at the front of `bytes` (module doc).
pub fn decode(bytes: &[u8]) -> Result<Decoded, WireError> {
    let mut c = Cursor { bytes, at: 0 };
    let Some(code) = c.u8() else {
        return Ok(Decoded::NeedMore);
    };
    let request = match parse(code, &mut c)? {
        Some(r) => r,
        None => return Ok(Decoded::NeedMore),
    };
    Ok(Decoded::Request(request, c.at))
}

/// The request of `code` with its arguments from `c`; `None` when they are not all there.
fn parse(code: u8, c: &mut Cursor) -> Result<Option<Request>, WireError> {
    use code::*;
    let shoot = |aim, fast, c: &mut Cursor| c.shot().map(|shot| Request::Shoot { aim, fast, shot });
    Ok(match code {
        CONFIGURE => (|| {
            Some(Request::Configure {
                agent_id: c.u32()?,
                mode: c.u8()?,
            })
        })(),
        SET_SIMULATION_SPEED => c.u32().map(Request::SetSimulationSpeed),
        SCREENSHOT => Some(Request::Screenshot),
        GET_STATE => Some(Request::GetState),
        GET_CURRENT_LEVEL => Some(Request::GetCurrentLevel),
        GET_NUMBER_OF_LEVELS => Some(Request::GetNumberOfLevels),
        GET_ALL_LEVEL_SCORES => Some(Request::GetAllLevelScores),
        CARTESIAN_SHOT => shoot(Aim::Cartesian, false, c),
        POLAR_SHOT => shoot(Aim::Polar, false, c),
        CARTESIAN_FAST_SHOT => shoot(Aim::Cartesian, true, c),
        POLAR_FAST_SHOT => shoot(Aim::Polar, true, c),
        SHOT_WITH_GROUND_TRUTH => (|| {
            Some(Request::ShootRecordingGroundTruth {
                shot: c.shot()?,
                every: c.i32()?,
            })
        })(),
        SHOT_SEQUENCE | SHOT_SEQUENCE_FAST => {
            let Some(n) = c.u8() else { return Ok(None) };
            let mut shots = Vec::with_capacity(usize::from(n));
            for _ in 0..n {
                let Some(k) = c.u8() else { return Ok(None) };
                let aim = match k {
                    CARTESIAN_SHOT => Aim::Cartesian,
                    POLAR_SHOT => Aim::Polar,
                    other => return Err(WireError::BadSequence(other)),
                };
                let Some(s) = c.shot() else { return Ok(None) };
                shots.push((aim, s));
            }
            Some(Request::ShootSequence {
                fast: code == SHOT_SEQUENCE_FAST,
                shots,
            })
        }
        FULLY_ZOOM_OUT => Some(Request::FullyZoomOut),
        FULLY_ZOOM_IN => Some(Request::FullyZoomIn),
        CLICK_IN_CENTRE => Some(Request::ClickInCentre),
        LOAD_LEVEL => c.u32().map(Request::LoadLevel),
        RESTART_LEVEL => Some(Request::RestartLevel),
        LOAD_NEXT_AVAILABLE_LEVEL => Some(Request::LoadNextAvailableLevel),
        GROUND_TRUTH_WITH_SCREENSHOT => Some(Request::GroundTruth {
            noisy: false,
            screenshot: true,
        }),
        GROUND_TRUTH => Some(Request::GroundTruth {
            noisy: false,
            screenshot: false,
        }),
        NOISY_GROUND_TRUTH_WITH_SCREENSHOT => Some(Request::GroundTruth {
            noisy: true,
            screenshot: true,
        }),
        NOISY_GROUND_TRUTH => Some(Request::GroundTruth {
            noisy: true,
            screenshot: false,
        }),
        GET_CURRENT_LEVEL_SCORE => Some(Request::GetCurrentLevelScore),
        REPORT_NOVELTY_LIKELIHOOD => {
            // f f i(count) count×i i(level) i(length) length bytes.
            let (Some(likelihood), Some(non_likelihood)) = (c.f32(), c.f32()) else {
                return Ok(None);
            };
            let Some(n) = c.length("a novelty report's id count", MAX_IDS)? else {
                return Ok(None);
            };
            let mut ids = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let Some(id) = c.i32() else { return Ok(None) };
                ids.push(id);
            }
            let Some(level) = c.i32() else {
                return Ok(None);
            };
            let Some(len) = c.length("a novelty description's length", MAX_TEXT)? else {
                return Ok(None);
            };
            let Some(text) = c.take(len as usize) else {
                return Ok(None);
            };
            Some(Request::ReportNoveltyLikelihood(NoveltyReport {
                likelihood,
                non_likelihood,
                ids,
                level,
                description: text.to_vec(),
            }))
        }
        REPORT_NOVELTY_DESCRIPTION => {
            let Some(len) = c.length("a novelty description's length", MAX_TEXT)? else {
                return Ok(None);
            };
            c.take(len as usize)
                .map(|t| Request::ReportNoveltyDescription(t.to_vec()))
        }
        READY_FOR_NEW_SET => Some(Request::ReadyForNewSet),
        NOVELTY_INFO => Some(Request::NoveltyInfo),
        other => return Err(WireError::UnknownCode(other)),
    })
}

/// A reply under construction: big-endian fields appended in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply(pub Vec<u8>);

impl Reply {
    pub fn new() -> Reply {
        Reply(Vec::new())
    }
    pub fn u8(mut self, v: u8) -> Reply {
        self.0.push(v);
        self
    }
    pub fn u32(mut self, v: u32) -> Reply {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn i32(mut self, v: i32) -> Reply {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn bytes(mut self, b: &[u8]) -> Reply {
        self.0.extend_from_slice(b);
        self
    }
    /// A length-prefixed block (32-bit length, then the bytes).
    pub fn block(self, b: &[u8]) -> Reply {
        let n = u32::try_from(b.len()).expect("a reply block under 4 GiB");
        self.u32(n).bytes(b)
    }
}

/// The request as the bytes a client sends (for tests and the project's own client).
pub fn encode(r: &Request) -> Vec<u8> {
    use code::*;
    let shot = |out: Reply, s: &ShotArgs| out.i32(s.a).i32(s.b).i32(s.t1).i32(s.t2);
    let out = Reply::new();
    let out = match r {
        Request::Configure { agent_id, mode } => out.u8(CONFIGURE).u32(*agent_id).u8(*mode),
        Request::SetSimulationSpeed(s) => out.u8(SET_SIMULATION_SPEED).u32(*s),
        Request::Screenshot => out.u8(SCREENSHOT),
        Request::GetState => out.u8(GET_STATE),
        Request::GetCurrentLevel => out.u8(GET_CURRENT_LEVEL),
        Request::GetNumberOfLevels => out.u8(GET_NUMBER_OF_LEVELS),
        Request::GetAllLevelScores => out.u8(GET_ALL_LEVEL_SCORES),
        Request::Shoot { aim, fast, shot: s } => {
            let c = match (aim, fast) {
                (Aim::Cartesian, false) => CARTESIAN_SHOT,
                (Aim::Polar, false) => POLAR_SHOT,
                (Aim::Cartesian, true) => CARTESIAN_FAST_SHOT,
                (Aim::Polar, true) => POLAR_FAST_SHOT,
            };
            shot(out.u8(c), s)
        }
        Request::ShootRecordingGroundTruth { shot: s, every } => {
            shot(out.u8(SHOT_WITH_GROUND_TRUTH), s).i32(*every)
        }
        Request::ShootSequence { fast, shots } => {
            let n = u8::try_from(shots.len()).expect("at most 255 shots in a sequence");
            let c = if *fast {
                SHOT_SEQUENCE_FAST
            } else {
                SHOT_SEQUENCE
            };
            let mut out = out.u8(c).u8(n);
            for (aim, s) in shots {
                let c = match aim {
                    Aim::Cartesian => CARTESIAN_SHOT,
                    Aim::Polar => POLAR_SHOT,
                };
                out = shot(out.u8(c), s);
            }
            out
        }
        Request::FullyZoomOut => out.u8(FULLY_ZOOM_OUT),
        Request::FullyZoomIn => out.u8(FULLY_ZOOM_IN),
        Request::ClickInCentre => out.u8(CLICK_IN_CENTRE),
        Request::LoadLevel(n) => out.u8(LOAD_LEVEL).u32(*n),
        Request::RestartLevel => out.u8(RESTART_LEVEL),
        Request::LoadNextAvailableLevel => out.u8(LOAD_NEXT_AVAILABLE_LEVEL),
        Request::GroundTruth { noisy, screenshot } => out.u8(match (noisy, screenshot) {
            (false, true) => GROUND_TRUTH_WITH_SCREENSHOT,
            (false, false) => GROUND_TRUTH,
            (true, true) => NOISY_GROUND_TRUTH_WITH_SCREENSHOT,
            (true, false) => NOISY_GROUND_TRUTH,
        }),
        Request::GetCurrentLevelScore => out.u8(GET_CURRENT_LEVEL_SCORE),
        Request::ReportNoveltyLikelihood(r) => {
            let mut out = out
                .u8(REPORT_NOVELTY_LIKELIHOOD)
                .u32(r.likelihood.to_bits())
                .u32(r.non_likelihood.to_bits())
                .u32(r.ids.len() as u32);
            for id in &r.ids {
                out = out.i32(*id);
            }
            out.i32(r.level).block(&r.description)
        }
        Request::ReportNoveltyDescription(t) => out.u8(REPORT_NOVELTY_DESCRIPTION).block(t),
        Request::ReadyForNewSet => out.u8(READY_FOR_NEW_SET),
        Request::NoveltyInfo => out.u8(NOVELTY_INFO),
    };
    out.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_request() -> Vec<Request> {
        let s = ShotArgs {
            a: -120,
            b: 300,
            t1: 0,
            t2: 1500,
        };
        vec![
            Request::Configure {
                agent_id: 28888,
                mode: 1,
            },
            Request::SetSimulationSpeed(100),
            Request::Screenshot,
            Request::GetState,
            Request::GetCurrentLevel,
            Request::GetNumberOfLevels,
            Request::GetAllLevelScores,
            Request::Shoot {
                aim: Aim::Cartesian,
                fast: false,
                shot: s,
            },
            Request::Shoot {
                aim: Aim::Polar,
                fast: true,
                shot: s,
            },
            Request::ShootRecordingGroundTruth { shot: s, every: 5 },
            Request::ShootSequence {
                fast: true,
                shots: vec![(Aim::Cartesian, s), (Aim::Polar, s)],
            },
            Request::ShootSequence {
                fast: false,
                shots: vec![],
            },
            Request::FullyZoomOut,
            Request::FullyZoomIn,
            Request::ClickInCentre,
            Request::LoadLevel(7),
            Request::RestartLevel,
            Request::LoadNextAvailableLevel,
            Request::GroundTruth {
                noisy: true,
                screenshot: false,
            },
            Request::GetCurrentLevelScore,
            Request::ReportNoveltyLikelihood(NoveltyReport {
                likelihood: 0.9,
                non_likelihood: 0.1,
                ids: vec![1, -2, -398879789],
                level: 0,
                description: b"none".to_vec(),
            }),
            Request::ReportNoveltyDescription("é".as_bytes().to_vec()),
            Request::ReadyForNewSet,
            Request::NoveltyInfo,
        ]
    }

    #[test]
    fn every_request_round_trips_and_every_prefix_needs_more() {
        for r in every_request() {
            let bytes = encode(&r);
            assert_eq!(
                decode(&bytes),
                Ok(Decoded::Request(r.clone(), bytes.len())),
                "{r:?}"
            );
            for cut in 0..bytes.len() {
                assert_eq!(
                    decode(&bytes[..cut]),
                    Ok(Decoded::NeedMore),
                    "{r:?} cut {cut}"
                );
            }
            // Two requests back to back: the first is read alone.
            let mut two = bytes.clone();
            two.extend_from_slice(&encode(&Request::GetState));
            assert_eq!(decode(&two), Ok(Decoded::Request(r, bytes.len())));
        }
    }

    #[test]
    fn the_python_clients_bytes_decode() {
        // struct.pack("!BIB", 1, 28888, 1) and struct.pack("!Biiii", 31, 194, 326, 0, 1200).
        assert_eq!(
            decode(&[1, 0, 0, 0x70, 0xd8, 1]),
            Ok(Decoded::Request(
                Request::Configure {
                    agent_id: 28888,
                    mode: 1
                },
                6
            ))
        );
        let mut b = vec![31];
        for v in [194i32, 326, 0, 1200] {
            b.extend_from_slice(&v.to_be_bytes());
        }
        let Ok(Decoded::Request(Request::Shoot { aim, fast, shot }, 17)) = decode(&b) else {
            panic!("not a shot");
        };
        assert_eq!(
            (aim, fast, shot.a, shot.b, shot.t2),
            (Aim::Cartesian, false, 194, 326, 1200)
        );
    }

    #[test]
    fn bad_bytes_are_refused_with_a_reason() {
        assert_eq!(decode(&[0]), Err(WireError::UnknownCode(0)));
        assert_eq!(decode(&[200, 1, 2]), Err(WireError::UnknownCode(200)));
        // A description claiming 2^31−1 bytes is refused before anything is read.
        let mut b = vec![code::REPORT_NOVELTY_DESCRIPTION];
        b.extend_from_slice(&i32::MAX.to_be_bytes());
        assert!(matches!(
            decode(&b),
            Err(WireError::TooLong(_, _, MAX_TEXT))
        ));
        let mut b = vec![code::REPORT_NOVELTY_DESCRIPTION];
        b.extend_from_slice(&(-1i32).to_be_bytes());
        assert!(matches!(decode(&b), Err(WireError::TooLong(_, -1, _))));
        // A sequence holding a screenshot request.
        assert_eq!(
            decode(&[code::SHOT_SEQUENCE_FAST, 1, code::SCREENSHOT]),
            Err(WireError::BadSequence(code::SCREENSHOT))
        );
        assert!(!WireError::UnknownCode(9).to_string().is_empty());
    }
}
