//! `rephyre [--tasks SET] serve [--port P] [--host H] [--open]`: the web player (`web/`: the
//! engine, the tasks and the raster in wasm, and the page), embedded in this binary when it was
//! built, served over HTTP. Only the embedded files are served, by exact path, and at
//! [`LEVELS_PATH`] the Phy-Q level set given with `--tasks` (read once, at the start; HTTP 204
//! without one), which the page lists and plays beside the built-in tasks. Nothing else on
//! disk is read (but `--www`'s page files). Bound to localhost unless `--host` says otherwise.

use crate::context::Ctx;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::io::Read;
use std::path::Path;
use std::path::PathBuf;
use taskref::TaskFile;

/// Where the page finds the level set (the level-set file's bytes, `phyq/FORMAT.md`).
pub const LEVELS_PATH: &str = "/levels.json";

/// One embedded file of the player.
pub struct File {
    pub path: &'static str,
    pub content_type: &'static str,
    /// Stored gzip-compressed (and sent so to a client that takes gzip).
    pub gzip: bool,
    pub bytes: &'static [u8],
}

// `FILES`, written by build.rs.
include!(concat!(env!("OUT_DIR"), "/player_files.rs"));

/// The embedded file a request path names (`/` is the page), if any.
pub fn file(path: &str) -> Option<&'static File> {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let name = match path.trim_start_matches('/') {
        "" => "index.html",
        p => p,
    };
    FILES.iter().find(|f| f.path == name)
}

/// The player's size: (files, bytes as stored, of which gzip-compressed code).
pub fn sizes() -> (usize, usize, usize) {
    let total = FILES.iter().map(|f| f.bytes.len()).sum();
    let compressed = FILES.iter().filter(|f| f.gzip).map(|f| f.bytes.len()).sum();
    (FILES.len(), total, compressed)
}

/// The `--tasks` level set as served: the level-set file's bytes, gzip-compressed, with the
/// file's name and its number of levels.
struct LevelsFile {
    gzip: Vec<u8>,
    name: String,
    count: usize,
}

/// Reads `--tasks` (once) when given: a Phy-Q level set is served; PHYRE tasks, or a file that
/// is neither, are refused before anything is served.
fn levels_file(ctx: &Ctx) -> Result<Option<LevelsFile>> {
    match ctx.task_file()? {
        None => Ok(None),
        Some(TaskFile::Phyre(_, path)) => bail!(
            "--tasks {} holds PHYRE tasks: serve plays the built-in PHYRE tasks and takes a Phy-Q level set (rephyre tasks import-levels)",
            path.display()
        ),
        Some(TaskFile::Phyq(set, path)) => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            std::io::Write::write_all(&mut gz, &set.to_bytes())?;
            Ok(Some(LevelsFile {
                gzip: gz.finish()?,
                name: path
                    .file_name()
                    .map_or_else(|| "levels.json".into(), |n| n.to_string_lossy().into_owned()),
                count: set.entries().len(),
            }))
        }
    }
}

pub fn run(ctx: &Ctx, a: ServeArgs) -> Result<()> {
    let levels = levels_file(ctx)?;
    if let Some(why) = NOT_BUILT {
        bail!("{why}");
    }
    if let Some(dir) = &a.www {
        if !dir.is_dir() {
            bail!("--www {} is not a folder", dir.display());
        }
    }
    let addr = format!("{}:{}", a.host, a.port);
    let server =
        tiny_http::Server::http(&addr).map_err(|e| anyhow!("cannot listen on {addr}: {e}"))?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| anyhow!("listening on {addr}, but not on an IP address"))?;
    let url = format!("http://{bound}/");
    let (n, bytes, code) = sizes();
    let set = levels.as_ref().map_or(String::new(), |l| {
        format!(", with the {} levels of {}", l.count, l.name)
    });
    println!(
        "rephyre: the web player at {url} ({n} files, {} KiB, of which {} KiB gzip-compressed code){set}; Ctrl-C stops it",
        bytes / 1024,
        code / 1024
    );
    if a.open {
        if let Err(e) = webbrowser::open(&url) {
            eprintln!("rephyre: cannot open a browser ({e}); open {url} yourself");
        }
    }
    for request in server.incoming_requests() {
        respond(request, a.www.as_deref(), levels.as_ref());
    }
    Ok(())
}

