//! Names and offsets of skeletons, limbs, animations and display lists, from the OoT
//! decompilation's asset descriptors (zeldaret/oot `assets/xml`, CC0), shipped as a compact
//! table (`data/oot_assets.tsv`) keyed by file name.
//!
//! The table's entries are *claims* about a file's layout, not facts: the decomp describes
//! several builds, whose files differ (PAL builds move Ganondorf's animations, the GameCube
//! EU builds Sheik's). The reader verifies every entry against the bytes, and keeps what the
//! structural scan finds besides.
//!
//! Table format (one entry a line, tab-separated): a line `@<file name>` starts a file as the
//! decomp's `<name>.xml` describes it, `@<file name>\tpal` as its `<name>_pal.xml` does (PAL
//! builds: `pal-*`, `gc-eu*`); then `<offset hex> <kind> <name> [<attrs> [<versions>]]` where
//! kind is `S` skeleton (attrs `Type/LimbType`), `L` limb (attr limb type), `T` limb table
//! (attrs `LimbType/Count`), `A` animation, `P` player (Link) animation header, `G` legacy
//! animation, `C` curve animation, `D` display list, and versions the decomp's `<Version
//! Pattern>` (a regular expression over its version names) when the entry holds only for some
//! builds. Entries whose name is only the file name and the offset (the decomp's placeholders
//! such as `object_human_Limb_011C48`) and entries without an absolute offset are left out;
//! the reader names unnamed things itself.
//!
//! [`variants`] turns a file's entries into what each build sees ([`VERSIONS`]); identical
//! readings are one [`Variant`].
//!
//! The test `assets_table_is_current` regenerates the table from the XML when the data is
//! present (`BONEYARD_REGEN_ASSETS=1` writes it) and fails when the shipped one differs.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The shipped table (see the module documentation for its format).
pub const TABLE: &str = include_str!("../data/oot_assets.tsv");

/// The decomp's names of the OoT builds it describes, in the decomp's order.
pub const VERSIONS: &[&str] = &[
    "ntsc-1.0",
    "ntsc-1.1",
    "pal-1.0",
    "ntsc-1.2",
    "pal-1.1",
    "gc-jp",
    "gc-jp-mq",
    "gc-jp-ce",
    "gc-us",
    "gc-us-mq",
    "gc-eu",
    "gc-eu-mq",
    "gc-eu-dbg",
    "gc-eu-mq-dbg",
    "ique-cn",
];
// `file_variants` keeps the builds a version pattern holds for as the bits of a u64.
const _: () = assert!(VERSIONS.len() <= 64);

/// PAL builds (50 Hz, several languages): their files are described by `<name>_pal.xml` where
/// the decomp has one.
pub fn is_pal(version: &str) -> bool {
    version.starts_with("pal-") || version.starts_with("gc-eu")
}

/// One entry of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    /// Offset in the file (the segment offset).
    pub offset: u32,
    /// `S`, `L`, `T`, `A`, `P`, `G`, `C` or `D` (see the module documentation).
    pub kind: char,
    /// The decomp's name.
    pub name: &'static str,
    /// Kind-specific attributes (`Type/LimbType`, ...).
    pub attrs: &'static str,
    /// The decomp's version pattern the entry is limited to; empty: every build.
    pub versions: &'static str,
}

/// A file's entries as the decomp's two descriptions give them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileTable {
    /// From `<name>.xml`.
    pub plain: Vec<Asset>,
    /// From `<name>_pal.xml`, when the decomp has one.
    pub pal: Option<Vec<Asset>>,
}

/// What the builds in `versions` see of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    /// Which description (`xml` or `pal xml`) and which builds, for notes and warnings.
    pub label: String,
    /// The decomp version names this reading holds for.
    pub versions: Vec<&'static str>,
    /// The entries, in the description's order (offset order, as the decomp writes them).
    pub assets: Vec<Asset>,
    /// The entries' indices by offset, kind and index: a document names every limb and
    /// display list by looking it up (a crafted file's two million limbs searched the table
    /// through each time).
    by_offset: Vec<u32>,
}

