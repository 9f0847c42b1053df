//! Builds the web player that `rephyre serve` serves (feature `player`, on by default): the
//! `rephyre-web` crate for wasm32-unknown-unknown in a target folder of its own
//! (`target/player`, so that it never waits on the build that runs this script), its
//! JavaScript glue (wasm-bindgen, as a library: no tool to install), and the page's static
//! files from `web/www/`, all embedded in the binary. `OUT_DIR/player_files.rs` lists them:
//! (path, content type, gzip-compressed or not, bytes).
//!
//! Needs the wasm32-unknown-unknown standard library (`rustup target add
//! wasm32-unknown-unknown`). Without it the command is built without the player, with a
//! warning, and `serve` says in one line how to get it, so that a machine with only Rust's
//! default toolchain builds and tests everything else; once the target is added, the next
//! build makes the player (the script watches the toolchain's target folder). Without the
//! feature (`--no-default-features`) nothing is built and `serve` says the player is missing.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The player's crate; what its wasm is made from is this crate and the workspace crates it
/// depends on, as cargo's metadata says ([`player_sources`]).
const WEB_CRATE: &str = "rephyre-web";

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest
        .parent()
        .expect("harness/ is in the workspace")
        .to_path_buf();
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo"));
    println!("cargo:rerun-if-changed=build.rs");
    let listing = out.join("player_files.rs");
    let none = |why: &str| {
        fs::write(
            &listing,
            format!("pub static FILES: &[File] = &[];\npub const NOT_BUILT: Option<&str> = Some({why:?});\n"),
        )
        .expect("OUT_DIR is writable");
    };
    if env::var_os("CARGO_FEATURE_PLAYER").is_none() {
        none("this rephyre was built without the web player (the harness's feature `player`)");
        return;
    }
    if let Some(rustlib) = missing_wasm_target() {
        println!(
            "cargo:warning=the web player is not built: the {WASM_TARGET} target is missing (rustup target add {WASM_TARGET}, then build again)"
        );
        // Adding the target changes this folder: the next build makes the player.
        println!("cargo:rerun-if-changed={}", rustlib.display());
        none(&format!(
            "this rephyre was built without the web player: the {WASM_TARGET} target was missing (rustup target add {WASM_TARGET}, then build again)"
        ));
        return;
    }
    for s in player_sources(&root) {
        println!("cargo:rerun-if-changed={}", s.display());
    }
    let wasm = build_wasm(&root);
    let pkg = out.join("pkg");
    let _ = fs::remove_dir_all(&pkg);
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)
        .and_then(|b| {
            b.typescript(false)
                .omit_default_module_path(false)
                .generate(&pkg)
        })
        .unwrap_or_else(|e| {
            fail(&format!(
                "wasm-bindgen could not make the player's glue: {e:#}"
            ))
        });

    let mut files: Vec<(String, PathBuf)> = Vec::new();
    let www = root.join("web/www");
    let mut entries: Vec<PathBuf> = fs::read_dir(&www)
        .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", www.display())))
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.is_file())
        .collect();
    entries.sort();
    for p in entries {
        let name = p
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
        files.push((name, p));
    }
    for name in ["rephyre_web.js", "rephyre_web_bg.wasm"] {
        files.push((format!("pkg/{name}"), pkg.join(name)));
    }

    let mut list = String::from("pub static FILES: &[File] = &[\n");
    for (name, path) in &files {
        let bytes = fs::read(path)
            .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())));
        // Code and data go gzip-compressed (what a browser downloads); the server inflates
        // them for a client that does not take gzip.
        let compress = name.ends_with(".wasm") || name.ends_with(".js");
        let stored = out.join(format!("embedded-{}", name.replace('/', "-")));
        let body = if compress { gzip(&bytes) } else { bytes };
        fs::write(&stored, body).expect("OUT_DIR is writable");
        writeln!(
            list,
            "    File {{ path: {name:?}, content_type: {:?}, gzip: {compress}, bytes: include_bytes!({:?}) }},",
            content_type(name),
            stored.display().to_string()
        )
        .expect("a String takes writes");
    }
    list.push_str("];\npub const NOT_BUILT: Option<&str> = None;\n");
    fs::write(&listing, list).expect("OUT_DIR is writable");
}

