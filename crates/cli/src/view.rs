//! `boneyard view`: a local web viewer on http://127.0.0.1:PORT.
//!
//! The page (`viewer/index.html`, `app.js`, `style.css`) is compiled into the binary and
//! needs no network. It draws with its own small Canvas2D renderer from this JSON API:
//!
//! * `/api/list`: skeletons and animations, `list --json` (`crate::json`) plus `family`,
//!   per-skeleton `index` and per-animation `skeleton_index`;
//! * `/api/pose?skeleton=S&anim=A&frame=F`: world matrices like `pose --json` (no `anim`, or
//!   `anim=rest`: the rest pose; `skeleton` defaults to the animation's own), plus
//!   `skeleton_index`;
//! * `/api/mesh?skeleton=S`: every mesh with its binding, positions in the spaces of the core
//!   model (bone-local for rigid, model space at rest for skinned) and, when a mesh is skinned,
//!   the inverse rest world matrices;
//! * `/api/sample?anim=A&frame=F`: the local pose, `sample --json`.
//!
//! `S` and `A` are what `--skeleton` and `--anim` accept (index, `#N`, id or name). Bad
//! parameters answer 400 with `{"error": "..."}`; nothing a request holds can panic the server.
//! Only 127.0.0.1 is bound, and requests naming another host are refused (DNS rebinding).

use boneyard_core::glam::Mat4;
use boneyard_core::{Document, MeshBinding};
use serde_json::{json, Map, Value};

const INDEX_HTML: &str = include_str!("../../../viewer/index.html");
const APP_JS: &str = include_str!("../../../viewer/app.js");
const STYLE_CSS: &str = include_str!("../../../viewer/style.css");

const JSON: &str = "application/json";

/// The document type the viewer serves (core's `find_animation` & co. are on `dyn Document`
/// with its default `'static` bound).
type Doc = dyn Document + 'static;

/// One HTTP answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    fn ok(content_type: &'static str, body: impl Into<Vec<u8>>) -> Self {
        Reply { status: 200, content_type, body: body.into() }
    }
    fn json(v: &Value) -> Self {
        Reply::ok(JSON, v.to_string())
    }
    fn error(status: u16, message: impl std::fmt::Display) -> Self {
        Reply { status, content_type: JSON, body: json!({ "error": message.to_string() }).to_string().into_bytes() }
    }
}

/// Serve `doc` on 127.0.0.1:`port` (0 picks a free port) until the process is stopped.
/// `open_note` is called once with the page's URL as soon as the server listens (the caller
/// prints it).
pub fn serve(doc: Box<dyn Document>, port: u16, open_note: impl Fn(&str)) -> anyhow::Result<()> {
    let server = tiny_http::Server::http(("127.0.0.1", port))
        .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or_else(|| anyhow::anyhow!("the viewer's socket has no IP address"))?;
    open_note(&format!("http://127.0.0.1:{port}/"));
    answer_requests(&server, doc.as_ref(), port, None);
    Ok(())
}

