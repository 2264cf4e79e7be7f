//! `boneyard view`: a local web viewer on http://127.0.0.1:PORT.
//!
//! The page (`viewer/index.html`, `style.css` and the three.js bundle `viewer/dist/app.js`) is
//! compiled into the binary and needs no network. The bundle is built by `build.rs` with the
//! viewer's npm packages once they are installed (`cd viewer && npm ci`); a binary built
//! without them serves a page that says how to build it. The page renders the glb that `export`
//! writes, from this API:
//!
//! Several documents are served at once (a folder's files, or files of different games named
//! together): `/api/docs` lists them, and every other `/api/...` route takes `doc=N` (the
//! document's place in that list; 0 when absent). A file that fails to read is left out,
//! reported on stderr as the other commands report it, and listed by `/api/docs` for the page
//! to show ([`run`]).
//!
//! * `/api/docs`: `{"documents":[{"index","name","file","family","skeletons","animations"}],
//!   "open", "errors":[{"file","offset","message"}], "skipped":[{"file","reason"}]}`: `name`
//!   is what `check` calls the document in a batch, `file` its first file as given or found,
//!   `open` the document the page opens on ([`opening_document`]), `errors` the files that
//!   failed and `skipped` those a folder walk did not read;
//! * `/api/list`: skeletons and animations, `list --json` (`crate::json`) plus `family`,
//!   per-skeleton `index`, per-animation `skeleton_index`, and `open`: the clip the page
//!   opens on (`{"skeleton", "anim"}`, see [`opening_clip`]);
//! * `/api/glb?skeleton=S&anim=A&anim=B...&in_place=1`: the glb `boneyard export --format glb
//!   --skeleton S --anim A --anim B ... [--in-place]` writes (`boneyard_export::glb`), at most
//!   [`MAX_GLB_CLIPS`] clips at a time (a document may hold thousands); no `anim`: the skeleton
//!   and its meshes without clips;
//! * `/api/pose?skeleton=S&anim=A&frame=F`: world matrices like `pose --json` (no `anim`, or
//!   `anim=rest`: the rest pose; `skeleton` defaults to the animation's own), plus
//!   `skeleton_index`;
//! * `/api/mesh?skeleton=S`: every mesh with its binding, positions in the spaces of the core
//!   model (bone-local for rigid, model space at rest for skinned) and, when a mesh is skinned,
//!   the inverse rest world matrices;
//! * `/api/sample?anim=A&frame=F`: the local pose, `sample --json`.
//!
//! `/api/docs` also lists each document's `runtime`, `[{"key", "values", "value"}]`: the run-time
//! state its drawing depends on (Zelda 64 Link's `tunic`, `shield`), and every route of that
//! document takes `KEY=VALUE` beside `doc=N`: the document read again with it ([`variants`]).
//!
//! `S` and `A` are what `--skeleton` and `--anim` accept (index, `#N`, id or name). Bad
//! parameters (and a clip asked on a skeleton it does not play on, as the CLI refuses it)
//! answer 400 with `{"error": "..."}`; what the data cannot give (a clip boneyard lists but
//! does not decode) 422; nothing a request holds can panic the server.
//! Only 127.0.0.1 is bound, and requests naming another host are refused (DNS rebinding).
//! Only GET and HEAD without a body are answered, heads are capped at 64 KiB (431), and a fixed
//! pool of workers serves the connections with read and write time limits ([`server`]).

use boneyard_core::glam::Mat4;
use boneyard_core::{Document, MeshBinding};
use http::Query;
use serde_json::{json, Map, Value};

mod http;
mod server;
mod variants;

const INDEX_HTML: &str = include_str!("../../../viewer/index.html");
const STYLE_CSS: &str = include_str!("../../../viewer/style.css");
/// The page's icon (declared by the page, and answered at `/favicon.ico`, which browsers ask
/// for on their own: a 404 there was an error in the console).
const FAVICON_SVG: &str = include_str!("../../../viewer/favicon.svg");

mod bundle {
    // `pub const BUNDLE: Option<&str>`, written by build.rs.
    include!(concat!(env!("OUT_DIR"), "/viewer_bundle.rs"));
}
use bundle::BUNDLE;

/// The page served instead of the viewer by a binary built without the bundle.
const BUILD_ME_HTML: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>boneyard viewer: not built</title>
<link rel="icon" type="image/svg+xml" href="favicon.svg">
<link rel="stylesheet" href="style.css"></head>
<body class="note"><main><h1>The viewer's page was not built into this binary</h1>
<p>The viewer renders with three.js, bundled with node. Install the viewer's packages once,
then build the binary again: every build then bundles the page into it.</p>
<pre>cd viewer &amp;&amp; npm ci &amp;&amp; cd ..
cargo build --release</pre>
<p>Every other command (<code>export</code>, <code>pose</code>, <code>demo</code>, ...) works without it.</p>
</main></body></html>
"#;

const JSON: &str = "application/json";
const GLB: &str = "model/gltf-binary";
const SVG: &str = "image/svg+xml";

/// The most clips one `/api/glb` answer holds.
pub const MAX_GLB_CLIPS: usize = 8;

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

/// One document the viewer serves.
pub struct Entry {
    /// What `check` calls it in a batch ([`crate::inputs::Unit::name`]).
    pub name: String,
    /// Its first file, as given or found.
    pub file: String,
    /// What `export` names its outputs after (the batch's stem).
    pub stem: String,
    pub doc: Box<dyn Document>,
    /// The document opened again with other run-time state ([`variants`]); None: not offered.
    pub variants: Option<variants::Variants>,
}

#[cfg(test)]
impl Entry {
    /// A document served as it was opened, with no run-time state to choose.
    pub fn new(name: &str, file: &str, stem: &str, doc: Box<dyn Document>) -> Self {
        Entry { name: name.into(), file: file.into(), stem: stem.into(), doc, variants: None }
    }
}

/// What `boneyard view` serves: the documents that opened (at least one), and what did not.
pub struct Served {
    pub docs: Vec<Entry>,
    /// The files that failed, `{"file","offset","message"}` ([`crate::batch::error_json`]).
    pub errors: Vec<Value>,
    /// The files a folder walk did not read, `{"file","reason"}`.
    pub skipped: Value,
}