/// What a change to rebuilds the player: the page (`web/www`), the lock file and the workspace
/// manifest, and for the web crate and every workspace crate it depends on (cargo's metadata of
/// the workspace: dependencies by path, transitively) its manifest, `src/` and `data/`.
fn player_sources(root: &Path) -> Vec<PathBuf> {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(root)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run cargo metadata: {e}")));
    if !out.status.success() {
        fail(&format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| fail(&format!("cargo metadata's output: {e}")));
    let packages = meta["packages"].as_array().cloned().unwrap_or_default();
    let dir_of = |p: &serde_json::Value| {
        PathBuf::from(p["manifest_path"].as_str().unwrap_or_default())
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    };
    // The web crate's path dependencies, transitively (a sorted set: one order everywhere).
    let mut seen = std::collections::BTreeSet::new();
    let start = packages
        .iter()
        .find(|p| p["name"] == WEB_CRATE)
        .map(&dir_of)
        .unwrap_or_else(|| fail(&format!("cargo metadata has no {WEB_CRATE}")));
    let mut todo = vec![start];
    while let Some(dir) = todo.pop() {
        if !seen.insert(dir.clone()) {
            continue;
        }
        let Some(p) = packages.iter().find(|p| dir_of(p) == dir) else {
            continue;
        };
        for dep in p["dependencies"].as_array().into_iter().flatten() {
            // Build and dev dependencies do not go into the wasm.
            if dep["kind"].is_null() {
                if let Some(path) = dep["path"].as_str() {
                    todo.push(PathBuf::from(path));
                }
            }
        }
    }
    let mut out = vec![
        root.join("web/www"),
        root.join("Cargo.lock"),
        root.join("Cargo.toml"),
    ];
    for dir in &seen {
        out.push(dir.join("Cargo.toml"));
        out.push(dir.join("src"));
        if dir.join("data").is_dir() {
            out.push(dir.join("data"));
        }
    }
    out
}

/// The toolchain's target folder (`<sysroot>/lib/rustlib`) when it has no wasm32 standard
/// library; `None` when it has one, or when the sysroot cannot be asked (the build then tries
/// and says what failed).
fn missing_wasm_target() -> Option<PathBuf> {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let rustlib = sysroot.join("lib/rustlib");
    (rustlib.is_dir() && !rustlib.join(WASM_TARGET).join("lib").is_dir()).then_some(rustlib)
}

/// Builds `rephyre-web` for the browser; the path of its `.wasm`.
fn build_wasm(root: &Path) -> PathBuf {
    let target_dir = root.join("target/player");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root).args([
        "build",
        "-p",
        "rephyre-web",
        "--lib",
        "--target",
        WASM_TARGET,
        "--profile",
        "wasm",
        "--target-dir",
    ]);
    cmd.arg(&target_dir);
    // The outer build's settings are for the host (and, under clippy, for its lints): the
    // inner build takes none of them, only the toolchain, the cargo home and the job server.
    for (key, _) in env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        let keep = key == "CARGO_HOME"
            || key == "CARGO_MAKEFLAGS"
            || [
                "CARGO_NET_",
                "CARGO_HTTP_",
                "CARGO_REGISTRIES_",
                "CARGO_REGISTRY_",
            ]
            .iter()
            .any(|p| key.starts_with(p));
        let outer = (key.starts_with("CARGO_") && !keep)
            || matches!(
                key.as_str(),
                "RUSTFLAGS"
                    | "RUSTDOCFLAGS"
                    | "RUSTC_WRAPPER"
                    | "RUSTC_WORKSPACE_WRAPPER"
                    | "CLIPPY_ARGS"
                    | "CLIPPY_CONF_DIR"
                    | "TARGET"
                    | "HOST"
                    | "OUT_DIR"
                    | "PROFILE"
                    | "OPT_LEVEL"
                    | "DEBUG"
                    | "NUM_JOBS"
            );
        if outer {
            cmd.env_remove(&key);
        }
    }
    let output = cmd
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run cargo for the web player: {e}")));
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("target may not be installed")
            || stderr.contains("can't find crate for `core`")
        {
            fail(&format!(
                "the web player needs the {WASM_TARGET} target: rustup target add {WASM_TARGET} \
                 (or build without the player: --no-default-features)"
            ));
        }
        fail(&format!("building the web player's wasm failed:\n{stderr}"));
    }
    target_dir.join(format!("{WASM_TARGET}/wasm/rephyre_web.wasm"))
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gz, bytes).expect("writes to memory");
    gz.finish().expect("writes to memory")
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    panic!("{message}");
}
