//! Resource limits: how much of anything a hostile or broken file may make boneyard read,
//! hold or compute, in one place, passed in by the caller ([`crate::OpenOptions::limits`]).
//!
//! Every field is a *resource* limit (a bound chosen by boneyard to stay safe on hostile
//! input), never a fact of a format: the 32 body parts of an Oni TRAM, Zelda 64's 255 limbs or
//! an encoder's 0x7FFF frames stay constants beside the code that reads them. The defaults are
//! the values boneyard has always used; the real game files are far inside all of them.
//!
//! Hitting a limit is an [`ErrorKind::Limit`] naming the field, so a user knows what to raise:
//!
//! ```
//! use boneyard_core::{limit, Limits, ErrorKind, Reader, Endian};
//!
//! // A library user raises (or lowers) one limit and keeps the others:
//! let limits = Limits { max_sequences: 2, ..Limits::default() };
//! let bytes = [0u8; 64];
//! let r = Reader::new(&bytes, Endian::Little);
//! let err = r.check_count(3, 4, limit!(limits, max_sequences), "sequences").unwrap_err();
//! assert!(matches!(err.kind, ErrorKind::Limit(ref l) if l.limit == "max_sequences"));
//! assert_eq!(err.to_string(), "at byte offset 0 (0x0): limit `max_sequences` (2) exceeded: 3 sequences");
//! ```
//!
//! Work budgets (how much decoding a scan or a `check` may do in all) are spent through a
//! [`Budget`]; caps on lists of warnings cut the list with a last warning naming the limit
//! ([`Limit::cut_note`]).

use crate::error::{Error, ErrorKind};

