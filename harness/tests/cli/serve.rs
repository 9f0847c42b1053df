//! `serve`: the embedded player over HTTP on localhost (the browser tests, scripts/
//! player-test.sh, check the page itself), the `--tasks` level set it serves, and its bad input.

use super::common::{bin, fails, ok, s, start_server, Running};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};

/// A running `rephyre serve --port 0` and the address it printed; killed on drop.
struct Server {
    run: Running,
    addr: String,
}

fn start(extra: &[&str]) -> Server {
    start_with(&[], extra)
}

/// `rephyre GLOBAL… serve --port 0 EXTRA…`.
fn start_with(global: &[&str], extra: &[&str]) -> Server {
    let mut all = global.to_vec();
    all.extend(["serve", "--port", "0"]);
    all.extend_from_slice(extra);
    let run = start_server(&all);
    let line = &run.line;
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "bound to localhost: {addr}");
    Server { run, addr }
}

/// A level set of two committed templates (`tasks import-levels`), `set.json` in `dir`.
fn level_set(dir: &Path) -> PathBuf {
    let templates = Path::new(env!("CARGO_MANIFEST_DIR")).join("../phyq/data/templates");
    let set = dir.join("set.json");
    ok(&[
        "tasks",
        "import-levels",
        s(&templates.join("1_1_4_1.xml")),
        s(&templates.join("2_1_3_1.xml")),
        "--out",
        s(&set),
    ]);
    set
}

/// Whether this build has the player. A build made without the wasm32 target has none, and
/// `serve` says so in one line with how to get it (tested here); CI sets
/// REPHYRE_REQUIRE_PLAYER=1, where a build without the player fails every test of this file.
fn player_built() -> bool {
    let e = fails(&["serve", "--host", "not a host", "--port", "0"]);
    if e.contains("built without the web player") {
        assert!(
            e.contains("rustup target add wasm32-unknown-unknown"),
            "{e}"
        );
        assert!(
            std::env::var_os("REPHYRE_REQUIRE_PLAYER").is_none(),
            "REPHYRE_REQUIRE_PLAYER is set and this build has no player: {e}"
        );
        return false;
    }
    true
}

/// One HTTP/1.0 request: (status, headers in lower case, body).
fn request(addr: &str, method: &str, path: &str, headers: &str) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\n{headers}\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header");
    let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head, raw[split + 4..].to_vec())
}

#[test]
fn the_page_its_script_and_its_wasm_are_served_and_nothing_else() {
    if !player_built() {
        return;
    }
    let server = start(&[]);
    let a = &server.addr;
    let (status, head, body) = request(a, "GET", "/?task=00000:001", "");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(String::from_utf8_lossy(&body).contains("player.js"));
    // The module: gzip to a client that takes it, plain wasm to one that does not.
    let (status, head, gz) = request(
        a,
        "GET",
        "/pkg/rephyre_web_bg.wasm",
        "Accept-Encoding: gzip\r\n",
    );
    assert_eq!(status, 200);
    assert!(
        head.contains("content-encoding: gzip") && head.contains("application/wasm"),
        "{head}"
    );
    assert_eq!(&gz[..2], &[0x1f, 0x8b], "gzip");
    let (_, head, plain) = request(a, "GET", "/pkg/rephyre_web_bg.wasm", "");
    assert!(!head.contains("content-encoding"), "{head}");
    assert_eq!(&plain[..4], b"\0asm");
    assert!(
        plain.len() > 2 * gz.len(),
        "{} vs {}",
        plain.len(),
        gz.len()
    );
    for path in ["/player.js", "/style.css", "/pkg/rephyre_web.js"] {
        assert_eq!(request(a, "GET", path, "").0, 200, "{path}");
    }
    for path in [
        "/../Cargo.toml",
        "/etc/passwd",
        "/pkg/",
        "/nothing.html",
        "/%2e%2e/README.md",
    ] {
        assert_eq!(request(a, "GET", path, "").0, 404, "{path}");
    }
    assert_eq!(request(a, "POST", "/", "Content-Length: 0\r\n").0, 405);
    assert_eq!(request(a, "HEAD", "/", "").0, 200);
}

