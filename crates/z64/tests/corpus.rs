//! The whole debug-ROM corpus against the decompilation's asset XML: every object file of
//! `../shared/data/z64/oot-gc-eu-mq-dbg` is opened as the CLI opens it, and every skeleton and
//! animation the XML places at an absolute offset must be listed there with the XML's kind, the
//! limb count of its header and the frame count of its header (read here from the bytes, not by
//! the library). The XML is read here with its own small scanner, independent of the library's
//! table generator; the variant is chosen by the PAL rule (this ROM is a PAL build: a file's
//! `<name>_pal.xml`, when the decomp has one, describes it) and `<Version Pattern>` blocks are
//! kept when their pattern matches `gc-eu-mq-dbg`.

use boneyard_core::document::Document;
use boneyard_core::family::InputFile;
use boneyard_core::testdata::shared_data;
use std::collections::{BTreeMap, BTreeSet};

mod xml_place;

/// The decomp's name of the build these files come from.
const VERSION: &str = "gc-eu-mq-dbg";

/// What the XML says is at an offset.
#[derive(Debug, Clone)]
struct XmlEntry {
    tag: String,
    name: String,
    offset: u32,
    /// Skeleton `Type/LimbType`, or the legacy limb table's `Count`.
    ty: String,
    limb_type: String,
    count: Option<usize>,
}

/// The value of attribute `key` in one tag's text.
fn attr<'a>(tag: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("{key}=\"");
    let mut from = 0;
    while let Some(i) = tag[from..].find(&pat) {
        let start = from + i;
        // A whole attribute name: preceded by whitespace (so `Offset` is not `SkelOffset`).
        if tag[..start].ends_with(char::is_whitespace) {
            let v = start + pat.len();
            let end = tag[v..].find('"')? + v;
            return Some(&tag[v..end]);
        }
        from = start + pat.len();
    }
    None
}

