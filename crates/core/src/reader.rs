//! A bounds-checked cursor over `&[u8]`.
//!
//! Every read checks the remaining length and returns an [`Error`] naming the absolute byte
//! offset. Counts read from a file go through [`Reader::check_count`], which checks them against a
//! limit *and* against the bytes that could possibly hold them, so hostile input can never
//! make us allocate without bound.

use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limit;

/// Byte order of multi-byte values (Oni is little-endian; Zelda 64 and Shenmue's Dreamcast
/// files are read in the order their headers say).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endian {
    /// Least significant byte first (x86, the Dreamcast's SH-4).
    Little,
    /// Most significant byte first (the N64's MIPS).
    Big,
}

/// A bounds-checked cursor over a file's bytes: every read checks what is left and an error
/// names the absolute byte offset of the bytes it could not read.
///
/// ```
/// use boneyard_core::{Endian, Reader};
///
/// // A 6-byte big-endian record: a u16 count, then a u32 offset.
/// let bytes = [0x00, 0x02, 0x00, 0x00, 0x01, 0x80];
/// let mut r = Reader::new(&bytes, Endian::Big);
/// assert_eq!(r.u16()?, 2);
/// assert_eq!(r.u32()?, 0x180);
///
/// // A sub-reader keeps absolute offsets: reading past its end names byte 4 of the file.
/// let mut tail = r.sub(4, 2)?;
/// let err = tail.u32().unwrap_err();
/// assert_eq!(err.offset, Some(4));
/// # Ok::<(), boneyard_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Absolute offset of `data[0]` in the file, for error messages.
    base: u64,
    endian: Endian,
}

macro_rules! read_int {
    ($name:ident, $t:ty, $n:expr) => {
        /// The next integer of this width, in the reader's byte order.
        #[inline]
        pub fn $name(&mut self) -> Result<$t> {
            let b = self.array::<$n>()?;
            Ok(match self.endian {
                Endian::Little => <$t>::from_le_bytes(b),
                Endian::Big => <$t>::from_be_bytes(b),
            })
        }
    };
}

impl<'a> Reader<'a> {
    /// A reader over the whole of `data` at position 0 (absolute offsets = positions).
    pub fn new(data: &'a [u8], endian: Endian) -> Self {
        Reader { data, pos: 0, base: 0, endian }
    }

    /// A reader over `data` positioned at `offset` (checked).
    pub fn at(data: &'a [u8], offset: usize, endian: Endian) -> Result<Self> {
        let mut r = Reader::new(data, endian);
        r.seek(offset)?;
        Ok(r)
    }