/// `boneyard view FILE...`: open the documents the files make, as other commands walk folders
/// and group files ([`crate::inputs::plan`]); a file that fails is reported on stderr (file,
/// offset, reason) and shown in the page, and the others are served. Exit status as in a
/// batch: 1 when nothing opened (at once), or when something failed (when the server is
/// stopped); a single file that fails is the run's error, as before.
pub fn run(files: &[std::path::PathBuf], port: u16, options: &boneyard_core::OpenOptions) -> anyhow::Result<()> {
    // The port first: a busy one is said before any file is read or "serving" is printed.
    let listener = listen(port)?;
    let plan = crate::inputs::plan(files)?;
    let done = crate::batch::open_all(plan, options).collect()?;
    let skeletons: usize = done.ok.iter().map(|(_, (d, _, _))| d.skeletons().len()).sum();
    let animations: usize = done.ok.iter().map(|(_, (d, _, _))| d.animations().len()).sum();
    let closed = done.close(
        "serving",
        &format!(
            "{}, {}",
            crate::progress::counted(skeletons, "skeleton", "skeletons"),
            crate::progress::counted(animations, "animation", "animations")
        ),
    );
    if done.ok.is_empty() {
        // Nothing opened: every file failed (the batch's error), or none is readable.
        closed?;
        return Err(crate::inputs::nothing_readable().into());
    }
    if closed.is_err() {
        // Served all the same; the run's status is the batch's when it is stopped.
        crate::output::set_interrupted_status(1);
        crate::progress::note("the page lists the files that failed; the others are served");
    }
    let errors = done.errors.clone();
    let skipped = done.skipped_json();
    let docs = entries(done.ok, done.names, options);
    serve(Served { docs, errors, skipped }, listener, |url| println!("boneyard viewer on {url} (Ctrl-C to stop)"))
}

/// The documents a run opened ([`crate::batch::open_all`]), with the names `check` gives them,
/// as the viewer serves them: each may be opened again with other run-time state.
fn entries(
    opened: Vec<(String, crate::batch::Opened)>,
    names: Vec<String>,
    options: &boneyard_core::OpenOptions,
) -> Vec<Entry> {
    opened
        .into_iter()
        .zip(names)
        .map(|((file, (doc, stem, reopen)), name)| Entry {
            name,
            file,
            stem,
            doc,
            variants: Some(variants::Variants::new(reopen, options.clone())),
        })
        .collect()
}

/// A listener on 127.0.0.1:`port` (0 picks a free port).
fn listen(port: u16) -> anyhow::Result<std::net::TcpListener> {
    std::net::TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{port}: {e}"))
}

/// Serve `served` on `listener` until the process is stopped. `open_note` is called once with
/// the page's URL (the caller prints it). Connections are served by a fixed pool of workers
/// ([`server`]).
fn serve(served: Served, listener: std::net::TcpListener, open_note: impl Fn(&str)) -> anyhow::Result<()> {
    let port = listener.local_addr()?.port();
    open_note(&format!("http://127.0.0.1:{port}/"));
    if BUNDLE.is_none() {
        eprintln!(
            "boneyard: note: this binary was built without the viewer's page; install the \
             viewer's packages once (`cd viewer && npm ci`), then build boneyard again (the API answers meanwhile)"
        );
    }
    let stop = std::sync::atomic::AtomicBool::new(false);
    serve_on(&listener, &served, port, server::Limits::default(), &stop);
    Ok(())
}

/// Answer requests on `listener` until `stop` is set (tests set it, then connect once).
fn serve_on(
    listener: &std::net::TcpListener,
    served: &Served,
    port: u16,
    limits: server::Limits,
    stop: &std::sync::atomic::AtomicBool,
) {
    // `/api/list` is the same for every request of a document and the largest answer to
    // compute (the opening clip poses up to 64 clips): made once a document, when first asked.
    let lists: Vec<std::sync::OnceLock<server::Answer>> = served.docs.iter().map(|_| Default::default()).collect();
    let answer = |head: &http::Head| -> server::Answer {
        let (path, query) = head.target.split_once('?').unwrap_or((head.target.as_str(), ""));
        if path == "/api/list" {
            let q = Query::parse(query);
            if let Ok(i) = doc_param(served, &q) {
                // (The list of a variant with other run-time state is made each time.)
                if matches!(variants::chosen(&served.docs[i], &q), Ok(None)) {
                    return lists[i].get_or_init(|| answer_for(served, &head.target)).clone();
                }
            }
        }
        answer_for(served, &head.target)
    };
    server::run(listener, port, limits, stop, &answer);
}

/// [`route_all`], outliving a family's sampler that panics (it never should).
fn answer_for(served: &Served, url: &str) -> server::Answer {
    let reply = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route_all(served, url)))
        .unwrap_or_else(|_| Reply::error(500, "internal error while answering this request"));
    server::Answer { status: reply.status, content_type: reply.content_type, body: std::sync::Arc::new(reply.body) }
}

/// The page's own files: `None` for any other path.
fn static_page(path: &str) -> Option<Reply> {
    Some(match path {
        "/" | "/index.html" => Reply::ok("text/html; charset=utf-8", BUNDLE.map_or(BUILD_ME_HTML, |_| INDEX_HTML)),
        "/app.js" => match BUNDLE {
            Some(js) => Reply::ok("text/javascript; charset=utf-8", js),
            None => Reply::error(
                404,
                "the viewer was built without its bundle: cd viewer && npm ci, then build boneyard again",
            ),
        },
        "/style.css" => Reply::ok("text/css; charset=utf-8", STYLE_CSS),
        "/favicon.svg" | "/favicon.ico" => Reply::ok(SVG, FAVICON_SVG),
        _ => return None,
    })
}

