//! The server over TCP, spoken to by a client written here: every request code and game state,
//! shots that win and lose with the game's own results, the record, two clients at once, and
//! bad input (each closed or refused with a line in the log, the server and other games going
//! on).

use phyq::game::{Game, Shot};
use phyq::levelset::Entry;
use phyq::picture::Framing;
use phyq_server::levels::{builtin, Selection};
use phyq_server::record::{Record, HEADER};
use phyq_server::session::GameState;
use phyq_server::shots::{shot_of, ShotInput};
use phyq_server::truth::Labels;
use phyq_server::wire::{encode, Aim, NoveltyReport, Request, ShotArgs};
use phyq_server::{Server, Shared};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct Running {
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
}

impl Running {
    fn log_has(&self, part: &str) -> bool {
        // Log lines are written by the connection's thread: wait a little for them.
        for _ in 0..200 {
            if self.log.lock().unwrap().iter().any(|l| l.contains(part)) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

fn start(levels: Vec<Entry>, record: Option<&Path>) -> Running {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&log);
    let shared = Shared {
        levels,
        seed: 7,
        labels: Labels::Developer,
    };
    let server = Server::bind(
        "127.0.0.1:0".parse().unwrap(),
        shared,
        record.map(|p| Record::open(p).unwrap()),
        Arc::new(move |l: &str| sink.lock().unwrap().push(l.to_string())),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());
    Running { addr, log }
}

fn levels(templates: &[&str], per: u32) -> Vec<Entry> {
    builtin(&Selection {
        templates: templates.iter().map(|s| s.to_string()).collect(),
        per_template: Some(per),
        from_task: None,
    })
    .unwrap()
}

struct Client {
    s: TcpStream,
}

impl Client {
    fn connect(addr: SocketAddr) -> Client {
        let s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        Client { s }
    }
    fn send(&mut self, r: &Request) {
        self.s.write_all(&encode(r)).unwrap();
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut b = vec![0; n];
        self.s.read_exact(&mut b).unwrap();
        b
    }
    fn u8(&mut self) -> u8 {
        self.bytes(1)[0]
    }
    fn u32(&mut self) -> u32 {
        u32::from_be_bytes(self.bytes(4).try_into().unwrap())
    }
    fn ask_u8(&mut self, r: Request) -> u8 {
        self.send(&r);
        self.u8()
    }
    /// A shot at Cartesian release coordinates (fast or not): the server's answer (1 done, 0
    /// refused).
    fn shoot(&mut self, fast: bool, shot: ShotArgs) -> u8 {
        self.ask_u8(Request::Shoot {
            aim: Aim::Cartesian,
            fast,
            shot,
        })
    }
    fn ask_u32(&mut self, r: Request) -> u32 {
        self.send(&r);
        self.u32()
    }
    fn state(&mut self) -> u8 {
        self.ask_u8(Request::GetState)
    }
    /// One ground truth as the client reads it: length, the JSON, five bytes cut off.
    fn truth_block(&mut self) -> (Value, Vec<u8>) {
        let n = self.u32() as usize;
        let b = self.bytes(n);
        let json = serde_json::from_slice(&b[..n - 5]).expect("the ground truth is JSON");
        (json, b)
    }
    fn truth(&mut self, noisy: bool) -> (Value, Vec<u8>) {
        self.send(&Request::GroundTruth {
            noisy,
            screenshot: false,
        });
        self.truth_block()
    }
    fn screenshot(&mut self) -> Vec<u8> {
        let (w, h) = (self.u32(), self.u32());
        assert_eq!((w, h), (640, 480));
        self.bytes(640 * 480 * 3)
    }
    /// Closed by the server: the next read ends.
    fn closed(&mut self) -> bool {
        let mut b = [0u8; 1];
        matches!(self.s.read(&mut b), Ok(0) | Err(_))
    }
}

fn features(v: &Value) -> &Vec<Value> {
    v[0]["features"].as_array().expect("a feature collection")
}

fn labels(v: &Value) -> Vec<String> {
    features(v)
        .iter()
        .map(|f| f["properties"]["label"].as_str().unwrap().to_string())
        .collect()
}

/// The Phy-Q framework's start of a session: NEWTRIAL, NEWTRAININGSET, MAIN_MENU.
fn open_session(c: &mut Client) {
    c.send(&Request::Configure {
        agent_id: 28888,
        mode: 1,
    });
    assert_eq!(c.bytes(3), [0, 0, 0]);
    assert_eq!(c.ask_u8(Request::SetSimulationSpeed(100)), 1);
    assert_eq!(c.state(), GameState::NewTrial as u8);
    c.send(&Request::ReadyForNewSet);
    c.bytes(19);
    assert_eq!(c.state(), GameState::NewTrainingSet as u8);
    c.send(&Request::ReadyForNewSet);
    c.bytes(19);
    assert_eq!(c.state(), GameState::MainMenu as u8);
}

/// A level's game after its opening, as the server loads it.
fn loaded(e: &Entry) -> Game {
    let mut g = Game::new(&e.level).unwrap();
    g.settle();
    g
}

/// The screen point `scale` times further from the rest point along a witness-like offset.
fn screen_shot(e: &Entry, dx: i32, dy: i32) -> (ShotArgs, Shot) {
    let g = loaded(e);
    let framing = Framing::of_level(&e.level);
    let (rx, ry) = framing.pixel(g.rest_point());
    let args = ShotArgs {
        a: rx as i32 + dx,
        b: ry as i32 - dy,
        t1: 0,
        t2: 0,
    };
    let input = ShotInput {
        aim: Aim::Cartesian,
        args,
    };
    (args, shot_of(&input, &g, &framing).unwrap())
}

/// A shot that passes the level in one bird: offsets around the witness's direction.
fn passing_shot(e: &Entry) -> (ShotArgs, Game) {
    for angle in (0..80).map(|k| f64::from(k) * 2.0 - 10.0) {
        let r = angle.to_radians();
        let (dx, dy) = ((-r.cos() * 300.0) as i32, (-r.sin() * 300.0) as i32);
        let (args, shot) = screen_shot(e, dx, dy);
        let mut g = loaded(e);
        g.shoot(&shot).unwrap();
        if g.pigs_left() == 0 {
            return (args, g);
        }
    }
    panic!("no one-bird pass found for {}", e.id);
}

#[test]
fn a_session_walks_every_request_and_state_with_the_games_results() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("run.csv");
    let lv = levels(&["1_1_1", "1_1_4"], 2);
    let n = lv.len() as u32;
    let server = start(lv.clone(), Some(&rec));
    let mut c = Client::connect(server.addr);
    open_session(&mut c);
    assert_eq!(c.ask_u32(Request::GetNumberOfLevels), n);
    assert_eq!(c.ask_u32(Request::GetCurrentLevel), 0);
    // Before any level: a shot is refused, the ground truth is empty.
    assert_eq!(
        c.ask_u8(Request::Shoot {
            aim: Aim::Cartesian,
            fast: false,
            shot: ShotArgs {
                a: 0,
                b: 0,
                t1: 0,
                t2: 0
            }
        }),
        0
    );
    assert!(server.log_has("shot refused: no level in play"));
    assert!(features(&c.truth(false).0).is_empty());
    assert_eq!(c.ask_i32_novelty(), -1);

    // Level 1 (1_1_1:00001): loaded, zoom and click accepted, the ground truth as loaded.
    assert_eq!(c.ask_u8(Request::LoadLevel(1)), 1);
    assert_eq!(c.state(), GameState::Playing as u8);
    assert_eq!(c.ask_u32(Request::GetCurrentLevel), 1);
    for r in [
        Request::FullyZoomOut,
        Request::FullyZoomIn,
        Request::ClickInCentre,
    ] {
        assert_eq!(c.ask_u8(r), 1);
    }
    let (truth, raw) = c.truth(false);
    let l = labels(&truth);
    assert_eq!(&l[..2], ["Ground", "Slingshot"]);
    assert!(l.iter().any(|x| x.starts_with("pig_basic_")), "{l:?}");
    assert!(l.iter().any(|x| x.starts_with("bird_")), "{l:?}");
    assert_eq!(&raw[raw.len() - 5..], b"\n\n\n\n\n");
    // The same request twice: the same bytes; with a screenshot: the same truth, then the
    // picture, the level's colours in it.
    assert_eq!(c.truth(false).1, raw);
    c.send(&Request::GroundTruth {
        noisy: false,
        screenshot: true,
    });
    assert_eq!(c.truth_block().1, raw);
    let pic = c.screenshot();
    let distinct: std::collections::BTreeSet<&[u8]> = pic.chunks(3).collect();
    assert!(distinct.len() >= 4, "{} colours", distinct.len());
    c.send(&Request::Screenshot);
    assert_eq!(c.screenshot(), pic);
    assert_eq!(c.ask_u32(Request::GetCurrentLevelScore), 0);

    // A passing shot: WON, the score and final state those of the game played directly.
    let (args, expected) = passing_shot(&lv[0]);
    assert_eq!(c.shoot(false, args), 1);
    assert_eq!(c.state(), GameState::Won as u8);
    let score = c.ask_u32(Request::GetCurrentLevelScore);
    assert_eq!(score, expected.score());
    // 5,000 for the pig, 10,000 for each bird left.
    let birds = lv[0].level.birds.len() as u32;
    assert!(score >= 5_000 + 10_000 * (birds - 1), "{score}");
    // After the end: a shot is refused.
    assert_eq!(c.shoot(true, args), 0);
    assert!(server.log_has("shot refused: the level has ended"));

    // Restart: the same level in play again, score 0; next available: level 2.
    assert_eq!(c.ask_u8(Request::RestartLevel), 1);
    assert_eq!(c.state(), GameState::Playing as u8);
    assert_eq!(c.ask_u32(Request::GetCurrentLevelScore), 0);
    assert_eq!(c.ask_u32(Request::LoadNextAvailableLevel), 2);
    assert_eq!(c.ask_u32(Request::GetCurrentLevel), 2);

    // Level 2: every bird shot straight down at the ground: LOST once the birds are gone, the
    // game's own state hash in the record.
    let e = &lv[1];
    let (down, shot) = screen_shot(e, 0, 300);
    let mut g = loaded(e);
    let k = e.level.birds.len();
    for i in 0..k {
        g.shoot(&shot).unwrap();
        // A sequence of one shot (code 33) for the first, a fast shot for the rest.
        if i == 0 {
            c.send(&Request::ShootSequence {
                fast: false,
                shots: vec![(Aim::Cartesian, down)],
            });
            assert_eq!(c.bytes(1), [1]);
        } else {
            assert_eq!(c.shoot(true, down), 1);
        }
    }
    assert_eq!(c.state(), GameState::Lost as u8);
    assert_eq!(c.ask_u32(Request::GetCurrentLevelScore), g.score());

    // All levels' best scores: level 1's win, level 2's loss, the rest 0.
    c.send(&Request::GetAllLevelScores);
    assert_eq!(c.u32(), n);
    let best: Vec<u32> = (0..n).map(|_| c.u32()).collect();
    assert_eq!(best[..2], [expected.score(), g.score()]);
    assert!(best[2..].iter().all(|&s| s == 0));

    // Novelty reports are accepted and logged; a level out of range is refused.
    assert_eq!(
        c.ask_u8(Request::ReportNoveltyLikelihood(NoveltyReport {
            likelihood: 0.9,
            non_likelihood: 0.1,
            ids: vec![1, -2, -398879789],
            level: 0,
            description: vec![],
        })),
        1
    );
    assert_eq!(
        c.ask_u8(Request::ReportNoveltyDescription(b"no novelty".to_vec())),
        1
    );
    assert!(server.log_has("novelty description \"no novelty\""));
    assert_eq!(c.ask_u8(Request::LoadLevel(n + 1)), 0);
    assert!(server.log_has(&format!("load level {}: out of range", n + 1)));
    assert_eq!(c.state(), GameState::Lost as u8);
    drop(c);

    // The record: the header, then the two finished attempts.
    assert!(server.log_has("closed: the client disconnected"));
    let text = std::fs::read_to_string(&rec).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0], HEADER);
    assert_eq!(rows.len(), 3, "{text}");
    let f: Vec<&str> = rows[1].split(',').collect();
    assert_eq!(&f[..4], ["28888", "1", &lv[0].id.to_string(), "1"]);
    assert_eq!(f[7], expected.score().to_string());
    assert_eq!(f[8], format!("{:016x}", expected.state_hash()));
    let f: Vec<&str> = rows[2].split(',').collect();
    assert_eq!(&f[..4], ["28888", "2", &e.id.to_string(), "0"]);
    assert_eq!(f[4], k.to_string());
    assert_eq!(f[8], format!("{:016x}", g.state_hash()));
}