/// Answer requests one at a time; stop after `limit` of them when given (tests).
fn answer_requests(server: &tiny_http::Server, doc: &Doc, port: u16, limit: Option<usize>) {
    let hosts = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    for (n, request) in server.incoming_requests().enumerate() {
        let host_ok = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .is_none_or(|h| hosts.iter().any(|ok| h.value.as_str().eq_ignore_ascii_case(ok)));
        let reply = if !host_ok {
            Reply::error(403, "this viewer only answers http://127.0.0.1")
        } else if !matches!(request.method(), tiny_http::Method::Get | tiny_http::Method::Head) {
            Reply::error(405, "only GET is supported")
        } else {
            let url = request.url().to_string();
            // A family's sampler should never panic, but the viewer must outlive one that does.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route(doc, &url)))
                .unwrap_or_else(|_| Reply::error(500, "internal error while answering this request"))
        };
        let mut response = tiny_http::Response::from_data(reply.body).with_status_code(reply.status);
        for (k, v) in
            [("Content-Type", reply.content_type), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")]
        {
            if let Ok(h) = tiny_http::Header::from_bytes(k, v) {
                response = response.with_header(h);
            }
        }
        // The browser may have gone away; nothing to do about it.
        let _ = request.respond(response);
        if limit.is_some_and(|l| n + 1 >= l) {
            break;
        }
    }
}

/// Answer one GET request for `url` (path and query).
pub fn route(doc: &Doc, url: &str) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let q = Query::parse(query);
    let result = match path {
        "/" | "/index.html" => return Reply::ok("text/html; charset=utf-8", INDEX_HTML),
        "/app.js" => return Reply::ok("text/javascript; charset=utf-8", APP_JS),
        "/style.css" => return Reply::ok("text/css; charset=utf-8", STYLE_CSS),
        "/api/list" => Ok(list_json(doc)),
        "/api/pose" => pose_api(doc, &q),
        "/api/mesh" => mesh_api(doc, &q),
        "/api/sample" => sample_api(doc, &q),
        _ => return Reply::error(404, format!("no such page: {path}")),
    };
    match result {
        Ok(v) => Reply::json(&v),
        Err(e) => e,
    }
}

/// Query parameters, percent-decoded; the first of repeated names wins.
struct Query(Vec<(String, String)>);

