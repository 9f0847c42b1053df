//! Is a task sound? It must start at rest (run without a shot, nothing moves past a tolerance
//! and no pig is destroyed) and be passable (some sequence of shots destroys every pig).
//!
//! The passability search plays a fixed list of shots per bird, so it is deterministic and needs
//! no seed. First greedily: for each bird in turn, every candidate ([`candidates_for`]: releases
//! aimed at the pigs and the objects near them, then a grid of full-power angles) is played from
//! the state the chosen shots left; one that passes ends the search, otherwise the candidate
//! leaving the fewest pigs, then the least life in them, then destroying the most objects (the
//! first such in the list's order), is kept and the next bird is searched. A level of several
//! birds that the greedy search cannot pass is searched again wider ([`wide_search`]): for each
//! bird, from each of up to [`BEAM_WIDTH`] states, one per set of pigs left first, so that a
//! first shot at a lone pig is followed up even when another shot destroys more (the non-greedy
//! templates are made of such levels). A level of one bird that the candidates do not pass is
//! searched again on a finer grid ([`fine_search`]): its draws were refused where a quarter
//! degree or a tenth of a second more would pass them. So is the last bird of the wide search,
//! from each of its states (a big pig that three shots must each hit hard: 2.3, 1_2_6).

use super::aim::{aim, Arc};
use super::play::{Game, PlayError, Shot, MAX_SHOT_STEPS};
use super::shots::PixelShot;
use crate::catalogue::Kind;
use crate::level::Level;
use engine::{sin_cos, Fixed, Vec2};

/// How far an object may move during the opening for the task to count as at rest (m): the
/// levels as written leave blocks up to 6 cm above their support (3_7_3), which they drop onto
/// while the level settles; a structure that gives way moves much further.
pub const REST_TOLERANCE: Fixed = Fixed::ratio(10, 100);

/// What the opening of a level does, without a shot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The largest distance any object (pig, block, TNT) moved from where the first step left
    /// it (m).
    pub largest_move: Fixed,
    /// Pigs destroyed during it.
    pub pigs_destroyed: u32,
    /// Objects of any kind destroyed during it.
    pub destroyed: u32,
    /// Steps until the world came to rest (or the cap, `MAX_SHOT_STEPS` after the immortal
    /// time).
    pub steps: u32,
    pub came_to_rest: bool,
}

impl Opening {
    /// Starts at rest: nothing moved past the tolerance, nothing destroyed, and it came to rest.
    pub fn is_at_rest(&self) -> bool {
        self.came_to_rest && self.destroyed == 0 && self.largest_move <= REST_TOLERANCE
    }
}

/// Runs a level without a shot: the immortal time, then until rest (at most `MAX_SHOT_STEPS`).
/// Moves are measured from the end of the first step: in it the engine pushes apart objects
/// the level places overlapping (the circles of 2_4_1 sit 17 cm deep in their platform), a
/// correction of the level as written rather than a motion of the task.
pub fn opening(level: &Level) -> Result<Opening, PlayError> {
    let mut game = Game::new(level)?;
    game.step_idle();
    let start: Vec<_> = game.positions();
    let pigs = game.pigs_left();
    game.settle();
    let cap = game.steps() + MAX_SHOT_STEPS;
    let mut came_to_rest = game.world().is_at_rest();
    while !came_to_rest && game.steps() < cap {
        game.step_idle();
        came_to_rest = game.world().is_at_rest();
    }
    let now = game.positions();
    let mut largest_move = Fixed::ZERO;
    let mut destroyed = 0;
    for (a, b) in start.iter().zip(&now) {
        match b {
            Some(b) => {
                largest_move = largest_move.max((*b - a.expect("alive at the start")).length())
            }
            None => destroyed += 1,
        }
    }
    Ok(Opening {
        largest_move,
        pigs_destroyed: pigs - game.pigs_left(),
        destroyed,
        steps: game.steps(),
        came_to_rest,
    })
}