impl Client {
    fn ask_i32_novelty(&mut self) -> i32 {
        self.send(&Request::NoveltyInfo);
        i32::from_be_bytes(self.bytes(4).try_into().unwrap())
    }
}

#[test]
fn a_shot_recording_ground_truth_sends_a_frame_every_n_steps() {
    let lv = levels(&["1_1_4"], 1);
    let server = start(lv.clone(), None);
    let mut c = Client::connect(server.addr);
    open_session(&mut c);
    assert_eq!(c.ask_u8(Request::LoadLevel(1)), 1);
    let (down, shot) = screen_shot(&lv[0], 0, 300);
    let mut g = loaded(&lv[0]);
    let before = g.steps();
    g.shoot(&shot).unwrap();
    let steps = g.steps() - before;
    c.send(&Request::ShootRecordingGroundTruth {
        shot: down,
        every: 10,
    });
    let count = c.u32();
    assert_eq!(count, steps / 10);
    let mut last = None;
    for _ in 0..count {
        last = Some(c.truth_block().0);
    }
    assert!(labels(&last.unwrap()).contains(&"Ground".to_string()));
    // N < 1: refused with a count of 0.
    c.send(&Request::ShootRecordingGroundTruth {
        shot: down,
        every: 0,
    });
    assert_eq!(c.u32(), 0);
}