impl Variant {
    /// A reading of `assets`.
    pub fn new(label: String, versions: Vec<&'static str>, assets: Vec<Asset>) -> Self {
        // (The table holds hundreds of entries a file: u32 indices are plenty.)
        let mut by_offset: Vec<u32> = (0..assets.len() as u32).collect();
        by_offset.sort_by_key(|&i| (assets[i as usize].offset, assets[i as usize].kind, i));
        Variant { label, versions, assets, by_offset }
    }

    /// The name of the first entry of kind `kind` at `offset`, if this reading has one.
    pub fn name_at(&self, offset: u32, kind: char) -> Option<&str> {
        let key = |i: &u32| (self.assets[*i as usize].offset, self.assets[*i as usize].kind);
        let from = self.by_offset.partition_point(|i| key(i) < (offset, kind));
        let i = *self.by_offset.get(from).filter(|i| key(i) == (offset, kind))?;
        Some(self.assets[i as usize].name)
    }

    /// Whether it names any skeleton or animation.
    pub fn names_skeletons_or_animations(&self) -> bool {
        self.assets.iter().any(|x| "SAGTPC".contains(x.kind))
    }
}

/// The table of every known file, by lower-case file name (the decomp's file names mix cases,
/// e.g. `object_oA10`; the reader's stems are lower-case). (The reader parses only the files it
/// is asked for: [`variants`].)
#[cfg(test)]
pub fn tables() -> &'static HashMap<String, FileTable> {
    static MAP: OnceLock<HashMap<String, FileTable>> = OnceLock::new();
    MAP.get_or_init(|| parse_table(TABLE))
}

/// The shipped table's sections by lower-case file name, unparsed: a command on one object
/// parses that object's entries only (all 6,900 lines were most of a one-file command's work).
fn sections() -> &'static HashMap<String, Vec<Section>> {
    static MAP: OnceLock<HashMap<String, Vec<Section>>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut map: HashMap<String, Vec<Section>> = HashMap::new();
        for (file, section) in split_sections(TABLE) {
            map.entry(file).or_default().push(section);
        }
        map
    })
}

/// The distinct readings of one file over [`VERSIONS`] (empty for an unknown file), in the
/// order of the first build each holds for.
pub fn variants(file: &str) -> &'static [Arc<Variant>] {
    // Each file's readings are worked out the first time that file is asked for (all of
    // them at once cost a ROM-less open of one object about 30 ms).
    // Shared (`Arc`): a document keeps the reading it took without copying its entries.
    static MAP: OnceLock<HashMap<String, OnceLock<Vec<Arc<Variant>>>>> = OnceLock::new();
    let map = MAP.get_or_init(|| sections().keys().map(|f| (f.clone(), OnceLock::new())).collect());
    let key = file.to_ascii_lowercase();
    match (map.get(&key), sections().get(&key)) {
        (Some(cell), Some(parts)) => cell
            .get_or_init(|| {
                let mut t = FileTable::default();
                for part in parts {
                    part.parse_into(&mut t);
                }
                file_variants(&t).into_iter().map(Arc::new).collect()
            })
            .as_slice(),
        _ => &[],
    }
}

/// The reading of `file` for one build (a decomp version name), if the file is known.
pub fn variant_for(file: &str, version: &str) -> Option<&'static Arc<Variant>> {
    variants(file).iter().find(|v| v.versions.contains(&version))
}

fn file_variants(t: &FileTable) -> Vec<Variant> {
    // Each distinct version pattern is matched against each build once: a file's entries share
    // a handful of patterns, and matching one per entry and build was a seventh of `list` over
    // the 208 OoT objects.
    let mut builds: HashMap<&'static str, u64> = HashMap::new();
    let mut holds = |pattern: &'static str, build: usize| {
        pattern.is_empty()
            || *builds.entry(pattern).or_insert_with(|| {
                VERSIONS.iter().enumerate().filter(|(_, v)| version_matches(pattern, v)).fold(0, |m, (i, _)| m | 1 << i)
            }) & (1 << build)
                != 0
    };
    let mut out: Vec<Variant> = Vec::new();
    for (build, &v) in VERSIONS.iter().enumerate() {
        let (source, label) = match (&t.pal, is_pal(v)) {
            (Some(pal), true) => (pal, "pal xml"),
            _ => (&t.plain, "xml"),
        };
        let assets: Vec<Asset> = source.iter().filter(|a| holds(a.versions, build)).cloned().collect();
        match out.iter_mut().find(|x| x.assets == assets) {
            Some(x) => x.versions.push(v),
            None => out.push(Variant::new(label.to_string(), vec![v], assets)),
        }
    }
    for x in out.iter_mut() {
        let builds = if x.versions.len() == VERSIONS.len() { "every build".to_string() } else { x.versions.join(", ") };
        x.label = format!("{} for {builds}", x.label);
    }
    out
}

