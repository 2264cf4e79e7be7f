//! Yaz0 (the compression of OoT/MM ROM files, boot/yaz0.c), decoded with our own code.
//!
//! Stream: "Yaz0", u32 decompressed size, 8 reserved bytes, then groups of one control byte
//! (most significant bit first): bit 1 = copy one literal byte; bit 0 = a back-reference of
//! two bytes `b0 b1` (`dist = ((b0 & 0xF) << 8 | b1) + 1`, `len = (b0 >> 4) + 2`) or, when
//! `b0 >> 4 == 0`, three bytes with `len = b2 + 0x12`. Copies are byte by byte, so they may
//! overlap what they produce. A stream that ends early, refers before the start of the output
//! or produces more than it announced is an error (with the byte offset in the stream).

use boneyard_core::{limit, Error, ErrorKind, Limit, Limits, Result};

/// The four magic bytes every Yaz0 stream starts with.
pub const MAGIC: &[u8; 4] = b"Yaz0";
/// Size of the header: magic, u32 decompressed size, 8 reserved bytes.
pub const HEADER_SIZE: usize = 0x10;

/// Is this a Yaz0 stream?
pub fn is_yaz0(data: &[u8]) -> bool {
    data.len() >= HEADER_SIZE && &data[..4] == MAGIC
}

/// The size the header announces, at most `max` (the caller's `Limits::max_yaz0_bytes`: the
/// largest OoT/MM file is a few MB).
pub fn declared_size(data: &[u8], max: Limit) -> Result<usize> {
    if !is_yaz0(data) {
        return Err(Error::invalid(0, "not a Yaz0 stream (no \"Yaz0\" magic)"));
    }
    let size = u32::from_be_bytes([data[4], data[5], data[6], data[7]]) as usize;
    max.check(size as u64, 4, "bytes decompressed (Yaz0)")?;
    Ok(size)
}

/// Decode a whole Yaz0 stream within the default `Limits::max_yaz0_bytes`. `expected`, when
/// given, is the size the caller knows the file has (the ROM's DMA table); a header that
/// disagrees is an error.
pub fn decode(data: &[u8], expected: Option<usize>) -> Result<Vec<u8>> {
    decode_within(data, expected, limit!(Limits::default(), max_yaz0_bytes))
}

/// [`decode`] of a stream announcing at most `max` bytes (the caller's
/// `Limits::max_yaz0_bytes`).
pub fn decode_within(data: &[u8], expected: Option<usize>, max: Limit) -> Result<Vec<u8>> {
    let size = declared_size(data, max)?;
    if let Some(e) = expected {
        if e != size {
            return Err(Error::invalid(4, format!("Yaz0 header says {size} bytes, the file table says {e}")));
        }
    }
    // A back-reference (3 bytes and a control bit) makes at most 0x111 bytes: do not reserve
    // what a lying 16-byte header announces.
    let mut out = Vec::with_capacity(size.min(data.len().saturating_mul(0x111 / 3 + 1)));
    let mut src = HEADER_SIZE;
    let truncated = |at: usize, need: u64| {
        Error::at(at as u64, ErrorKind::Truncated { need, have: data.len().saturating_sub(at) as u64 })
    };
    while out.len() < size {
        let ctrl = *data.get(src).ok_or_else(|| truncated(src, 1))?;
        src += 1;
        for bit in (0..8).rev() {
            if out.len() >= size {
                break;
            }
            if ctrl & (1 << bit) != 0 {
                let b = *data.get(src).ok_or_else(|| truncated(src, 1))?;
                src += 1;
                out.push(b);
            } else {
                let at = src;
                let b = data.get(src..src + 2).ok_or_else(|| truncated(src, 2))?;
                let (b0, b1) = (b[0] as usize, b[1] as usize);
                src += 2;
                let dist = ((b0 & 0xF) << 8 | b1) + 1;
                let len = if b0 >> 4 != 0 {
                    (b0 >> 4) + 2
                } else {
                    let b2 = *data.get(src).ok_or_else(|| truncated(src, 1))? as usize;
                    src += 1;
                    b2 + 0x12
                };
                if dist > out.len() {
                    return Err(Error::invalid(
                        at as u64,
                        format!("Yaz0 back-reference {dist} bytes back, only {} produced", out.len()),
                    ));
                }
                if out.len() + len > size {
                    return Err(Error::invalid(
                        at as u64,
                        format!("Yaz0 stream produces more than the {size} bytes its header announces"),
                    ));
                }
                let start = out.len() - dist;
                for k in 0..len {
                    let v = out[start + k];
                    out.push(v);
                }
            }
        }
    }
    Ok(out)
}