/// The document a request names (`doc=N`, 0 when absent), or 400.
fn doc_param(served: &Served, q: &Query) -> Result<usize, Reply> {
    match q.get("doc") {
        None | Some("") => Some(0).filter(|_| !served.docs.is_empty()).ok_or_else(|| bad("no document is served")),
        Some(d) => match d.trim().trim_start_matches('#').parse::<usize>() {
            Ok(i) if i < served.docs.len() => Ok(i),
            _ => {
                let n = served.docs.len();
                let range = match n {
                    0 => return Err(bad("no document is served")),
                    1 => "doc=0".to_string(),
                    _ => format!("doc=0 to doc={}", n - 1),
                };
                Err(bad(format!("no document {d:?}: {n} {} served ({range})", if n == 1 { "is" } else { "are" })))
            }
        },
    }
}

/// Answer one GET request for `url` (path and query) among all the documents served: the
/// page, `/api/docs`, and the other `/api/...` routes for the document `doc=N` names.
pub fn route_all(served: &Served, url: &str) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    if let Some(r) = static_page(path) {
        return r;
    }
    if path == "/api/docs" {
        return Reply::json(&docs_json(served));
    }
    if !path.starts_with("/api/") {
        return Reply::error(404, format!("no such page: {path}"));
    }
    let q = Query::parse(query);
    let i = match doc_param(served, &q) {
        Ok(i) => i,
        Err(e) => return e,
    };
    match variants::chosen(&served.docs[i], &q) {
        Ok(None) => route(served.docs[i].doc.as_ref(), url),
        Ok(Some(variant)) => route(variant.as_ref(), url),
        Err(e) => e,
    }
}

/// `/api/docs`: every document served, the one the page opens on, and the files that failed
/// or were not read.
pub fn docs_json(served: &Served) -> Value {
    let docs: Vec<Value> = served
        .docs
        .iter()
        .enumerate()
        .map(|(i, e)| {
            json!({
                "index": i,
                "name": e.name,
                "file": e.file,
                // What `export` names this document's outputs after.
                "stem": e.stem,
                "family": e.doc.family(),
                "skeletons": e.doc.skeletons().len(),
                "animations": e.doc.animations().len(),
                // Run-time state the page may choose: `[{"key", "values", "value"}]`.
                "runtime": variants::runtime_json(e),
            })
        })
        .collect();
    json!({
        "documents": docs,
        "open": opening_document(served),
        "errors": served.errors,
        "skipped": served.skipped,
    })
}

/// The document the page opens on: the one with most clips on a skeleton with meshes (a
/// folder of Zelda objects opens on Link, not on the first file's props), then most clips on
/// any skeleton, then the first with a skeleton, then the first.
pub fn opening_document(served: &Served) -> usize {
    let score = |d: &Doc| {
        let sk = d.skeletons();
        let (mut meshed, mut any) = (0usize, 0usize);
        for a in 0..d.animations().len() {
            if let Some(s) = d.skeleton_for(a).and_then(|s| sk.get(s)) {
                any += 1;
                meshed += usize::from(!s.meshes.is_empty());
            }
        }
        (meshed, any, !sk.is_empty())
    };
    let mut best = (0, (0, 0, false));
    for (i, e) in served.docs.iter().enumerate() {
        let s = score(e.doc.as_ref());
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}

/// Answer one GET request for `url` (path and query) about one document.
pub fn route(doc: &Doc, url: &str) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let q = Query::parse(query);
    if let Some(r) = static_page(path) {
        return r;
    }
    let result = match path {
        "/api/list" => Ok(list_json(doc)),
        "/api/glb" => {
            return match glb_api(doc, &q) {
                Ok(bytes) => Reply::ok(GLB, bytes),
                Err(e) => e,
            }
        }
        "/api/pose" => pose_api(doc, &q),
        "/api/mesh" => mesh_api(doc, &q),
        "/api/sample" => sample_api(doc, &q),
        "/api/faces" => faces_api(doc, &q),
        _ => return Reply::error(404, format!("no such page: {path}")),
    };
    match result {
        Ok(v) => Reply::json(&v),
        Err(e) => e,
    }
}

/// A bad parameter: 400 with the message.
fn bad(message: impl std::fmt::Display) -> Reply {
    Reply::error(400, message)
}

/// A document error: the user's fault (400) when something asked for is not there, else what
/// the data cannot give (422: a clip boneyard lists but does not decode, one BVH cannot hold);
/// a 500 said the server had failed, which it had not.
fn doc_error(e: boneyard_core::Error) -> Reply {
    Reply::error(if e.is_not_found() { 400 } else { 422 }, e)
}

/// A usage error of the CLI's checks (a clip asked on a skeleton it does not play on): 400.
fn usage_error(e: anyhow::Error) -> Reply {
    match e.downcast::<boneyard_core::Error>() {
        Ok(e) => doc_error(e),
        Err(e) => bad(format!("{e:#}")),
    }
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
        _ => {
            // A clip the reader lists but does not decode says so in its words (as `/api/glb`
            // and `/api/sample` do), not that it fits no skeleton.
            if let Some(a) = anim.filter(|&a| doc.skeleton_for(a).is_none()) {
                doc.sample(a, 0.0).map_err(doc_error)?;
            }
            anim.and_then(|a| doc.skeleton_for(a))
                .or(if doc.skeletons().is_empty() { None } else { Some(0) })
                .ok_or_else(|| bad("this input has no skeleton"))
        }
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
                    // Its part of an output's name where the document has several.
                    s.insert("output_label".into(), json!(crate::cmd::export::skeleton_label(doc, i)));
                    // The stem of its own file when that is not the document's first.
                    s.insert("output_file".into(), json!(crate::cmd::export::own_file_stem(doc, i)));
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
        let open = opening_clip(doc);
        let skeleton =
            open.and_then(|a| doc.skeleton_for(a)).or(if doc.skeletons().is_empty() { None } else { Some(0) });
        o.insert("open".into(), json!({ "skeleton": skeleton, "anim": open }));
    }
    v
}