/// Whether any reading of `file` names a skeleton or an animation.
pub fn is_known(file: &str) -> bool {
    variants(file).iter().any(|v| v.names_skeletons_or_animations())
}

/// Parse the shipped table format.
#[cfg(test)]
pub fn parse_table(text: &'static str) -> HashMap<String, FileTable> {
    let mut map: HashMap<String, FileTable> = HashMap::new();
    for (file, section) in split_sections(text) {
        section.parse_into(map.entry(file).or_default());
    }
    map
}

/// One section of the table: a file's entries from one of its descriptions (the lines after
/// an `@file` or `@file<TAB>pal` header, up to the next header).
struct Section {
    /// From the file's PAL description.
    pal: bool,
    /// Its lines.
    body: &'static str,
}

impl Section {
    /// Add the section's entries to `t` (a header makes its list known even with no entries).
    fn parse_into(&self, t: &mut FileTable) {
        let list = if self.pal { t.pal.get_or_insert_with(Vec::new) } else { &mut t.plain };
        for line in self.body.lines() {
            let (fields, tabs) = fields(line);
            let [off, kind, name, attrs, versions] = fields;
            if tabs < 2 {
                continue;
            }
            let (Ok(offset), Some(kind)) = (u32::from_str_radix(off, 16), kind.chars().next()) else { continue };
            list.push(Asset { offset, kind, name, attrs, versions });
        }
    }
}

/// The sections of `text` with their lower-case file names, in the text's order (lines before
/// the first header belong to no file and are left out).
fn split_sections(text: &'static str) -> Vec<(String, Section)> {
    // Header lines are the lines that start with `@` (found by a byte search for `@`).
    let bytes = text.as_bytes();
    let starts: Vec<usize> =
        text.match_indices('@').map(|(i, _)| i).filter(|&i| i == 0 || bytes.get(i - 1) == Some(&b'\n')).collect();
    let mut out = Vec::with_capacity(starts.len());
    for (k, &at) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let chunk = text.get(at..end).unwrap_or("");
        let (header, body) = chunk.split_once('\n').unwrap_or((chunk, ""));
        let (fields, tabs) = fields(header.strip_suffix('\r').unwrap_or(header));
        // `@file` or `@file<TAB>pal`.
        let file = fields[0].strip_prefix('@').unwrap_or(fields[0]).to_ascii_lowercase();
        out.push((file, Section { pal: tabs == 1 && fields[1] == "pal", body }));
    }
    out
}

/// A line's first five tab-separated fields (the rest `""`) and its number of tabs, found in
/// one pass over its bytes (the library's searches cost more than these short lines).
fn fields(line: &'static str) -> ([&'static str; 5], usize) {
    let mut fields = [""; 5];
    let (mut tabs, mut from) = (0, 0);
    for (i, &b) in line.as_bytes().iter().enumerate() {
        if b == b'\t' {
            // `i` is at an ASCII tab: a character boundary.
            if let Some(field) = fields.get_mut(tabs) {
                *field = line.get(from..i).unwrap_or("");
            }
            (tabs, from) = (tabs + 1, i + 1);
        }
    }
    if let Some(field) = fields.get_mut(tabs) {
        *field = line.get(from..).unwrap_or("");
    }
    (fields, tabs)
}

