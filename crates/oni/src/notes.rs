//! The warnings an open collects.

use boneyard_core::{limit, Limit, Limits, Warning};
use std::collections::HashSet;

/// The warnings an open collects as it finds them: each said once, up to
/// `Limits::max_oni_warnings` (hostile files could make millions; past it one last warning
/// says that more were left out, naming the limit), and which files already carry their one
/// note about textures.
///
/// Said once as they come, not sorted out at the end: a body set that many classes share is
/// read once per class and says the same things each time, and those repeats must not take
/// the places of the warnings that follow them. The texture note is looked up by file, not in
/// the list: a level has thousands of textured geometries, and a search of the list for each
/// made a hostile file's open quadratic (seconds for a file of a few megabytes).
#[derive(Debug)]
pub(crate) struct Notes {
    max: Limit,
    list: Vec<Warning>,
    seen: HashSet<Warning>,
    textures_noted: HashSet<usize>,
}

impl Notes {
    /// No warnings yet, kept up to `limits.max_oni_warnings`.
    pub(crate) fn new(limits: &Limits) -> Self {
        Notes {
            max: limit!(limits, max_oni_warnings),
            list: Vec::new(),
            seen: HashSet::new(),
            textures_noted: HashSet::new(),
        }
    }

    /// Add `w` unless it was said already or the list is full.
    pub(crate) fn push(&mut self, w: Warning) {
        let max = self.max.as_usize();
        if self.list.len() > max || self.seen.contains(&w) {
            return;
        }
        if self.list.len() == max {
            let more = format!(
                "more warnings were left out (the first {} are listed; limit `{}`)",
                self.max.max, self.max.name
            );
            self.list.push(Warning::in_file(w.file, more));
            return;
        }
        self.seen.insert(w.clone());
        self.list.push(w);
    }

    /// True the first time it is asked for file `file` (an index of the open's files): that
    /// file's texture note is still to be given.
    pub(crate) fn first_texture_of(&mut self, file: usize) -> bool {
        self.textures_noted.insert(file)
    }

    /// The warnings, in the order they were found.
    pub(crate) fn into_list(self) -> Vec<Warning> {
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_past_max_oni_warnings_are_cut_with_one_naming_the_limit() {
        let limits = Limits { max_oni_warnings: 2, ..Limits::default() };
        let mut n = Notes::new(&limits);
        for k in 0..5u64 {
            n.push(Warning::at("level1_Final.dat", 0x40 + k, format!("warning {k}")));
        }
        let w = n.into_list();
        assert_eq!(w.len(), 3);
        assert_eq!(w[1].message, "warning 1");
        assert_eq!(w[2].message, "more warnings were left out (the first 2 are listed; limit `max_oni_warnings`)");
        assert_eq!(w[2].file, "level1_Final.dat");
        assert_eq!(Limits::default().max_oni_warnings, 1000);
    }

    #[test]
    fn a_warning_said_again_takes_no_place() {
        let limits = Limits { max_oni_warnings: 2, ..Limits::default() };
        let mut n = Notes::new(&limits);
        for _ in 0..3 {
            n.push(Warning::at("a.oni", 8, "part 0 has no geometry"));
        }
        n.push(Warning::at("a.oni", 9, "part 0 has no geometry"));
        n.push(Warning::at("b.oni", 8, "part 0 has no geometry"));
        let w = n.into_list();
        assert_eq!(
            w.iter().map(|w| (w.file.as_str(), w.offset)).collect::<Vec<_>>(),
            [("a.oni", Some(8)), ("a.oni", Some(9)), ("b.oni", None)]
        );
        assert!(w[2].message.starts_with("more warnings were left out"));
    }

    #[test]
    fn the_texture_note_is_given_once_per_file() {
        let mut n = Notes::new(&Limits::default());
        assert!(n.first_texture_of(0));
        assert!(!n.first_texture_of(0));
        assert!(n.first_texture_of(1));
    }
}