/// Resource limits, grouped by kind: counts, sizes, nesting depths, work budgets and warning
/// caps. [`Limits::default`] holds the values boneyard has always used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    // ---- counts ----
    /// Instance (and name) descriptors of one Oni instance file.
    pub max_instances: usize,
    /// Elements of one raw array of an Oni TRAM (its sounds, its attack extents).
    pub max_tram_array: usize,
    /// Bodies (ONCC/TRBS/TRCM levels of detail) an Oni document holds.
    pub max_bodies: usize,
    /// Elements of one Oni body array (points, vectors, indices, texture coordinates).
    pub max_body_elements: usize,
    /// Bytes of decoded animations (keys, frames, a fixed charge per animation) an Oni
    /// document holds; in a Zelda 64 document, the keyframe and curve keys it decodes (each
    /// distinct table once).
    pub max_animation_bytes: usize,
    /// Vertices and indices all the bodies of an Oni document hold together (and the
    /// geometries of one TRCM).
    pub max_body_vertices: usize,
    /// Entries the character classes' TRACs of an Oni document list in all (parents included).
    pub max_trac_entries: usize,
    /// Sequences of one Shenmue MOTN file.
    pub max_sequences: usize,
    /// Frames the sequences of one Shenmue MOTN file hold together.
    pub max_total_frames: u64,
    /// Animations (MOTN table entries) all the Shenmue motion files of a document name together.
    pub max_motion_names: usize,
    /// Nodes of one Shenmue MT5 model.
    pub max_nodes: usize,
    /// Vertices of one Shenmue MT5 mesh.
    pub max_vertices: usize,
    /// Vertices one Shenmue MT5 model holds in all its meshes.
    pub max_model_vertices: usize,
    /// Strip opcodes of one Shenmue MT5 model.
    pub max_strip_ops: usize,
    /// Nodes of the TEXD texture list of one Shenmue MT5 model.
    pub max_texd_nodes: usize,
    /// Entries of one archive (Shenmue's IPAC/AFS).
    pub max_entries: usize,
    /// Entries all the (nested) archives of one Shenmue input hold together.
    pub max_total_entries: usize,
    /// Skeletons a Zelda 64 document may find.
    pub max_skeletons: usize,
    /// Animations a Zelda 64 document may find.
    pub max_animations: usize,
    /// Commands one Zelda 64 display list may run before it is taken for a loop.
    pub max_dlist_commands: usize,
    /// Textures (with their materials) one Zelda 64 limb's meshes use; the triangles past them
    /// are left out, with a warning naming the limit.
    pub max_limb_textures: usize,
    /// Entries of a Zelda 64 ROM's DMA file table (dmadata) read.
    pub max_rom_entries: usize,

    // ---- sizes ----
    /// Bytes one gzip stream (Shenmue) inflates to.
    pub max_inflated_bytes: u64,
    /// Bytes of archive entries one Shenmue input may examine in all (nested archives included).
    pub max_examined_bytes: u64,
    /// Bytes of models and motions one Shenmue input may parse in all.
    pub max_parsed_bytes: u64,
    /// Texels all the textures of a Zelda 64 document may decode together.
    pub max_document_texels: usize,
    /// Texels of one Zelda 64 texture decoded.
    pub max_texture_texels: usize,
    /// Bytes one Zelda 64 ROM file (one DMA entry) decompresses to.
    pub max_rom_file_bytes: usize,
    /// Bytes all the files of one Zelda 64 ROM decompress to together (entries may share one
    /// compressed range).
    pub max_rom_bytes: usize,
    /// Bytes one Yaz0 stream (a Zelda 64 object file given compressed) decompresses to.
    pub max_yaz0_bytes: usize,
    /// Bytes of one Shenmue action metadata block decoded (the records past them are not,
    /// with a warning naming the limit).
    pub max_action_bytes: usize,

    // ---- nesting depth ----
    /// Depth of nested Zelda 64 display-list calls (`G_DL` that pushes).
    pub max_dlist_depth: usize,
    /// Depth of an Oni TRAC's parent chain.
    pub max_trac_depth: usize,
    /// Depth of Shenmue containers nested in each other (gzip in AFS in IPAC...).
    pub max_container_nesting: usize,

    // ---- work budgets ----
    /// Skeleton tries a Zelda 64 scan may make over all the files of a document.
    pub max_scan_work: usize,
    /// Limb-table words a Zelda 64 scan may read looking for legacy skeletons.
    pub max_legacy_table_reads: usize,
    /// Display-list commands all the skeletons of a Zelda 64 document may run together.
    pub max_document_commands: usize,
    /// Skin vertex and transformation entries a Zelda 64 document may read together.
    pub max_skin_entries: usize,
    /// Joint values Zelda 64's `check` may sample.
    pub max_check_joints: usize,
    /// Rotations Oni's `check` may decode.
    pub max_check_rotations: u64,
    /// Channel values Shenmue's `check` may sample.
    pub max_check_work: u64,

    // ---- warning caps (past them the list is cut, with a warning naming the limit) ----
    /// Warnings one Zelda 64 document lists.
    pub max_warnings: usize,
    /// Warnings one Oni document lists.
    pub max_oni_warnings: usize,
    /// Notes one Zelda 64 skeleton's meshes give (after merging the ones that say the same).
    pub max_skeleton_notes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_instances: 1 << 20,
            max_tram_array: 1 << 16,
            max_bodies: 1 << 12,
            max_body_elements: 1 << 20,
            max_animation_bytes: 1 << 28,
            max_body_vertices: 1 << 24,
            max_trac_entries: 1 << 21,
            max_sequences: 0x4000,
            max_total_frames: 1 << 21,
            max_motion_names: 1 << 17,
            max_nodes: 4096,
            max_vertices: 1 << 16,
            max_model_vertices: 1 << 22,
            max_strip_ops: 1 << 20,
            max_texd_nodes: 1 << 16,
            max_entries: 1 << 16,
            max_total_entries: 1 << 18,
            max_skeletons: 8192,
            max_animations: 65536,
            max_dlist_commands: 1 << 16,
            max_limb_textures: 64,
            max_rom_entries: 4096,

            max_inflated_bytes: 256 << 20,
            max_examined_bytes: 1 << 30,
            max_parsed_bytes: 1 << 26,
            max_document_texels: 1 << 24,
            max_texture_texels: 256 * 256,
            max_rom_file_bytes: 64 << 20,
            max_rom_bytes: 128 << 20,
            max_yaz0_bytes: 64 << 20,
            max_action_bytes: 4096,

            max_dlist_depth: 10,
            max_trac_depth: 16,
            max_container_nesting: 4,

            max_scan_work: 1 << 24,
            max_legacy_table_reads: 1 << 24,
            max_document_commands: 1 << 21,
            max_skin_entries: 1 << 22,
            max_check_joints: 1 << 25,
            max_check_rotations: 1 << 26,
            max_check_work: 1 << 24,

            max_warnings: 10_000,
            max_oni_warnings: 1000,
            max_skeleton_notes: 32,
        }
    }
}

