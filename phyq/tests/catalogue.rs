//! The catalogue against numbers read by hand from the prefabs, materials and scripts.

use engine::{Fixed, Vec2};
use phyq::catalogue::{area, catalogue, BodyType, Kind, Life, Shape};
use phyq::{BirdKind, BlockShape, Material, PigKind};

fn close(a: Fixed, b: f64, tol: f64) -> bool {
    (a.to_f64() - b).abs() <= tol
}

#[test]
fn every_kind_has_every_field() {
    let cat = catalogue();
    assert_eq!(cat.entries().len(), 5 + 3 + 12 + 4);
    for e in cat.entries() {
        assert!(!e.colliders.is_empty(), "{}", e.kind);
        match e.kind {
            Kind::Platform | Kind::Slingshot => {
                assert_eq!(e.body_type, BodyType::Kinematic, "{}", e.kind);
                assert!(e.life.is_none() && e.density.is_none());
            }
            Kind::Block(_) => {
                assert!(
                    matches!(e.life, Some(Life::PerMaterial { .. })),
                    "{}",
                    e.kind
                );
                for m in Material::ALL {
                    assert!(cat.life(e.kind, Some(*m)).is_some());
                    assert!(cat.defense(e.kind, Some(*m)).is_some());
                    assert!(cat.mass(e.kind, Some(*m), one()).is_some());
                }
            }
            _ => {
                assert!(matches!(e.life, Some(Life::One(_))), "{}", e.kind);
                assert!(e.density.is_some() && e.defense.is_some(), "{}", e.kind);
                assert!(cat.mass(e.kind, None, one()).is_some(), "{}", e.kind);
            }
        }
        if let Kind::Bird(_) = e.kind {
            for k in [
                "launch_gravity",
                "drag_radius",
                "damage_wood",
                "damage_stone",
                "damage_ice",
            ] {
                assert!(e.extra.contains_key(k), "{} {k}", e.kind);
            }
        }
    }
    for kind in [Kind::Tnt, Kind::Egg, Kind::Bird(BirdKind::Black)] {
        for x in ["explosion_area", "explosion_power", "explosion_damage"] {
            assert!(cat.entry(kind).extra.contains_key(x), "{kind} {x}");
        }
    }
    for name in [
        "gravity",
        "fixed_timestep",
        "damage_multiplier",
        "sling_select_pos",
    ] {
        assert!(cat.world(name).is_some(), "{name}");
    }
}

fn one() -> Vec2 {
    Vec2::new(Fixed::ONE, Fixed::ONE)
}

