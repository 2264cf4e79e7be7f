//! The libraries' error type. Every error can name the file and the byte offset it concerns,
//! so a user can open a hex editor at the right place.

use std::fmt;

/// The libraries' result type, with [`Error`] as its default error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong, without the "where".
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ErrorKind {
    /// The data ended before a read of `need` bytes could complete.
    #[error("unexpected end of data: needed {need} bytes, {have} left")]
    Truncated {
        /// Bytes the read asked for.
        need: u64,
        /// Bytes that were left.
        have: u64,
    },
    /// The bytes are there but do not make sense for the format.
    #[error("{0}")]
    Invalid(String),
    /// A count, size, depth or amount of work is over one of the caller's
    /// [`Limits`](crate::Limits) (protects against hostile input); names the limit.
    #[error("{0}")]
    Limit(crate::limits::LimitError),
    /// A value does not fit the format being written or exported (an encoder's u16 offsets,
    /// glTF's u32 lengths): a fact of the format, not a limit the caller can raise.
    #[error("too large for the format: {0}")]
    Ceiling(String),
    /// The data is well-formed but uses a variant boneyard does not read (yet).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Something the user asked for does not exist (an animation name, a skeleton id).
    #[error("{0}")]
    NotFound(String),
    /// The operating system refused a read or write.
    #[error("{0}")]
    Io(String),
}

/// An error with its location.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// The file concerned, when known (inner layers name the most precise one).
    pub file: Option<String>,
    /// Absolute byte offset, in `file`, of the offending bytes.
    pub offset: Option<u64>,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl Error {
    /// An error with neither file nor offset.
    pub fn new(kind: ErrorKind) -> Self {
        Error { file: None, offset: None, kind }
    }
    /// An error at a byte offset (the file is added later with [`Error::in_file`]).
    pub fn at(offset: u64, kind: ErrorKind) -> Self {
        Error { file: None, offset: Some(offset), kind }
    }
    /// Input that makes no sense where no byte can be pointed at ([`ErrorKind::Invalid`] with
    /// no offset): a clip of a glTF, two clips of one name, a choice the files cannot honour.
    /// (An offset 0 there read as "the file's first byte", which it never was.)
    pub fn unplaced(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Invalid(msg.into()))
    }
    /// Bytes at `offset` that make no sense for the format ([`ErrorKind::Invalid`]).
    pub fn invalid(offset: u64, msg: impl Into<String>) -> Self {
        Self::at(offset, ErrorKind::Invalid(msg.into()))
    }
    /// A value at `offset` that does not fit the format ([`ErrorKind::Ceiling`]); for a limit
    /// of [`Limits`](crate::Limits) use [`Limit::error`](crate::Limit::error).
    pub fn ceiling(offset: u64, msg: impl Into<String>) -> Self {
        Self::at(offset, ErrorKind::Ceiling(msg.into()))
    }
    /// The limit this error reports exceeded, if it is an [`ErrorKind::Limit`].
    pub fn limit_name(&self) -> Option<&'static str> {
        match &self.kind {
            ErrorKind::Limit(l) => Some(l.limit),
            _ => None,
        }
    }
    /// Set the byte offset when no inner layer has (a budget spent over a whole file).
    pub fn or_at(mut self, offset: u64) -> Self {
        self.offset.get_or_insert(offset);
        self
    }
    /// A well-formed variant boneyard does not read ([`ErrorKind::Unsupported`]).
    pub fn unsupported(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported(msg.into()))
    }
    /// Something the user asked for is not there ([`ErrorKind::NotFound`]; a usage error).
    pub fn not_found(msg: impl Into<String>) -> Self {
        Self::new(ErrorKind::NotFound(msg.into()))
    }
    /// The operating system refused to read or write `path`.
    pub fn io(path: &std::path::Path, e: std::io::Error) -> Self {
        Error { file: Some(path.display().to_string()), offset: None, kind: ErrorKind::Io(e.to_string()) }
    }
    /// Attach the file name, unless an inner layer already named a more precise one.
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        if self.file.is_none() {
            self.file = Some(file.into());
        }
        self
    }
    /// Shift a slice-relative offset to a file offset (for sub-readers over a part of a file).
    pub fn shifted(mut self, base: u64) -> Self {
        if let Some(o) = self.offset.as_mut() {
            *o += base;
        }
        self
    }
    /// True when the user asked for something that is not there (usage error, exit 2).
    pub fn is_not_found(&self) -> bool {
        matches!(self.kind, ErrorKind::NotFound(_))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.offset) {
            (Some(file), Some(off)) => write!(f, "{file}: at byte offset {off} (0x{off:x}): {}", self.kind),
            (Some(file), None) => write!(f, "{file}: {}", self.kind),
            (None, Some(off)) => write!(f, "at byte offset {off} (0x{off:x}): {}", self.kind),
            (None, None) => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for Error {}

/// `result.in_file(path)` for any result.
pub trait ResultExt<T> {
    /// Attach the file name to the error, unless an inner layer already named one.
    fn in_file(self, file: &str) -> Result<T>;
}

impl<T> ResultExt<T> for Result<T> {
    fn in_file(self, file: &str) -> Result<T> {
        self.map_err(|e| e.in_file(file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_file_and_offset() {
        let e = Error::invalid(0x2c, "bad key size 5").in_file("a.oni");
        assert_eq!(e.to_string(), "a.oni: at byte offset 44 (0x2c): bad key size 5");
        // An inner, more precise file name wins.
        let e = e.in_file("outer.dat");
        assert_eq!(e.file.as_deref(), Some("a.oni"));
    }
}