#[test]
fn noisy_ground_truth_moves_objects_rigidly_within_two_pixels_reproducibly() {
    let lv = levels(&["1_1_4"], 1);
    let server = start(lv, None);
    let read = |noisy_twice: bool| {
        let mut c = Client::connect(server.addr);
        open_session(&mut c);
        assert_eq!(c.ask_u8(Request::LoadLevel(1)), 1);
        let clean = c.truth(false).0;
        let a = c.truth(true).0;
        let b = if noisy_twice {
            Some(c.truth(true).0)
        } else {
            None
        };
        (clean, a, b)
    };
    let (clean, noisy, second) = read(true);
    // The same seed, agent and draw: the same noise on another connection.
    assert_eq!(read(false).1, noisy);
    assert_ne!(second.unwrap(), noisy, "each draw differs");
    assert_ne!(noisy, clean);
    let mut moved = 0;
    for (fc, fnz) in features(&clean).iter().zip(features(&noisy)) {
        let label = fc["properties"]["label"].as_str().unwrap();
        assert_eq!(label, fnz["properties"]["label"].as_str().unwrap());
        let (Some(pc), Some(pn)) = (
            fc["geometry"]["coordinates"].as_array(),
            fnz["geometry"]["coordinates"].as_array(),
        ) else {
            continue;
        };
        let pts = |v: &Vec<Value>| -> Vec<(i64, i64)> {
            v[0].as_array()
                .unwrap()
                .iter()
                .map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap()))
                .collect()
        };
        let (a, b) = (pts(pc), pts(pn));
        let d: Vec<(i64, i64)> = a
            .iter()
            .zip(&b)
            .map(|(p, q)| (q.0 - p.0, q.1 - p.1))
            .collect();
        let still = label == "Slingshot" || label.starts_with("bird_");
        if still {
            assert!(d.iter().all(|&v| v == (0, 0)), "{label} moved");
            continue;
        }
        // A rigid move of at most 2 px before rounding: every point within 3 px, the spread
        // of the points' moves at most 1 px (rounding).
        assert!(d.iter().all(|&(x, y)| x * x + y * y <= 9), "{label}: {d:?}");
        let (lo, hi) = d.iter().fold(
            ((i64::MAX, i64::MAX), (i64::MIN, i64::MIN)),
            |(l, h), &v| ((l.0.min(v.0), l.1.min(v.1)), (h.0.max(v.0), h.1.max(v.1))),
        );
        assert!(
            hi.0 - lo.0 <= 1 && hi.1 - lo.1 <= 1,
            "{label}: not rigid {d:?}"
        );
        moved += usize::from(d.iter().any(|&v| v != (0, 0)));
    }
    assert!(moved > 0, "noise moved nothing");
}

