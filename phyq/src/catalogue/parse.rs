//! Reading `data/catalogue.csv`: one row per number, taken out of each kind's rows one field at
//! a time so that a missing or unused field is an error, then every reference (material, kind)
//! checked.

use super::*;

fn num(kind: &str, field: &str, text: &str) -> Result<Decimal, CatalogueError> {
    Decimal::parse(text).or_else(|e| err(format!("{kind}.{field} = \"{text}\": {e}")))
}

fn pair(kind: &str, field: &str, text: &str) -> Result<(Decimal, Decimal), CatalogueError> {
    let mut it = text.split(' ');
    match (it.next(), it.next(), it.next()) {
        (Some(x), Some(y), None) => Ok((num(kind, field, x)?, num(kind, field, y)?)),
        _ => err(format!("{kind}.{field} = \"{text}\": expected \"x y\"")),
    }
}

fn flag(kind: &str, field: &str, text: &str) -> Result<bool, CatalogueError> {
    match text {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => err(format!("{kind}.{field} = \"{text}\": expected 0 or 1")),
    }
}

fn material_name(text: &str) -> Option<String> {
    (text != "none").then(|| text.to_owned())
}

/// The rows of one kind, taken out one field at a time so that a missing or unused one shows.
struct Fields<'a> {
    kind: &'a str,
    map: BTreeMap<&'a str, &'a str>,
}

impl<'a> Fields<'a> {
    fn take(&mut self, field: &str) -> Result<&'a str, CatalogueError> {
        match self.map.remove(field) {
            Some(v) => Ok(v),
            None => err(format!("{} lacks the field {field}", self.kind)),
        }
    }
    fn num(&mut self, field: &str) -> Result<Decimal, CatalogueError> {
        let v = self.take(field)?;
        num(self.kind, field, v)
    }
    fn opt_num(&mut self, field: &str) -> Result<Option<Decimal>, CatalogueError> {
        match self.map.remove(field) {
            Some(v) => num(self.kind, field, v).map(Some),
            None => Ok(None),
        }
    }
}

impl Catalogue {
    pub(super) fn parse(text: &str) -> Result<Catalogue, CatalogueError> {
        #[derive(serde::Deserialize)]
        struct Row {
            kind: String,
            field: String,
            value: String,
            source: String,
        }
        let mut reader = csv::ReaderBuilder::new()
            .comment(Some(b'#'))
            .from_reader(text.as_bytes());
        let mut rows: Vec<Row> = Vec::new();
        for r in reader.deserialize() {
            let r: Row = r.or_else(|e| err(e.to_string()))?;
            if r.source.trim().is_empty() {
                return err(format!("{}.{} names no source", r.kind, r.field));
            }
            rows.push(r);
        }
        let mut by_kind: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
        for r in &rows {
            let fields = by_kind.entry(r.kind.as_str()).or_default();
            if fields.insert(r.field.as_str(), r.value.as_str()).is_some() {
                return err(format!("{}.{} twice", r.kind, r.field));
            }
        }

        let mut entries = Vec::new();
        for kind in Kind::all() {
            let Some(map) = by_kind.remove(kind.name()) else {
                return err(format!("no rows for {kind}"));
            };
            entries.push(Self::parse_entry(
                kind,
                Fields {
                    kind: kind.name(),
                    map,
                },
            )?);
        }
        let mut materials = BTreeMap::new();
        let mut world = BTreeMap::new();
        for (kind, map) in by_kind {
            if let Some(name) = kind.strip_prefix("material:") {
                let mut f = Fields { kind, map };
                let m = PhysicsMaterial {
                    friction: f.num("friction")?,
                    bounciness: f.num("bounciness")?,
                    density: f.opt_num("density")?,
                    defense: f.opt_num("defense")?,
                };
                if let Some(extra) = f.map.keys().next() {
                    return err(format!("{kind}: unknown field {extra}"));
                }
                materials.insert(name.to_owned(), m);
            } else if kind == "world" {
                world = map
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect();
            } else {
                return err(format!("unknown kind {kind}"));
            }
        }
        let cat = Catalogue {
            entries,
            materials,
            world,
        };
        cat.check_references()?;
        Ok(cat)
    }