/// The grid of candidate shots for one bird: full-power releases at angles from −20° to 85°
/// (1° apart; the launch direction, counter-clockwise from +x), and, for birds with a power,
/// each of them tapped at 0.5, 1, 1.5 and 2 s as well.
pub fn candidates(drag_radius: Fixed, has_power: bool) -> Vec<Shot> {
    let mut out = Vec::new();
    let taps: &[Option<Fixed>] = if has_power {
        &[
            None,
            Some(Fixed::HALF),
            Some(Fixed::ONE),
            Some(Fixed::ratio(3, 2)),
            Some(Fixed::TWO),
        ]
    } else {
        &[None]
    };
    for deg in -20..=85 {
        let release = release_towards(Fixed::from_int(deg), drag_radius);
        for &tap in taps {
            out.push(Shot { release, tap });
        }
    }
    out
}

/// The release `length` from the rest point that launches towards `degrees` (counter-clockwise
/// from +x): opposite to the launch direction.
fn release_towards(degrees: Fixed, length: Fixed) -> Vec2 {
    let (s, c) = sin_cos(crate::number::radians(degrees));
    Vec2::new(-c, -s).scale(length)
}

/// Taps of the fine grid for a bird with a power: every tenth of a second up to this many.
const FINE_TAPS: i64 = 40;
/// Powers of the fine grid for a bird without one after full power, in tenths of the drag.
const FINE_POWERS: [i64; 5] = [9, 8, 7, 6, 5];

/// The fine grid of a lone bird ([`fine_search`]), in the order played. A bird with a power: at
/// full power, every whole degree from −20° to 85°, tapped every 0.1 s from 0.1 to 4 s (4,240
/// shots; its split or its dive must come at the right moment, and four shares of the flight
/// were too coarse). One without: full power every quarter degree, then 0.9 to 0.5 of it every
/// half degree (1,476 shots).
pub fn fine_candidates(drag_radius: Fixed, has_power: bool) -> Vec<Shot> {
    let release = |quarter_degrees: i32, tenths: i64| {
        let degrees = Fixed::from_int(quarter_degrees).div_int(4);
        release_towards(degrees, drag_radius * Fixed::ratio(tenths, 10))
    };
    let mut out = Vec::new();
    if has_power {
        for deg in -20..=85 {
            let release = release(4 * deg, 10);
            out.extend((1..=FINE_TAPS).map(|k| Shot {
                release,
                tap: Some(Fixed::ratio(k, 10)),
            }));
        }
    } else {
        out.extend((-80..=340).map(|q| Shot {
            release: release(q, 10),
            tap: None,
        }));
        for tenths in FINE_POWERS {
            out.extend((-40..=170).map(|h| Shot {
                release: release(2 * h, tenths),
                tap: None,
            }));
        }
    }
    out
}

/// The search of a level in play with one bird left on [`fine_candidates`] (each on the grid
/// people type): the first that passes.
pub fn fine_search(game: &Game, level: &Level) -> Result<Search, PlayError> {
    let (mut tried, mut steps) = (0u64, 0u64);
    let reach = game.next_reach().filter(|_| game.birds_left() == 1);
    for shot in reach
        .iter()
        .flat_map(|r| fine_candidates(r.drag_radius, r.has_power))
    {
        let shot = PixelShot::nearest(&shot, level);
        let g = play_candidate(game, &shot, level, &mut tried, &mut steps)?;
        if g.pigs_left() == 0 {
            return Ok(Search {
                shots: Some(vec![shot]),
                shots_tried: tried,
                steps,
            });
        }
    }
    Ok(Search {
        shots: None,
        shots_tried: tried,
        steps,
    })
}

/// Most candidates played for one bird ([`search`]).
pub const SHOTS_PER_BIRD: usize = 400;

/// Powers tried by the aimed candidates (shares of the drag radius).
const AIM_POWERS: [(i64, i64); 4] = [(1, 1), (85, 100), (70, 100), (55, 100)];
/// Taps of a bird with a power, as shares of its flight time to the target.
const TAP_SHARES: [(i64, i64); 4] = [(1, 2), (3, 4), (9, 10), (1, 1)];
/// Turns of the aimed releases tried after the exact aims (degrees).
const AIM_TURNS: [i32; 4] = [1, -1, 2, -2];
/// Objects other than pigs aimed at, the nearest to a pig first.
const OTHER_TARGETS: usize = 6;

