//! The level XML reader: encodings, the generator's quirks, bad and hostile input.

use phyq::{parse_level, ObjectKind, XmlError};

const GOOD: &str = r#"<?xml version="1.0" encoding="utf-16"?>
<Level width="2">
  <Camera x="0" y="-1" minWidth="25" maxWidth="35" />
  <Score highScore="0" />
  <Birds>
    <Bird type="BirdRed" />
    <Bird type="BirdWhite"/>
  </Birds>
  <Slingshot x="-12.0" y="-2.5" />
  <GameObjects>
    <Block type="RectFat" material="stone" x="1.5" y="-3.0" rotation="90" />
    <Pig type="BasicSmall" x="-0.00044" y="-3.26683" rotation="1.21353" />
    <Platform type="Platform" x="0.922" y="-0.622" rotation="0" scaleX="2.95561" scaleY="1" />
    <TNT type="TNT" x="1.566" y="0.03508" rotation="0" />
  </GameObjects>
</Level>
"#;

/// GOOD with one line replaced.
fn with(old: &str, new: &str) -> String {
    assert!(GOOD.contains(old), "{old}");
    GOOD.replacen(old, new, 1)
}

fn err(text: &str) -> String {
    match parse_level(text.as_bytes()) {
        Ok(l) => panic!("accepted: {l:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn reads_a_level() {
    let level = parse_level(GOOD.as_bytes()).unwrap();
    assert_eq!(level.birds.len(), 2);
    assert_eq!(level.objects.len(), 4);
    assert!(matches!(
        level.objects[0].kind,
        ObjectKind::Block {
            material: phyq::Material::Stone,
            ..
        }
    ));
    match &level.objects[2].kind {
        ObjectKind::Platform { scale_x, scale_y } => {
            assert_eq!((scale_x.text(), scale_y.text()), ("2.95561", "1"))
        }
        k => panic!("{k:?}"),
    }
    // Pigs, blocks, platforms, TNT: the game's creation order.
    assert_eq!(level.creation_order(), vec![1, 0, 2, 3]);
}

/// What the generator writes: `<Bird type="…"/>`, `material=""` on pigs and platforms,
/// `type=""` on TNT; and defaults when rotation or scale is missing.
#[test]
fn generator_quirks() {
    let text = GOOD
        .replace(
            r#"<Pig type="BasicSmall" x"#,
            r#"<Pig type="BasicSmall" material="" x"#,
        )
        .replace(r#"<TNT type="TNT""#, r#"<TNT type="""#)
        .replace(
            r#"<Platform type="Platform" x="0.922" y="-0.622" rotation="0" scaleX="2.95561" scaleY="1" />"#,
            r#"<Platform type="Platform" material="" x="0.922" y="-0.622" />"#,
        );
    let level = parse_level(text.as_bytes()).unwrap();
    match &level.objects[2].kind {
        ObjectKind::Platform { scale_x, scale_y } => {
            assert_eq!((scale_x.text(), scale_y.text()), ("1", "1"))
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(level.objects[2].rotation.text(), "0");
    assert!(matches!(level.objects[3].kind, ObjectKind::Tnt));
    // A material on a pig that is not empty is refused rather than ignored.
    assert!(err(&with(
        r#"<Pig type="BasicSmall""#,
        r#"<Pig type="BasicSmall" material="wood""#
    ))
    .contains("has no material"));
}

#[test]
fn encodings() {
    let plain = parse_level(GOOD.as_bytes()).unwrap();
    let mut bom8 = vec![0xEF, 0xBB, 0xBF];
    bom8.extend_from_slice(GOOD.as_bytes());
    assert_eq!(parse_level(&bom8).unwrap(), plain);
    let units: Vec<u16> = GOOD.encode_utf16().collect();
    let le: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
    let be: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
    let mut le_bom = vec![0xFF, 0xFE];
    le_bom.extend_from_slice(&le);
    let mut be_bom = vec![0xFE, 0xFF];
    be_bom.extend_from_slice(&be);
    for bytes in [&le, &be, &le_bom, &be_bom] {
        assert_eq!(&parse_level(bytes).unwrap(), &plain);
    }
    // Declared utf-8 over UTF-16 bytes: the bytes decide, as in Unity.
    let declared8 = GOOD.replace("utf-16", "utf-8");
    let le8: Vec<u8> = declared8
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    assert_eq!(parse_level(&le8).unwrap(), plain);
    assert!(err(&GOOD.replace("utf-16", "iso-8859-1")).contains("encoding"));
    assert!(matches!(
        parse_level(&le_bom[..le_bom.len() - 1]),
        Err(XmlError::OddUtf16)
    ));
    assert!(matches!(
        parse_level(b"<Level>\xff</Level>"),
        Err(XmlError::BadUtf8(_))
    ));
    assert!(matches!(parse_level(b""), Err(XmlError::Empty)));
}

#[test]
fn bad_values() {
    let e = err(&with(r#"x="1.5""#, r#"x="NaN""#));
    assert!(
        e.contains("line 11") && e.contains("NaN") && e.contains("not a decimal"),
        "{e}"
    );
    assert!(err(&with(r#"x="1.5""#, r#"x="Infinity""#)).contains("not a decimal"));
    assert!(err(&with(r#"x="1.5""#, r#"x="1e300""#)).contains("out of range"));
    assert!(err(&with(r#"x="1.5""#, r#"x="5000""#)).contains("within ±1000"));
    assert!(err(&with(r#"rotation="90""#, r#"rotation="1e5""#)).contains("degrees"));
    assert!(err(&with(r#"scaleX="2.95561""#, r#"scaleX="0""#)).contains("scale"));
    assert!(err(&with(r#"scaleX="2.95561""#, r#"scaleX="-1e4""#)).contains("scale"));
    // Two templates mirror platforms with a negative scale.
    assert!(parse_level(with(r#"scaleX="2.95561""#, r#"scaleX="-1""#).as_bytes()).is_ok());
    assert!(err(&with(r#"width="2""#, r#"width="x""#)).contains("width"));
    let e = err(&with(r#"type="RectFat""#, r#"type="RectHuge""#));
    assert!(
        e.contains("unknown block type") && e.contains("RectHuge"),
        "{e}"
    );
    let e = err(&with(r#"material="stone""#, r#"material="gold""#));
    assert!(e.contains("unknown material") && e.contains("gold"), "{e}");
    assert!(err(&with(r#"material="stone""#, r#"material="""#)).contains("unknown material"));
    assert!(err(&with(
        r#"<Bird type="BirdRed" />"#,
        r#"<Bird type="BirdGreen" />"#
    ))
    .contains("unknown bird type"));
    assert!(err(&with(
        r#"<Pig type="BasicSmall""#,
        r#"<Pig type="novel_object_1""#
    ))
    .contains("unknown pig type"));
    assert!(err(&with(r#"<TNT type="TNT""#, r#"<TNT type="Pig""#)).contains("TNT"));
}

#[test]
fn bad_structure() {
    assert!(err(&with(
        r#"rotation="90" />"#,
        r#"rotation="90" forceMagnitude="3" />"#
    ))
    .contains("unknown attribute \"forceMagnitude\""));
    assert!(err(&with(r#"x="1.5""#, r#"x="1.5" x="2""#)).contains("malformed"));
    assert!(err(&with(r#" x="1.5""#, "")).contains("lacks the attribute \"x\""));
    assert!(err(&with("<Score highScore=\"0\" />\n", "")).contains("needs a <Score>"));
    assert!(err(&with(
        "<GameObjects>",
        "<GameObjects><Rock x=\"0\" y=\"0\"/>"
    ))
    .contains("unexpected element <Rock>"));
    assert!(err(&with("<Birds>", "<Birds>hello")).contains("unexpected text"));
    assert!(err(&with("<Birds>", "<Birds><![CDATA[x]]>")).contains("CDATA"));
    let no_birds = with("<Bird type=\"BirdRed\" />", "").replace("<Bird type=\"BirdWhite\"/>", "");
    assert!(err(&no_birds).contains("no birds"));
    let no_pigs = with(
        r#"<Pig type="BasicSmall" x="-0.00044" y="-3.26683" rotation="1.21353" />"#,
        "",
    );
    assert!(err(&no_pigs).contains("no pigs"));
    assert!(err("<Level>").contains("lacks <Camera>") || err("<Level>").contains("malformed"));
    assert!(err("<?xml version=\"1.0\"?>").contains("no <Level>"));
    assert!(err(&with("</Level>", "</Level><Level/>")).contains("unexpected element <Level>"));
}

#[test]
fn hostile_entities_and_dtd() {
    let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<Level><Birds><Bird type="&lol9;"/></Birds></Level>"#;
    let e = err(laughs);
    assert!(e.contains("line 2") && e.contains("DTD"), "{e}");
    // An entity that was never defined is not expanded either.
    assert!(err(&with(r#"type="BirdRed""#, r#"type="&lol9;""#)).contains("malformed"));
    // The predefined ones are understood (and here make an unknown name).
    assert!(err(&with(r#"type="BirdRed""#, r#"type="Bird&amp;Red""#)).contains("Bird&Red"));
}

#[test]
fn hostile_nesting() {
    let block = r#"<Block type="RectFat" material="stone" x="1.5" y="-3.0" rotation="90" />"#;
    let deep = format!(
        "{}{}{}",
        block.replace(" />", ">"),
        "<a>".repeat(100_000),
        "</a>".repeat(100_000) + "</Block>"
    );
    let e = err(&with(block, &deep));
    assert!(e.contains("nested deeper"), "{e}");
    let levels = "<Level>".repeat(100_000);
    assert!(err(&levels).contains("unexpected element <Level>"));
}

#[test]
fn hostile_sizes() {
    // 10^7 objects: refused by the size cap before any parsing.
    let mut text = String::from(
        r#"<Level><Camera x="0" y="0" minWidth="1" maxWidth="1"/><Score highScore="0"/><Birds><Bird type="BirdRed"/></Birds><Slingshot x="0" y="0"/><GameObjects>"#,
    );
    text.push_str(&r#"<TNT type="" x="0" y="0"/>"#.repeat(10_000_000));
    text.push_str("</GameObjects></Level>");
    assert!(matches!(
        parse_level(text.as_bytes()),
        Err(XmlError::TooLarge)
    ));
    // Under the size cap, the object cap stops the reading at the 10,001st object.
    let head = with(
        "<GameObjects>",
        &format!(
            "<GameObjects>{}",
            r#"<TNT type="" x="0" y="0"/>"#.repeat(20_000)
        ),
    );
    let e = err(&head);
    assert!(e.contains("more than 10000 objects"), "{e}");
    let birds = with(
        "<Birds>",
        &format!("<Birds>{}", r#"<Bird type="BirdRed"/>"#.repeat(101)),
    );
    assert!(err(&birds).contains("more than 100 birds"));
    // A long number is refused without echoing it whole.
    let e = err(&with(
        r#"x="1.5""#,
        &format!("x=\"{}\"", "1".repeat(10_000)),
    ));
    assert!(e.contains("too long") && e.len() < 200, "{e}");
}

#[test]
fn files_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.xml");
    std::fs::write(&p, GOOD).unwrap();
    assert!(phyq::read_level_file(&p).is_ok());
    let big = dir.path().join("big.xml");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(phyq::xml::MAX_FILE_BYTES + 1).unwrap();
    assert!(matches!(
        phyq::read_level_file(&big),
        Err(XmlError::TooLarge)
    ));
    assert!(matches!(
        phyq::read_level_file(&dir.path().join("missing.xml")),
        Err(XmlError::Io(_))
    ));
}
