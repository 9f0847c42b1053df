//! Science Birds' agent protocol served on rephyre's Phy-Q game: every agent written for the
//! original game (the Phy-Q framework's Python agents, the AIBirds Java agents) plays rephyre
//! unchanged, each connection on a deterministic, headless game of its own.
//!
//! * [`wire`]: requests decoded from bytes and replies encoded (the protocol's byte layout);
//! * [`session`]: one connection's game, answering requests as the original server does;
//! * [`shots`]: a protocol shot (screen pixels, milliseconds) as a game shot;
//! * [`truth`]: the ground truth (a feature collection in screen pixels, noisy or not) and the
//!   screenshot;
//! * [`levels`]: the level list (built-in tier, level set, Science Birds `config.xml`);
//! * [`record`]: the CSV of finished attempts;
//! * [`Server`]: the TCP listener, a thread per connection.
//!
//! What differs from the original server, and why, is in docs/phyq-server.md.

pub mod levels;
pub mod record;
mod server;
pub mod session;
pub mod shots;
pub mod truth;
pub mod wire;

pub use server::{Log, Server, MAX_CONNECTIONS};
pub use session::{Finished, GameState, Session, Shared};