/// The points worth aiming at now: the pigs (creation order), then up to [`OTHER_TARGETS`]
/// other movable objects, nearest to a pig first (creation order breaks ties).
pub fn targets(game: &Game) -> Vec<Vec2> {
    let world = game.world();
    let at = |b| world.body(b).expect("live body").position();
    let mut pigs = Vec::new();
    let mut others = Vec::new();
    for (kind, _, body) in game.objects() {
        match kind {
            Kind::Pig(_) => pigs.push(at(body)),
            Kind::Block(_) | Kind::Tnt => others.push(at(body)),
            _ => {}
        }
    }
    let near = |p: &Vec2| {
        pigs.iter()
            .map(|q| (*q - *p).length())
            .min()
            .unwrap_or(Fixed::ZERO)
    };
    let mut ranked: Vec<(Fixed, usize, Vec2)> = others
        .iter()
        .enumerate()
        .map(|(i, p)| (near(p), i, *p))
        .collect();
    ranked.sort_by_key(|&(d, i, _)| (d, i));
    pigs.extend(ranked.into_iter().take(OTHER_TARGETS).map(|(_, _, p)| p));
    pigs
}

/// The candidates for the next bird, in the order they are played: releases aimed at each
/// target ([`targets`]) at four powers on both arcs (a bird with a power also tapped at four
/// shares of its flight time), the same turned by ±1° and ±2°, then the full-power grid of
/// [`candidates`]; at most [`SHOTS_PER_BIRD`], each on the grid people type
/// ([`PixelShot::nearest`] for `level`, the level in play).
pub fn candidates_for(game: &Game, level: &Level) -> Vec<PixelShot> {
    let Some(reach) = game.next_reach() else {
        return Vec::new();
    };
    let rest = game.rest_point();
    let mut aims = Vec::new();
    for target in targets(game) {
        for (n, d) in AIM_POWERS {
            for arc in [Arc::Low, Arc::High] {
                aims.extend(aim(&reach, rest, target, Fixed::ratio(n, d), arc));
            }
        }
    }
    let mut out = Vec::new();
    for a in &aims {
        out.push(a.shot(None));
        if reach.has_power {
            for (n, d) in TAP_SHARES {
                out.push(a.shot(Some(a.flight_time * Fixed::ratio(n, d))));
            }
        }
    }
    for turn in AIM_TURNS {
        out.extend(aims.iter().map(|a| a.turned(turn).shot(None)));
    }
    out.extend(candidates(reach.drag_radius, reach.has_power));
    out.truncate(SHOTS_PER_BIRD);
    out.iter().map(|s| PixelShot::nearest(s, level)).collect()
}

/// What the search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// The passing shots, if any were found, as `--shots` takes them.
    pub shots: Option<Vec<PixelShot>>,
    /// Shots simulated in all.
    pub shots_tried: u64,
    /// Physics steps run in all.
    pub steps: u64,
}

/// The best next shot of [`candidates_for`] from a level in play, and the state after it.
#[derive(Clone)]
pub struct Best {
    pub shot: PixelShot,
    /// The game after the shot.
    pub after: Game,
    /// Whether it passes the level (the first candidate that does is taken).
    pub passes: bool,
    /// Shots simulated and physics steps run to choose it.
    pub shots_tried: u64,
    pub steps: u64,
}

/// The first candidate that passes the level, else the one that leaves the fewest pigs, then
/// the least life in them (a pig that takes several hits to die is worth hitting before it
/// dies), then destroys the most objects; the earlier candidate on a tie. `None` when no bird
/// is left.
pub fn best_next_shot(game: &Game, level: &Level) -> Result<Option<Best>, PlayError> {
    let mut best: Option<(Outcome, PixelShot, Game)> = None;
    let (mut tried, mut steps) = (0u64, 0u64);
    for shot in candidates_for(game, level) {
        let g = play_candidate(game, &shot, level, &mut tried, &mut steps)?;
        if g.pigs_left() == 0 {
            return Ok(Some(Best {
                shot,
                after: g,
                passes: true,
                shots_tried: tried,
                steps,
            }));
        }
        let outcome = outcome(&g);
        if best.as_ref().is_none_or(|(o, _, _)| outcome < *o) {
            best = Some((outcome, shot, g));
        }
    }
    Ok(best.map(|(_, shot, after)| Best {
        shot,
        after,
        passes: false,
        shots_tried: tried,
        steps,
    }))
}

/// How good the state after a shot is, smaller better: pigs left, then the life in them, then
/// more objects destroyed (the searches' one ranking).
type Outcome = (u32, Fixed, std::cmp::Reverse<u32>);

