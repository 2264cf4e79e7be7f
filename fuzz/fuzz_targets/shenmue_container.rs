#![no_main]
//! Containers (GZ, PKF, PKS/IPAC, AFS) and whatever they hold, through the family's open path.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = boneyard_shenmue::read_pkf(data);
    let _ = boneyard_shenmue::read_pks(data);
    let _ = boneyard_shenmue::read_ipac(data, 0);
    let _ = boneyard_shenmue::read_afs(data);
    let _ = boneyard_shenmue::open_bytes(&[("fuzz.pks".to_string(), data)]);
});