    /// The byte order values are read in.
    pub fn endian(&self) -> Endian {
        self.endian
    }
    /// Change the byte order for the reads that follow.
    pub fn set_endian(&mut self, e: Endian) {
        self.endian = e;
    }
    /// Position inside this reader's slice.
    pub fn pos(&self) -> usize {
        self.pos
    }
    /// Absolute offset in the file (for error messages).
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }
    /// Absolute file offset of this reader's first byte (non-zero for sub-readers).
    pub fn base(&self) -> u64 {
        self.base
    }
    /// Length of this reader's slice.
    pub fn len(&self) -> usize {
        self.data.len()
    }
    /// True for an empty slice.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// Bytes left after the current position.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }
    /// The whole slice (independent of the position).
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// An error at the current absolute offset.
    pub fn error(&self, msg: impl Into<String>) -> Error {
        Error::invalid(self.offset(), msg)
    }
    /// An error at an absolute offset `pos` of this reader's slice.
    pub fn error_at(&self, pos: usize, msg: impl Into<String>) -> Error {
        Error::invalid(self.base + pos as u64, msg)
    }

    /// Move to position `pos` of this slice (the end itself is allowed); past the end is an error
    /// at that absolute offset.
    pub fn seek(&mut self, pos: usize) -> Result<()> {
        if pos > self.data.len() {
            return Err(Error::at(
                self.base + pos as u64,
                ErrorKind::Invalid(format!(
                    "offset {pos:#x} is past the end of the data ({:#x} bytes)",
                    self.data.len()
                )),
            ));
        }
        self.pos = pos;
        Ok(())
    }

    /// Step over `n` bytes (an error when fewer are left).
    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.bytes(n).map(|_| ())
    }

    /// Borrow the next `n` bytes (zero-copy).
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(Error::at(
                self.offset(),
                ErrorKind::Truncated { need: n as u64, have: self.remaining() as u64 },
            ));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// The next `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let s = self.bytes(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    /// The next byte.
    #[inline]
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }
    /// The next byte as a signed value.
    #[inline]
    pub fn i8(&mut self) -> Result<i8> {
        Ok(self.u8()? as i8)
    }
    read_int!(u16, u16, 2);
    read_int!(i16, i16, 2);
    read_int!(u32, u32, 4);
    read_int!(i32, i32, 4);
    read_int!(u64, u64, 8);
    /// The next IEEE-754 single, in this reader's byte order (NaN and infinities pass through).
    #[inline]
    pub fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_bits(self.u32()?))
    }
    /// A finite f32 (rejects NaN and infinities with an error at its offset).
    pub fn f32_finite(&mut self) -> Result<f32> {
        let at = self.offset();
        let v = self.f32()?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(Error::invalid(at, format!("float is not finite ({v})")))
        }
    }
    /// Three f32s (x, y, z).
    pub fn vec3(&mut self) -> Result<[f32; 3]> {
        Ok([self.f32()?, self.f32()?, self.f32()?])
    }
    /// `n` u32s into a vector of that length. When all `4 n` bytes are there they are checked
    /// once and converted in one pass (one allocation, no per-element check); otherwise the
    /// elements are read one by one, so the error is the one that walk meets, at the same
    /// offset.
    pub fn u32_vec(&mut self, n: usize) -> Result<Vec<u32>> {
        match n.checked_mul(4).filter(|&len| len <= self.remaining()) {
            Some(len) => {
                let endian = self.endian;
                let b = self.bytes(len)?;
                Ok(b.chunks_exact(4).map(|c| word(endian, [c[0], c[1], c[2], c[3]])).collect())
            }
            None => (0..n).map(|_| self.u32()).collect(),
        }
    }

    /// `n` groups of `N` f32s (points, normals, texture coordinates), each made into a `T` by
    /// `make`, into a vector of length `n`: checked once as [`Reader::u32_vec`] is, with the
    /// same error as reading them one float at a time when they are not all there. NaN and
    /// infinities pass through, as [`Reader::f32`]'s do.
    pub fn f32_groups<const N: usize, T>(&mut self, n: usize, mut make: impl FnMut([f32; N]) -> T) -> Result<Vec<T>> {
        match n.checked_mul(4 * N).filter(|&len| len <= self.remaining()) {
            Some(len) if N > 0 => {
                let endian = self.endian;
                let b = self.bytes(len)?;
                Ok(b.chunks_exact(4 * N)
                    .map(|g| {
                        make(std::array::from_fn(|k| {
                            f32::from_bits(word(endian, [g[4 * k], g[4 * k + 1], g[4 * k + 2], g[4 * k + 3]]))
                        }))
                    })
                    .collect())
            }
            _ => (0..n)
                .map(|_| {
                    let mut g = [0f32; N];
                    for c in g.iter_mut() {
                        *c = self.f32()?;
                    }
                    Ok(make(g))
                })
                .collect(),
        }
    }

    /// A fixed-size, NUL-padded ASCII name.
    pub fn name(&mut self, n: usize) -> Result<String> {
        Ok(cstr(self.bytes(n)?))
    }

    /// A sub-reader over `len` bytes at `pos` of this reader's slice, keeping absolute offsets.
    pub fn sub(&self, pos: usize, len: usize) -> Result<Reader<'a>> {
        let end = pos.checked_add(len).filter(|&e| e <= self.data.len()).ok_or_else(|| {
            Error::at(
                self.base + pos as u64,
                ErrorKind::Truncated { need: len as u64, have: self.data.len().saturating_sub(pos) as u64 },
            )
        })?;
        Ok(Reader { data: &self.data[pos..end], pos: 0, base: self.base + pos as u64, endian: self.endian })
    }

    /// A sub-reader from `pos` to the end.
    pub fn tail(&self, pos: usize) -> Result<Reader<'a>> {
        let len = self.data.len().checked_sub(pos).ok_or_else(|| self.error_at(pos, "offset past the end"))?;
        self.sub(pos, len)
    }

    /// Read a count and check it: `count <= limit` (an error naming the limit, see
    /// [`crate::limit!`]) and `count * elem_size` bytes fit in what is left (`elem_size` may be
    /// 0 when the elements live elsewhere).
    pub fn check_count(&self, count: u64, elem_size: usize, limit: Limit, what: &str) -> Result<usize> {
        limit.check(count, self.offset(), what)?;
        let need = count.saturating_mul(elem_size as u64);
        if need > self.remaining() as u64 {
            return Err(Error::at(self.offset(), ErrorKind::Truncated { need, have: self.remaining() as u64 }));
        }
        Ok(count as usize)
    }
}

/// A 4-byte word in `endian` order.
#[inline]
fn word(endian: Endian, b: [u8; 4]) -> u32 {
    match endian {
        Endian::Little => u32::from_le_bytes(b),
        Endian::Big => u32::from_be_bytes(b),
    }
}

