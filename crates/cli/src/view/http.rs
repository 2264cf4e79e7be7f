//! What the viewer reads of an HTTP/1.x request, as pure functions over bytes (no sockets), so
//! the fuzz target `fuzz/fuzz_targets/view_request.rs` reaches all of it: where the head ends
//! ([`head_end`], capped at [`MAX_HEAD`]), the request line and headers ([`parse_head`]), what
//! a request may be ([`admit`]: GET or HEAD, no body, a loopback `Host`), and the query string
//! ([`Query`], percent-decoded).
//!
//! Everything here answers with a value or a [`Refusal`] (the status and message to send);
//! nothing panics on any bytes.

/// The most bytes the request line and headers may take together (with the blank line that
/// ends them); a longer head is refused with 431 and the connection closed.
pub const MAX_HEAD: usize = 64 * 1024;
/// The most header fields a request may have (431 past it).
pub const MAX_HEADERS: usize = 128;

/// An answer the viewer gives without routing the request: the status and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal { status, message: message.into() }
}

/// A request's line and headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub method: String,
    /// The request target as sent (path and query).
    pub target: String,
    /// `HTTP/1.1` (keep-alive by default) rather than `HTTP/1.0`.
    pub http11: bool,
    /// Header fields in order, names as sent, values trimmed.
    pub headers: Vec<(String, String)>,
}

impl Head {
    /// The first header field called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Whether the connection stays open after the answer (HTTP/1.1 unless `Connection:
    /// close`; HTTP/1.0 only with `Connection: keep-alive`).
    pub fn keep_alive(&self) -> bool {
        let tokens = |v: &str, t: &str| v.split(',').any(|x| x.trim().eq_ignore_ascii_case(t));
        match self.header("Connection") {
            Some(v) if tokens(v, "close") => false,
            Some(v) if tokens(v, "keep-alive") => true,
            _ => self.http11,
        }
    }
}

/// Where the head in `buf` ends (the offset just past the blank line, `\r\n\r\n` or a bare
/// `\n\n`), if it has ended; only the first [`MAX_HEAD`] bytes are looked at.
pub fn head_end(buf: &[u8]) -> Option<usize> {
    let b = &buf[..buf.len().min(MAX_HEAD)];
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\n' {
            if b.get(i + 1) == Some(&b'\n') {
                return Some(i + 2);
            }
            if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') {
                return Some(i + 3);
            }
        }
        i += 1;
    }
    None
}

/// Whether `buf`, holding no complete head yet, is already too long to become one (431).
pub fn head_too_long(buf: &[u8]) -> bool {
    buf.len() >= MAX_HEAD && head_end(buf).is_none()
}

fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c))
}

/// Parse a head (what [`head_end`] delimits, blank line included): the request line
/// `METHOD TARGET HTTP/1.x` and `Name: value` fields (folded continuation lines are refused, as
/// RFC 9112 allows).
pub fn parse_head(head: &[u8]) -> Result<Head, Refusal> {
    if head.len() > MAX_HEAD {
        return Err(refuse(431, format!("the request line and headers pass {MAX_HEAD} bytes")));
    }
    // Header values may hold bytes that are not UTF-8 (a Latin-1 cookie another local program
    // set on 127.0.0.1 refused every request): read lossily, as the viewer reads no value but
    // Host, Connection and the body's; the request line must be ASCII.
    let text = String::from_utf8_lossy(head);
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    // RFC 9112 2.2: empty lines before the request line are ignored.
    let line = lines.by_ref().find(|l| !l.is_empty()).ok_or_else(|| refuse(400, "no request line"))?;
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(refuse(400, "the request line is not METHOD TARGET VERSION"));
    };
    if !line.is_ascii() {
        return Err(refuse(400, "the request line is not ASCII"));
    }
    if !is_token(method) {
        return Err(refuse(400, "the method is not a token"));
    }
    if target.is_empty() || target.bytes().any(|c| c <= b' ' || c == 0x7F) {
        return Err(refuse(400, "the request target is empty or holds spaces or control characters"));
    }
    let http11 = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        v if v.starts_with("HTTP/") => return Err(refuse(505, format!("{v} is not supported, only HTTP/1.x"))),
        _ => return Err(refuse(400, "the request line does not end in HTTP/1.x")),
    };
    let mut headers = Vec::new();
    for l in lines {
        if l.is_empty() {
            break;
        }
        if l.starts_with([' ', '\t']) {
            return Err(refuse(400, "folded header lines are not accepted"));
        }
        let (name, value) = l.split_once(':').ok_or_else(|| refuse(400, "a header line has no colon"))?;
        if !is_token(name) {
            return Err(refuse(400, "a header name is not a token"));
        }
        if headers.len() == MAX_HEADERS {
            return Err(refuse(431, format!("more than {MAX_HEADERS} header fields")));
        }
        headers.push((name.to_string(), value.trim_matches([' ', '\t']).to_string()));
    }
    Ok(Head { method: method.to_string(), target: target.to_string(), http11, headers })
}

/// Whether the viewer answers `head` at all: GET or HEAD only (405), without a body (413:
/// a `Content-Length` other than 0 or any `Transfer-Encoding`; a malformed length is 400), and
/// naming no other host than `127.0.0.1:port` or `localhost:port` (403: DNS rebinding).
pub fn admit(head: &Head, port: u16) -> Result<(), Refusal> {
    let mut lengths = head.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("Content-Length"));
    let body = match (lengths.next(), lengths.next()) {
        (None, _) => false,
        (Some((_, v)), None) => {
            v.parse::<u64>().map_err(|_| refuse(400, format!("Content-Length {v:?} is not a number")))? > 0
        }
        (Some(_), Some(_)) => return Err(refuse(400, "more than one Content-Length")),
    };
    if body || head.header("Transfer-Encoding").is_some() {
        return Err(refuse(413, "the viewer accepts no request bodies"));
    }
    if !matches!(head.method.as_str(), "GET" | "HEAD") {
        return Err(refuse(405, "only GET and HEAD are supported"));
    }
    if head.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("Host")).count() > 1 {
        return Err(refuse(400, "more than one Host"));
    }
    if let Some(h) = head.header("Host") {
        // A browser leaves the port out where it is http's default (RFC 9110 7.2).
        let (name, named_port) = match h.rsplit_once(':') {
            Some((name, p)) => (name, p.parse::<u16>().ok()),
            None => (h, Some(80)),
        };
        let loopback = name.eq_ignore_ascii_case("127.0.0.1") || name.eq_ignore_ascii_case("localhost");
        if !(loopback && named_port == Some(port)) {
            return Err(refuse(403, "this viewer only answers http://127.0.0.1"));
        }
    }
    Ok(())
}

/// The reason phrase of the statuses the viewer sends.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

/// Query parameters, percent-decoded; the first of repeated names wins.
pub struct Query(pub Vec<(String, String)>);

impl Query {
    /// Split `q` (what follows `?`) at `&` and `=`, decoding each side.
    pub fn parse(q: &str) -> Self {
        Query(
            q.split('&')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (k, v) = p.split_once('=').unwrap_or((p, ""));
                    (percent_decode(k), percent_decode(v))
                })
                .collect(),
        )
    }

    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Every value of `name`, in order.
    pub fn all(&self, name: &str) -> Vec<String> {
        self.0.iter().filter(|(k, _)| k == name).map(|(_, v)| v.clone()).collect()
    }
}

/// `%XX` and `+` decoded; a `%` not followed by two hex digits is kept; bytes that are not
/// UTF-8 become U+FFFD.
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
