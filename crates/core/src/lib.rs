//! boneyard-core: what every game family shares.
//!
//! * [`reader`]: a bounds-checked byte reader (endianness, offsets, limits) and a writer for encoders.
//! * [`limits`]: the caller's resource limits ([`Limits`]), named in the errors they raise, and
//!   work budgets ([`Budget`]).
//! * [`error`]: the one error type of the libraries: file, byte offset, what was expected.
//! * [`model`]: skeletons, rest transforms, meshes (rigid or skinned).
//! * [`fk`]: forward kinematics to world matrices.
//! * [`ieee`]: glam's square-root functions with the processor's square root (the same bits).
//! * [`document`]: what a family hands out after reading files: skeletons, animations sampled by
//!   the family's own engine numerics, engine-exact poses, check lines.
//! * [`family`]: the registry interface: probe a file, open it, write clips back.
//! * [`clip`]: a clip to write back into a game's format ([`Family::import_clips`]).
//! * [`memory`]: an in-memory document of baked poses (built-in sample data, tests).
//! * [`scaled`]: a document seen at another scale (`export --scale`).
//! * [`text`]: numbers written into names without the formatting machinery.
#![deny(missing_docs)]

pub mod check;
pub mod clip;
pub mod demo;
pub mod document;
pub mod error;
pub mod family;
pub mod fk;
pub mod ieee;
pub mod limits;
pub mod memory;
pub mod model;
pub mod reader;
pub mod scaled;
pub mod testdata;
pub mod text;
pub mod writer;

pub use clip::{Clip, ImportOptions, Imported, ImportedAnim, ImportedFile};
pub use document::{AnimInfo, Channel, Document, FileSummary, Interpolation, Sample, SkeletonInfo, Warning};
pub use error::{Error, ErrorKind, Result};
pub use family::{
    best_family, Companions, DiskCompanions, Family, InputFile, MemoryCompanions, NoCompanions, OpenOptions, Score,
    PROBE_HEAD, PROBE_WHOLE_MAX,
};
pub use glam;
pub use limits::{Budget, Limit, LimitError, Limits};
pub use model::{Bone, Mesh, MeshBinding, Skeleton, Transform};
pub use reader::{Endian, Reader};
pub use writer::Writer;