#[test]
fn hand_read_numbers() {
    let cat = catalogue();
    // BirdRed.prefab: CircleCollider2D m_Radius 0.17, offset (0.05, -0.03); _density 6;
    // RedBird.physicsMaterial2D: friction 0.3, bounciness 0.43.
    let red = cat.entry(Kind::Bird(BirdKind::Red));
    match &red.colliders[0].shape {
        Shape::Circle { radius } => assert_eq!(radius.text(), "0.17"),
        s => panic!("{s:?}"),
    }
    assert_eq!(red.colliders[0].offset.0.text(), "0.05");
    assert_eq!(red.gravity_scale.text(), "0.48");
    let m = cat.contact_material(Kind::Bird(BirdKind::Red), None);
    assert_eq!((m.friction.text(), m.bounciness.text()), ("0.3", "0.43"));
    // Red bird's mass: π 0.17² × 6 = 0.54475…
    let mass = cat.mass(Kind::Bird(BirdKind::Red), None, one()).unwrap();
    assert!(
        close(mass, std::f64::consts::PI * 0.17 * 0.17 * 6.0, 1e-5),
        "{mass:?}"
    );
    // BirdBlue keeps its prefab scale 1.5: radius 0.12 → 0.18.
    let blue = cat.entry(Kind::Bird(BirdKind::Blue));
    assert_eq!(blue.scale.0.text(), "1.5");

    // RectBig: box 1.886 × 0.184; lives 100 / 140 / 65; stone: density 4, defence 15,
    // friction 4, bounciness 0.1.
    let rb = Kind::Block(BlockShape::RectBig);
    match &cat.entry(rb).colliders[0].shape {
        Shape::Box { width, height } => {
            assert_eq!((width.text(), height.text()), ("1.886", "0.184"))
        }
        s => panic!("{s:?}"),
    }
    assert_eq!(cat.life(rb, Some(Material::Wood)).unwrap().text(), "100");
    assert_eq!(cat.life(rb, Some(Material::Stone)).unwrap().text(), "140");
    assert_eq!(cat.life(rb, Some(Material::Ice)).unwrap().text(), "65");
    assert_eq!(cat.defense(rb, Some(Material::Stone)).unwrap().text(), "15");
    let stone = cat.contact_material(rb, Some(Material::Stone));
    assert_eq!(
        (stone.friction.text(), stone.bounciness.text()),
        ("4", "0.1")
    );
    let mass = cat.mass(rb, Some(Material::Stone), one()).unwrap();
    assert!(close(mass, 1.886 * 0.184 * 4.0, 1e-6), "{mass:?}");

    // Pigs: BasicSmall life 1, BasicMedium 15, BasicBig 80, defence 1, friction 0.7.
    for (p, life) in [
        (PigKind::Small, "1"),
        (PigKind::Medium, "15"),
        (PigKind::Big, "80"),
    ] {
        assert_eq!(cat.life(Kind::Pig(p), None).unwrap().text(), life);
        assert_eq!(cat.defense(Kind::Pig(p), None).unwrap().text(), "1");
        assert_eq!(
            cat.contact_material(Kind::Pig(p), None).friction.text(),
            "0.7"
        );
    }
    // The density goes to the disabled circle: a pig's mass is its polygon's area × 1.
    let big = cat.mass(Kind::Pig(PigKind::Big), None, one()).unwrap();
    assert!(close(big, 0.70186746, 1e-5), "{big:?}");
    // Circle: the same, whatever the material.
    let c = Kind::Block(BlockShape::Circle);
    assert_eq!(
        cat.mass(c, Some(Material::Stone), one()),
        cat.mass(c, Some(Material::Ice), one())
    );
    // TNT: box 0.64², density 1, gravity scale 1, default material; explosion 2.5 / 4 / 100.
    let tnt = cat.entry(Kind::Tnt);
    assert_eq!(tnt.gravity_scale.text(), "1");
    assert_eq!(tnt.extra["explosion_damage"].text(), "100");
    let mass = cat.mass(Kind::Tnt, None, one()).unwrap();
    assert!(close(mass, 0.4096, 1e-6));
    let d = cat.contact_material(Kind::Tnt, None);
    assert_eq!((d.friction.text(), d.bounciness.text()), ("0.4", "0"));
    // Platform: kinematic box 0.64 × 0.64.
    assert_eq!(cat.mass(Kind::Platform, None, one()), None);
    assert_eq!(cat.world("gravity"), Some("0 -9.81"));
    assert_eq!(cat.world("damage_multiplier"), Some("11.22"));
}

/// The prefab's cached `m_Mass` is the enabled colliders' area at density 1 and the prefab's
/// scale: this checks the colliders, the hole rule and the first-collider rule together.
#[test]
fn cached_masses_match_the_colliders() {
    let cat = catalogue();
    let kinds = [
        Kind::Bird(BirdKind::Red),
        Kind::Bird(BirdKind::Blue),
        Kind::Bird(BirdKind::Yellow),
        Kind::Bird(BirdKind::Black),
        Kind::Bird(BirdKind::White),
        Kind::Pig(PigKind::Small),
        Kind::Pig(PigKind::Medium),
        Kind::Pig(PigKind::Big),
        Kind::Block(BlockShape::Circle),
        Kind::Block(BlockShape::CircleSmall),
        Kind::Block(BlockShape::SquareHole),
        Kind::Block(BlockShape::TriangleHole),
    ];
    for kind in kinds {
        let e = cat.entry(kind);
        let (sx, sy) = (e.scale.0.value(), e.scale.1.value());
        let mut total = Fixed::ZERO;
        for c in e.colliders.iter().filter(|c| c.enabled) {
            total += area(&c.shape) * sx * sy;
        }
        let cached = e.prefab_mass.value().to_f64();
        assert!(
            (total.to_f64() - cached).abs() < 2e-5,
            "{kind}: {} vs {cached}",
            total.to_f64()
        );
    }
}

/// docs/phyq-observations.md's catalogue table is the generated one (`REPHYRE_BLESS=1` rewrites it).
#[test]
fn docs_table_is_current() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/phyq-observations.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (start, end) = (
        "<!-- catalogue table: begin -->\n",
        "<!-- catalogue table: end -->",
    );
    let a = doc.find(start).expect("begin marker") + start.len();
    let b = doc.find(end).expect("end marker");
    let table = phyq::catalogue::markdown_table();
    if std::env::var_os("REPHYRE_BLESS").is_some() {
        let new = format!("{}{}{}", &doc[..a], table, &doc[b..]);
        std::fs::write(&path, new).unwrap();
    } else {
        assert_eq!(&doc[a..b], table, "run with REPHYRE_BLESS=1 to regenerate");
    }
}