/// One limit: the name of its [`Limits`] field and its value. Made with [`limit!`](crate::limit)
/// so the name is the field's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The [`Limits`] field (`"max_sequences"`).
    pub name: &'static str,
    /// Its value.
    pub max: u64,
}

/// `limit!(limits, max_sequences)`: the [`Limit`] of that field of a [`Limits`], named by it.
#[macro_export]
macro_rules! limit {
    ($limits:expr, $field:ident) => {
        $crate::Limit::new(stringify!($field), ($limits).$field as u64)
    };
}

impl Limit {
    /// A limit named `name` (a [`Limits`] field, or a constant of a crate for limits that are
    /// not options) of value `max`.
    pub const fn new(name: &'static str, max: u64) -> Self {
        Limit { name, max }
    }
    /// The limit's value as a `usize` (saturating on 32-bit targets).
    pub fn as_usize(self) -> usize {
        usize::try_from(self.max).unwrap_or(usize::MAX)
    }
    /// The error for `found` `what` (e.g. 20000 "sequences") against this limit, at `offset`.
    pub fn error(self, offset: u64, found: u64, what: impl Into<String>) -> Error {
        Error::at(offset, self.kind(found, what))
    }
    /// [`Limit::error`] without an offset (a total over a whole document).
    pub fn error_here(self, found: u64, what: impl Into<String>) -> Error {
        Error::new(self.kind(found, what))
    }
    fn kind(self, found: u64, what: impl Into<String>) -> ErrorKind {
        ErrorKind::Limit(LimitError { limit: self.name, max: self.max, found, what: what.into() })
    }
    /// `Ok` when `found <= max`, else [`Limit::error`] at `offset`.
    pub fn check(self, found: u64, offset: u64, what: &str) -> Result<(), Error> {
        if found > self.max {
            Err(self.error(offset, found, what))
        } else {
            Ok(())
        }
    }
    /// The text of the last warning of a list cut at this limit.
    pub fn cut_note(self, left_out: usize) -> String {
        format!("{left_out} more warnings were left out (limit `{}` ({}) reached)", self.name, self.max)
    }
}

/// A limit was exceeded: which one, its value and what was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("limit `{limit}` ({max}) exceeded: {found} {what}")]
pub struct LimitError {
    /// The [`Limits`] field (or constant) exceeded.
    pub limit: &'static str,
    /// Its value.
    pub max: u64,
    /// How much was found (or asked for).
    pub found: u64,
    /// Of what ("sequences", "rotations to decode").
    pub what: String,
}

/// A work budget: an amount of some work (decoding, scanning) spent as it is done; spending
/// past it is an error naming its limit.
///
/// ```
/// use boneyard_core::{limit, Budget, Limits};
/// let limits = Limits { max_check_work: 10, ..Limits::default() };
/// let mut work = Budget::new(limit!(limits, max_check_work), "channel values to sample");
/// work.spend(6).unwrap();
/// let err = work.spend(6).unwrap_err();
/// assert_eq!(err.to_string(), "limit `max_check_work` (10) exceeded: 12 channel values to sample");
/// assert_eq!(work.left(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct Budget {
    limit: Limit,
    what: &'static str,
    spent: u64,
    /// A spend was refused (or went past the limit): what was done after it may depend on
    /// how much was left, not only on what was spent.
    refused: bool,
}

