#![no_main]
//! The viewer's request parsing (`crates/cli/src/view/http.rs`, included here: the CLI is a
//! binary crate): the fuzz input is what a client sends; the head is delimited (capped at 64
//! KiB), parsed, admitted or refused, and its query string decoded as the routes read it.
use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "../../crates/cli/src/view/http.rs"]
mod http;

fuzz_target!(|data: &[u8]| {
    let head = match http::head_end(data) {
        Some(end) => &data[..end],
        None if http::head_too_long(data) => return,
        None => data,
    };
    if let Ok(h) = http::parse_head(head) {
        let _ = h.keep_alive();
        let _ = http::admit(&h, 8080);
        let query = h.target.split_once('?').map_or("", |(_, q)| q);
        let q = http::Query::parse(query);
        for name in ["doc", "anim", "skeleton", "frame", "in_place"] {
            let _ = q.get(name);
            let _ = q.all(name);
        }
    }
    // Any text as a query string.
    let _ = http::Query::parse(&String::from_utf8_lossy(data));
});
