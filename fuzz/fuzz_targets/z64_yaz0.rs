#![no_main]
//! Yaz0 decoding of arbitrary bytes (with and without the magic): errors, never panics; and
//! what decodes re-encodes to the same bytes.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = boneyard_z64::yaz0_decode(data, None);
    let mut s = b"Yaz0".to_vec();
    s.extend_from_slice(data);
    if let Ok(out) = boneyard_z64::yaz0_decode(&s, None) {
        let again = boneyard_z64::yaz0_decode(&boneyard_z64::yaz0_encode(&out), Some(out.len())).unwrap();
        assert_eq!(again, out);
    }
});