/// The XML's version patterns are regular expressions over the version names, built from
/// literals, `.*`, `(a|b)` groups, `?` after a group and top-level `|`: expanded here into the
/// plain alternatives (with `*` standing for `.*`), then matched as globs.
fn expand(pattern: &str) -> Vec<String> {
    // Split on top-level '|'.
    let mut alts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in pattern.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '|' if depth == 0 => {
                alts.push(&pattern[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    alts.push(&pattern[start..]);
    if alts.len() > 1 {
        return alts.into_iter().flat_map(expand).collect();
    }
    let p = alts[0];
    match p.find('(') {
        None => vec![p.replace(".*", "*")],
        Some(open) => {
            let mut depth = 0;
            let close = p[open..]
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '(' => 1,
                        ')' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map(|(i, _)| open + i)
                .expect("balanced version pattern");
            let (head, inner) = (&p[..open], &p[open + 1..close]);
            let (optional, tail) = match p[close + 1..].strip_prefix('?') {
                Some(t) => (true, t),
                None => (false, &p[close + 1..]),
            };
            let mut mids = expand(inner);
            if optional {
                mids.push(String::new());
            }
            let heads = expand(head);
            let tails = expand(tail);
            let mut out = Vec::new();
            for h in &heads {
                for m in &mids {
                    for t in &tails {
                        out.push(format!("{h}{m}{t}"));
                    }
                }
            }
            out
        }
    }
}

fn glob(p: &str, s: &str) -> bool {
    match p.split_once('*') {
        None => p == s,
        Some((pre, rest)) => s.starts_with(pre) && (0..=s.len() - pre.len()).any(|i| glob(rest, &s[pre.len() + i..])),
    }
}

fn version_matches(pattern: &str, version: &str) -> bool {
    expand(pattern).iter().any(|alt| glob(alt, version))
}

/// Entries of every `<File>` of one XML text, for `VERSION`, placed where the XML says
/// (absolutely or after the elements before them: `xml_place`); those it places relative to
/// something of unknown size, or in no way, are counted in `unplaced`.
fn parse_xml(text: &str, unplaced: &mut BTreeMap<String, usize>) -> BTreeMap<String, Vec<XmlEntry>> {
    let mut out: BTreeMap<String, Vec<XmlEntry>> = BTreeMap::new();
    let mut file: Option<String> = None;
    let mut skipping = false;
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut placer = xml_place::Placer::default();
    for (i, &l) in lines.iter().enumerate() {
        if l.starts_with("<File ") {
            file = attr(l, "Name").map(str::to_string);
            out.entry(file.clone().unwrap()).or_default();
            placer.file();
            continue;
        }
        if l.starts_with("<Version ") {
            // This build's blocks are read, the others' skipped: the chain of implicit
            // offsets runs through what this build holds.
            skipping = !version_matches(attr(l, "Pattern").expect("Version has a Pattern"), VERSION);
            continue;
        }
        if l.starts_with("</Version") {
            skipping = false;
            continue;
        }
        let Some(f) = &file else { continue };
        if skipping {
            continue;
        }
        let Some(tag) = xml_place::element(l) else { continue };
        let placed = placer.place(tag, l, lines.get(i + 1).copied().unwrap_or(""));
        let wanted = match tag {
            "Skeleton" | "Animation" | "PlayerAnimation" | "LegacyAnimation" | "CurveAnimation" => true,
            "LimbTable" => attr(l, "LimbType") == Some("Legacy"),
            _ => false,
        };
        if !wanted {
            continue;
        }
        let Some(offset) = placed else {
            *unplaced.entry(f.clone()).or_default() += 1;
            continue;
        };
        out.get_mut(f).unwrap().push(XmlEntry {
            tag: tag.to_string(),
            name: attr(l, "Name").unwrap_or("").to_string(),
            offset,
            ty: attr(l, "Type").unwrap_or("").to_string(),
            limb_type: attr(l, "LimbType").unwrap_or("").to_string(),
            count: attr(l, "Count").map(|c| c.parse().unwrap()),
        });
    }
    out
}

fn be16(d: &[u8], o: u32) -> Option<i16> {
    let o = o as usize;
    Some(i16::from_be_bytes([*d.get(o)?, *d.get(o + 1)?]))
}

/// What the document must show for an XML entry: (kind, limbs, frames), read from the bytes.
/// Skeleton headers (normal, flex, curve) hold the limb count at +4; normal, player and legacy
/// animation headers the frame count at +0, curve animation headers at +0xE.
fn expected(e: &XmlEntry, data: &[u8]) -> (String, Option<usize>, Option<u32>) {
    match e.tag.as_str() {
        "Skeleton" => {
            let limbs = data.get(e.offset as usize + 4).map(|&n| n as usize);
            (format!("skeleton {}/{}", e.ty, e.limb_type), limbs, None)
        }
        "LimbTable" => ("skeleton Legacy/Legacy".into(), e.count, None),
        "Animation" => ("normal".into(), None, be16(data, e.offset).map(|f| f as u32)),
        "PlayerAnimation" => ("link".into(), None, be16(data, e.offset).map(|f| f as u32)),
        "LegacyAnimation" => ("legacy".into(), None, be16(data, e.offset).map(|f| f as u32)),
        "CurveAnimation" => ("curve".into(), None, be16(data, e.offset + 0xE).map(|f| f as u32)),
        t => unreachable!("{t}"),
    }
}

/// What the document lists at an offset: (kind, limbs, frames, name).
type Listed = (String, Option<usize>, Option<u32>, String);

fn hex_of(v: &serde_json::Value) -> u32 {
    u32::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

#[test]
fn corpus_matches_the_decomp_xml() {
    let Some(dir) = shared_data("z64/oot-gc-eu-mq-dbg", "corpus_matches_the_decomp_xml") else { return };
    let Some(xml_dir) = shared_data("z64/oot-decomp-xml", "corpus_matches_the_decomp_xml") else { return };
    // Every XML file, by the file names it describes: the plain and the `_pal` variants.
    let mut plain: BTreeMap<String, Vec<XmlEntry>> = BTreeMap::new();
    let mut pal: BTreeMap<String, Vec<XmlEntry>> = BTreeMap::new();
    let mut unplaced_plain = BTreeMap::new();
    let mut unplaced_pal = BTreeMap::new();
    for sub in ["objects", "misc"] {
        let mut paths: Vec<_> = std::fs::read_dir(xml_dir.join(sub)).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "xml")) {
            let text = std::fs::read_to_string(p).unwrap();
            let stem = p.file_stem().unwrap().to_string_lossy();
            let (map, unplaced) =
                if stem.ends_with("_pal") { (&mut pal, &mut unplaced_pal) } else { (&mut plain, &mut unplaced_plain) };
            map.extend(parse_xml(&text, unplaced));
        }
    }
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    let (mut total, mut right, mut named_right, mut named_total) = (0, 0, 0, 0);
    let mut misses = Vec::new();
    let mut extras = Vec::new();
    let mut unplaced_total = 0;
    // By file: (XML entries placed only relatively, listed entries the XML does not place).
    let mut unplaced_vs_extra: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut warnings = Vec::new();
    let mut from_pal = BTreeSet::new();
    // By XML tag: (right, total).
    let mut by_tag: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for path in &paths {
        let stem = path.file_name().unwrap().to_string_lossy().to_string();
        let data = std::fs::read(path).unwrap();
        // The PAL rule: a `_pal` variant, when there is one, describes this (PAL) build.
        let (entries, unplaced) = match pal.get(&stem) {
            Some(e) => {
                from_pal.insert(stem.clone());
                (e.clone(), unplaced_pal.get(&stem).copied().unwrap_or(0))
            }
            None => (
                plain.get(&stem).cloned().unwrap_or_else(|| panic!("{stem}: no decomp XML describes it")),
                unplaced_plain.get(&stem).copied().unwrap_or(0),
            ),
        };
        unplaced_total += unplaced;
        if unplaced > 0 {
            unplaced_vs_extra.entry(stem.clone()).or_default().0 = unplaced;
        }
        // Opened as the CLI opens a file named alone: Link's companions found beside it.
        let file = vec![InputFile::read(path).unwrap()];
        let disk = boneyard_core::DiskCompanions::default();
        let doc = match boneyard_z64::open_files_running(file, &[], None, Default::default(), &disk) {
            Ok(d) => Some(d),
            Err(e) if entries.is_empty() => {
                // link_animetion holds frame data only: nothing to list on its own.
                println!("{stem}: nothing the XML places, and not opened alone ({e})");
                None
            }
            Err(e) => {
                for x in &entries {
                    total += 1;
                    misses.push(format!("{stem}@0x{:X} {} {}: the file does not open: {e}", x.offset, x.tag, x.name));
                }
                continue;
            }
        };
        let Some(doc) = doc else { continue };
        warnings.extend(doc.warnings().iter().map(|w| w.to_string()));
        // What the document lists in this file: (offset, is skeleton) -> (kind, limbs, frames, name).
        let mut listed: BTreeMap<(u32, bool), Listed> = BTreeMap::new();
        for s in doc.skeletons() {
            // The reader's stems are lower-case; the decomp's names mix cases (object_oA10).
            if !s.extra["file"].as_str().unwrap().eq_ignore_ascii_case(&stem) {
                continue;
            }
            let kind =
                format!("skeleton {}/{}", s.extra["type"].as_str().unwrap(), s.extra["limb_type"].as_str().unwrap());
            let limbs = s.extra["limbs"].as_u64().unwrap() as usize;
            assert_eq!(limbs, s.skeleton.len(), "{stem} {}: one bone a limb", s.name);
            listed.insert((hex_of(&s.extra["offset"]), true), (kind, Some(limbs), None, s.name.clone()));
        }
        for a in doc.animations() {
            if !doc.animation_extra(a.index)["file"].as_str().unwrap().eq_ignore_ascii_case(&stem) {
                continue;
            }
            let kind = doc.animation_extra(a.index)["kind"].as_str().unwrap().to_string();
            listed.insert(
                (hex_of(&doc.animation_extra(a.index)["header"]), false),
                (kind, None, Some(a.frames), a.name.clone()),
            );
        }
        let mut placed = BTreeSet::new();
        for x in &entries {
            total += 1;
            let is_skel = matches!(x.tag.as_str(), "Skeleton" | "LimbTable");
            placed.insert((x.offset, is_skel));
            let (kind, limbs, frames) = expected(x, &data);
            by_tag.entry(x.tag.clone()).or_default().1 += 1;
            match listed.get(&(x.offset, is_skel)) {
                None => misses.push(format!("{stem}@0x{:X} {} {}: not listed", x.offset, x.tag, x.name)),
                Some((k, l, f, name)) => {
                    let ok = *k == kind && (limbs.is_none() || *l == limbs) && (frames.is_none() || *f == frames);
                    if ok {
                        right += 1;
                        by_tag.entry(x.tag.clone()).or_default().0 += 1;
                    } else {
                        misses.push(format!(
                            "{stem}@0x{:X} {} {}: listed as {k} limbs {l:?} frames {f:?}, want {kind} limbs {limbs:?} frames {frames:?}",
                            x.offset, x.tag, x.name
                        ));
                    }
                    // Every name as the XML spells it, its placeholders too (the reader's own
                    // six-digit ones and the decomp's eight-digit `object_oA10_Skel_00000260`).
                    named_total += 1;
                    if *name == x.name {
                        named_right += 1;
                    } else {
                        misses.push(format!("{stem}@0x{:X}: named {name}, the XML says {}", x.offset, x.name));
                    }
                }
            }
        }
        for ((off, is_skel), (k, l, f, name)) in &listed {
            if !placed.contains(&(*off, *is_skel)) {
                extras.push(format!("{stem}@0x{off:X} {name}: {k} limbs {l:?} frames {f:?}"));
                unplaced_vs_extra.entry(stem.clone()).or_default().1 += 1;
                // Plausible: a scan find has a real shape.
                assert!(l.is_none_or(|l| (1..=255).contains(&l)) && f.is_none_or(|f| f > 0), "{stem}@0x{off:X}");
            }
        }
    }
    println!("z64 corpus: {} files; XML variants chosen by the PAL rule: _pal for {from_pal:?}", paths.len());
    println!(
        "z64 corpus: {right}/{total} XML skeletons+animations found with the right kind, limbs and frames over {} files",
        paths.len()
    );
    let tags: Vec<String> = by_tag.iter().map(|(t, (r, n))| format!("{t} {r}/{n}")).collect();
    println!("z64 corpus: by kind: {}", tags.join(", "));
    println!("z64 corpus: {named_right}/{named_total} of them listed under the XML's own name (placeholders included)");
    println!("z64 corpus: {unplaced_total} XML skeletons+animations placed only relative to others (not checked)");
    println!("z64 corpus: {} skeletons+animations listed that the XML does not place (scan finds):", extras.len());
    for e in &extras {
        println!("  extra {e}");
    }
    // The table's readings chosen for these files all verify: no entry is doubted. (The
    // warnings left are the meshes': display lists and textures bound at run time, ...)
    let table_warnings = warnings.iter().filter(|w| w.contains("asset table")).count();
    println!("z64 corpus: {} warnings ({table_warnings} about the asset table):", warnings.len());
    for w in &warnings {
        println!("  warning {w}");
    }
    // Plausible scan finds: here, exactly as many in each file as the XML has entries there
    // that it places only relative to the previous one (which this test does not resolve).
    println!("z64 corpus: by file, (XML entries placed relatively, listed entries the XML does not place): {unplaced_vs_extra:?}");
    for m in &misses {
        println!("  MISS {m}");
    }
    assert!(misses.is_empty(), "{} misses (listed above)", misses.len());
    assert_eq!(right, total);
    assert_eq!(named_right, named_total);
    assert_eq!(table_warnings, 0);
    for (file, (unplaced, extra)) in &unplaced_vs_extra {
        assert_eq!(unplaced, extra, "{file}: scan finds the XML does not account for");
    }
}

#[test]
fn version_patterns_expand() {
    assert!(version_matches("(ntsc|pal)-.*", "pal-1.1"));
    assert!(!version_matches("(ntsc|pal)-.*", VERSION));
    assert!(version_matches("gc-.*-mq(-dbg)?", VERSION));
    assert!(version_matches("gc-.*-mq(-dbg)?", "gc-us-mq"));
    assert!(version_matches("gc-eu-mq(-dbg)?|gc-us-mq", VERSION));
    assert!(version_matches("pal-.*|gc-eu.*", VERSION));
    assert!(!version_matches("ntsc-.*|gc-jp.*|gc-us.*|ique-cn", VERSION));
    assert!(!version_matches("ique-cn", VERSION));
}