/// NUL-terminated ASCII from a fixed-size field; non-printable bytes become '?'.
pub fn cstr(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    // Bytes, then one check of them (all printable ASCII by construction), rather than a
    // char pushed at a time: names are read for every instance of a level.
    let ascii: Vec<u8> = b[..end].iter().map(|&c| if (0x20..0x7f).contains(&c) { c } else { b'?' }).collect();
    String::from_utf8(ascii).unwrap_or_default()
}

/// A checked sub-slice `data[off..off+len]` with an error naming `off`.
pub fn slice(data: &[u8], off: usize, len: usize) -> Result<&[u8]> {
    off.checked_add(len).and_then(|end| data.get(off..end)).ok_or_else(|| {
        Error::at(off as u64, ErrorKind::Truncated { need: len as u64, have: data.len().saturating_sub(off) as u64 })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endianness_and_offsets() {
        let d = [0x12, 0x34, 0x56, 0x78, 0x9a];
        let mut le = Reader::new(&d, Endian::Little);
        assert_eq!(le.u16().unwrap(), 0x3412);
        let mut be = Reader::new(&d, Endian::Big);
        assert_eq!(be.u32().unwrap(), 0x12345678);
        let e = be.u16().unwrap_err();
        assert_eq!(e.offset, Some(4));
        assert_eq!(e.kind, ErrorKind::Truncated { need: 2, have: 1 });
    }

    #[test]
    fn bulk_reads_are_the_element_reads() {
        // Every length 0..40 of pseudo-random bytes (NaN bit patterns included), at a few
        // starting offsets, both byte orders, for element counts that fit and that do not:
        // the same values, the same error at the same offset, the reader at the same place.
        let mut rng = crate::testdata::XorShift64(0x9E37_79B9_7F4A_7C15);
        let bytes: Vec<u8> = (0..40).map(|_| (rng.next_u64() >> 24) as u8).collect();
        for endian in [Endian::Little, Endian::Big] {
            for len in 0..bytes.len() {
                for start in 0..3.min(len + 1) {
                    for n in 0..12 {
                        let r = Reader::new(&bytes[..len], endian).tail(start).unwrap();
                        let (mut bulk, mut one) = (r.clone(), r.clone());
                        let want: Result<Vec<u32>> = (0..n).map(|_| one.u32()).collect();
                        assert_eq!(bulk.u32_vec(n), want, "u32 {endian:?} {len} {start} {n}");
                        assert_eq!((bulk.pos(), bulk.offset()), (one.pos(), one.offset()));
                        let (mut bulk, mut one) = (r.clone(), r.clone());
                        let bits = |g: [f32; 3]| g.map(f32::to_bits);
                        let want: Result<Vec<[u32; 3]>> =
                            (0..n).map(|_| Ok(bits([one.f32()?, one.f32()?, one.f32()?]))).collect();
                        assert_eq!(bulk.f32_groups(n, bits), want, "f32x3 {endian:?} {len} {start} {n}");
                        assert_eq!(bulk.pos(), one.pos());
                    }
                }
            }
        }
    }

    #[test]
    fn sub_reader_keeps_absolute_offsets() {
        let d = [0u8; 16];
        let r = Reader::new(&d, Endian::Big);
        let mut s = r.sub(10, 4).unwrap();
        s.u32().unwrap();
        assert_eq!(s.u8().unwrap_err().offset, Some(14));
        assert!(r.sub(10, 7).is_err());
        assert!(r.sub(usize::MAX, 2).is_err());
    }

    #[test]
    fn counts_are_bounded_by_data_and_limit() {
        let d = [0u8; 8];
        let r = Reader::new(&d, Endian::Little);
        let ten = Limit::new("max_count", 10);
        assert_eq!(r.check_count(2, 4, ten, "x").unwrap(), 2);
        assert!(r.check_count(3, 4, ten, "x").is_err());
        let e = r.check_count(11, 0, ten, "x").unwrap_err();
        assert_eq!(e.limit_name(), Some("max_count"));
        assert!(r.check_count(u64::MAX, usize::MAX, Limit::new("max_count", u64::MAX), "x").is_err());
    }

    #[test]
    fn cstr_stops_at_nul() {
        assert_eq!(cstr(b"TRAMabc\0zz"), "TRAMabc");
        assert_eq!(cstr(b"a\x01b"), "a?b");
        // Every byte: printable ASCII kept, anything else a '?'.
        let all: Vec<u8> = (1..=255).collect();
        let want: String = all.iter().map(|&c| if (0x20..0x7f).contains(&c) { c as char } else { '?' }).collect();
        assert_eq!(cstr(&all), want);
    }
}