fn outcome(g: &Game) -> Outcome {
    (
        g.pigs_left(),
        g.pig_life_left(),
        std::cmp::Reverse(g.destroyed()),
    )
}

/// `game` after `shot`, counting the shot and its steps.
fn play_candidate(
    game: &Game,
    shot: &PixelShot,
    level: &Level,
    tried: &mut u64,
    steps: &mut u64,
) -> Result<Game, PlayError> {
    let mut g = game.clone();
    let before = g.steps();
    g.shoot(&shot.to_shot(level))?;
    *tried += 1;
    *steps += u64::from(g.steps() - before);
    Ok(g)
}

/// Searches for shots that pass the level: greedy over [`candidates_for`], then, for a level it
/// cannot pass, [`wide_search`] (several birds) or [`fine_search`] (one) (module doc). What the
/// greedy search passes keeps its greedy witness.
pub fn search(level: &Level) -> Result<Search, PlayError> {
    let mut start = Game::new(level)?;
    start.settle();
    search_from(&start, level)
}

/// [`search`] from a level in play (`game`, after its opening): the shots that pass it from
/// there.
pub fn search_from(game: &Game, level: &Level) -> Result<Search, PlayError> {
    let greedy = greedy_search(game, level)?;
    if greedy.shots.is_some() {
        return Ok(greedy);
    }
    let again = match game.birds_left() {
        0 => return Ok(greedy),
        1 => fine_search(game, level)?,
        _ => wide_search(game, level, BEAM_WIDTH)?,
    };
    Ok(Search {
        shots: again.shots,
        shots_tried: greedy.shots_tried + again.shots_tried,
        steps: greedy.steps + again.steps,
    })
}

/// States [`wide_search`] keeps per bird.
pub const BEAM_WIDTH: usize = 4;

/// A state of the wide search: the game after `shots`.
#[derive(Clone)]
struct Line {
    game: Game,
    shots: Vec<PixelShot>,
}

/// A state's place in the wide search: its [`Outcome`], then the order it was played in.
type Rank = (Outcome, u64);

/// Whether a state ranks before another. No two ranks are equal (each holds its own place in
/// the order played), so `<` and `<=` agree.
fn ranks_before(a: &Rank, b: &Rank) -> bool {
    a < b
}

/// Searches bird by bird from up to `width` states at a time, from `game` (a level in play):
/// every candidate of [`candidates_for`] from every state (the states in rank order); one that
/// passes ends the search. The next bird starts from the best outcome of each set of live pigs
/// (best sets first), up to `width`, the rest of the places filled by the best other outcomes.
/// For the last bird, when no candidate passes, each state's [`fine_search`] in turn.
pub fn wide_search(game: &Game, level: &Level, width: usize) -> Result<Search, PlayError> {
    let mut lines = vec![Line {
        game: game.clone(),
        shots: Vec::new(),
    }];
    let (mut tried, mut steps) = (0u64, 0u64);
    while !lines.is_empty() && lines[0].game.birds_left() > 0 {
        // The best outcome per set of live pigs, and the `width` best overall.
        let mut per_pigs: Vec<(Vec<engine::BodyId>, Rank, Line)> = Vec::new();
        let mut best: Vec<(Rank, Line)> = Vec::new();
        for line in &lines {
            for shot in candidates_for(&line.game, level) {
                let g = play_candidate(&line.game, &shot, level, &mut tried, &mut steps)?;
                let mut shots = line.shots.clone();
                shots.push(shot);
                if g.pigs_left() == 0 {
                    return Ok(Search {
                        shots: Some(shots),
                        shots_tried: tried,
                        steps,
                    });
                }
                let rank = (outcome(&g), tried);
                let pigs: Vec<_> = g
                    .objects()
                    .filter(|(k, _, _)| matches!(k, Kind::Pig(_)))
                    .map(|(_, _, b)| b)
                    .collect();
                let line = Line { game: g, shots };
                match per_pigs.iter_mut().find(|(p, _, _)| *p == pigs) {
                    Some(entry) if ranks_before(&rank, &entry.1) => {
                        (entry.1, entry.2) = (rank, line.clone())
                    }
                    Some(_) => {}
                    None => per_pigs.push((pigs, rank, line.clone())),
                }
                best.push((rank, line));
                best.sort_by_key(|(r, _)| *r);
                best.truncate(width);
            }
        }
        if lines[0].game.birds_left() == 1 {
            // The last bird: each state's fine grid, as a level of one bird gets it.
            for line in &lines {
                let fine = fine_search(&line.game, level)?;
                tried += fine.shots_tried;
                steps += fine.steps;
                if let Some(last) = fine.shots {
                    let mut shots = line.shots.clone();
                    shots.extend(last);
                    return Ok(Search {
                        shots: Some(shots),
                        shots_tried: tried,
                        steps,
                    });
                }
            }
            break;
        }
        per_pigs.sort_by_key(|(_, r, _)| *r);
        let mut next: Vec<(Rank, Line)> = per_pigs
            .into_iter()
            .take(width)
            .map(|(_, r, l)| (r, l))
            .collect();
        for (r, l) in best {
            if next.len() < width && next.iter().all(|(n, _)| *n != r) {
                next.push((r, l));
            }
        }
        next.sort_by_key(|(r, _)| *r);
        lines = next.into_iter().map(|(_, l)| l).collect();
    }
    Ok(Search {
        shots: None,
        shots_tried: tried,
        steps,
    })
}

