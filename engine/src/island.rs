//! Islands, the step's third stage: the awake dynamic bodies connected by touching contacts,
//! each solved by [`crate::solver`] and then given to [`crate::sleep`]. (`events` only passes
//! through, for the solver to measure the contacts that began this step.)
//!
//! Order, Box2D 2.3.2's (its lists are newest first): islands are seeded from the newest body
//! (descending id), skipping bodies already in an island, asleep or static; each island is grown
//! depth first from an explicit stack, visiting each body's touching contacts newest first
//! (descending creation number `Contact::seq`); the island's contacts are solved in the order
//! this search discovers them, its bodies in ascending id. Static bodies join the islands they
//! touch but do not connect them (the search does not continue through them), and are released
//! after each island so that the next one may take them too. Each island is put to sleep (or
//! not) right after it is solved, before the next island is searched.

use crate::body::Body;
use crate::contact::Contact;
use crate::events::ContactEvents;
use crate::settings::StepSettings;
use crate::sleep::update_sleep;
use crate::solver::IslandSolver;

/// Reusable buffers of the island search (their contents never carry over between steps).
#[derive(Clone, Debug, Default)]
pub(crate) struct Islands {
    stack: Vec<usize>,
    island_bodies: Vec<usize>,
    island_contacts: Vec<usize>,
    adjacency_start: Vec<usize>,
    adjacency: Vec<usize>,
    /// Next free slot of each body's adjacency run while it is filled.
    fill: Vec<usize>,
    in_island: Vec<bool>,
    contact_in_island: Vec<bool>,
}

/// Find the islands, solve each with `solver` and update its sleep state.
pub(crate) fn solve_islands(
    s: &mut Islands,
    bodies: &mut [Body],
    contacts: &mut [Contact],
    solver: &mut IslandSolver,
    step: &StepSettings,
    events: &mut ContactEvents,
) {
    let n = bodies.len();
    // Adjacency of touching contacts per body (CSR, contacts in key order).
    s.adjacency_start.clear();
    s.adjacency_start.resize(n + 1, 0);
    for c in contacts.iter().filter(|c| c.is_touching()) {
        s.adjacency_start[c.body_a as usize + 1] += 1;
        s.adjacency_start[c.body_b as usize + 1] += 1;
    }
    for i in 0..n {
        s.adjacency_start[i + 1] += s.adjacency_start[i];
    }
    s.adjacency.clear();
    s.adjacency.resize(s.adjacency_start[n], 0);
    s.fill.clone_from(&s.adjacency_start);
    for (ci, c) in contacts.iter().enumerate().filter(|(_, c)| c.is_touching()) {
        for b in [c.body_a as usize, c.body_b as usize] {
            s.adjacency[s.fill[b]] = ci;
            s.fill[b] += 1;
        }
    }
    s.in_island.clear();
    s.in_island.resize(n, false);
    s.contact_in_island.clear();
    s.contact_in_island.resize(contacts.len(), false);

    // Box2D's order: seeds newest body first (its body list is newest first), each body's
    // contacts newest first (its contact lists are), islands grown depth first, contacts
    // solved in the order they are discovered.
    for i in 0..n {
        let b = s.adjacency_start[i];
        let e = s.adjacency_start[i + 1];
        s.adjacency[b..e].sort_unstable_by_key(|&ci| std::cmp::Reverse(contacts[ci].seq));
    }
    for seed in (0..n).rev() {
        if s.in_island[seed] || !bodies[seed].awake || !bodies[seed].is_dynamic() {
            continue;
        }
        s.island_bodies.clear();
        s.island_contacts.clear();
        s.stack.clear();
        s.stack.push(seed);
        s.in_island[seed] = true;
        while let Some(bi) = s.stack.pop() {
            s.island_bodies.push(bi);
            let body = &mut bodies[bi];
            if !body.is_dynamic() {
                // Static bodies join islands but do not connect them.
                continue;
            }
            body.awake = true;
            for k in s.adjacency_start[bi]..s.adjacency_start[bi + 1] {
                let ci = s.adjacency[k];
                if s.contact_in_island[ci] {
                    continue;
                }
                s.contact_in_island[ci] = true;
                s.island_contacts.push(ci);
                let c = &contacts[ci];
                let other = if c.body_a as usize == bi {
                    c.body_b
                } else {
                    c.body_a
                } as usize;
                if !s.in_island[other] {
                    s.in_island[other] = true;
                    s.stack.push(other);
                }
            }
        }
        s.island_bodies.sort_unstable();
        let position_solved = solver.solve(
            bodies,
            contacts,
            &s.island_bodies,
            &s.island_contacts,
            step,
            events,
        );
        // Static bodies may join other islands too.
        for &bi in &s.island_bodies {
            if !bodies[bi].is_dynamic() {
                s.in_island[bi] = false;
            }
        }
        update_sleep(bodies, &s.island_bodies, position_solved, step.dt());
    }
}