impl Budget {
    /// A budget of `limit` units of `what` ("skeleton tries"), none spent.
    pub fn new(limit: Limit, what: &'static str) -> Self {
        Budget { limit, what, spent: 0, refused: false }
    }
    /// Spend `n` units; past the limit an error naming it (the budget is then used up).
    pub fn spend(&mut self, n: u64) -> Result<(), Error> {
        self.spent = self.spent.saturating_add(n);
        if self.spent > self.limit.max {
            self.refused = true;
            return Err(self.limit.error_here(self.spent, self.what));
        }
        Ok(())
    }
    /// Spend `n` units if that many are left (true), else spend nothing (false): for work
    /// that is cut with a warning rather than refused.
    pub fn try_spend(&mut self, n: u64) -> bool {
        if n > self.left() {
            self.refused = true;
            return false;
        }
        self.spent += n;
        true
    }
    /// Units left (0 once spent past the limit).
    pub fn left(&self) -> u64 {
        self.limit.max.saturating_sub(self.spent)
    }
    /// Units spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }
    /// Whether a spend was ever refused or went past the limit.
    pub fn refused(&self) -> bool {
        self.refused
    }
    /// What `fork` (a copy of this budget made when it had spent `base`, used for a piece of
    /// work done apart, e.g. on another thread) spent since, when that work ran exactly as it
    /// would have with this budget as it is now: the fork refused nothing and spent less than
    /// this one has left, so every spend and every test of what is left gave the same answer.
    /// None: do the work again with this budget (work done on several threads, charged in
    /// order, cuts where it would have in order).
    pub fn spent_by_fork(&self, fork: &Budget, base: u64) -> Option<u64> {
        let spent = fork.spent.saturating_sub(base);
        (!fork.refused && spent < self.left()).then_some(spent)
    }
    /// The limit this budget spends.
    pub fn limit(&self) -> Limit {
        self.limit
    }
    /// The error for this budget being used up (for work cut where spending was refused).
    pub fn exhausted(&self, offset: Option<u64>) -> Error {
        let found = self.spent.max(self.limit.max.saturating_add(1));
        let mut e = self.limit.error_here(found, self.what);
        e.offset = offset;
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_says_whether_it_ever_refused_a_spend() {
        let mut b = Budget::new(Limit::new("max_test", 10), "units");
        assert!(b.try_spend(10) && !b.refused(), "spending all of it refuses nothing");
        assert!(!b.try_spend(1) && b.refused(), "one more is refused, and said");
        assert_eq!(b.spent(), 10);
        let mut b = Budget::new(Limit::new("max_test", 10), "units");
        assert!(b.spend(11).is_err() && b.refused(), "a spend past the limit is an error, and said");
        // A copy carries it (a fork made after a refusal is never taken as the same run).
        assert!(b.clone().refused());
    }

    #[test]
    fn a_fork_stands_for_the_budget_only_when_it_refused_nothing_and_fits_what_is_left() {
        let mut b = Budget::new(Limit::new("max_test", 10), "units");
        b.try_spend(3);
        let mut fork = b.clone();
        fork.try_spend(4);
        assert_eq!(b.spent_by_fork(&fork, 3), Some(4));
        b.try_spend(3);
        // 4 left: a fork that spent 4 might have met a test of what is left that the budget fails.
        assert_eq!(b.spent_by_fork(&fork, 3), None);
        let mut refused = Budget::new(Limit::new("max_test", 10), "units");
        assert!(!refused.try_spend(11));
        assert_eq!(Budget::new(Limit::new("max_test", 100), "units").spent_by_fork(&refused, 0), None);
    }

    #[test]
    fn limit_macro_names_the_field() {
        let l = Limits::default();
        let lim = limit!(l, max_dlist_depth);
        assert_eq!(lim, Limit::new("max_dlist_depth", 10));
        assert!(lim.check(10, 0, "calls").is_ok());
        let e = lim.check(11, 0x40, "nested display-list calls").unwrap_err();
        assert_eq!(e.offset, Some(0x40));
        assert_eq!(e.kind.to_string(), "limit `max_dlist_depth` (10) exceeded: 11 nested display-list calls");
    }

    #[test]
    fn budget_try_spend_keeps_what_is_left() {
        let mut b = Budget::new(Limit::new("max_scan_work", 5), "tries");
        assert!(b.try_spend(3));
        assert!(!b.try_spend(3));
        assert_eq!(b.left(), 2);
        assert!(b.try_spend(2));
        assert_eq!(
            b.exhausted(Some(7)).to_string(),
            "at byte offset 7 (0x7): limit `max_scan_work` (5) exceeded: 6 tries"
        );
    }
}