/// The clip the page opens on: the first walk of the main figure that moves (a clip named
/// with "walk"), else the first clip that does not look like a placeholder and that moves,
/// on the main figure: skeletons with meshes first, then those more clips play on, then
/// those with more bones, then in document order ([`crate::best_clip::moving_clip`] of each in turn). After 64
/// candidates (to bound the time a huge document takes), or when no clip qualifies, the first
/// clip; `None` without clips.
pub fn opening_clip(doc: &Doc) -> Option<usize> {
    let anims = doc.animations();
    let skeletons = doc.skeletons();
    // The main figure is the one most clips play on (Link's 573 over the props of
    // gameplay_keep beside him), with meshes, then the larger, then in document order.
    let mut clips = vec![0usize; skeletons.len()];
    for a in 0..anims.len() {
        if let Some(c) = doc.skeleton_for(a).and_then(|s| clips.get_mut(s)) {
            *c += 1;
        }
    }
    let mut order: Vec<usize> = (0..skeletons.len()).collect();
    order.sort_by_key(|&s| {
        let sk = &skeletons[s];
        (sk.meshes.is_empty(), std::cmp::Reverse(clips[s]), std::cmp::Reverse(sk.skeleton.len()), s)
    });
    let mut budget = 64;
    if let Some(a) = order.iter().find_map(|&sk| crate::best_clip::moving_clip(doc, sk, &mut budget)) {
        return Some(a);
    }
    if anims.is_empty() {
        None
    } else {
        Some(0)
    }
}

/// `/api/glb`: the export's own glb (`cmd::export::selection` resolves the request exactly as
/// `export --skeleton S --anim A ...` does).
fn glb_api(doc: &Doc, q: &Query) -> Result<Vec<u8>, Reply> {
    let anims: Vec<String> = q.all("anim").into_iter().filter(|a| !a.is_empty()).collect();
    if anims.len() > MAX_GLB_CLIPS {
        return Err(bad(format!("at most {MAX_GLB_CLIPS} clips at a time, not {}", anims.len())));
    }
    let in_place = match q.get("in_place") {
        None | Some("") | Some("0") | Some("false") => false,
        Some("1") | Some("true") => true,
        Some(v) => return Err(bad(format!("in_place {v:?} is not 0 or 1"))),
    };
    let skeleton = q.get("skeleton").filter(|s| !s.is_empty());
    let (sk, chosen) = if anims.is_empty() {
        (skeleton_param(doc, q, None)?, Vec::new())
    } else {
        let (sk, chosen) = crate::cmd::export::selection(doc, &anims, skeleton).map_err(usage_error)?;
        // One glb, one skeleton: clips of another (Link's and gameplay_keep's) are refused
        // as `export` refuses them, not failed in the exporter (500).
        for &a in &chosen {
            crate::cmd::export::check_exports_on(doc, a, sk).map_err(usage_error)?;
        }
        (sk, chosen)
    };
    let opts = boneyard_export::ExportOptions { in_place, ..Default::default() };
    boneyard_export::glb(doc, sk, &chosen, &opts).map_err(doc_error)
}