fn respond(request: tiny_http::Request, www: Option<&Path>, levels: Option<&LevelsFile>) {
    use tiny_http::{Header, Method, Response};
    let header = |k: &str, v: &str| Header::from_bytes(k, v).expect("a valid header");
    let plain = |status: u16, text: &str| {
        Response::from_string(text)
            .with_status_code(status)
            .with_header(header("Content-Type", "text/plain; charset=utf-8"))
    };
    if !matches!(request.method(), Method::Get | Method::Head) {
        let _ = request.respond(plain(405, "only GET and HEAD"));
        return;
    }
    let takes_gzip = request.headers().iter().any(|h| {
        h.field.equiv("Accept-Encoding") && h.value.as_str().to_ascii_lowercase().contains("gzip")
    });
    if request.url().split(['?', '#']).next() == Some(LEVELS_PATH) {
        let Some(l) = levels else {
            let _ = request.respond(Response::empty(204));
            return;
        };
        let data = if takes_gzip {
            l.gzip.clone()
        } else {
            inflate(&l.gzip)
        };
        let mut response = Response::from_data(data)
            .with_header(header("Content-Type", "application/json"))
            .with_header(header("Cache-Control", "no-cache"))
            .with_header(header("X-Content-Type-Options", "nosniff"));
        // The file's name, for the command lines the page shows (when it is plain text).
        if l.name
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\')
        {
            response = response.with_header(header(
                "Content-Disposition",
                &format!("inline; filename=\"{}\"", l.name),
            ));
        }
        if takes_gzip {
            response = response.with_header(header("Content-Encoding", "gzip"));
        }
        let _ = request.respond(response);
        return;
    }
    let Some(f) = file(request.url()) else {
        let _ = request.respond(plain(404, "not part of the player"));
        return;
    };
    // `--www`: the page's file from the folder when it has it (only names the player embeds).
    let local = www
        .filter(|_| !f.path.starts_with("pkg/"))
        .and_then(|d| std::fs::read(d.join(f.path)).ok());
    let gzip = f.gzip && takes_gzip && local.is_none();
    let data = local.unwrap_or_else(|| body(f, takes_gzip));
    let mut response = Response::from_data(data)
        .with_header(header("Content-Type", f.content_type))
        .with_header(header("Cache-Control", "no-cache"))
        .with_header(header("X-Content-Type-Options", "nosniff"));
    if gzip {
        response = response.with_header(header("Content-Encoding", "gzip"));
    }
    let _ = request.respond(response);
}

/// A file's bytes as sent: as stored, or inflated for a client that does not take gzip.
fn body(f: &File, takes_gzip: bool) -> Vec<u8> {
    if !f.gzip || takes_gzip {
        return f.bytes.to_vec();
    }
    inflate(f.bytes)
}

/// Bytes this program gzip-compressed, inflated.
fn inflate(gz: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut out)
        .expect("compressed by build.rs or at the start");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Built where the wasm32 target is installed (CI sets `REPHYRE_REQUIRE_PLAYER`, so a player
    /// missing there fails): the page, its script and its wasm are embedded. Built without the
    /// target (the README's test command on a machine with only stable Rust): nothing is
    /// embedded and `serve`'s refusal names the command that adds the target.
    #[test]
    fn the_page_its_script_and_its_wasm_are_embedded() {
        if let Some(why) = NOT_BUILT {
            assert!(
                std::env::var_os("REPHYRE_REQUIRE_PLAYER").is_none(),
                "REPHYRE_REQUIRE_PLAYER is set but the player is not built: {why}"
            );
            assert!(FILES.is_empty() && file("/").is_none());
            assert!(
                why.contains("rustup target add wasm32-unknown-unknown") && !why.contains('\n'),
                "{why}"
            );
            eprintln!(
                "note: the web player is not built here, so only serve's refusal is checked: {why}"
            );
            return;
        }
        let page = file("/").expect("the page");
        assert_eq!(page.path, "index.html");
        assert!(std::str::from_utf8(page.bytes)
            .unwrap()
            .contains("player.js"));
        assert_eq!(file("/?task=00000:001").map(|f| f.path), Some("index.html"));
        let wasm = file("/pkg/rephyre_web_bg.wasm").expect("the module");
        assert!(wasm.gzip && wasm.content_type == "application/wasm");
        assert_eq!(&body(wasm, false)[..4], b"\0asm");
        assert!(file("/pkg/rephyre_web.js").is_some());
        assert!(file("/player.js").is_some());
        assert!(file("/../Cargo.toml").is_none() && file("/nothing").is_none());
    }
}

pub const SERVE_EXAMPLES: &str = "\
EXAMPLES:
  rephyre serve --open              # http://127.0.0.1:8000/ in the default browser
  rephyre serve --port 0            # any free port (the URL is printed)
  rephyre serve --host 0.0.0.0      # reachable from other machines (no authentication!)
  rephyre --tasks set.json serve    # also a Phy-Q level set (rephyre tasks import-levels): tier \"level set\"

LINKS:
  /?task=00012:034&action=0.5,0.4,0.3        a PHYRE task with an action placed
  /?task=00105:010&tier=two_balls&action=…   six numbers for two balls
  /?task=phyq:1_1_4:00001&shots=-17.28,-5.98,0   a Phy-Q task with shots (x,y,tap;…)
  /?task=phyq:1_1_4:00001&tier=set           that id in the --tasks level set";

/// `rephyre serve`'s options.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free one).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Address to listen on (the default is this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the player in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Serve the page's own files (HTML, JavaScript, CSS) from this folder where it has them
    /// (e.g. web/www, while working on the page), the embedded wasm and the rest as built.
    #[arg(long, value_name = "DIR")]
    pub www: Option<PathBuf>,
}