#[test]
fn www_serves_the_page_files_from_a_folder() {
    if !player_built() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<p>mine</p>").unwrap();
    let server = start(&["--www", dir.path().to_str().unwrap()]);
    let (_, _, body) = request(&server.addr, "GET", "/", "");
    assert_eq!(body, b"<p>mine</p>");
    // What the folder lacks comes from the binary; files the player does not have are not served.
    assert_eq!(request(&server.addr, "GET", "/player.js", "").0, 200);
    std::fs::write(dir.path().join("secret.txt"), "no").unwrap();
    assert_eq!(request(&server.addr, "GET", "/secret.txt", "").0, 404);
}

#[test]
fn bad_serve_options_are_one_line_errors() {
    if !player_built() {
        return;
    }
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = held.local_addr().unwrap().port().to_string();
    let e = fails(&["serve", "--port", &port]);
    assert!(e.contains("cannot listen on 127.0.0.1:"), "{e}");
    let e = fails(&["serve", "--port", "0", "--www", "/no/such/folder"]);
    assert!(e.contains("--www /no/such/folder is not a folder"), "{e}");
    let e = fails(&["serve", "--host", "not a host", "--port", "0"]);
    assert!(e.contains("cannot listen on not a host:0"), "{e}");
    let o = bin().args(["serve", "--port", "70000"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_tasks_level_set_is_served_at_levels_json_and_without_one_it_is_204() {
    if !player_built() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let set = level_set(dir.path());
    let written = std::fs::read(&set).unwrap();
    let server = start_with(&["--tasks", s(&set)], &[]);
    assert!(
        server.run.line.contains("with the 2 levels of set.json"),
        "{}",
        server.run.line
    );
    let a = &server.addr;
    let (status, head, body) = request(a, "GET", "/levels.json", "");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: application/json"), "{head}");
    assert!(
        head.contains("content-disposition: inline; filename=\"set.json\""),
        "{head}"
    );
    assert!(!head.contains("content-encoding"), "{head}");
    assert_eq!(body, written, "the level-set file's bytes");
    // Compressed to a client that takes gzip.
    let (status, head, gz) = request(a, "GET", "/levels.json", "Accept-Encoding: gzip\r\n");
    assert_eq!(status, 200);
    assert!(head.contains("content-encoding: gzip"), "{head}");
    let mut inflated = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_end(&mut inflated)
        .unwrap();
    assert_eq!(inflated, written);
    assert_eq!(request(a, "HEAD", "/levels.json", "").0, 200);
    // The player is served as without a set; the option may also follow the command.
    assert_eq!(request(a, "GET", "/", "").0, 200);
    let after = start(&["--tasks", s(&set)]);
    assert_eq!(request(&after.addr, "GET", "/levels.json", "").2, written);

    // Without --tasks: no content.
    let plain = start(&[]);
    let (status, _, body) = request(&plain.addr, "GET", "/levels.json", "");
    assert_eq!(status, 204);
    assert!(body.is_empty());
    assert!(!plain.run.line.contains("levels"), "{}", plain.run.line);
}

/// Checked before anything is served (and before the player is looked for: a build without it
/// refuses the same files the same way).
#[test]
fn serve_refuses_a_phyre_task_file_or_a_bad_tasks_file_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let serve = |tasks: &Path| fails(&["--tasks", s(tasks), "serve", "--port", "0"]);
    let phyre = dir.path().join("phyre.rpts");
    ok(&[
        "tasks",
        "import",
        s(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks/tests/data/tasks.bin.lzma")),
        "--out",
        s(&phyre),
    ]);
    let e = serve(&phyre);
    assert!(
        e.contains("holds PHYRE tasks") && e.contains("takes a Phy-Q level set"),
        "{e}"
    );
    let e = serve(&dir.path().join("missing.json"));
    assert!(
        e.contains("cannot open --tasks") && e.contains("missing.json"),
        "{e}"
    );
    for (name, bytes, says) in [
        ("junk.json", &b"{ not a level set"[..], "as Phy-Q levels"),
        (
            "version.json",
            br#"{"format": "rephyre-phyq-levels", "version": 9, "levels": []}"#,
            "version 9",
        ),
        (
            "empty.json",
            br#"{"format": "rephyre-phyq-levels", "version": 1, "levels": []}"#,
            "holds no levels",
        ),
        ("junk.bin", b"\x00\x01 neither", "cannot load --tasks"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let e = serve(&path);
        assert!(e.contains(name) && e.contains(says), "{name}: {e}");
    }
    let e = fails(&["--tasks", s(dir.path()), "serve", "--port", "0"]);
    assert!(e.contains("--tasks"), "{e}");
}
