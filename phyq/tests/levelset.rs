//! Importing XML files and folders into a level set, and the level-set file's round trip.

use phyq::{import_paths, LevelId, LevelSet, SetError};
use std::path::PathBuf;

fn templates_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/templates")
}

#[test]
fn imports_the_templates_and_round_trips() {
    let set = import_paths(&[templates_dir()]).unwrap();
    assert_eq!(set.entries().len(), 75);
    let first = &set.entries()[0];
    assert_eq!(first.id.to_string(), "phyq:1_1_1:00001");
    assert_eq!(first.source, "1_1_1_1.xml");
    let ids: Vec<&LevelId> = set.entries().iter().map(|e| &e.id).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    let bytes = set.to_bytes();
    let back = LevelSet::from_bytes(&bytes).unwrap();
    assert_eq!(back, set);
    assert_eq!(back.to_bytes(), bytes);
    // Every number keeps its text and its Q32.32 bits.
    for (a, b) in set.entries().iter().zip(back.entries()) {
        for (oa, ob) in a.level.objects.iter().zip(&b.level.objects) {
            assert_eq!(oa.x.value().raw(), ob.x.value().raw());
            assert_eq!(oa.x.text(), ob.x.text());
        }
    }
    // The same import twice gives the same bytes.
    assert_eq!(import_paths(&[templates_dir()]).unwrap().to_bytes(), bytes);
}

#[test]
fn ids() {
    for (file, id, code) in [
        ("1_1_1_1.xml", "phyq:1_1_1:00001", Some("1_1_1")),
        ("1_01_02_00042.xml", "phyq:1_1_2:00042", Some("1_1_2")),
        ("my-level.xml", "phyq:my-level", None),
        ("input-00001_1_0_1_7.xml", "phyq:input-00001_1_0_1_7", None),
    ] {
        let parsed = LevelId::from_file_name(file).unwrap();
        assert_eq!(parsed.to_string(), id);
        assert_eq!(id.parse::<LevelId>().unwrap(), parsed);
        assert_eq!(parsed.template_code().as_deref(), code, "{file}");
    }
    assert!(LevelId::from_file_name("a b.xml").is_err());
    assert!("phyq:1_01_1:00001".parse::<LevelId>().is_err());
    let a = LevelId::from_file_name("2_1_1_1.xml").unwrap();
    let b = LevelId::from_file_name("10_1_1_1.xml").unwrap();
    let c = LevelId::from_file_name("aaa.xml").unwrap();
    assert!(a < b && b < c);
}

#[test]
fn import_errors() {
    let dir = tempfile::tempdir().unwrap();
    let t = templates_dir().join("1_1_1_1.xml");
    // The same id twice (1_1_1_1 and 1_01_01_00001).
    let copy = dir.path().join("1_01_01_00001.xml");
    std::fs::copy(&t, &copy).unwrap();
    let e = import_paths(&[t.clone(), copy]).unwrap_err();
    assert!(matches!(e, SetError::DuplicateId { .. }), "{e}");
    // A bad file names itself.
    let bad = dir.path().join("bad.xml");
    std::fs::write(&bad, "<Level><Camera/></Level>").unwrap();
    let e = import_paths(&[bad]).unwrap_err().to_string();
    assert!(
        e.contains("bad.xml") && e.contains("lacks the attribute"),
        "{e}"
    );
    let e = import_paths(&[dir.path().join("missing")])
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing"), "{e}");
    let empty = tempfile::tempdir().unwrap();
    assert!(matches!(
        import_paths(&[empty.path().to_owned()]),
        Err(SetError::NoXml { .. })
    ));
}

#[test]
fn level_set_file_errors() {
    let set = import_paths(&[templates_dir().join("1_1_1_1.xml")]).unwrap();
    let text = String::from_utf8(set.to_bytes()).unwrap();
    let bad = |t: &str| LevelSet::from_bytes(t.as_bytes()).unwrap_err().to_string();
    assert!(bad(&text.replace("\"version\": 1", "\"version\": 2")).contains("version 2"));
    assert!(bad(&text.replace("rephyre-phyq-levels", "other")).contains("format"));
    assert!(bad(&text.replace("\"-0.00044\"", "\"NaN\"")).contains("not a decimal"));
    assert!(bad(&text.replace("\"-0.00044\"", "\"-5000\"")).contains("within ±1000"));
    assert!(bad(&text.replace("BasicSmall", "BasicHuge")).contains("unknown pig type"));
    assert!(bad("{}").contains("not a level-set file"));
    assert!(bad("[").contains("not a level-set file"));
}

#[test]
fn ids_sort_by_their_numbers_coded_before_named() {
    let id = |name: &str| LevelId::from_file_name(name).unwrap();
    let mut ids = [
        id("zeta.xml"),
        id("3_9_2_10.xml"),
        id("3_10_1_1.xml"),
        id("alpha.xml"),
        id("3_9_2_9.xml"),
        id("1_1_1_1.xml"),
    ];
    ids.sort();
    let shown: Vec<String> = ids.iter().map(LevelId::to_string).collect();
    assert_eq!(
        shown,
        [
            "phyq:1_1_1:00001",
            "phyq:3_9_2:00009",
            "phyq:3_9_2:00010",
            "phyq:3_10_1:00001",
            "phyq:alpha",
            "phyq:zeta",
        ]
    );
}
