//! Unique, non-empty names for exported objects.
//!
//! glTF importers bind animation channels and joints by node name (three.js, Blender), and
//! BVH joints are only known by name, so every bone needs a distinct one. The rule, which the
//! CI's `three_check.mjs` repeats to find nodes by bone name: walk the names in order; an
//! empty name becomes `<fallback><index>`; a name already taken gets `.2`, `.3`, ... (the
//! first suffix not taken yet).

use std::collections::HashSet;

pub(crate) fn unique<'a>(names: impl IntoIterator<Item = &'a str>, fallback: &str) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for (i, n) in names.into_iter().enumerate() {
        let base = if n.is_empty() { format!("{fallback}{i}") } else { n.to_string() };
        let mut name = base.clone();
        let mut k = 2u64;
        while taken.contains(&name) {
            name = format!("{base}.{k}");
            k += 1;
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
}