#[cfg(test)]
/// Build the table from the decomp XML files (`objects/*.xml`, `misc/*.xml`) given as
/// (path or file name, text), in the order given; a name ending in `_pal.xml` is the PAL
/// description of the files it holds.
pub fn generate_table(xmls: &[(String, String)]) -> String {
    /// An entry: (offset, kind, name, attributes, the `<Version>` pattern it sits under).
    type Entry = (u32, char, String, String, String);
    let mut out = String::new();
    for (path, text) in xmls {
        let pal = path.ends_with("_pal.xml");
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        // Each build reads the XML on its own: its `<Version>` blocks and no others, so that
        // the offsets the XML leaves implicit (`xml_place`) follow what that build holds. An
        // entry is then written with the builds that place it there: its block's pattern
        // when those are the pattern's builds, else the builds themselves.
        // By `<File>`: its name, its entries in the XML's order with the builds that read
        // each, and where each entry is in that list.
        type Read<'a> = (String, Vec<(Entry, Vec<&'a str>)>, HashMap<Entry, usize>);
        let mut files: Vec<Read> = Vec::new();
        for &build in VERSIONS {
            let mut file: Option<usize> = None;
            let mut block: Option<(&str, bool)> = None;
            let mut placer = xml_place::Placer::default();
            for (i, &l) in lines.iter().enumerate() {
                if l.starts_with("<File ") {
                    let name = attr(l, "Name").unwrap_or("").to_string();
                    let at = files.iter().position(|(f, ..)| *f == name).unwrap_or_else(|| {
                        files.push((name, Vec::new(), HashMap::new()));
                        files.len() - 1
                    });
                    file = Some(at);
                    placer.file();
                } else if l.starts_with("<Version ") {
                    let pattern = attr(l, "Pattern").unwrap_or("");
                    block = Some((pattern, version_matches(pattern, build)));
                } else if l.starts_with("</Version") {
                    block = None;
                } else if let (Some(tag), Some(fi)) = (xml_place::element(l), file) {
                    if block.is_some_and(|(_, this_build)| !this_build) {
                        continue;
                    }
                    // Every element moves the chain of implicit offsets, listed or not.
                    let off = placer.place(tag, l, lines.get(i + 1).copied().unwrap_or(""));
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
                    let (Some(name), Some(off)) = (attr(l, "Name"), off) else { continue };
                    if is_placeholder(name, &files[fi].0, off) {
                        continue;
                    }
                    let attrs = match kind {
                        'S' => format!("{}/{}", attr(l, "Type").unwrap_or(""), attr(l, "LimbType").unwrap_or("")),
                        'L' => attr(l, "LimbType").unwrap_or("").to_string(),
                        'T' => format!("{}/{}", attr(l, "LimbType").unwrap_or(""), attr(l, "Count").unwrap_or("")),
                        _ => String::new(),
                    };
                    let pattern = block.map_or(String::new(), |(p, _)| p.to_string());
                    // In the order the XML lists them: the first of an offset and kind names it.
                    let (_, list, index) = &mut files[fi];
                    let entry = (off, kind, name.to_string(), attrs, pattern);
                    let at = *index.entry(entry.clone()).or_insert_with(|| {
                        list.push((entry, Vec::new()));
                        list.len() - 1
                    });
                    list[at].1.push(build);
                }
            }
        }
        for (f, entries, _) in files {
            if entries.is_empty() {
                continue;
            }
            out.push('@');
            out.push_str(&f);
            if pal {
                out.push_str("\tpal");
            }
            out.push('\n');
            let mut lines: Vec<Entry> = entries
                .into_iter()
                .map(|((o, k, n, a, pattern), builds)| {
                    let of_pattern: Vec<&str> = VERSIONS
                        .iter()
                        .copied()
                        .filter(|v| pattern.is_empty() || version_matches(&pattern, v))
                        .collect();
                    let versions = if builds == of_pattern { pattern } else { builds.join("|") };
                    (o, k, n, a, versions)
                })
                .collect();
            lines.sort_by(|a, b| (a.0, a.1, &a.4).cmp(&(b.0, b.1, &b.4)));
            for (o, k, n, a, v) in &lines {
                out.push_str(&format!("{o:X}\t{k}\t{n}"));
                if !a.is_empty() || !v.is_empty() {
                    out.push('\t');
                    out.push_str(a);
                }
                if !v.is_empty() {
                    out.push('\t');
                    out.push_str(v);
                }
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "../tests/xml_place/mod.rs"]
mod xml_place;

#[cfg(test)]
/// `object_human_Limb_011C48`, `object_dekunuts_0018C0_DL`: names that only repeat the file
/// and an offset, spelt as the reader names what no table names (six hex digits), so that
/// the reader's name is the decomp's. The offset is the one the debug build has: in another
/// build, where what the XML places implicitly moves (object_kingdodongo's limbs follow a
/// title card of another size), the name keeps it, so any six hex digits after the file's
/// name make one. The decomp's eight-digit placeholders (`object_oA10_Skel_00000260`) are
/// kept as names: the reader would spell them otherwise.
fn is_placeholder(name: &str, file: &str, _off: u32) -> bool {
    let Some(rest) = name.strip_prefix(file) else { return false };
    rest.split('_').any(|part| part.len() == 6 && part.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
fn attr<'a>(tag: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!(" {key}=\"");
    let start = tag.find(&pat)? + pat.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

/// Whether a decomp version pattern (a regular expression matched against the whole version
/// name) matches `version`. The patterns use literals, `.`, `*` and `?` after an atom, `(..|..)`
/// groups and `|`; anything else is matched literally. Backtracking over a pattern of at most a
/// few dozen characters and a version name of at most a dozen.
pub fn version_matches(pattern: &str, version: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let s: Vec<char> = version.chars().collect();
    if p.len() > 256 || s.len() > 64 {
        return false;
    }
    let steps = Cell::new(1usize << 16);
    alternatives(&p).iter().any(|alt| seq_matches(alt, &s, &mut |rest| rest.is_empty(), &steps))
}

/// Split a pattern at its top-level `|`.
fn alternatives(p: &[char]) -> Vec<&[char]> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, &c) in p.iter().enumerate() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '|' if depth == 0 => {
                out.push(&p[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&p[start..]);
    out
}

/// The first atom of a sequence and its length: a group (its inside) or one character.
fn atom(p: &[char]) -> Option<(Atom<'_>, usize)> {
    match *p.first()? {
        '(' => {
            let mut depth = 0i32;
            for (i, &c) in p.iter().enumerate() {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    return Some((Atom::Group(&p[1..i]), i + 1));
                }
            }
            Some((Atom::Char('('), 1))
        }
        c => Some((Atom::Char(c), 1)),
    }
}

enum Atom<'a> {
    Char(char),
    Group(&'a [char]),
}

/// Match sequence `p` at the start of `s`, then hand the rest of `s` to `k`.
fn seq_matches(p: &[char], s: &[char], k: &mut dyn FnMut(&[char]) -> bool, steps: &Cell<usize>) -> bool {
    if steps.get() == 0 {
        return false;
    }
    steps.set(steps.get() - 1);
    let Some((a, len)) = atom(p) else { return k(s) };
    let (min, max) = match p.get(len) {
        Some('*') => (0, usize::MAX),
        Some('?') => (0, 1),
        _ => (1, 1),
    };
    let rest = if max == 1 && min == 1 { &p[len..] } else { &p[len + 1..] };
    repeat(&a, min, max, rest, s, k, steps)
}

/// `a` repeated between `min` and `max` times (greedy), then `rest`, then `k`.
fn repeat(
    a: &Atom,
    min: usize,
    max: usize,
    rest: &[char],
    s: &[char],
    k: &mut dyn FnMut(&[char]) -> bool,
    steps: &Cell<usize>,
) -> bool {
    if max > 0 {
        let once = match a {
            Atom::Char(c) => {
                if s.first().is_some_and(|x| *c == '.' || x == c) {
                    repeat(a, min.saturating_sub(1), max - 1, rest, &s[1..], k, steps)
                } else {
                    false
                }
            }
            Atom::Group(g) => alternatives(g).iter().any(|alt| {
                seq_matches(
                    alt,
                    s,
                    &mut |after: &[char]| {
                        // An empty repetition would loop forever.
                        after.len() < s.len() && repeat(a, min.saturating_sub(1), max - 1, rest, after, k, steps)
                    },
                    steps,
                )
            }),
        };
        if once {
            return true;
        }
    }
    min == 0 && seq_matches(rest, s, k, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each pattern matched once per build gives every file of the shipped table the readings
    /// that matching each entry against each build gave (the formulation it replaced).
    #[test]
    fn readings_are_those_of_each_entry_matched_against_each_build() {
        let mut files = 0;
        for (file, t) in tables() {
            let mut expected: Vec<(Vec<&str>, Vec<Asset>)> = Vec::new();
            for &v in VERSIONS {
                let source = match (&t.pal, is_pal(v)) {
                    (Some(pal), true) => pal,
                    _ => &t.plain,
                };
                let assets: Vec<Asset> = source
                    .iter()
                    .filter(|a| a.versions.is_empty() || version_matches(a.versions, v))
                    .cloned()
                    .collect();
                match expected.iter_mut().find(|x| x.1 == assets) {
                    Some(x) => x.0.push(v),
                    None => expected.push((vec![v], assets)),
                }
            }
            let got: Vec<(Vec<&str>, Vec<Asset>)> =
                file_variants(t).into_iter().map(|v| (v.versions, v.assets)).collect();
            assert_eq!(got, expected, "{file}");
            files += 1;
        }
        assert!(files > 200, "{files} files");
        println!("{files}/{files} files' readings as each entry matched against each build");
    }

    /// The table parsed a section at a time is what a lookup of each line's file read (the
    /// parser it replaced, kept here): on the shipped table and on texts whose sections
    /// repeat a file, come before any header, or hold nothing.
    #[test]
    fn sections_parse_as_each_line_looked_up() {
        fn by_line(text: &'static str) -> HashMap<String, FileTable> {
            let mut map: HashMap<String, FileTable> = HashMap::new();
            let mut cur: Option<(String, bool)> = None;
            for line in text.lines() {
                if let Some(head) = line.strip_prefix('@') {
                    let (f, pal) = match head.split_once('\t') {
                        Some((f, v)) => (f.to_ascii_lowercase(), v == "pal"),
                        None => (head.to_ascii_lowercase(), false),
                    };
                    let t = map.entry(f.clone()).or_default();
                    if pal {
                        t.pal.get_or_insert_with(Vec::new);
                    }
                    cur = Some((f, pal));
                    continue;
                }
                let mut it = line.split('\t');
                let (Some(off), Some(kind), Some(name)) = (it.next(), it.next(), it.next()) else { continue };
                let (Ok(offset), Some(kind)) = (u32::from_str_radix(off, 16), kind.chars().next()) else { continue };
                let attrs = it.next().unwrap_or("");
                let versions = it.next().unwrap_or("");
                if let Some((f, pal)) = &cur {
                    let t = map.entry(f.clone()).or_default();
                    let list = if *pal { t.pal.get_or_insert_with(Vec::new) } else { &mut t.plain };
                    list.push(Asset { offset, kind, name, attrs, versions });
                }
            }
            map
        }
        let shipped = parse_table(TABLE);
        assert_eq!(shipped, by_line(TABLE));
        assert!(shipped.len() > 200, "{}", shipped.len());
        // What a file's own sections give (as `variants` parses them) is its whole table's.
        assert_eq!(sections().len(), shipped.len());
        for (file, whole) in &shipped {
            let mut own = FileTable::default();
            for part in &sections()[file] {
                part.parse_into(&mut own);
            }
            assert_eq!(&own, whole, "{file}");
        }
        for text in [
            "10\tS\tgOrphanSkel\n@object_a\n20\tA\tgAAnim\n@object_b\tpal\n@OBJECT_A\n30\tD\tgADL\tx\tgc-*\n",
            "@object_a\tpal\n40\tS\tgPalSkel\n@object_a\n50\tS\tgSkel\nzz\tS\tbad\n60\n@object_a\tpal\n70\tA\tgMore\n",
            "",
            "@object_empty\n",
            "@object_c\tpal\tmore\n80\tS\tgC\ta\tb\tc\td\n90\tA\n@object_c\tpal\n\n@\n91\tAnim\tgD\t\t\n",
        ] {
            assert_eq!(parse_table(text), by_line(text), "{text:?}");
        }
    }

    #[test]
    fn name_at_is_the_first_entry_of_that_offset_and_kind() {
        // Every reading of every file, asked at every entry's offset for every kind, and just
        // past it: the lookup agrees with a search of the entries in their order.
        let mut asked = 0;
        for file in tables().keys() {
            for v in variants(file) {
                for a in &v.assets {
                    for kind in ['S', 'A', 'L', 'D', 'P', 'T', 'C', 'G'] {
                        for off in [a.offset, a.offset + 1] {
                            let want = v.assets.iter().find(|x| x.offset == off && x.kind == kind).map(|x| x.name);
                            assert_eq!(v.name_at(off, kind), want, "{file} {off:#x} {kind}");
                            asked += 1;
                        }
                    }
                }
            }
        }
        assert!(asked > 100_000, "{asked}");
        // Two entries of one offset and kind: the first, as the description lists them.
        let two = |n: &'static str| Asset { kind: 'D', offset: 8, name: n, attrs: "", versions: "" };
        let v = Variant::new("t".into(), vec![], vec![two("b"), two("a")]);
        assert_eq!(v.name_at(8, 'D'), Some("b"));
    }

    #[test]
    fn table_parses_and_knows_dekunuts() {
        let v = variants("object_dekunuts");
        assert_eq!(v.len(), 1, "one reading for every build");
        let a = &v[0].assets;
        assert!(a.iter().any(|x| x.kind == 'S' && x.offset == 0x3268 && x.name == "gDekuNutsSkel"));
        assert_eq!(a.iter().filter(|x| x.kind == 'A').count(), 10);
        let keep = variant_for("gameplay_keep", "gc-eu-mq-dbg").unwrap();
        assert_eq!(keep.name_at(0x2310, 'P'), Some("gPlayerAnim_clink_demo_DDbox_open"));
        assert_eq!(keep.assets.iter().filter(|x| x.kind == 'P').count(), 573);
        // Mixed-case decomp names are found by the reader's lower-case stems.
        assert!(!variants("object_of1d_map").is_empty() && variants("object_of1d_map") == variants("object_oF1d_map"));
    }

    #[test]
    fn pal_and_version_blocked_variants() {
        // object_ganon: object_ganon_pal.xml for PAL builds moves the ending animation.
        let ntsc = variant_for("object_ganon", "ntsc-1.0").unwrap();
        let pal = variant_for("object_ganon", "gc-eu-mq-dbg").unwrap();
        assert_eq!(ntsc.name_at(0xFF48, 'A'), Some("gGanondorfEndingFloatAnim"));
        assert_eq!(pal.name_at(0x11348, 'A'), Some("gGanondorfEndingFloatAnim"));
        assert_eq!(pal.name_at(0xFF48, 'A'), None);
        assert!(variant_for("object_ganon", "pal-1.1").unwrap() == pal);
        // object_xc: Sheik's first animations sit in `<Version>` blocks.
        let xc = variant_for("object_xc", "gc-eu-mq-dbg").unwrap();
        assert_eq!(xc.name_at(0xB6C, 'A'), Some("gSheikPlayingHarpAnim"));
        assert_eq!(xc.name_at(0xDB8, 'A'), None);
        assert_eq!(variant_for("object_xc", "gc-us").unwrap().name_at(0xDB8, 'A'), Some("gSheikPlayingHarpAnim"));
    }

    #[test]
    fn version_patterns() {
        assert!(version_matches("ntsc-.*|gc-eu.*", "gc-eu-mq-dbg"));
        assert!(!version_matches("ntsc-.*|gc-jp.*", "gc-eu-mq-dbg"));
        assert!(version_matches("(ntsc|pal)-.*", "pal-1.0"));
        assert!(!version_matches("(ntsc|pal)-.*", "gc-eu"));
        assert!(version_matches("gc-.*-mq(-dbg)?", "gc-eu-mq-dbg"));
        assert!(version_matches("gc-.*-mq(-dbg)?", "gc-jp-mq"));
        assert!(!version_matches("gc-.*-mq(-dbg)?", "gc-eu-dbg"));
        assert!(version_matches("gc-eu-mq(-dbg)?|gc-us-mq", "gc-eu-mq"));
        assert!(!version_matches("ique-cn", "gc-eu"));
        assert!(!version_matches("gc-eu", "gc-eu-mq"), "the whole name matches");
        assert!(!version_matches("((((a*)*)*)*)*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac"), "bounded");
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
