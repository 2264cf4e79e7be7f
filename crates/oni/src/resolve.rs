//! The files given together, and links between them: a link names a descriptor of its own
//! file; a placeholder descriptor is looked up by name among the other files' instances
//! (a level file plus `level0_Final`).

use crate::container::InstanceFile;
use crate::layout;
use boneyard_core::{Error, Reader, Result};
use std::collections::HashMap;

/// An instance: file index and descriptor index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ref {
    /// Index of the file among the files given.
    pub file: usize,
    /// Index of the descriptor in that file.
    pub index: usize,
}

/// The instance files given together, with an index of their named instances for
/// placeholder lookups.
#[derive(Debug, Default)]
pub struct Files {
    /// The files, in the order given.
    pub files: Vec<InstanceFile>,
    by_name: HashMap<String, Ref>,
    /// The caller's limits, for the readers that walk these files.
    pub limits: boneyard_core::Limits,
}

impl Files {
    /// Index the named (non-placeholder) instances of these files; the first file defining a
    /// name wins.
    pub fn new(files: Vec<InstanceFile>) -> Self {
        Self::with_limits(files, boneyard_core::Limits::default())
    }
    /// [`Files::new`] with the caller's limits.
    pub fn with_limits(files: Vec<InstanceFile>, limits: boneyard_core::Limits) -> Self {
        // Sized for every instance at once (a CD's level grew it a dozen times, each growth
        // hashing every name again).
        let mut by_name = HashMap::with_capacity(files.iter().map(|f| f.descriptors.len()).sum());
        for (fi, f) in files.iter().enumerate() {
            for (i, d) in f.descriptors.iter().enumerate() {
                if let (false, Some(n)) = (d.placeholder, &d.name) {
                    by_name.entry(n.clone()).or_insert(Ref { file: fi, index: i });
                }
            }
        }
        Files { files, by_name, limits }
    }

    /// File `i`, or an error when there is none.
    pub fn file(&self, i: usize) -> Result<&InstanceFile> {
        self.files.get(i).ok_or_else(|| Error::invalid(0, format!("no file #{i}")))
    }

    /// Follow link `link` read at `at` in file `file`: `Ok(None)` for a null link or a
    /// placeholder not defined in any file given.
    pub fn resolve(&self, file: usize, link: u32, at: u64) -> Result<Option<Ref>> {
        let f = self.file(file)?;
        let Some(i) = f.link(link, at)? else { return Ok(None) };
        let d = &f.descriptors[i];
        if !d.placeholder {
            return Ok(Some(Ref { file, index: i }));
        }
        Ok(d.name.as_ref().and_then(|n| self.by_name.get(n).copied()))
    }

    /// The struct of `r`, checking its tag.
    pub fn instance_of(&self, r: Ref, tag: u32) -> Result<Reader<'_>> {
        let f = self.file(r.file)?;
        let d = f.descriptors.get(r.index).ok_or_else(|| Error::invalid(0, format!("no instance {}", r.index)))?;
        if d.tag != tag {
            return Err(Error::invalid(
                f.struct_offset(r.index).unwrap_or(0),
                format!("instance {} is a {}, expected a {}", r.index, layout::tag_name(d.tag), layout::tag_name(tag)),
            )
            .in_file(&f.name));
        }
        f.instance(r.index).map_err(|e| e.in_file(&f.name))
    }

    /// The instance's name (with its tag prefix) if named.
    pub fn name(&self, r: Ref) -> Option<&str> {
        self.files.get(r.file)?.descriptors.get(r.index)?.name.as_deref()
    }

    /// Count of placeholders not defined by any file given.
    pub fn unresolved(&self, file: usize) -> usize {
        self.files.get(file).map_or(0, |f| {
            f.descriptors
                .iter()
                .filter(|d| d.placeholder && d.name.as_ref().is_none_or(|n| !self.by_name.contains_key(n)))
                .count()
        })
    }
}
