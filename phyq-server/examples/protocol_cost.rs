//! What the protocol costs over the game itself, on the same work: for the first task of each
//! of the 75 templates, load the level (its 2 s opening), read the ground truth, shoot once
//! (full drag, 30° up), read the ground truth again — through `phyq-server` over TCP on one
//! connection, and in process with `phyq::game` alone (load, shot). One thread each way; run
//! with `cargo run --release -p phyq-server --example protocol_cost` (a quiet core:
//! `taskset -c 1`).

use phyq::game::Game;
use phyq::picture::Framing;
use phyq_server::levels::{builtin, Selection};
use phyq_server::shots::{shot_of, ShotInput};
use phyq_server::truth::Labels;
use phyq_server::wire::{encode, Aim, Request, ShotArgs};
use phyq_server::{Server, Shared};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Instant;

const ROUNDS: usize = 5;

fn main() {
    let levels = builtin(&Selection {
        templates: Vec::new(),
        per_template: Some(1),
        from_task: None,
    })
    .expect("the built-in tier");
    // The release point of each level: 300 px from the rest point, 30° below the horizontal
    // behind it (a launch 30° up).
    let shots: Vec<ShotArgs> = levels
        .iter()
        .map(|e| {
            let g = Game::new(&e.level).expect("a level of the tier");
            let (x, y) = Framing::of_level(&e.level).pixel(g.rest_point());
            ShotArgs {
                a: x as i32 - 260,
                b: y as i32 + 150,
                t1: 0,
                t2: 0,
            }
        })
        .collect();

    let mut game_best = f64::MAX;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for (e, s) in levels.iter().zip(&shots) {
            let mut g = Game::new(&e.level).unwrap();
            g.settle();
            let input = ShotInput {
                aim: Aim::Cartesian,
                args: *s,
            };
            let shot = shot_of(&input, &g, &Framing::of_level(&e.level)).unwrap();
            g.shoot(&shot).unwrap();
        }
        game_best = game_best.min(t.elapsed().as_secs_f64());
    }

    let shared = Shared {
        levels: levels.clone(),
        seed: 0,
        labels: Labels::Developer,
    };
    let server = Server::bind(
        "127.0.0.1:0".parse().unwrap(),
        shared,
        None,
        Arc::new(|_: &str| {}),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || server.run());
    let mut c = TcpStream::connect(addr).unwrap();
    c.set_nodelay(true).unwrap();
    let read = |c: &mut TcpStream, n: usize| {
        let mut b = vec![0; n];
        c.read_exact(&mut b).unwrap();
        b
    };
    let truth = |c: &mut TcpStream| {
        c.write_all(&encode(&Request::GroundTruth {
            noisy: false,
            screenshot: false,
        }))
        .unwrap();
        let n = u32::from_be_bytes(read(c, 4).try_into().unwrap()) as usize;
        read(c, n).len()
    };
    let mut protocol_best = f64::MAX;
    let mut bytes = 0;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        bytes = 0;
        for (i, s) in shots.iter().enumerate() {
            c.write_all(&encode(&Request::LoadLevel(i as u32 + 1)))
                .unwrap();
            let mut one = [0u8; 1];
            c.read_exact(&mut one).unwrap();
            bytes += truth(&mut c);
            c.write_all(&encode(&Request::Shoot {
                aim: Aim::Cartesian,
                fast: false,
                shot: *s,
            }))
            .unwrap();
            c.read_exact(&mut one).unwrap();
            assert_eq!(one, [1]);
            bytes += truth(&mut c);
        }
        protocol_best = protocol_best.min(t.elapsed().as_secs_f64());
    }
    let n = levels.len() as f64;
    println!(
        "{} levels, best of {ROUNDS}: the game alone {:.1} ms ({:.0} levels a second); through the protocol {:.1} ms ({:.0} a second, {:.0} KiB of ground truth): {:.2}x",
        levels.len(),
        game_best * 1e3,
        n / game_best,
        protocol_best * 1e3,
        n / protocol_best,
        bytes as f64 / 1024.0,
        protocol_best / game_best
    );
}
