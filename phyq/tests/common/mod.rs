//! What the game's tests share: small levels written as XML.

use phyq::{parse_level, Level};

/// A level 2 wide (35 m: x within ±17.5) with the slingshot at (−12, −2.5), the ground's top
/// at −3.5, these birds and these objects (XML `GameObjects` content).
pub fn level(birds: &[&str], objects: &str) -> Level {
    let birds: String = birds
        .iter()
        .map(|b| format!("<Bird type=\"{b}\"/>"))
        .collect();
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><Level width=\"2\">\
         <Camera x=\"0\" y=\"-1\" minWidth=\"25\" maxWidth=\"35\"/><Score highScore=\"0\"/>\
         <Birds>{birds}</Birds><Slingshot x=\"-12.0\" y=\"-2.5\"/>\
         <GameObjects>{objects}</GameObjects></Level>"
    );
    parse_level(xml.as_bytes()).expect("a valid test level")
}
