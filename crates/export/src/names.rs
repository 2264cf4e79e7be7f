//! Unique, non-empty names for exported objects.
//!
//! glTF importers bind animation channels and joints by node name (three.js, Blender), and
//! BVH joints are only known by name, so every bone needs a distinct one. The rule, which the
//! CI's `three_check.mjs` repeats to find nodes by bone name: walk the names in order; an
//! empty name becomes `<fallback><index>`; a name already taken gets `.2`, `.3`, ... (the
//! first suffix not taken yet).

use std::collections::{HashMap, HashSet};

pub(crate) fn unique<'a>(names: impl IntoIterator<Item = &'a str>, fallback: &str) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::new();
    // Per name, the suffix to try first: every lower one is taken already (names are only
    // ever added), so n copies of one name cost n tries, not n²/2 (a hostile file's thousands
    // of animations of one name took seconds to name).
    let mut next_suffix: HashMap<String, u64> = HashMap::new();
    let mut out = Vec::new();
    for (i, n) in names.into_iter().enumerate() {
        let base = if n.is_empty() { format!("{fallback}{i}") } else { n.to_string() };
        let mut name = base.clone();
        if taken.contains(&name) {
            let k = next_suffix.entry(base.clone()).or_insert(2);
            loop {
                name = format!("{base}.{k}");
                *k += 1;
                if !taken.contains(&name) {
                    break;
                }
            }
        }
        taken.insert(name.clone());
        out.push(name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_get_the_first_free_suffix() {
        let got = unique(["a", "a", "a.2", "", "b", "a"], "bone");
        assert_eq!(got, ["a", "a.2", "a.2.2", "bone3", "b", "a.3"]);
    }

    #[test]
    fn a_suffix_taken_by_a_later_name_is_skipped() {
        let got = unique(["a", "a", "a.3", "a", "a", "bone1", "", "x.2", "x", "x"], "bone");
        assert_eq!(got, ["a", "a.2", "a.3", "a.4", "a.5", "bone1", "bone6", "x.2", "x", "x.3"]);
    }

    #[test]
    fn many_copies_of_one_name_are_numbered_in_order() {
        let got = unique(std::iter::repeat_n("clip", 20_000), "anim");
        assert_eq!(got[0], "clip");
        assert_eq!(got[19_999], "clip.20000");
        assert_eq!(got.iter().collect::<HashSet<_>>().len(), 20_000);
    }
}
