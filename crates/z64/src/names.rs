//! Names and offsets of skeletons, limbs, animations and display lists, from the OoT
//! decompilation's asset descriptors (zeldaret/oot `assets/xml`, CC0), shipped as a compact
//! table (`data/oot_assets.tsv`) keyed by file name.
//!
//! Table format (one entry a line, tab-separated): a line `@<file name>` starts a file; then
//! `<offset hex> <kind> <name> [<attrs>]` where kind is `S` skeleton (attrs `Type/LimbType`),
//! `L` limb (attr limb type), `T` limb table (attrs `LimbType/Count`), `A` animation, `P` player
//! (Link) animation header, `G` legacy animation, `C` curve animation, `D` display list.
//! Entries whose name is only the file name and the offset (the decomp's placeholders such as
//! `object_human_Limb_011C48`) and entries without an absolute offset are left out; the
//! reader names unnamed things itself. Version-specific entries are kept for the GameCube EU
//! MQ debug ROM's layout (`Version Pattern` blocks matching `gc-eu-mq-dbg`).
//!
//! The test `assets_table_is_current` regenerates the table from the XML when the data is
//! present (`BONEYARD_REGEN_ASSETS=1` writes it) and fails when the shipped one differs.

use std::collections::HashMap;
use std::sync::OnceLock;

pub const TABLE: &str = include_str!("../data/oot_assets.tsv");

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    pub offset: u32,
    pub kind: char,
    pub name: String,
    pub attrs: String,
}

/// The assets of every known file, by file name.
pub fn assets() -> &'static HashMap<String, Vec<Asset>> {
    static MAP: OnceLock<HashMap<String, Vec<Asset>>> = OnceLock::new();
    MAP.get_or_init(|| parse_table(TABLE))
}

/// The assets of one file (by its name, lower-case, without extension), if known.
pub fn file_assets(file: &str) -> Option<&'static [Asset]> {
    assets().get(file).map(|v| v.as_slice())
}

/// The name of the asset at `offset` of kind `kind` in `file`, if the table has it.
pub fn name_at(file: &str, offset: u32, kind: char) -> Option<&'static str> {
    file_assets(file)?.iter().find(|a| a.offset == offset && a.kind == kind).map(|a| a.name.as_str())
}

pub fn parse_table(text: &str) -> HashMap<String, Vec<Asset>> {
    let mut map: HashMap<String, Vec<Asset>> = HashMap::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        if let Some(f) = line.strip_prefix('@') {
            cur = Some(f.to_string());
            map.entry(f.to_string()).or_default();
            continue;
        }
        let mut it = line.split('\t');
        let (Some(off), Some(kind), Some(name)) = (it.next(), it.next(), it.next()) else { continue };
        let (Ok(offset), Some(kind)) = (u32::from_str_radix(off, 16), kind.chars().next()) else { continue };
        let attrs = it.next().unwrap_or("").to_string();
        if let Some(f) = &cur {
            map.entry(f.clone()).or_default().push(Asset { offset, kind, name: name.to_string(), attrs });
        }
    }
    map
}

