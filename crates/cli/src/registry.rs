//! The game families boneyard reads. Adding a family: one crate, one line here (its
//! `Family` value in [`FAMILIES`]). The order does not matter: every family probes every file
//! and the best score wins (`boneyard_core::best_family`).

use boneyard_core::Family;

pub static FAMILIES: &[&dyn Family] = &[&boneyard_oni::Oni, &boneyard_z64::Z64, &boneyard_shenmue::Shenmue];

#[cfg(test)]
mod tests {
    use super::FAMILIES;
    use boneyard_core::{best_family, Family, Score};
    use std::path::{Path, PathBuf};

    /// Every file under `dir`, sorted.
    fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                files_under(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    /// The family a real file of `../shared/data` belongs to, by where MANIFEST.md puts it:
    /// game files by folder; descriptions, exports and notes (XML, DAE, OBJ, text) nobody's.
    fn owner(data: &Path, p: &Path) -> Option<&'static str> {
        let ext = p.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
        if matches!(ext.as_str(), "xml" | "dae" | "obj" | "txt" | "md") {
            return None;
        }
        let rel = p.strip_prefix(data).unwrap();
        match rel.components().next()?.as_os_str().to_str()? {
            "oni" => Some("oni"),
            "z64" => Some("z64"),
            "shenmue" => Some("shenmue"),
            _ => None,
        }
    }

    /// Every real game file is claimed by exactly one family with the best score, its own;
    /// every other file by none; and the registry in reverse order picks the same.
    #[test]
    fn real_files_probe_to_their_family_in_any_registry_order() {
        let Some(data) = boneyard_core::testdata::shared_data("", "real_files_probe_to_their_family") else { return };
        let mut files = Vec::new();
        files_under(&data, &mut files);
        let reversed: Vec<&dyn Family> = FAMILIES.iter().rev().copied().collect();
        let (mut games, mut right, mut others) = (0, 0, 0);
        for p in &files {
            let bytes = std::fs::read(p).unwrap();
            let scores: Vec<(Score, &str)> = FAMILIES.iter().map(|f| (f.probe(p, &bytes), f.name())).collect();
            let best = scores.iter().map(|s| s.0).max().unwrap();
            let at_best: Vec<&str> = scores.iter().filter(|s| s.0 == best && best.claims()).map(|s| s.1).collect();
            let pick = best_family(FAMILIES, p, &bytes).map(|f| f.name());
            assert_eq!(pick, best_family(&reversed, p, &bytes).map(|f| f.name()), "{}", p.display());
            match owner(&data, p) {
                Some(family) => {
                    games += 1;
                    assert_eq!(at_best, [family], "{}: {scores:?}", p.display());
                    assert_eq!(pick, Some(family));
                    right += 1;
                }
                None => {
                    others += 1;
                    assert_eq!(pick, None, "{}: {scores:?}", p.display());
                }
            }
        }
        println!("{right}/{games} files probed to their family ({others} other files claimed by none)");
        assert!(games > 200, "{games}");
    }
}