fn pose_api(doc: &Doc, q: &Query) -> Result<Value, Reply> {
    let anim = anim_param(doc, q)?;
    let skeleton = skeleton_param(doc, q, anim)?;
    // As `pose --skeleton S --anim A`: a clip on a skeleton it does not play on is refused
    // (Zelda's 4-bone arrow clip was posed on Link's 21 limbs).
    if let Some(a) = anim {
        crate::cmd::export::check_plays_on(doc, a, skeleton).map_err(usage_error)?;
    }
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

/// The most distinct run-time textures one `/api/faces` answer carries.
pub const MAX_FACE_TEXTURES: usize = 64;

/// `/api/faces`: the textures the engine binds at run time at every frame of a clip
/// (`Document::frame_textures`: Zelda 64 Link's eyes and mouth as the face word picks them),
/// for the page to swap per frame. `meshes` lists the meshes (their place in the skeleton's
/// `meshes`, which the glb's mesh extras carry) that change at some frame; `frames[f][k]` is
/// the index in `textures` that mesh `meshes[k]` shows at frame f, or -1 for its own (the glb's)
/// texture; no rows when nothing changes. Textures are RGBA8 rows from the top, as the glb's
/// PNGs hold them.
fn faces_api(doc: &Doc, q: &Query) -> Result<Value, Reply> {
    let anim = anim_param(doc, q)?;
    let skeleton = skeleton_param(doc, q, anim)?;
    if let Some(a) = anim {
        crate::cmd::export::check_plays_on(doc, a, skeleton).map_err(usage_error)?;
    }
    let frames = anim.and_then(|a| doc.animations().get(a)).map_or(1, |a| a.frames.max(1));
    let mut meshes: Vec<usize> = Vec::new();
    let mut textures: Vec<boneyard_core::model::Texture> = Vec::new();
    let mut per_frame: Vec<Vec<(usize, usize)>> = Vec::with_capacity(frames as usize);
    for f in 0..frames {
        let mut swaps = Vec::new();
        for (mesh, tex) in doc.frame_textures(skeleton, anim, f as f64).map_err(doc_error)? {
            let t = match textures.iter().position(|t| *t == tex) {
                Some(t) => t,
                None if textures.len() < MAX_FACE_TEXTURES => {
                    textures.push(tex);
                    textures.len() - 1
                }
                None => {
                    return Err(Reply::error(
                        500,
                        format!("more than {MAX_FACE_TEXTURES} distinct run-time textures in one clip"),
                    ))
                }
            };
            if !meshes.contains(&mesh) {
                meshes.push(mesh);
            }
            swaps.push((mesh, t));
        }
        per_frame.push(swaps);
    }
    meshes.sort_unstable();
    if meshes.is_empty() {
        // Nothing changes at run time (every family but Zelda 64's Link): no rows.
        per_frame.clear();
    }
    let frames: Vec<Value> = per_frame
        .iter()
        .map(|swaps| {
            let row: Vec<i64> = meshes
                .iter()
                .map(|m| swaps.iter().find(|(mesh, _)| mesh == m).map_or(-1, |&(_, t)| t as i64))
                .collect();
            json!(row)
        })
        .collect();
    let textures: Vec<Value> = textures
        .iter()
        .map(|t| {
            json!({
                "width": t.width,
                "height": t.height,
                "filter": match t.filter {
                    boneyard_core::model::TextureFilter::Point => "point",
                    boneyard_core::model::TextureFilter::ThreePoint => "three_point",
                },
                "rgba": &t.rgba[..],
            })
        })
        .collect();
    Ok(json!({ "skeleton": skeleton, "anim": anim, "meshes": meshes, "textures": textures, "frames": frames }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::best_clip::{clip_moves, placeholder_name};
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
        let page = String::from_utf8(r.body).unwrap();
        match BUNDLE {
            // Built with the bundle: the page loads it, and it is three.js.
            Some(js) => {
                assert!(page.contains("app.js"), "{page}");
                let r = route(d.as_ref(), "/app.js");
                assert_eq!((r.status, r.content_type), (200, "text/javascript; charset=utf-8"));
                assert_eq!(r.body, js.as_bytes());
                assert!(js.contains("GLTFLoader") || js.contains("glTF"), "the bundle holds three's glTF loader");
            }
            // Without it: a page that says how to build it, and no script.
            None => {
                assert!(page.contains("npm ci &amp;&amp; cd ..\ncargo build --release"), "{page}");
                assert!(!page.contains("<script"), "{page}");
                assert_eq!(route(d.as_ref(), "/app.js").status, 404);
            }
        }
        assert_eq!(route(d.as_ref(), "/style.css").status, 200);
        assert_eq!(route(d.as_ref(), "/../../etc/passwd").status, 404);
    }

    #[test]
    fn several_documents_are_served_by_doc() {
        // The demo baked at two rates: two documents, and a file that failed.
        let served = Served {
            docs: vec![
                Entry::new("a", "dir/a", "a", doc()),
                Entry::new("b", "dir/b", "b", Box::new(demo::baked_document(60.0))),
            ],
            errors: vec![json!({"file": "dir/c", "offset": 48, "message": "cut short"})],
            skipped: json!([{"file": "dir/notes.txt", "reason": "no family reads it"}]),
        };
        let get_all = |url: &str| {
            let r = route_all(&served, url);
            (r.status, serde_json::from_slice::<Value>(&r.body).unwrap())
        };
        let (status, v) = get_all("/api/docs");
        assert_eq!(status, 200);
        assert_eq!(
            v["documents"][1],
            json!({"index": 1, "name": "b", "file": "dir/b", "stem": "b", "family": "builtin", "skeletons": 1, "animations": 2, "runtime": []})
        );
        assert_eq!((v["open"].as_u64(), v["errors"][0]["offset"].as_u64()), (Some(0), Some(48)));
        assert_eq!(v["skipped"][0]["file"], "dir/notes.txt");
        // doc=N picks the document; none is the first; one that is not there is 400.
        let fps = |url: &str| get_all(url).1["animations"][0]["fps"].as_f64();
        assert_eq!(
            (fps("/api/list"), fps("/api/list?doc=0"), fps("/api/list?doc=1")),
            (Some(30.0), Some(30.0), Some(60.0))
        );
        for bad in ["2", "-1", "x", "18446744073709551616", "%231%00"] {
            let (status, v) = get_all(&format!("/api/pose?doc={bad}&anim=0"));
            assert_eq!(status, 400, "{bad}: {v}");
        }
        assert_eq!(get_all("/api/nothing?doc=1").0, 404);
        assert_eq!(route_all(&served, "/nothing").status, 404);
        // The icon browsers ask for on their own, and the one the page declares.
        for icon in ["/favicon.ico", "/favicon.svg"] {
            let r = route_all(&served, icon);
            assert_eq!((r.status, r.content_type), (200, SVG), "{icon}");
            assert!(r.body.starts_with(b"<svg"), "{icon}");
        }
        assert!(INDEX_HTML.contains(r#"rel="icon""#) && BUILD_ME_HTML.contains(r#"rel="icon""#));
    }

    #[test]
    fn the_page_opens_on_the_document_with_most_clips_on_a_model() {
        type DemoDoc = boneyard_core::memory::BakedDocument;
        let d = |name: &str, doc: DemoDoc| Entry::new(name, name, name, Box::new(doc));
        let meshed = || demo::baked_document(30.0);
        let mut bare = meshed();
        bare.skeletons[0].meshes.clear();
        let mut no_clips = bare.clone();
        no_clips.infos.clear();
        no_clips.clips.clear();
        let mut no_skeleton = no_clips.clone();
        no_skeleton.skeletons.clear();
        let open = |docs: Vec<Entry>| opening_document(&Served { docs, errors: vec![], skipped: json!([]) });
        // Clips on a model first, then clips on a skeleton, then a skeleton, then the first.
        assert_eq!(
            open(vec![d("n", no_skeleton.clone()), d("b", bare.clone()), d("m", meshed()), d("m2", meshed())]),
            2
        );
        assert_eq!(open(vec![d("n", no_skeleton.clone()), d("c", no_clips.clone()), d("b", bare.clone())]), 2);
        assert_eq!(open(vec![d("n", no_skeleton.clone()), d("c", no_clips)]), 1);
        assert_eq!(open(vec![d("n", no_skeleton.clone()), d("n2", no_skeleton)]), 0);
    }

    /// The JSON chunk of a glb.
    fn glb_json(bytes: &[u8]) -> Value {
        assert_eq!(&bytes[0..4], b"glTF");
        let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        serde_json::from_slice(&bytes[20..20 + len]).unwrap()
    }

    #[test]
    fn glb_is_the_exports_own() {
        let d = doc();
        let r = route(d.as_ref(), "/api/glb?skeleton=demo&anim=demo_wave");
        assert_eq!((r.status, r.content_type), (200, GLB));
        // Byte for byte what `export --skeleton demo --anim demo_wave` writes.
        let (sk, anims) = crate::cmd::export::selection(d.as_ref(), &["demo_wave".into()], Some("demo")).unwrap();
        let opts = boneyard_export::ExportOptions::default();
        assert_eq!(r.body, boneyard_export::glb(d.as_ref(), sk, &anims, &opts).unwrap());
        let j = glb_json(&r.body);
        assert_eq!(j["animations"].as_array().unwrap().len(), 1);
        assert_eq!(j["animations"][0]["name"], "demo_wave");
        assert_eq!(j["animations"][0]["extras"]["index"], 1);
        assert_eq!(j["animations"][0]["extras"]["in_place"], false);
        assert_eq!(j["nodes"][10]["name"], "head");
        // Two clips, by index, percent-encoded, in place.
        let r = route(d.as_ref(), "/api/glb?anim=%230&anim=%231&in_place=1");
        assert_eq!(r.status, 200);
        let j = glb_json(&r.body);
        let names: Vec<&str> =
            j["animations"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["demo_walk", "demo_wave"]);
        assert_eq!(j["animations"][0]["extras"]["in_place"], true);
        // No clip: the model alone.
        let r = route(d.as_ref(), "/api/glb?skeleton=0");
        assert_eq!(r.status, 200);
        assert!(glb_json(&r.body).get("animations").is_none_or(|a| a.as_array().is_some_and(|a| a.is_empty())));
    }

    #[test]
    fn glb_bad_requests_are_400() {
        let d = doc();
        let many = ["anim=0"; MAX_GLB_CLIPS + 1].join("&");
        for url in [
            "/api/glb?anim=nope".to_string(),
            "/api/glb?anim=%2399".into(),
            "/api/glb?skeleton=7".into(),
            "/api/glb?skeleton=7&anim=0".into(),
            "/api/glb?anim=0&anim=%230".into(),
            "/api/glb?anim=0&in_place=maybe".into(),
            "/api/glb?skeleton=%E2%82".into(),
            format!("/api/glb?{many}"),
        ] {
            let (status, v) = get(d.as_ref(), &url);
            assert_eq!(status, 400, "{url}: {v}");
            assert!(v["error"].as_str().is_some_and(|m| !m.is_empty()), "{url}");
        }
    }

    #[test]
    fn opens_on_a_moving_clip() {
        let d = doc();
        let (_, v) = get(d.as_ref(), "/api/list");
        assert_eq!(v["open"], json!({ "skeleton": 0, "anim": 0 }));
        assert!(placeholder_name("ERROR") && placeholder_name(" ") && placeholder_name("dummy_01"));
        assert!(!placeholder_name("A_WALK_L_02") && !placeholder_name("gPlayerAnim_link_normal_walk"));
        assert!(clip_moves(d.as_ref(), 0, 0) && clip_moves(d.as_ref(), 0, 1));
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

    fn open_real(files: &[&str], test: &str) -> Option<Box<dyn Document>> {
        let paths: Option<Vec<std::path::PathBuf>> =
            files.iter().map(|f| boneyard_core::testdata::shared_data(f, test)).collect();
        let opened = crate::inputs::open(&paths?).unwrap();
        opened.docs.into_iter().next()
    }

    /// Link drawn again in the tunic and with the shield the page chooses: the glb is the one a
    /// run started with `--tunic` and `--shield` serves, byte for byte.
    #[test]
    fn the_page_chooses_links_tunic_and_shield() {
        let z = "z64/oot-gc-eu-mq-dbg";
        let test = "view: run-time state chosen in the page";
        let (Some(link), Some(nuts)) = (
            boneyard_core::testdata::shared_data(&format!("{z}/object_link_boy"), test),
            boneyard_core::testdata::shared_data(&format!("{z}/object_dekunuts"), test),
        ) else {
            return;
        };
        let serve = |runtime: &[(&str, &str)]| {
            let options = boneyard_core::OpenOptions {
                runtime: runtime.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect(),
                ..Default::default()
            };
            // Two documents (named together, the files would be one).
            let docs = [&link, &nuts].into_iter().flat_map(|f| {
                let plan = crate::inputs::plan(std::slice::from_ref(f)).unwrap();
                let done = crate::batch::open_all(plan, &options).collect().unwrap();
                entries(done.ok, done.names, &options)
            });
            Served { docs: docs.collect(), errors: vec![], skipped: json!([]) }
        };
        let served = serve(&[]);
        let docs = docs_json(&served);
        let names: Vec<&str> =
            docs["documents"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["object_link_boy", "object_dekunuts"]);
        assert_eq!(
            docs["documents"][0]["runtime"],
            json!([
                {"key": "tunic", "values": ["kokiri", "goron", "zora"], "value": null},
                {"key": "shield", "values": ["none", "deku", "hylian", "mirror"], "value": null},
            ])
        );
        // The Deku Scrub is drawn the same whatever Link wears: nothing to choose, and a
        // choice asked for is not read.
        assert_eq!(docs["documents"][1]["runtime"], json!([]));
        let glb = |served: &Served, q: &str| {
            let r = route_all(served, &format!("/api/glb?skeleton=gLinkAdultSkel{q}"));
            assert_eq!(r.status, 200, "{q}: {}", String::from_utf8_lossy(&r.body));
            r.body
        };
        let nuts_glb = |q: &str| route_all(&served, &format!("/api/glb?doc=1{q}")).body;
        assert_eq!(nuts_glb("&tunic=goron"), nuts_glb(""));
        let default = glb(&served, "");
        // The default tunic asked for by name: opened again, drawn the same.
        assert_eq!(glb(&served, "&tunic=kokiri"), default);
        let goron = glb(&served, "&tunic=goron&shield=mirror");
        assert_ne!(goron, default);
        assert_eq!(glb(&served, "&tunic=Goron&shield=MIRROR"), goron);
        // What `view --tunic goron --shield mirror` serves.
        let started = serve(&[("tunic", "goron"), ("shield", "mirror")]);
        assert_eq!(glb(&started, ""), goron);
        assert_eq!(docs_json(&started)["documents"][0]["runtime"][0]["value"], "goron");
        // ... and back to the default there.
        assert_eq!(glb(&started, "&tunic=kokiri&shield=hylian"), glb(&served, "&shield=hylian"));
        // The shield chosen, the warning that said which one was assumed is gone.
        let warned = |q: &str| {
            let (_, v) = get(served.docs[0].doc.as_ref(), "/api/list");
            let v = if q.is_empty() {
                v
            } else {
                serde_json::from_slice::<Value>(&route_all(&served, &format!("/api/list?{q}")).body).unwrap()
            };
            v["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w["message"].as_str().unwrap().contains("--shield none, deku"))
        };
        assert!(warned(""));
        assert!(!warned("shield=none"));
        let r = route_all(&served, "/api/glb?tunic=red");
        assert_eq!(r.status, 400);
        let e = serde_json::from_slice::<Value>(&r.body).unwrap();
        assert_eq!(e["error"], "tunic \"red\": one of kokiri, goron, zora");
        let r = route_all(&served, "/api/glb?shield=mirrror");
        let e = serde_json::from_slice::<Value>(&r.body).unwrap();
        assert_eq!(e["error"], "shield \"mirrror\": one of none, deku, hylian, mirror; did you mean \"mirror\"?");
    }

    #[test]
    fn real_files_open_on_a_moving_clip() {
        // Shenmue's MOTION.BIN starts with clips named ERROR: the page opens on the first real
        // motion instead, and serves one clip of its 1000-odd at a time.
        let Some(d) = open_real(&["shenmue/motion.bin"], "view: MOTION.BIN opening clip") else { return };
        let (_, v) = get(d.as_ref(), "/api/list");
        let a = v["open"]["anim"].as_u64().unwrap() as usize;
        let name = &d.animations()[a].name;
        assert!(!placeholder_name(name), "{name}");
        assert_eq!(d.animations()[0].name, "ERROR", "the data's first clip is still a placeholder");
        assert!(clip_moves(d.as_ref(), v["open"]["skeleton"].as_u64().unwrap() as usize, a));
        let r = route(d.as_ref(), &format!("/api/glb?anim=%23{a}"));
        assert_eq!(r.status, 200);
        assert_eq!(glb_json(&r.body)["animations"].as_array().unwrap().len(), 1);
        let all = (0..=MAX_GLB_CLIPS).map(|k| format!("anim=%23{k}")).collect::<Vec<_>>().join("&");
        assert_eq!(route(d.as_ref(), &format!("/api/glb?{all}")).status, 400);

        // Link: the adult skeleton (the one with most bones and meshes), textured.
        let z = "z64/oot-gc-eu-mq-dbg";
        let files = [format!("{z}/object_link_boy"), format!("{z}/gameplay_keep"), format!("{z}/link_animetion")];
        let files: Vec<&str> = files.iter().map(|s| s.as_str()).collect();
        let Some(d) = open_real(&files, "view: Link opening clip") else { return };
        let (_, v) = get(d.as_ref(), "/api/list");
        let sk = v["open"]["skeleton"].as_u64().unwrap() as usize;
        assert_eq!(d.skeletons()[sk].name, "gLinkAdultSkel");
        let r = route(d.as_ref(), "/api/glb?skeleton=gLinkAdultSkel&anim=gPlayerAnim_link_normal_walk");
        assert_eq!(r.status, 200);
        let j = glb_json(&r.body);
        assert!(j["images"].as_array().is_some_and(|i| !i.is_empty()), "the export's textures are in it");
        assert_eq!(j["animations"][0]["name"], "gPlayerAnim_link_normal_walk");

        // The face per frame: the first adult clip that shows another face than the default.
        let (a, f) = (0..d.animations().len())
            .filter(|&a| d.skeleton_for(a) == Some(sk))
            .find_map(|a| {
                (0..d.animations()[a].frames)
                    .find(|&f| !d.frame_textures(sk, Some(a), f as f64).unwrap().is_empty())
                    .map(|f| (a, f))
            })
            .expect("some Link clip changes his face");
        let (status, v) = get(d.as_ref(), &format!("/api/faces?skeleton={sk}&anim=%23{a}"));
        assert_eq!(status, 200);
        let frames = v["frames"].as_array().unwrap();
        assert_eq!(frames.len(), d.animations()[a].frames as usize);
        let meshes: Vec<u64> = v["meshes"].as_array().unwrap().iter().map(|m| m.as_u64().unwrap()).collect();
        let swaps = d.frame_textures(sk, Some(a), f as f64).unwrap();
        for (mesh, tex) in &swaps {
            let k = meshes.iter().position(|&m| m == *mesh as u64).unwrap();
            let t = &v["textures"][frames[f as usize][k].as_u64().unwrap() as usize];
            assert_eq!((t["width"].as_u64(), t["height"].as_u64()), (Some(tex.width as u64), Some(tex.height as u64)));
            let rgba: Vec<u8> = t["rgba"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u8).collect();
            assert!(rgba[..] == tex.rgba[..], "mesh {mesh} at frame {f}");
        }
        // Every swapped mesh is in the glb, its place in the skeleton's meshes in its extras.
        let in_glb: Vec<u64> =
            j["meshes"].as_array().unwrap().iter().filter_map(|m| m["extras"]["mesh"].as_u64()).collect();
        assert!(meshes.iter().all(|m| in_glb.contains(m)), "{meshes:?} in {in_glb:?}");
        // A clip on a skeleton it does not play on, and clips of two skeletons in one glb: the
        // caller's mistake (400), as `pose`/`export` refuse them (the pose was answered with
        // the arrow's 4-bone clip on Link's 21 limbs; the glb failed in the exporter, 500).
        let arrow = (0..d.animations().len()).find(|&a| d.skeleton_for(a).is_some_and(|s| s != sk)).unwrap();
        let link = (0..d.animations().len()).find(|&a| d.skeleton_for(a) == Some(sk)).unwrap();
        let (status, refused) = get(d.as_ref(), &format!("/api/pose?anim=%23{arrow}&frame=3&skeleton={sk}"));
        assert_eq!(status, 400, "{refused}");
        assert!(refused["error"].as_str().unwrap().contains("plays on skeleton"), "{refused}");
        assert_eq!(route(d.as_ref(), &format!("/api/glb?anim=%23{link}&anim=%23{arrow}")).status, 400);
        assert_eq!(route(d.as_ref(), &format!("/api/faces?anim=%23{arrow}&skeleton={sk}")).status, 400);
        println!(
            "{}: {} meshes change face, {} textures, frame {f} swaps {}",
            d.animations()[a].name,
            meshes.len(),
            v["textures"].as_array().unwrap().len(),
            swaps.len()
        );
    }

    #[test]
    fn documents_without_run_time_textures_have_no_face_rows() {
        let d = doc();
        let (status, v) = get(d.as_ref(), "/api/faces?anim=demo_walk");
        assert_eq!(status, 200);
        assert_eq!((v["meshes"].as_array().unwrap().len(), v["frames"].as_array().unwrap().len()), (0, 0));
        assert_eq!(get(d.as_ref(), "/api/faces?anim=nope").0, 400);
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
        let alphabet = b"/?&=%#+.-0123456789abcdefAFZrestanimframeskeletonpose/apilistmeshsampleglbin_place\xc3\xa9 ";
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..3000 {
            let mut url = String::from(
                ["/api/pose?", "/api/sample?", "/api/mesh?", "/api/list?", "/", "/api/glb?"][(x % 6) as usize],
            );
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
        assert_eq!(http::percent_decode("a%20b+c%2"), "a b c%2");
        assert_eq!(http::percent_decode("%"), "%");
        assert_eq!(http::percent_decode("%4"), "%4");
        assert_eq!(http::percent_decode("%41%42"), "AB");
    }

    #[test]
    fn loopback_request() {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let d = Served { docs: vec![Entry::new("demo", "demo", "demo", doc())], errors: vec![], skipped: json!([]) };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let ask = |req: &[u8]| {
            let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
            c.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
            c.write_all(req).unwrap();
            let mut out = Vec::new();
            let _ = c.read_to_end(&mut out);
            String::from_utf8_lossy(&out).into_owned()
        };
        std::thread::scope(|s| {
            s.spawn(|| serve_on(&listener, &d, port, server::Limits::default(), &stop));
            let ok = ask(
                format!("GET /api/list HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").as_bytes()
            );
            assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
            assert!(ok.contains("demo_walk"));
            // The cached list is the same answer.
            let again = ask(b"GET /api/list HTTP/1.0\r\n\r\n");
            assert_eq!(again.split_once("\r\n\r\n").map(|x| x.1), ok.split_once("\r\n\r\n").map(|x| x.1));
            let head = ask(b"HEAD /api/list HTTP/1.0\r\n\r\n");
            assert!(head.starts_with("HTTP/1.1 200") && head.ends_with("\r\n\r\n"), "{head}");
            let evil = ask(b"GET /api/list HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n");
            assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
            // Two requests on one connection (keep-alive, pipelined).
            let two = ask(b"GET /style.css HTTP/1.1\r\n\r\nGET /api/nothing HTTP/1.1\r\nConnection: close\r\n\r\n");
            assert!(two.starts_with("HTTP/1.1 200") && two.contains("HTTP/1.1 404"), "{two}");
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
            let _ = std::net::TcpStream::connect(("127.0.0.1", port));
        });
    }

    #[test]
    fn request_heads() {
        let h = http::parse_head(b"GET /api/pose?anim=%231 HTTP/1.1\r\nHost:  127.0.0.1:8 \r\nX-A: b\r\n\r\n").unwrap();
        assert_eq!((h.method.as_str(), h.target.as_str(), h.http11), ("GET", "/api/pose?anim=%231", true));
        assert_eq!(h.header("host"), Some("127.0.0.1:8"));
        assert!(h.keep_alive());
        assert_eq!(http::admit(&h, 8), Ok(()));
        assert_eq!(http::admit(&h, 9).unwrap_err().status, 403);
        let status = |req: &[u8]| match http::parse_head(req) {
            Ok(h) => http::admit(&h, 8).err().map_or(200, |r| r.status),
            Err(r) => r.status,
        };
        assert_eq!(status(b"GET / HTTP/1.0\n\n"), 200);
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n"), 413);
        assert_eq!(status(b"PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), 413);
        assert_eq!(status(b"GET / HTTP/1.1\r\nContent-Length: 1\r\n\r\n"), 413);
        assert_eq!(status(b"GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"), 200);
        assert_eq!(status(b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n"), 400);
        assert_eq!(status(b"POST / HTTP/1.1\r\n\r\n"), 405);
        assert_eq!(status(b"DELETE / HTTP/1.1\r\n\r\n"), 405);
        assert_eq!(status(b"GET / HTTP/2.0\r\n\r\n"), 505);
        assert_eq!(status(b"GET /  HTTP/1.1\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/1.1\r\n folded\r\n\r\n"), 400);
        assert_eq!(status(b"GET / HTTP/1.1\r\nno colon\r\n\r\n"), 400);
        assert_eq!(status(b"\xff / HTTP/1.1\r\n\r\n"), 400);
        // A header value of Latin-1 (a cookie another program set): answered; two Hosts: not.
        assert_eq!(status(b"GET / HTTP/1.1\r\nUser-Agent: caf\xe9\r\n\r\n"), 200);
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400);
        // Hosts: the loopback names with the port served; without a port, http's 80.
        let host = |h: &str, port: u16| {
            let head = http::parse_head(format!("GET / HTTP/1.1\r\nHost: {h}\r\n\r\n").as_bytes()).unwrap();
            http::admit(&head, port).err().map_or(200, |r| r.status)
        };
        for (h, port, want) in [
            ("127.0.0.1:8", 8, 200),
            ("LOCALHOST:8", 8, 200),
            ("127.0.0.1", 80, 200),
            ("localhost", 80, 200),
            ("127.0.0.1", 8, 403),
            ("127.0.0.1:80", 8, 403),
            ("127.0.0.1:", 80, 403),
            ("127.0.0.1:x", 80, 403),
            ("evil.example:8", 8, 403),
            ("evil.example", 80, 403),
            ("127.0.0.1.evil:8", 8, 403),
        ] {
            assert_eq!(host(h, port), want, "Host: {h} on port {port}");
        }
        let many: String = (0..=http::MAX_HEADERS).map(|i| format!("X-{i}: 1\r\n")).collect();
        assert_eq!(status(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()), 431);
        // The head's end, and the cap on looking for it.
        assert_eq!(http::head_end(b"GET / HTTP/1.1\r\n\r\nrest"), Some(18));
        assert_eq!(http::head_end(b"GET / HTTP/1.1\r\n"), None);
        let long = [b"GET /".as_slice(), &vec![b'a'; http::MAX_HEAD], b" HTTP/1.1\r\n\r\n"].concat();
        assert!(http::head_too_long(&long));
        assert_eq!(http::parse_head(&long).unwrap_err().status, 431);
    }
}