#[test]
fn two_clients_play_apart_and_a_silent_or_vanishing_one_stalls_nobody() {
    let lv = levels(&["1_1_4", "2_1_2"], 1);
    let server = start(lv.clone(), None);
    // A silent client: half a request, then nothing.
    let mut silent = TcpStream::connect(server.addr).unwrap();
    silent.write_all(&[51, 0, 0]).unwrap();
    // One that vanishes mid-request.
    {
        let mut v = TcpStream::connect(server.addr).unwrap();
        v.write_all(&[31, 0, 0, 0, 1]).unwrap();
    }
    assert!(server.log_has("went away in the middle of a request (5 bytes of it)"));
    // Two clients on different levels, their requests interleaved.
    let (mut a, mut b) = (Client::connect(server.addr), Client::connect(server.addr));
    open_session(&mut a);
    open_session(&mut b);
    assert_eq!(a.ask_u8(Request::LoadLevel(1)), 1);
    assert_eq!(b.ask_u8(Request::LoadLevel(2)), 1);
    let (ta, tb) = (a.truth(false).1, b.truth(false).1);
    assert_ne!(ta, tb);
    let (down, _) = screen_shot(&lv[0], 0, 300);
    assert_eq!(a.shoot(false, down), 1);
    // b's level did not move.
    assert_eq!(b.truth(false).1, tb);
    assert_eq!(b.ask_u32(Request::GetCurrentLevel), 2);
    // The silent client finishes its request (load level 1 of 2) and is answered.
    silent.write_all(&[0, 1]).unwrap();
    let mut r = [0u8; 1];
    silent.read_exact(&mut r).unwrap();
    assert_eq!(r, [1]);
}