/// Build the table from the decomp XML files (`objects/*.xml`, `misc/*.xml`) given as
/// (file name, text), in the order given.
pub fn generate_table(xmls: &[(String, String)]) -> String {
    let mut out = String::new();
    for (_, text) in xmls {
        let mut file: Option<String> = None;
        let mut skip_version = false;
        let mut entries: Vec<(u32, char, String, String)> = Vec::new();
        let flush = |file: &Option<String>, entries: &mut Vec<(u32, char, String, String)>, out: &mut String| {
            if let Some(f) = file {
                if !entries.is_empty() {
                    out.push('@');
                    out.push_str(f);
                    out.push('\n');
                    entries.sort_by_key(|e| (e.0, e.1));
                    for (o, k, n, a) in entries.iter() {
                        out.push_str(&format!("{o:X}\t{k}\t{n}"));
                        if !a.is_empty() {
                            out.push('\t');
                            out.push_str(a);
                        }
                        out.push('\n');
                    }
                }
            }
            entries.clear();
        };
        for line in text.lines() {
            let l = line.trim();
            if l.starts_with("<File ") {
                flush(&file, &mut entries, &mut out);
                file = attr(l, "Name").map(str::to_string);
            } else if l.starts_with("<Version ") {
                skip_version = !attr(l, "Pattern").is_some_and(|p| version_matches(p, "gc-eu-mq-dbg"));
            } else if l.starts_with("</Version") {
                skip_version = false;
            } else if !skip_version {
                let tag = l.trim_start_matches('<').split([' ', '/', '>']).next().unwrap_or("");
                let kind = match tag {
                    "Skeleton" => 'S',
                    "Limb" => 'L',
                    "LimbTable" => 'T',
                    "Animation" => 'A',
                    "PlayerAnimation" => 'P',
                    "LegacyAnimation" => 'G',
                    "CurveAnimation" => 'C',
                    "DList" => 'D',
                    _ => continue,
                };
                let (Some(name), Some(off)) = (attr(l, "Name"), attr(l, "Offset")) else { continue };
                let Some(off) = off.strip_prefix("0x").and_then(|h| u32::from_str_radix(h, 16).ok()) else { continue };
                if file.as_deref().is_some_and(|f| is_placeholder(name, f, off)) {
                    continue;
                }
                let attrs = match kind {
                    'S' => format!("{}/{}", attr(l, "Type").unwrap_or(""), attr(l, "LimbType").unwrap_or("")),
                    'L' => attr(l, "LimbType").unwrap_or("").to_string(),
                    'T' => format!("{}/{}", attr(l, "LimbType").unwrap_or(""), attr(l, "Count").unwrap_or("")),
                    _ => String::new(),
                };
                entries.push((off, kind, name.to_string(), attrs));
            }
        }
        flush(&file, &mut entries, &mut out);
    }
    out
}

/// `object_human_Limb_011C48`, `object_dekunuts_0018C0_DL`: names that only repeat the file
/// and the offset.
fn is_placeholder(name: &str, file: &str, off: u32) -> bool {
    name.starts_with(file) && name.contains(&format!("{off:06X}"))
}

fn attr<'a>(tag: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!(" {key}=\"");
    let start = tag.find(&pat)? + pat.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

/// The XML's version patterns: alternatives separated by `|`, each exact or ending in `.*`.
fn version_matches(pattern: &str, version: &str) -> bool {
    pattern.split('|').any(|alt| match alt.strip_suffix(".*") {
        Some(prefix) => version.starts_with(prefix),
        None => alt == version,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_parses_and_knows_dekunuts() {
        let a = file_assets("object_dekunuts").expect("object_dekunuts is in the table");
        assert!(a.iter().any(|x| x.kind == 'S' && x.offset == 0x3268 && x.name == "gDekuNutsSkel"));
        assert_eq!(a.iter().filter(|x| x.kind == 'A').count(), 10);
        assert_eq!(name_at("gameplay_keep", 0x2310, 'P'), Some("gPlayerAnim_clink_demo_DDbox_open"));
        assert_eq!(file_assets("gameplay_keep").unwrap().iter().filter(|x| x.kind == 'P').count(), 573);
        assert!(version_matches("ntsc-.*|gc-eu.*", "gc-eu-mq-dbg"));
        assert!(!version_matches("ntsc-.*|gc-jp.*", "gc-eu-mq-dbg"));
    }

    #[test]
    fn assets_table_is_current() {
        let Some(dir) = boneyard_core::testdata::shared_data("z64/oot-decomp-xml", "assets_table_is_current") else {
            return;
        };
        let mut xmls = Vec::new();
        for sub in ["objects", "misc"] {
            let mut paths: Vec<_> = std::fs::read_dir(dir.join(sub)).unwrap().map(|e| e.unwrap().path()).collect();
            paths.sort();
            for p in paths {
                if p.extension().is_some_and(|e| e == "xml") {
                    xmls.push((p.display().to_string(), std::fs::read_to_string(&p).unwrap()));
                }
            }
        }
        let table = generate_table(&xmls);
        if std::env::var_os("BONEYARD_REGEN_ASSETS").is_some() {
            let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/oot_assets.tsv");
            std::fs::write(out, &table).unwrap();
        }
        assert!(table == TABLE, "data/oot_assets.tsv is stale: run with BONEYARD_REGEN_ASSETS=1");
    }
}