/// The greedy search from a level in play: [`best_next_shot`] bird by bird (module doc).
pub fn greedy_search(game: &Game, level: &Level) -> Result<Search, PlayError> {
    let mut game = game.clone();
    let mut chosen: Vec<PixelShot> = Vec::new();
    let mut tried = 0u64;
    let mut steps = 0u64;
    while let Some(best) = best_next_shot(&game, level)? {
        tried += best.shots_tried;
        steps += best.steps;
        chosen.push(best.shot);
        if best.passes {
            return Ok(Search {
                shots: Some(chosen),
                shots_tried: tried,
                steps,
            });
        }
        game = best.after;
    }
    Ok(Search {
        shots: None,
        shots_tried: tried,
        steps,
    })
}

/// Why a drawn task is not sound.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Unsound {
    /// Without a shot something moved past [`REST_TOLERANCE`], was destroyed, or the world did
    /// not come to rest.
    NotAtRest,
    /// The search found no shots that pass it.
    NoPassFound,
}

impl Unsound {
    /// The word the witness file uses.
    pub fn word(&self) -> &'static str {
        match self {
            Unsound::NotAtRest => "rest",
            Unsound::NoPassFound => "search",
        }
    }

    /// The reason of a witness file's word.
    pub fn from_word(w: &str) -> Option<Unsound> {
        match w {
            "rest" => Some(Unsound::NotAtRest),
            "search" => Some(Unsound::NoPassFound),
            _ => None,
        }
    }
}

/// The soundness checks of one drawn task: at rest, then the search.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub opening: Opening,
    /// The search, when the task starts at rest.
    pub search: Option<Search>,
}

impl Verdict {
    /// The passing shots, or why the task is not sound.
    pub fn witness(&self) -> Result<&[PixelShot], Unsound> {
        match &self.search {
            None => Err(Unsound::NotAtRest),
            Some(Search { shots: None, .. }) => Err(Unsound::NoPassFound),
            Some(Search { shots: Some(s), .. }) => Ok(s),
        }
    }
}

/// Checks a drawn task: the opening, and the search when it starts at rest.
pub fn check(level: &Level) -> Result<Verdict, PlayError> {
    let opening = opening(level)?;
    let search = opening.is_at_rest().then(|| search(level)).transpose()?;
    Ok(Verdict { opening, search })
}

/// Re-checks a witness: the task starts at rest and `shots`, played from the start, pass it.
pub fn verify_witness(level: &Level, shots: &[PixelShot]) -> Result<(), String> {
    let o = opening(level).map_err(|e| e.to_string())?;
    if !o.is_at_rest() {
        return Err(format!(
            "not at rest: moved {:.3} m, {} destroyed, came to rest: {}",
            o.largest_move.to_f64(),
            o.destroyed,
            o.came_to_rest
        ));
    }
    let shots: Vec<Shot> = shots.iter().map(|s| s.to_shot(level)).collect();
    let out = super::play::play(level, &shots).map_err(|e| e.to_string())?;
    if out.status != super::play::Status::Passed {
        return Err(format!(
            "the shots do not pass it: {:?}, {} pigs left",
            out.status, out.pigs_left
        ));
    }
    Ok(())
}