#[test]
fn bad_input_is_refused_or_closed_with_a_line_and_the_server_goes_on() {
    let lv = levels(&["1_1_4"], 1);
    let server = start(lv, None);
    // An unknown code: closed.
    let mut c = Client::connect(server.addr);
    c.s.write_all(&[200]).unwrap();
    assert!(c.closed());
    assert!(server.log_has("bad request: unknown request code 200"));
    // A description claiming 2 GiB: closed before reading it.
    let mut c = Client::connect(server.addr);
    c.s.write_all(&[67, 0x7f, 0xff, 0xff, 0xff]).unwrap();
    assert!(c.closed());
    assert!(server.log_has("is over the limit"));
    // Absurd coordinates, a tap past the shot's end, a negative polar radius: refused.
    let mut c = Client::connect(server.addr);
    open_session(&mut c);
    assert_eq!(c.ask_u8(Request::LoadLevel(1)), 1);
    for (aim, shot, why) in [
        (
            Aim::Cartesian,
            ShotArgs {
                a: i32::MIN,
                b: 5,
                t1: 0,
                t2: 0,
            },
            "release x",
        ),
        (
            Aim::Cartesian,
            ShotArgs {
                a: 10,
                b: 5,
                t1: 0,
                t2: i32::MAX,
            },
            "tap time",
        ),
        (
            Aim::Polar,
            ShotArgs {
                a: 4500,
                b: -3,
                t1: 0,
                t2: 0,
            },
            "radius -3",
        ),
    ] {
        assert_eq!(
            c.ask_u8(Request::Shoot {
                aim,
                fast: false,
                shot
            }),
            0
        );
        assert!(server.log_has(why), "{why}");
    }
    // The game is untouched and still in play; a polar shot is taken.
    assert_eq!(c.state(), GameState::Playing as u8);
    assert_eq!(
        c.ask_u8(Request::Shoot {
            aim: Aim::Polar,
            fast: false,
            shot: ShotArgs {
                a: 4500,
                b: 100,
                t1: 0,
                t2: 800
            }
        }),
        1
    );
    // Load level 0 and a level past the end: refused.
    assert_eq!(c.ask_u8(Request::LoadLevel(0)), 0);
    assert_eq!(c.ask_u8(Request::LoadLevel(2)), 0);
}
