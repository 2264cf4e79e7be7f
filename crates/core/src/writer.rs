//! A small byte writer for the families' encoders (fixtures, the demo).

use crate::reader::Endian;

/// A growing byte buffer with one byte order, the mirror of [`crate::Reader`].
#[derive(Debug, Clone)]
pub struct Writer {
    /// The bytes written so far.
    pub buf: Vec<u8>,
    endian: Endian,
}

impl Writer {
    /// An empty writer in byte order `endian`.
    pub fn new(endian: Endian) -> Self {
        Writer { buf: Vec::new(), endian }
    }
    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }
    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
    /// Append raw bytes.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }
    /// Append `n` zero bytes.
    pub fn zeros(&mut self, n: usize) -> &mut Self {
        self.buf.resize(self.buf.len() + n, 0);
        self
    }
    /// Pad with zeros to a multiple of `align`.
    pub fn align(&mut self, align: usize) -> &mut Self {
        while !self.buf.len().is_multiple_of(align) {
            self.buf.push(0);
        }
        self
    }
    /// Append a byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }
    /// Append a signed byte.
    pub fn i8(&mut self, v: i8) -> &mut Self {
        self.buf.push(v as u8);
        self
    }
    /// Append a u16 in the writer's byte order.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        self.bytes(&b)
    }
    /// Append an i16 in the writer's byte order.
    pub fn i16(&mut self, v: i16) -> &mut Self {
        self.u16(v as u16)
    }
    /// Append a u32 in the writer's byte order.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        self.bytes(&b)
    }
    /// Append an i32 in the writer's byte order.
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.u32(v as u32)
    }
    /// Append an IEEE-754 single in the writer's byte order.
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.u32(v.to_bits())
    }
    /// A fixed-size NUL-padded name (truncated to `n - 1` bytes).
    pub fn name(&mut self, s: &str, n: usize) -> &mut Self {
        let b = s.as_bytes();
        let k = b.len().min(n.saturating_sub(1));
        self.bytes(&b[..k]);
        self.zeros(n - k)
    }
    /// Overwrite a u32 written earlier (offsets known only later).
    pub fn patch_u32(&mut self, at: usize, v: u32) {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        self.buf[at..at + 4].copy_from_slice(&b);
    }
    /// Overwrite a u16 written earlier (counts known only later).
    pub fn patch_u16(&mut self, at: usize, v: u16) {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        self.buf[at..at + 2].copy_from_slice(&b);
    }
}