/// A small greedy Yaz0 encoder (for building test ROMs and demo data). Searches a 4 KiB
/// window; the output is valid for any decoder, not byte-identical to Nintendo's.
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 8 + HEADER_SIZE);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(&[0; 8]);
    let mut pos = 0;
    while pos < data.len() {
        let ctrl_at = out.len();
        out.push(0);
        let mut ctrl = 0u8;
        for bit in (0..8).rev() {
            if pos >= data.len() {
                break;
            }
            let (len, dist) = longest_match(data, pos);
            if len >= 3 {
                let d = dist - 1;
                if len >= 0x12 {
                    out.push((d >> 8) as u8);
                    out.push(d as u8);
                    out.push((len - 0x12) as u8);
                } else {
                    out.push((((len - 2) << 4) | (d >> 8)) as u8);
                    out.push(d as u8);
                }
                pos += len;
            } else {
                ctrl |= 1 << bit;
                out.push(data[pos]);
                pos += 1;
            }
        }
        out[ctrl_at] = ctrl;
    }
    out
}

fn longest_match(data: &[u8], pos: usize) -> (usize, usize) {
    let max_len = (data.len() - pos).min(0x111);
    let mut best = (0, 0);
    let lo = pos.saturating_sub(0x1000);
    for start in (lo..pos).rev() {
        let mut l = 0;
        while l < max_len && data[start + l] == data[pos + l] {
            l += 1;
        }
        if l > best.0 {
            best = (l, pos - start);
            if l == max_len {
                break;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream written by hand: "ab" literals, then a 2-byte back-reference (dist 2, len 5,
    /// overlapping), then a 3-byte one (dist 1, len 0x12).
    #[test]
    fn hand_written_stream() {
        let mut s = b"Yaz0".to_vec();
        s.extend_from_slice(&(2u32 + 5 + 0x12).to_be_bytes());
        s.extend_from_slice(&[0; 8]);
        // control: 1 1 0 0 -> 0xC0
        s.push(0xC0);
        s.extend_from_slice(b"ab");
        s.extend_from_slice(&[0x30, 0x01]); // len (3)+2 = 5, dist (0x001)+1 = 2
        s.extend_from_slice(&[0x00, 0x00, 0x00]); // len 0+0x12, dist 1
        let out = decode(&s, None).unwrap();
        let mut want = b"abababa".to_vec();
        want.extend(std::iter::repeat_n(b'a', 0x12));
        assert_eq!(out, want);
    }

    #[test]
    fn lying_streams_are_errors() {
        let mut s = b"Yaz0".to_vec();
        s.extend_from_slice(&100u32.to_be_bytes());
        s.extend_from_slice(&[0; 8]);
        s.push(0xFF);
        s.extend_from_slice(b"abcdefgh");
        // announces 100 bytes, stream ends after 8
        let e = decode(&s, None).unwrap_err();
        assert_eq!(e.offset, Some(s.len() as u64));
        // back-reference before the start
        let mut s2 = b"Yaz0".to_vec();
        s2.extend_from_slice(&4u32.to_be_bytes());
        s2.extend_from_slice(&[0; 8]);
        s2.extend_from_slice(&[0x00, 0x20, 0x05]);
        assert_eq!(decode(&s2, None).unwrap_err().offset, Some(0x11));
        // disagrees with the file table
        assert!(decode(&encode(b"hello"), Some(6)).is_err());
        // a back-reference that overruns the announced size
        let mut s3 = b"Yaz0".to_vec();
        s3.extend_from_slice(&3u32.to_be_bytes());
        s3.extend_from_slice(&[0; 8]);
        s3.extend_from_slice(&[0x80, b'x', 0x30, 0x00]);
        assert!(decode(&s3, None).is_err());
    }

    #[test]
    fn encoder_round_trips() {
        let data: Vec<u8> = (0..5000u32).map(|i| ((i * 7) % 13 + (i / 300)) as u8).collect();
        let enc = encode(&data);
        assert!(enc.len() < data.len());
        assert_eq!(decode(&enc, Some(data.len())).unwrap(), data);
        assert_eq!(decode(&encode(&[]), None).unwrap(), Vec::<u8>::new());
    }
}
