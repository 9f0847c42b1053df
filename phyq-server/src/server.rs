//! The TCP server: one thread and one [`Session`] per connection, so a slow, silent or vanishing
//! client holds only its own game.
//!
//! A connection reads requests as they come ([`decode`]); bytes that cannot be a request (an
//! unknown code, a length over its limit) close it with a line in the log, as does a client
//! that goes away mid-request. Every line of the log names the connection. Finished attempts go
//! to the record ([`Record`]) as they end.

use crate::record::Record;
use crate::session::{Session, Shared};
use crate::wire::{decode, Decoded};
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

/// Most connections served at once; one more is closed at once with a line in the log.
pub const MAX_CONNECTIONS: usize = 512;
/// Most bytes a connection may hold unanswered: no request is longer than about 130 KiB.
const MAX_PENDING: usize = 1 << 20;

/// Where log lines go (the command passes stderr; tests collect them).
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// A running server's listening address and counters.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
    record: Option<Arc<Mutex<Record>>>,
    log: Log,
    open: Arc<AtomicUsize>,
    served: Arc<AtomicU64>,
}

impl Server {
    /// Binds `addr` (port 0: any free port).
    pub fn bind(
        addr: SocketAddr,
        shared: Shared,
        record: Option<Record>,
        log: Log,
    ) -> io::Result<Server> {
        let listener = TcpListener::bind(addr)?;
        Ok(Server {
            listener,
            shared: Arc::new(shared),
            record: record.map(|r| Arc::new(Mutex::new(r))),
            log,
            open: Arc::new(AtomicUsize::new(0)),
            served: Arc::new(AtomicU64::new(0)),
        })
    }

    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves connections until the process ends.
    pub fn run(self) -> io::Result<()> {
        for stream in self.listener.incoming() {
            let stream = match stream {
                Ok(s) => s,
                Err(e) => {
                    (self.log)(&format!("accept failed: {e}"));
                    continue;
                }
            };
            let id = self.served.fetch_add(1, Ordering::Relaxed) + 1;
            let peer = stream
                .peer_addr()
                .map_or_else(|_| "?".to_string(), |a| a.to_string());
            if self.open.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
                (self.log)(&format!(
                    "connection {id} ({peer}): refused, {MAX_CONNECTIONS} connections open"
                ));
                continue;
            }
            self.open.fetch_add(1, Ordering::Relaxed);
            let shared = Arc::clone(&self.shared);
            let record = self.record.clone();
            let log = Arc::clone(&self.log);
            let open = Arc::clone(&self.open);
            let spawned = thread::Builder::new()
                .name(format!("connection {id}"))
                .spawn(move || {
                    log(&format!("connection {id} ({peer}): open"));
                    let why = serve(stream, Session::new(shared), record.as_deref(), &log, id);
                    log(&format!("connection {id} ({peer}): closed: {why}"));
                    open.fetch_sub(1, Ordering::Relaxed);
                });
            if let Err(e) = spawned {
                (self.log)(&format!("connection {id}: no thread for it: {e}"));
                self.open.fetch_sub(1, Ordering::Relaxed);
            }
        }
        Ok(())
    }
}

/// Serves one connection until it ends; returns why it ended.
fn serve(
    mut stream: TcpStream,
    mut session: Session,
    record: Option<&Mutex<Record>>,
    log: &Log,
    id: u64,
) -> String {
    let _ = stream.set_nodelay(true);
    let mut pending: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        // Answer every whole request received so far.
        loop {
            match decode(&pending) {
                Ok(Decoded::NeedMore) => break,
                Ok(Decoded::Request(request, used)) => {
                    pending.drain(..used);
                    let answer = session.handle(request);
                    if let Some(note) = &answer.note {
                        log(&format!("connection {id}: {note}"));
                    }
                    if let (Some(f), Some(r)) = (&answer.finished, record) {
                        let mut r = r.lock().unwrap_or_else(|p| p.into_inner());
                        if let Err(e) = r.append(f) {
                            log(&format!(
                                "connection {id}: the record could not be written: {e}"
                            ));
                        }
                    }
                    if let Err(e) = stream.write_all(&answer.reply) {
                        return format!("the client went away ({e})");
                    }
                }
                Err(e) => return format!("bad request: {e}"),
            }
        }
        if pending.len() > MAX_PENDING {
            return format!("more than {MAX_PENDING} bytes without a whole request");
        }
        match stream.read(&mut chunk) {
            Ok(0) if pending.is_empty() => return "the client disconnected".into(),
            Ok(0) => {
                return format!(
                    "the client went away in the middle of a request ({} bytes of it)",
                    pending.len()
                )
            }
            Ok(n) => pending.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return format!("read failed: {e}"),
        }
    }
}