    fn parse_entry(kind: Kind, mut f: Fields<'_>) -> Result<Entry, CatalogueError> {
        let k = kind.name();
        let class = f.take("class")?;
        let expected = match kind {
            Kind::Bird(_) => "bird",
            Kind::Pig(_) => "pig",
            Kind::Block(_) => "block",
            Kind::Platform => "platform",
            Kind::Tnt => "tnt",
            Kind::Egg => "egg",
            Kind::Slingshot => "slingshot",
        };
        if class != expected {
            return err(format!("{k}.class is {class}, expected {expected}"));
        }
        let layer_text = f.take("layer")?;
        let layer = layer_text
            .parse()
            .or_else(|_| err(format!("{k}.layer = \"{layer_text}\"")))?;
        let scale = pair(k, "scale", f.take("scale")?)?;
        let body_type = match f.take("body_type")? {
            "dynamic" => BodyType::Dynamic,
            "kinematic" => BodyType::Kinematic,
            other => return err(format!("{k}.body_type = \"{other}\"")),
        };
        let prefab_auto_mass = flag(k, "use_auto_mass", f.take("use_auto_mass")?)?;
        let prefab_mass = f.num("prefab_mass")?;
        let linear_drag = f.num("linear_drag")?;
        let angular_drag = f.num("angular_drag")?;
        let gravity_scale = f.num("gravity_scale")?;
        let continuous = flag(k, "continuous", f.take("continuous")?)?;
        let body_material = material_name(f.take("rb_material")?);

        let mut colliders = Vec::new();
        for i in 0.. {
            let p = format!("collider{i}.");
            let Some(shape) = f.map.remove(format!("{p}shape").as_str()) else {
                break;
            };
            let shape = match shape {
                "circle" => Shape::Circle {
                    radius: f.num(&format!("{p}radius"))?,
                },
                "box" => {
                    let (width, height) = pair(k, "size", f.take(&format!("{p}size"))?)?;
                    Shape::Box { width, height }
                }
                "polygon" => {
                    let mut paths = Vec::new();
                    while let Some(text) = f.map.remove(format!("{p}path{}", paths.len()).as_str())
                    {
                        let pts = text
                            .split("; ")
                            .map(|pt| pair(k, "path", pt))
                            .collect::<Result<Vec<_>, _>>()?;
                        if pts.len() < 3 {
                            return err(format!("{k}: a path of fewer than 3 points"));
                        }
                        paths.push(pts);
                    }
                    if paths.is_empty() {
                        return err(format!("{k}: a polygon without paths"));
                    }
                    Shape::Polygon { paths }
                }
                other => return err(format!("{k}.{p}shape = \"{other}\"")),
            };
            colliders.push(Collider {
                shape,
                offset: pair(k, "offset", f.take(&format!("{p}offset"))?)?,
                enabled: flag(k, "enabled", f.take(&format!("{p}enabled"))?)?,
                trigger: flag(k, "trigger", f.take(&format!("{p}trigger"))?)?,
                density: f.num(&format!("{p}density"))?,
                material: material_name(f.take(&format!("{p}material"))?),
            });
        }
        if colliders.is_empty() {
            return err(format!("{k} has no collider"));
        }

        let (density, life, defense) = match kind {
            Kind::Block(_) => (
                None,
                Some(Life::PerMaterial {
                    wood: f.num("life_wood")?,
                    stone: f.num("life_stone")?,
                    ice: f.num("life_ice")?,
                }),
                None,
            ),
            Kind::Platform | Kind::Slingshot => (None, None, None),
            _ => (
                Some(f.num("density")?),
                Some(Life::One(f.num("life")?)),
                Some(f.num("defense")?),
            ),
        };
        let mut extra = BTreeMap::new();
        let wanted: &[&str] = match kind {
            Kind::Bird(_) => &[
                "launch_gravity",
                "drag_radius",
                "damage_wood",
                "damage_stone",
                "damage_ice",
            ],
            Kind::Tnt | Kind::Egg => &["explosion_area", "explosion_power", "explosion_damage"],
            _ => &[],
        };
        for name in wanted {
            extra.insert((*name).to_owned(), f.num(name)?);
        }
        if kind == Kind::Bird(BirdKind::Black) {
            for name in ["explosion_area", "explosion_power", "explosion_damage"] {
                extra.insert(name.to_owned(), f.num(name)?);
            }
        }
        let powers: Vec<&str> = f
            .map
            .keys()
            .copied()
            .filter(|k| k.starts_with("power."))
            .collect();
        for name in powers {
            extra.insert(name.to_owned(), f.num(name)?);
        }
        if let Some(unused) = f.map.keys().next() {
            return err(format!("{k}: unknown field {unused}"));
        }
        Ok(Entry {
            kind,
            layer,
            scale,
            body_type,
            prefab_auto_mass,
            prefab_mass,
            linear_drag,
            angular_drag,
            gravity_scale,
            continuous,
            body_material,
            colliders,
            density,
            life,
            defense,
            extra,
        })
    }

    /// Every material an entry names exists, the block materials have density and defence, and
    /// every `world` number parses.
    fn check_references(&self) -> Result<(), CatalogueError> {
        for e in &self.entries {
            let named = e
                .colliders
                .iter()
                .filter_map(|c| c.material.as_deref())
                .chain(e.body_material.as_deref());
            for m in named {
                if !self.materials.contains_key(m) {
                    return err(format!("{} names the unknown material {m}", e.kind));
                }
            }
        }
        for m in Material::ALL {
            let pm = self.material(m.physics_name())?;
            if pm.density.is_none() || pm.defense.is_none() {
                return err(format!("material {m} lacks density or defense"));
            }
        }
        self.material("Default")?;
        for (k, v) in &self.world {
            for part in v.split(' ') {
                num("world", k, part)?;
            }
        }
        Ok(())
    }

    fn material(&self, name: &str) -> Result<&PhysicsMaterial, CatalogueError> {
        match self.materials.get(name) {
            Some(m) => Ok(m),
            None => err(format!("no material {name}")),
        }
    }
}
