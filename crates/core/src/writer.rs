//! A small byte writer for the families' encoders (fixtures, the demo).

use crate::reader::Endian;

#[derive(Debug, Clone)]
pub struct Writer {
    pub buf: Vec<u8>,
    endian: Endian,
}

impl Writer {
    pub fn new(endian: Endian) -> Self {
        Writer { buf: Vec::new(), endian }
    }
    pub fn len(&self) -> usize {
        self.buf.len()
    }
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }
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
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }
    pub fn i8(&mut self, v: i8) -> &mut Self {
        self.buf.push(v as u8);
        self
    }
    pub fn u16(&mut self, v: u16) -> &mut Self {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        self.bytes(&b)
    }
    pub fn i16(&mut self, v: i16) -> &mut Self {
        self.u16(v as u16)
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        self.bytes(&b)
    }
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.u32(v as u32)
    }
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
    pub fn patch_u16(&mut self, at: usize, v: u16) {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        self.buf[at..at + 2].copy_from_slice(&b);
    }
}
