//! A sequence's curves decoded on first use, from the file's bytes the document holds.
//!
//! Why: opening `MOTION.BIN` decoded 78,669 curves (hundreds of thousands of keys and halves)
//! that `list` never reads and `sample` reads one sequence of; now the open only checks the
//! bytes (see `scan`), and the first look at a sequence's curves runs the same decode the open
//! ran before, so every key is bit for bit what it was.

use super::{parse_curves, Curve};
use boneyard_core::{Endian, Reader};
use std::sync::OnceLock;

/// A sequence's curves: a slice (`Deref<Target = [Curve]>`) decoded from the file's bytes the
/// first time it is looked at, once, whichever thread looks first. A clone carries the keys
/// when they are decoded, else it decodes them itself (the same keys) when looked at.
///
/// Held inline, not behind a shared pointer: MOTION.BIN's 1319 sequences would otherwise
/// allocate (and free) one each at the open.
#[derive(Clone)]
pub struct Curves(Lazy);

#[derive(Clone)]
struct Lazy {
    /// The number of curves (known from the descriptors, without decoding).
    count: usize,
    /// Where the curves' bytes are, when they are not decoded yet.
    source: Option<Source>,
    decoded: OnceLock<Vec<Curve>>,
}

/// A checked sequence's bytes: the file, the sequence's region in it and its header fields.
#[derive(Clone)]
pub(super) struct Source {
    /// The whole file (shared, not copied).
    pub file: super::SharedFile,
    /// Absolute offset of the sequence header.
    pub start: usize,
    /// Where the sequence's region ends.
    pub end: usize,
    /// Header +0.
    pub frames: u16,
    /// Header +4..+0xC: the offsets of blocks 2-5.
    pub offs: [u16; 4],
}

impl Curves {
    /// Curves decoded already.
    pub fn ready(curves: Vec<Curve>) -> Self {
        Curves(Lazy { count: curves.len(), source: None, decoded: OnceLock::from(curves) })
    }

    /// `count` curves of a sequence whose bytes the open's scan passed.
    pub(super) fn lazy(count: usize, source: Source) -> Self {
        Curves(Lazy { count, source: Some(source), decoded: OnceLock::new() })
    }

    /// The number of curves, without decoding them.
    pub fn count(&self) -> usize {
        self.0.count
    }

    /// True once the keys are decoded (they are on first use).
    pub fn is_decoded(&self) -> bool {
        self.0.decoded.get().is_some()
    }
}

impl Source {
    /// The full decode of the sequence (the one `read_block` runs when the scan fails). The open's scan passed on
    /// these bytes, and the scan passes only where this decode succeeds (the hostile tests
    /// hold both to the same errors), so the empty list of an error is never returned.
    fn decode(&self) -> Vec<Curve> {
        let region = Reader::new(&self.file[..], Endian::Little).sub(self.start, self.end.saturating_sub(self.start));
        match region.and_then(|r| parse_curves(&r, self.frames, self.offs)) {
            Ok(m) => m.curves.take(),
            Err(e) => {
                debug_assert!(false, "a sequence the scan passed failed to decode: {e}");
                Vec::new()
            }
        }
    }
}

impl Curves {
    /// The decoded list, moved out.
    fn take(self) -> Vec<Curve> {
        self.0.decoded.into_inner().unwrap_or_default()
    }
}

impl std::ops::Deref for Curves {
    type Target = [Curve];
    fn deref(&self) -> &[Curve] {
        self.0.decoded.get_or_init(|| self.0.source.as_ref().map(Source::decode).unwrap_or_default())
    }
}

impl std::fmt::Debug for Curves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