impl Query {
    fn parse(q: &str) -> Self {
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
    fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

fn percent_decode(s: &str) -> String {
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

/// A bad parameter: 400 with the message.
fn bad(message: impl std::fmt::Display) -> Reply {
    Reply::error(400, message)
}

/// A document error: the user's fault (400) when something asked for is not there, else the
/// data's (500).
fn doc_error(e: boneyard_core::Error) -> Reply {
    Reply::error(if e.is_not_found() { 400 } else { 500 }, e)
}

fn anim_param(doc: &Doc, q: &Query) -> Result<Option<usize>, Reply> {
    match q.get("anim") {
        None | Some("") | Some("rest") => Ok(None),
        Some(a) => doc.find_animation(a).map(Some).map_err(doc_error),
    }
}

fn skeleton_param(doc: &Doc, q: &Query, anim: Option<usize>) -> Result<usize, Reply> {
    match q.get("skeleton") {
        Some(s) if !s.is_empty() => doc.find_skeleton(s).map_err(doc_error),
        _ => anim
            .and_then(|a| doc.skeleton_for(a))
            .or(if doc.skeletons().is_empty() { None } else { Some(0) })
            .ok_or_else(|| bad("this input has no skeleton")),
    }
}

fn frame_param(q: &Query) -> Result<f64, Reply> {
    match q.get("frame") {
        None | Some("") => Ok(0.0),
        Some(f) => match f.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(bad(format!("frame {f:?} is not a finite number"))),
        },
    }
}

/// An f32 as the shortest decimal that reads back as the same f32 (0.1, not
/// 0.10000000149011612); non-finite values become null.
fn num(x: f32) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    format!("{x}").parse::<f64>().ok().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
}

fn nums(xs: impl IntoIterator<Item = f32>) -> Value {
    Value::Array(xs.into_iter().map(num).collect())
}

fn matrix(m: &Mat4) -> Value {
    nums(m.to_cols_array())
}

/// `list --json` (crate::json::list) plus what the page needs to link things by position:
/// `family`, each skeleton's `index`, each animation's `skeleton_index`.
pub fn list_json(doc: &Doc) -> Value {
    let files: Vec<String> = doc.files().into_iter().map(|f| f.path).collect();
    let mut v = crate::json::list(&[doc], &files);
    if let Some(o) = v.as_object_mut() {
        o.insert("family".into(), json!(doc.family()));
        if let Some(Value::Array(sk)) = o.get_mut("skeletons") {
            for (i, s) in sk.iter_mut().enumerate() {
                if let Some(s) = s.as_object_mut() {
                    s.insert("index".into(), json!(i));
                }
            }
        }
        if let Some(Value::Array(an)) = o.get_mut("animations") {
            for (a, info) in an.iter_mut().zip(doc.animations()) {
                if let Some(a) = a.as_object_mut() {
                    a.insert("skeleton_index".into(), json!(info.skeleton));
                }
            }
        }
    }
    v
}

fn pose_api(doc: &Doc, q: &Query) -> Result<Value, Reply> {
    let anim = anim_param(doc, q)?;
    let skeleton = skeleton_param(doc, q, anim)?;
    let frame = frame_param(q)?;
    let world = doc.pose(skeleton, anim, frame).map_err(doc_error)?;
    let info = doc.skeletons().get(skeleton).ok_or_else(|| bad(format!("no skeleton #{skeleton}")))?;
    // The shape of `pose --json` for one frame, plus the skeleton's position in the list.
    Ok(json!({
        "frame": frame,
        "bones": crate::json::pose_bones(info, &world),
        "animation": anim.and_then(|a| doc.animations().get(a)).map(crate::json::anim_header),
        "skeleton": info.id,
        "skeleton_index": skeleton,
    }))
}

fn mesh_api(doc: &Doc, q: &Query) -> Result<Value, Reply> {
    let skeleton = skeleton_param(doc, q, None)?;
    let info = doc.skeletons().get(skeleton).ok_or_else(|| bad(format!("no skeleton #{skeleton}")))?;
    let bones = info.skeleton.len();
    let mut meshes = Vec::new();
    for m in &info.meshes {
        m.validate(bones).map_err(|e| Reply::error(500, e))?;
        let mut v = Map::new();
        v.insert("name".into(), json!(m.name));
        v.insert("base_color".into(), nums(m.base_color));
        match &m.binding {
            MeshBinding::Rigid { bone } => {
                v.insert("binding".into(), json!("rigid"));
                v.insert("bone".into(), json!(bone));
            }
            MeshBinding::Skinned { joints, weights } => {
                v.insert("binding".into(), json!("skinned"));
                v.insert("joints".into(), json!(joints.iter().flatten().collect::<Vec<_>>()));
                v.insert("weights".into(), nums(weights.iter().flatten().copied()));
            }
        }
        v.insert("positions".into(), nums(m.positions.iter().flat_map(|p| p.to_array())));
        v.insert("indices".into(), json!(m.indices));
        meshes.push(Value::Object(v));
    }
    let skinned = info.meshes.iter().any(|m| matches!(m.binding, MeshBinding::Skinned { .. }));
    let inverse_bind: Vec<Value> =
        if skinned { info.skeleton.rest_world().iter().map(|m| matrix(&m.inverse())).collect() } else { Vec::new() };
    Ok(json!({ "skeleton": skeleton, "bones": bones, "meshes": meshes, "inverse_bind": inverse_bind }))
}

fn sample_api(doc: &Doc, q: &Query) -> Result<Value, Reply> {
    let anim = anim_param(doc, q)?.ok_or_else(|| bad("sample needs anim=NAME or anim=#INDEX"))?;
    let frame = frame_param(q)?;
    let s = doc.sample(anim, frame).map_err(doc_error)?;
    let info = doc.animations().get(anim).ok_or_else(|| bad(format!("no animation #{anim}")))?;
    Ok(crate::json::sample(doc, info, &s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use boneyard_core::demo;

    fn doc() -> Box<dyn Document> {
        Box::new(demo::baked_document(30.0))
    }

    fn get(doc: &Doc, url: &str) -> (u16, Value) {
        let r = route(doc, url);
        assert_eq!(r.content_type, JSON, "{url}");
        (r.status, serde_json::from_slice(&r.body).unwrap())
    }

    #[test]
    fn static_files_are_served() {
        let d = doc();
        let r = route(d.as_ref(), "/");
        assert_eq!((r.status, r.content_type), (200, "text/html; charset=utf-8"));
        assert!(String::from_utf8(r.body).unwrap().contains("app.js"));
        assert_eq!(route(d.as_ref(), "/app.js").status, 200);
        assert_eq!(route(d.as_ref(), "/style.css").status, 200);
        assert_eq!(route(d.as_ref(), "/../../etc/passwd").status, 404);
    }

    #[test]
    fn list_has_the_demo() {
        let d = doc();
        let (status, v) = get(d.as_ref(), "/api/list");
        assert_eq!(status, 200);
        assert_eq!(v["skeletons"][0]["bones"], 19);
        assert_eq!(v["skeletons"][0]["id"], "demo");
        assert_eq!(v["animations"][0]["name"], "demo_walk");
        assert_eq!(v["animations"][0]["frames"], 31);
        assert_eq!(v["animations"][0]["fps"], 30.0);
        assert_eq!(v["animations"][1]["name"], "demo_wave");
        assert_eq!(v["animations"][1]["frames"], 46);
    }

    #[test]
    fn pose_matches_the_demo_by_hand() {
        let d = doc();
        // Rest pose: the head joint is at 9 + 1 + 2.5 + 3 + 1 = 16.5 units up (demo::BONES).
        let (status, v) = get(d.as_ref(), "/api/pose?skeleton=0");
        assert_eq!(status, 200);
        assert_eq!(v["bones"].as_array().unwrap().len(), 19);
        assert_eq!(v["bones"][10]["name"], "head");
        assert_eq!(v["bones"][10]["parent"], 9);
        let m: Vec<f64> = v["bones"][10]["matrix"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert_eq!(&m[12..16], &[0.0, 16.5, 0.0, 1.0]);
        // Walk, last frame (1 s at 30 fps): the pelvis has moved 10 units along +Z.
        let (status, v) = get(d.as_ref(), "/api/pose?anim=demo_walk&frame=30");
        assert_eq!(status, 200);
        assert_eq!(v["animation"]["index"], 0);
        assert_eq!((v["skeleton"].as_str(), v["skeleton_index"].as_u64()), (Some("demo"), Some(0)));
        let z = v["bones"][0]["matrix"][14].as_f64().unwrap();
        assert!((z - 10.0).abs() < 1e-5, "{z}");
        // By index, percent-encoded.
        assert_eq!(get(d.as_ref(), "/api/pose?anim=%231&frame=3.5").0, 200);
    }

    #[test]
    fn sample_has_the_cli_shape() {
        let d = doc();
        let (status, v) = get(d.as_ref(), "/api/sample?anim=demo_wave&frame=12.7");
        assert_eq!(status, 200);
        assert_eq!(v["animation"]["name"], "demo_wave");
        assert_eq!(v["frame"], 12.0, "the baked demo rounds down");
        assert_eq!(v["bones"].as_array().unwrap().len(), 19);
        assert_eq!(v["bones"][0]["translation"], json!([0.0, 9.0, 0.0]));
        assert_eq!(v["channels"][0]["path"], "rotation");
    }

    #[test]
    fn mesh_has_one_box_per_bone() {
        let d = doc();
        let (status, v) = get(d.as_ref(), "/api/mesh?skeleton=demo");
        assert_eq!(status, 200);
        let meshes = v["meshes"].as_array().unwrap();
        assert_eq!(meshes.len(), 19);
        // demo::cuboid: 8 corners, 12 triangles, rigid on its bone.
        assert_eq!(meshes[10]["positions"].as_array().unwrap().len(), 24);
        assert_eq!(meshes[10]["indices"].as_array().unwrap().len(), 36);
        assert_eq!(meshes[10]["binding"], "rigid");
        assert_eq!(meshes[10]["bone"], 10);
        // The head box's first corner (lo) is (-1, 0, -1.1), written as the shortest decimals.
        assert_eq!(meshes[10]["positions"][2], json!(-1.1));
    }

    #[test]
    fn bad_parameters_are_400() {
        let d = doc();
        for url in [
            "/api/pose?anim=nope",
            "/api/pose?anim=%2399",
            "/api/pose?skeleton=7",
            "/api/pose?anim=0&frame=abc",
            "/api/pose?anim=0&frame=NaN",
            "/api/pose?anim=0&frame=inf",
            "/api/pose?anim=0&frame=-inf",
            "/api/pose?anim=0&frame=%2Binfinity",
            "/api/pose?anim=0&frame=nan",
            "/api/pose?anim=0&frame=1e400",
            "/api/sample?anim=0&frame=NaN",
            "/api/sample?anim=0&frame=-inf",
            "/api/mesh?skeleton=99999",
            "/api/mesh?skeleton=%2399999",
            "/api/mesh?skeleton=18446744073709551616",
            "/api/pose?skeleton=99999&anim=0",
            "/api/sample",
            "/api/sample?anim=%ZZ",
            "/api/mesh?skeleton=%E2%82",
        ] {
            let (status, v) = get(d.as_ref(), url);
            assert_eq!(status, 400, "{url}");
            assert!(v["error"].as_str().is_some_and(|m| !m.is_empty()), "{url}");
        }
        assert_eq!(get(d.as_ref(), "/api/nothing").0, 404);
    }

    #[test]
    fn extreme_finite_frames_wrap_or_fail_cleanly() {
        // Finite frames are the families' to wrap (negative ones count back from the end); none
        // may panic or produce a server error, and the answer holds only finite numbers.
        let d = doc();
        for f in ["-1", "-1e300", "1e300", "1.7976931348623157e308", "-0", "4294967296.5", "1e-320"] {
            for api in ["pose", "sample"] {
                let url = format!("/api/{api}?anim=0&frame={f}");
                let (status, v) = get(d.as_ref(), &url);
                assert!(matches!(status, 200 | 400), "{url}: {status} {v}");
                if status == 200 && api == "pose" {
                    let finite = v["bones"].as_array().is_some_and(|bs| {
                        bs.iter().all(|b| b["matrix"].as_array().is_some_and(|m| m.iter().all(|x| x.is_f64())))
                    });
                    assert!(finite, "{url}: {v}");
                }
            }
        }
        let (status, v) = get(d.as_ref(), "/api/pose?anim=0&frame=-1");
        assert_eq!(status, 200, "{v}");
    }

    #[test]
    fn random_urls_never_panic() {
        // A fixed xorshift sequence over the characters that matter to the router.
        let d = doc();
        let alphabet = b"/?&=%#+.-0123456789abcdefAFZrestanimframeskeletonpose/apilistmeshsample\xc3\xa9 ";
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..3000 {
            let mut url =
                String::from(["/api/pose?", "/api/sample?", "/api/mesh?", "/api/list?", "/"][(x % 5) as usize]);
            for _ in 0..(x >> 8) % 40 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                url.push(alphabet[(x % alphabet.len() as u64) as usize] as char);
            }
            let r = route(d.as_ref(), &url);
            assert!(matches!(r.status, 200 | 400 | 404), "{url}: {}", r.status);
        }
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b+c%2"), "a b c%2");
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("%41%42"), "AB");
    }

    #[test]
    fn loopback_request() {
        use std::io::{Read, Write};
        let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
        let port = server.server_addr().to_ip().unwrap().port();
        let d = doc();
        std::thread::scope(|s| {
            let handle = s.spawn(|| answer_requests(&server, d.as_ref(), port, Some(2)));
            let ask = |req: String| {
                let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
                c.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
                c.write_all(req.as_bytes()).unwrap();
                let mut out = String::new();
                c.read_to_string(&mut out).unwrap();
                out
            };
            let ok = ask(format!("GET /api/list HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"));
            assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
            assert!(ok.contains("demo_walk"));
            let evil = ask("GET /api/list HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n".into());
            assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
            handle.join().unwrap();
        });
    }
}
