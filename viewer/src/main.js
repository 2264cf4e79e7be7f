// boneyard viewer: three.js over the local API of `boneyard view`. The model, its skin, its
// textures and its clips are the glb that `boneyard export` writes (/api/glb), loaded with
// GLTFLoader and played with AnimationMixer; nothing is fetched from anywhere but the page's
// own server.
//
// Frames are the engine's: frame f of a clip is its glTF key at Math.fround(f / fps) seconds
// (boneyard writes key times as f32 f/fps), played once and clamped so the last frame is
// reached rather than wrapped to 0.
//
// Run-time textures (Zelda 64 Link's eyes and mouth, which the clip's face word picks per frame)
// come from /api/faces and replace the glb's own (the default face) frame by frame.
//
// Several documents (a folder's files, files of different games): /api/docs lists them and
// the files that failed to read, which the page shows; every other request names its document
// (doc=N). A load that fails leaves the lists on what the scene shows.
//
// Test hook: window.boneyard = { ready, whenReady, docs, list, openDoc(i), select(skeleton,
// anim, {rootMotion}), settled(), setFrame(f), play(on), jointWorldPositions(),
// projectedJoints(), faceTextures(), state() }.

import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const $ = (id) => document.getElementById(id);
const canvas = $('view');

// ---------------------------------------------------------------- scene

const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
renderer.setClearColor(0x24282f);
const scene = new THREE.Scene();
const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
const controls = new OrbitControls(camera, canvas);
controls.enableDamping = false;
scene.add(new THREE.HemisphereLight(0xffffff, 0x444455, 1.5));
const sun = new THREE.DirectionalLight(0xffffff, 1.2);
scene.add(sun);
scene.add(sun.target);
let grid = null;

const state = {
  docs: null, // /api/docs
  doc: -1, // the document shown
  list: null, // its /api/list
  runtime: {}, // run-time state chosen for it ({tunic: 'goron'}; '' or absent: as the run was started)
  skeleton: -1,
  anim: -1, // -1: no clip (rest pose)
  rootMotion: true,
  frame: 0, // engine frames, fractional while playing
  playing: false,
  speed: 1,
  loop: true,
  model: null, // { gltf, bytes, joints: Object3D[], names, clip, action, mixer, fps, frames, extent }
  overlay: null,
  capsules: null,
  loading: 0, // generation counter: a newer select wins
  error: null,
  pending: Promise.resolve(), // the last load the lists started
};

// ---------------------------------------------------------------- data

// fetch, asking again (up to 5 times, after the Retry-After it names, at most 2 s) while the
// viewer answers 503: busy with other requests (many run-time variants asked at once).
async function fetchRetrying(url) {
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(url);
    if (r.status !== 503 || attempt >= 5) return r;
    const wait = Math.min(Number(r.headers.get('Retry-After')) || 1, 2);
    await new Promise((res) => setTimeout(res, wait * 1000 * (0.5 + Math.random())));
  }
}

async function getJSON(url) {
  const r = await fetchRetrying(url);
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

async function getGLB(url) {
  const r = await fetchRetrying(url);
  if (!r.ok) {
    const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    throw new Error(body.error || `HTTP ${r.status}`);
  }
  return r.arrayBuffer();
}

function status(msg, isError = false) {
  const s = $('status');
  s.textContent = msg;
  s.className = isError ? 'error' : 'muted';
  // The last outcome: an error is cleared by a later success (the test hook reads it).
  state.error = isError ? msg : null;
}

// The query naming document `d` with run-time state `runtime` (the shown document's by
// default): every /api route of a document takes both.
function docQuery(d = state.doc, runtime = state.runtime) {
  const rt = Object.entries(runtime)
    .filter(([, v]) => v)
    .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('');
  return `doc=${d}${rt}`;
}

function glbURL(sk, anim, rootMotion) {
  const a = anim >= 0 ? `&anim=%23${anim}` : '';
  return `/api/glb?${docQuery()}&skeleton=%23${sk}${a}&in_place=${rootMotion ? 0 : 1}`;
}

function parseGLB(bytes) {
  // A copy: GLTFLoader keeps views into the buffer, and the original is kept for download.
  return new Promise((resolve, reject) => new GLTFLoader().parse(bytes.slice(0), '', resolve, reject));
}

// ---------------------------------------------------------------- lists

// A clip's own skeleton's clips, and clips that play on none of the files' skeletons
// (`skeleton_index` null) where the bone count matches: `export --skeleton S --anim A` plays
// those too. On a skeleton of another size they could only fail.
function animsOf(sk) {
  const bones = state.list.skeletons[sk]?.bones;
  return state.list.animations.filter(
    (a) => a.skeleton_index === sk || (a.skeleton_index == null && a.bones === bones),
  );
}

// The documents, when there are several.
function fillDocs() {
  const docs = state.docs ? state.docs.documents : [];
  $('documents').hidden = docs.length < 2;
  const sel = $('doc');
  const q = $('doc-filter').value.trim().toLowerCase();
  sel.replaceChildren();
  // Files with nothing to show (a baserom/'s texture and scene objects: 116 of its 207) are
  // listed after the others, under their own heading.
  const empty = document.createElement('optgroup');
  empty.label = 'nothing to show';
  for (const d of docs) {
    const label = `${d.name} (${d.skeletons} skeleton${d.skeletons === 1 ? '' : 's'}, ${d.animations} clip${d.animations === 1 ? '' : 's'})`;
    if (q && !label.toLowerCase().includes(q)) continue;
    const opt = new Option(label, String(d.index), false, d.index === state.doc);
    opt.title = `${d.file} (${d.family})`;
    if (d.skeletons === 0 && d.animations === 0) empty.append(opt);
    else sel.add(opt);
  }
  if (empty.children.length) sel.append(empty);
  $('doc-count').textContent = `${sel.options.length} / ${docs.length}`;
}

// A failed file as the CLI says it: "FILE: at byte offset N (0xN): MESSAGE".
function errorLine(e) {
  const at = e.offset == null ? '' : ` at byte offset ${e.offset} (0x${Number(e.offset).toString(16)}):`;
  return `${e.file}:${at} ${e.message}`;
}

// The files that failed to read (each named, with its error), and those a folder walk did
// not read (folded).
function showProblems() {
  const errors = (state.docs && state.docs.errors) || [];
  const skipped = (state.docs && state.docs.skipped) || [];
  $('problems').hidden = !errors.length && !skipped.length;
  $('problem-count').textContent = errors.length ? `· ${errors.length} failed` : '';
  $('failed').replaceChildren(
    ...errors.map((e) => {
      const li = document.createElement('li');
      li.textContent = errorLine(e);
      return li;
    }),
  );
  const det = $('skipped-files');
  det.hidden = !skipped.length;
  det.querySelector('summary').textContent =
    `${skipped.length} file${skipped.length === 1 ? '' : 's'} not read (no family reads them, or not files)`;
  det.querySelector('ul').replaceChildren(
    ...skipped.map((x) => {
      const li = document.createElement('li');
      li.textContent = `${x.file}: ${x.reason}`;
      return li;
    }),
  );
}

// What the reader said of this document's files (`list --json`'s warnings: skipped, guessed or
// approximated), folded under their count; the CLI says the same on stderr.
function showWarnings() {
  const ws = (state.list && state.list.warnings) || [];
  const sec = $('warnings');
  sec.hidden = !ws.length;
  sec.querySelector('summary').textContent = `${ws.length} warning${ws.length === 1 ? '' : 's'} on these files`;
  sec.querySelector('ul').replaceChildren(
    ...ws.map((w) => {
      const li = document.createElement('li');
      const file = String(w.file || '').split(/[\\/]/).pop();
      li.textContent = errorLine({ file, offset: w.offset, message: w.message });
      return li;
    }),
  );
}

// ---------------------------------------------------------------- run-time state

// A document's run-time state as the run was started: {key: value or ''}.
function runtimeOf(doc) {
  return Object.fromEntries((doc.runtime || []).map((r) => [r.key, r.value || '']));
}

// Run-time state the shown document's drawing depends on (Link's tunic and shield): a choice
// each, the document drawn again with it (as `--tunic`, `--shield` draw it).
function fillRuntime() {
  const doc = state.docs && state.docs.documents[state.doc];
  const keys = (doc && doc.runtime) || [];
  const box = $('runtime-controls');
  $('runtime').hidden = !keys.length;
  box.replaceChildren(
    ...keys.map((r) => {
      const label = document.createElement('label');
      const sel = document.createElement('select');
      sel.id = `runtime-${r.key}`;
      // '' is the state the run was started in: the game's default, or `view --tunic X`'s.
      sel.add(new Option(r.value ? `as started (${r.value})` : 'default', ''));
      for (const v of r.values) sel.add(new Option(v, v));
      sel.value = state.runtime[r.key] || '';
      sel.addEventListener('change', () => reportErrors(setRuntime(r.key, sel.value)));
      label.append(`${r.key} `, sel);
      return label;
    }),
  );
}

// Draw the shown document with run-time state `key` = `value` ('' for the run's own): its list
// (the warnings change with it) and the clip shown, at the same frame and from the same view.
async function setRuntime(key, value) {
  const runtime = { ...state.runtime, [key]: value };
  const d = state.doc;
  const list = await getJSON(`/api/list?${docQuery(d, runtime)}`);
  if (d !== state.doc) return false;
  Object.assign(state, { list, runtime });
  fillRuntime();
  showWarnings();
  if (state.skeleton < 0) return true;
  return select(state.skeleton, state.anim, { keepFrame: true, keepCamera: true });
}

function fillSkeletons() {
  const sel = $('skeleton');
  const q = $('skeleton-filter').value.trim().toLowerCase();
  sel.replaceChildren();
  if (!state.list) return;
  for (const [i, s] of state.list.skeletons.entries()) {
    const label = `#${i} ${s.name || s.id} (${s.bones} bones${s.meshes ? `, ${s.meshes} meshes` : ''})`;
    if (q && !label.toLowerCase().includes(q) && !String(s.id).toLowerCase().includes(q)) continue;
    const opt = new Option(label, String(i), false, i === state.skeleton);
    opt.title = label; // the whole name where the list is too narrow for it
    sel.add(opt);
  }
  $('skeleton-count').textContent = `${sel.options.length} / ${state.list.skeletons.length}`;
}

function fillAnims() {
  const sel = $('anim');
  const q = $('anim-filter').value.trim().toLowerCase();
  sel.replaceChildren();
  if (!state.list) return;
  sel.add(new Option('(rest pose)', '-1', false, state.anim < 0));
  const all = state.skeleton >= 0 ? animsOf(state.skeleton) : [];
  let shown = 0;
  for (const a of all) {
    const label = `#${a.index} ${a.name}`;
    if (q && !label.toLowerCase().includes(q)) continue;
    const opt = new Option(label, String(a.index), false, a.index === state.anim);
    opt.title = `${label} (${a.frames} frames at ${a.fps} fps)`;
    sel.add(opt);
    shown++;
  }
  // Clips that play on no skeleton of these files and not on this one either: counted, so
  // that they never vanish without a word.
  const elsewhere = state.list.animations.filter((a) => a.skeleton_index == null && !all.includes(a)).length;
  $('anim-count').textContent =
    `${shown} / ${all.length}` + (elsewhere ? ` · ${elsewhere} more play on no skeleton of these files` : '');
}

// "#3", 3, an id or a name -> index in `items` (skeletons or animations).
function resolve(items, x, what) {
  if (x === null || x === undefined || x === -1 || x === 'rest') return -1;
  if (typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < items.length) return x;
  const s = String(x);
  if (/^#?\d+$/.test(s)) {
    const i = Number(s.replace('#', ''));
    if (i < items.length) return i;
  }
  let i = items.findIndex((it) => it.id === s);
  if (i < 0) i = items.findIndex((it) => it.name === s);
  if (i < 0) throw new Error(`no ${what} ${JSON.stringify(s)}`);
  return i;
}

// ---------------------------------------------------------------- model

function disposeModel() {
  const m = state.model;
  if (!m) return;
  m.mixer.stopAllAction();
  scene.remove(m.gltf.scene);
  if (m.faceSlots) for (const t of m.faceSlots.built) if (t) t.dispose();
  m.gltf.scene.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    for (const mat of [].concat(o.material || [])) {
      for (const v of Object.values(mat)) if (v && v.isTexture) v.dispose();
      mat.dispose();
    }
  });
  for (const extra of [state.overlay, state.capsules]) {
    if (!extra) continue;
    scene.remove(extra.group);
    extra.group.traverse((o) => {
      if (o.geometry) o.geometry.dispose();
      if (o.material) o.material.dispose();
    });
  }
  state.model = state.overlay = state.capsules = null;
}

// Nodes 0..bones of boneyard's glb are the skeleton's bones in the document's order.
function jointObjects(gltf, bones) {
  const byIndex = new Array(bones).fill(null);
  for (const [obj, assoc] of gltf.parser.associations) {
    if (assoc && assoc.nodes !== undefined && assoc.nodes < bones && !byIndex[assoc.nodes] && !obj.isMesh) {
      byIndex[assoc.nodes] = obj;
    }
  }
  return byIndex;
}

// Show document `i`: its lists, then the clip it opens on. The scene is emptied once its list
// has come (a clip of another document is not shown beside this one's lists).
async function openDoc(i) {
  const docs = state.docs.documents;
  const d = resolve(docs, i, 'document');
  if (d < 0) throw new Error('no document to show');
  const gen = ++state.loading;
  status(`loading ${docs[d].name}…`);
  // Another document starts as the run was started (`--tunic`); the same one keeps its choice.
  const runtime = d === state.doc ? state.runtime : runtimeOf(docs[d]);
  let list;
  try {
    list = await getJSON(`/api/list?${docQuery(d, runtime)}`);
  } catch (e) {
    if (gen !== state.loading) return false; // a newer selection is shown or on its way
    throw e;
  }
  if (gen !== state.loading) return false; // a newer selection is on its way
  state.playing = false;
  disposeModel();
  Object.assign(state, { doc: d, list, runtime, skeleton: -1, anim: -1, frame: 0 });
  const fam = list.family || '';
  $('family').textContent = `${fam}${fam ? ' · ' : ''}${(list.files || []).join(', ')}`;
  fillDocs();
  fillRuntime();
  showWarnings();
  fillSkeletons();
  fillAnims();
  showClipInfo();
  syncControls();
  if (!list.skeletons.length) {
    const n = list.animations.length;
    status(
      n
        ? `these files hold ${n} animation${n === 1 ? '' : 's'} but no skeleton to play them on: give the model's file with them`
        : 'these files hold no skeleton to show',
      true,
    );
    return false;
  }
  const open = list.open || {};
  await select(open.skeleton ?? 0, open.anim ?? -1);
  if (state.anim >= 0) {
    state.playing = true;
    syncControls();
  }
  return true;
}

async function select(skeleton, anim, opts = {}) {
  if (!state.list) throw new Error('no document is shown');
  const sk = resolve(state.list.skeletons, skeleton, 'skeleton');
  if (sk < 0) throw new Error('no skeleton to show');
  const a = resolve(state.list.animations, anim, 'animation');
  // Taken on once the load succeeds, like the skeleton and the clip.
  const rootMotion = opts.rootMotion !== undefined ? !!opts.rootMotion : state.rootMotion;
  const gen = ++state.loading;
  const info = state.list.skeletons[sk];
  const clipInfo = a >= 0 ? state.list.animations[a] : null;
  status(`loading ${info.name || info.id}${clipInfo ? ` / ${clipInfo.name}` : ''}…`);
  const keepFrame = opts.keepFrame && sk === state.skeleton && a === state.anim ? state.frame : 0;
  // The faces (textures the clip swaps at run time) are an extra: without them the clip plays
  // with the glb's own textures, and the status line says why.
  let facesError = null;
  let bytes, faces, gltf;
  try {
    [bytes, faces] = await Promise.all([
      getGLB(glbURL(sk, a, rootMotion)),
      a >= 0
        ? getJSON(`/api/faces?${docQuery()}&skeleton=%23${sk}&anim=%23${a}`).catch((e) => {
            facesError = e.message || String(e);
            return null;
          })
        : null,
    ]);
    gltf = await parseGLB(bytes);
  } catch (e) {
    if (gen !== state.loading) return false; // a newer selection is shown or on its way
    throw e;
  }
  if (gen !== state.loading) return false; // a newer selection is on its way
  disposeModel();
  state.skeleton = sk;
  state.anim = a;
  state.rootMotion = rootMotion;
  if (a < 0) state.playing = false; // the rest pose does not play
  const bones = info.bones;
  const joints = jointObjects(gltf, bones);
  const names = gltf.parser.json.nodes.slice(0, bones).map((n, i) => n.name ?? `bone${i}`);
  const parents = joints.map((j) => {
    const p = j && j.parent ? joints.indexOf(j.parent) : -1;
    return p;
  });
  const mixer = new THREE.AnimationMixer(gltf.scene);
  let clip = null;
  let action = null;
  if (a >= 0) {
    const js = gltf.parser.json.animations || [];
    const k = js.findIndex((x) => x.extras && x.extras.index === a);
    clip = gltf.animations[k >= 0 ? k : 0] || null;
    if (clip) {
      action = mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
    }
  }
  const fps = clipInfo ? clipInfo.fps : 30;
  const frames = clipInfo ? clipInfo.frames : 1;
  // A skeleton without a model: the export's stick figure is replaced by capsules.
  const noModel = !info.meshes;
  gltf.scene.traverse((o) => {
    if (o.isMesh && noModel) o.visible = false;
  });
  scene.add(gltf.scene);
  const faceSlots = faceSlotsOf(gltf, faces);
  state.model = { gltf, bytes, joints, names, parents, clip, action, mixer, fps, frames, noModel, faceSlots, extent: 1 };
  state.frame = Math.min(keepFrame, frames - 1);
  applyFrame();
  state.model.extent = measure();
  state.overlay = makeOverlay();
  if (noModel) state.capsules = makeCapsules();
  if (!opts.keepCamera) frameMotion();
  updateOverlay();
  fillSkeletons();
  fillAnims();
  showClipInfo();
  syncControls();
  const shown = `${info.name || info.id}${clipInfo ? ` / ${clipInfo.name}` : ''}`;
  if (facesError) status(`${shown} (drawn without its run-time textures: ${facesError})`);
  else status(shown);
  return true;
}

function applyFrame() {
  const m = state.model;
  if (!m) return;
  const f = Math.max(0, Math.min(state.frame, m.frames - 1));
  if (m.action) {
    m.action.reset(); // un-pause after clamping at the end
    m.mixer.setTime(Math.fround(f / m.fps));
  }
  applyFaces(m, Math.floor(f));
  m.gltf.scene.updateMatrixWorld(true);
}

// The meshes /api/faces swaps textures on: for each of its `meshes` (a place in the
// skeleton's meshes, which boneyard's glb writes in each mesh's extras), the three.js meshes
// drawing it with the glb's own map, and the run-time textures built once when first shown.
function faceSlotsOf(gltf, faces) {
  if (!faces || !faces.meshes.length) return null;
  const jsonMeshes = gltf.parser.json.meshes || [];
  const slots = faces.meshes.map((mesh) => ({ mesh, targets: [], current: -1 }));
  gltf.scene.traverse((o) => {
    if (!o.isMesh) return;
    const assoc = gltf.parser.associations.get(o);
    const j = assoc && assoc.meshes !== undefined ? jsonMeshes[assoc.meshes] : null;
    const k = j && j.extras ? faces.meshes.indexOf(j.extras.mesh) : -1;
    if (k >= 0) slots[k].targets.push({ material: o.material, own: o.material.map });
  });
  return { faces, slots, built: new Array(faces.textures.length).fill(null) };
}

// An RGBA8 run-time texture as the glb's would be sampled: rows from the top (flipY false, as
// GLTFLoader leaves the glb's images), sRGB, repeating, nearest for point-sampled formats.
function faceTexture(fs, k, like) {
  if (fs.built[k]) return fs.built[k];
  const t = fs.faces.textures[k];
  const tex = new THREE.DataTexture(new Uint8Array(t.rgba), t.width, t.height, THREE.RGBAFormat);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.flipY = false;
  tex.wrapS = like ? like.wrapS : THREE.RepeatWrapping;
  tex.wrapT = like ? like.wrapT : THREE.RepeatWrapping;
  tex.magFilter = tex.minFilter = t.filter === 'point' ? THREE.NearestFilter : THREE.LinearFilter;
  tex.generateMipmaps = false;
  tex.needsUpdate = true;
  fs.built[k] = tex;
  return tex;
}

// Frame f's run-time textures on their meshes (-1: the glb's own).
function applyFaces(m, f) {
  const fs = m.faceSlots;
  if (!fs) return;
  const row = fs.faces.frames[f] || [];
  fs.slots.forEach((slot, k) => {
    const want = row[k] ?? -1;
    if (want === slot.current) return;
    for (const t of slot.targets) {
      const map = want < 0 ? t.own : faceTexture(fs, want, t.own);
      if ((map === null) !== (t.material.map === null)) t.material.needsUpdate = true;
      t.material.map = map;
    }
    slot.current = want;
  });
}

// The largest |translation| of any joint at the current frame (the model's size, >= 1e-6).
function measure() {
  let e = 1e-6;
  const v = new THREE.Vector3();
  for (const j of state.model.joints) {
    if (!j) continue;
    j.getWorldPosition(v);
    e = Math.max(e, Math.abs(v.x), Math.abs(v.y), Math.abs(v.z));
  }
  return e;
}

// Joints at up to 48 frames spread over the clip, and the model at the current frame.
function motionBox() {
  const m = state.model;
  const box = new THREE.Box3();
  const keep = state.frame;
  const samples = Math.min(m.frames, 48);
  const v = new THREE.Vector3();
  for (let k = 0; k < samples; k++) {
    state.frame = samples > 1 ? Math.round((k * (m.frames - 1)) / (samples - 1)) : 0;
    applyFrame();
    for (const j of m.joints) if (j) box.expandByPoint(j.getWorldPosition(v));
  }
  state.frame = keep;
  applyFrame();
  if (!m.noModel) {
    const mb = new THREE.Box3().setFromObject(m.gltf.scene);
    if (!mb.isEmpty()) box.union(mb);
  }
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  return box;
}

function frameMotion() {
  const box = motionBox();
  const center = box.getCenter(new THREE.Vector3());
  const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-3);
  const dist = (radius / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2))) * 1.05;
  const dir = new THREE.Vector3(Math.sin(0.6), 0.35, Math.cos(0.6)).normalize();
  camera.position.copy(center).addScaledVector(dir, dist);
  camera.near = dist / 200;
  camera.far = dist * 50;
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
  sun.position.copy(center).add(new THREE.Vector3(radius, radius * 2, radius * 1.5));
  sun.target.position.copy(center);
  if (grid) {
    scene.remove(grid);
    grid.geometry.dispose();
    grid.material.dispose();
  }
  const size = radius * 4;
  grid = new THREE.GridHelper(size, 20, 0x5a6270, 0x3a404a);
  grid.position.set(center.x, box.min.y, center.z);
  grid.visible = $('show-grid').checked;
  scene.add(grid);
}

// ---------------------------------------------------------------- overlay and capsules

function makeOverlay() {
  const m = state.model;
  const group = new THREE.Group();
  const segs = m.parents.filter((p) => p >= 0).length;
  const lineGeo = new THREE.BufferGeometry();
  lineGeo.setAttribute('position', new THREE.BufferAttribute(new Float32Array(Math.max(segs, 1) * 6), 3));
  const lines = new THREE.LineSegments(
    lineGeo,
    new THREE.LineBasicMaterial({ color: 0xff9628, depthTest: false, transparent: true, opacity: 0.9 }),
  );
  lines.renderOrder = 10;
  lines.frustumCulled = false;
  const ptGeo = new THREE.BufferGeometry();
  ptGeo.setAttribute('position', new THREE.BufferAttribute(new Float32Array(m.joints.length * 3), 3));
  const points = new THREE.Points(
    ptGeo,
    new THREE.PointsMaterial({ color: 0xffd27a, size: 6, sizeAttenuation: false, depthTest: false, transparent: true }),
  );
  points.renderOrder = 11;
  points.frustumCulled = false;
  group.add(lines, points);
  group.visible = $('show-bones').checked;
  scene.add(group);
  return { group, lines, points };
}

function makeCapsules() {
  const m = state.model;
  const group = new THREE.Group();
  const r = m.extent * 0.025;
  const material = new THREE.MeshStandardMaterial({ color: 0xb8c2cc, roughness: 0.7, metalness: 0 });
  const cylGeo = new THREE.CylinderGeometry(1, 1, 1, 12, 1, true);
  const sphGeo = new THREE.SphereGeometry(1, 12, 8);
  const segments = [];
  const balls = [];
  m.joints.forEach((j, i) => {
    if (!j) return;
    const ball = new THREE.Mesh(sphGeo, material);
    ball.scale.setScalar(r);
    group.add(ball);
    balls.push([ball, i]);
    if (m.parents[i] >= 0) {
      const cyl = new THREE.Mesh(cylGeo, material);
      group.add(cyl);
      segments.push([cyl, m.parents[i], i]);
    }
  });
  group.visible = $('show-mesh').checked;
  scene.add(group);
  return { group, segments, balls, r };
}

const _a = new THREE.Vector3();
const _b = new THREE.Vector3();
const _up = new THREE.Vector3(0, 1, 0);

function updateOverlay() {
  const m = state.model;
  if (!m) return;
  if (state.overlay) {
    const lp = state.overlay.lines.geometry.attributes.position;
    const pp = state.overlay.points.geometry.attributes.position;
    let k = 0;
    m.joints.forEach((j, i) => {
      if (!j) return;
      j.getWorldPosition(_a);
      pp.setXYZ(i, _a.x, _a.y, _a.z);
      const p = m.parents[i];
      if (p >= 0) {
        m.joints[p].getWorldPosition(_b);
        lp.setXYZ(k++, _b.x, _b.y, _b.z);
        lp.setXYZ(k++, _a.x, _a.y, _a.z);
      }
    });
    lp.needsUpdate = pp.needsUpdate = true;
  }
  if (state.capsules) {
    const { segments, balls, r } = state.capsules;
    for (const [ball, i] of balls) m.joints[i].getWorldPosition(ball.position);
    for (const [cyl, p, i] of segments) {
      m.joints[p].getWorldPosition(_b);
      m.joints[i].getWorldPosition(_a);
      const d = _a.clone().sub(_b);
      const len = d.length();
      cyl.visible = len > 1e-9;
      if (!cyl.visible) continue;
      cyl.position.copy(_b).addScaledVector(d, 0.5);
      cyl.quaternion.setFromUnitVectors(_up, d.divideScalar(len));
      cyl.scale.set(r, len, r);
    }
  }
}

// ---------------------------------------------------------------- UI

function showClipInfo() {
  const dl = $('clip-info');
  dl.replaceChildren();
  const add = (k, v) => {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  };
  const s = state.list && state.list.skeletons[state.skeleton];
  if (!s) return;
  add('skeleton', `${s.name || s.id} (${s.bones} bones)`);
  add('source', s.source || s.id);
  if (state.anim >= 0) {
    const a = state.list.animations[state.anim];
    add('clip', `#${a.index} ${a.name}`);
    add('frames', `${a.frames} at ${a.fps} fps`);
    if (a.interpolation) add('keys', a.interpolation);
    if (a.format) add('format', a.format);
  }
  if (state.model && state.model.noModel) add('model', 'none: the rig as capsules');
}

function syncControls() {
  const m = state.model;
  const frames = m ? m.frames : 1;
  const slider = $('frame');
  slider.max = String(Math.max(frames - 1, 0));
  slider.value = String(Math.floor(state.frame));
  const shown = Math.floor(state.frame);
  $('frame-label').textContent =
    state.anim >= 0 && m ? `frame ${shown} / ${frames - 1} · ${m.fps} fps` : 'rest pose';
  $('play').textContent = state.playing ? 'Pause' : 'Play';
  $('root-motion').checked = state.rootMotion;
}

function setFrame(f) {
  const m = state.model;
  if (!m) return 0;
  f = Number(f);
  if (!Number.isFinite(f)) f = 0;
  state.playing = false; // scrubbing stops playback
  state.frame = Math.max(0, Math.min(f, m.frames - 1));
  applyFrame();
  updateOverlay();
  syncControls();
  render();
  return state.frame;
}

let last = performance.now();
function tick(now) {
  const dt = Math.min((now - last) / 1000, 0.25);
  last = now;
  const m = state.model;
  if (state.playing && m && m.action) {
    let f = state.frame + dt * m.fps * state.speed;
    if (f > m.frames - 1) {
      if (state.loop && m.frames > 1) f %= m.frames; // frame N-1 shows until the counter wraps
      else {
        f = m.frames - 1;
        state.playing = false;
      }
    }
    state.frame = f;
    applyFrame();
    updateOverlay();
    syncControls();
  }
  render();
  requestAnimationFrame(tick);
}

function resize() {
  const r = canvas.parentElement.getBoundingClientRect();
  const w = Math.max(1, Math.floor(r.width));
  const h = Math.max(1, Math.floor(r.height));
  if (canvas.width !== Math.floor(w * renderer.getPixelRatio()) || camera.aspect !== w / h) {
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }
}

function render() {
  resize();
  renderer.render(scene, camera);
}

// Hover: the joint nearest the pointer within 10 px, named in a tooltip.
canvas.addEventListener('pointermove', (e) => {
  const tip = $('tip');
  const m = state.model;
  if (!m || !$('show-bones').checked) {
    tip.hidden = true;
    return;
  }
  const rect = canvas.getBoundingClientRect();
  const x = e.clientX - rect.left;
  const y = e.clientY - rect.top;
  let best = -1;
  let bestD = 10;
  const v = new THREE.Vector3();
  m.joints.forEach((j, i) => {
    if (!j) return;
    j.getWorldPosition(v).project(camera);
    if (v.z > 1) return;
    const px = ((v.x + 1) / 2) * rect.width;
    const py = ((1 - v.y) / 2) * rect.height;
    const d = Math.hypot(px - x, py - y);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  if (best < 0) {
    tip.hidden = true;
    return;
  }
  tip.textContent = `#${best} ${m.names[best]}`;
  tip.style.left = `${x + 12}px`;
  tip.style.top = `${y + 12}px`;
  tip.hidden = false;
});
canvas.addEventListener('pointerleave', () => ($('tip').hidden = true));

// crates/cli/src/output.rs safe_name: every character but [A-Za-z0-9._-] becomes '_'.
function safeName(s) {
  // As crates/cli/src/output.rs safe_name: Rust's char::is_alphanumeric is Alphabetic or N*.
  const t = s.replace(/[^\p{Alphabetic}\p{N}._-]/gu, '_').replace(/^\.+|\.+$/g, '');
  return t || 'unnamed';
}

// The name `boneyard export --format glb` gives this file (crates/cli/src/cmd/export.rs):
// the skeleton's own file's stem or else the document's output stem (/api/list, /api/docs),
// then the skeleton's output label where the document has several, then the clip's name
// where one clip is chosen.
function downloadName() {
  const d = state.docs && state.docs.documents[state.doc];
  const file = (state.list.files && state.list.files[0]) || 'boneyard';
  const base = String(file).split(/[\\/]/).pop();
  const sks = state.list.skeletons;
  const s = sks[state.skeleton];
  // Named after the skeleton's own file where that is not the document's first.
  const stem = s.output_file || (d && d.stem) || (base.includes('.') ? base.slice(0, base.lastIndexOf('.')) : base);
  const sk = sks.length > 1 ? `_${s.output_label || s.id}` : '';
  const clip = state.anim >= 0 ? `_${state.list.animations[state.anim].name}` : '';
  return `${safeName(`${stem}${sk}${clip}`)}.glb`;
}

function download() {
  const m = state.model;
  if (!m) return;
  const url = URL.createObjectURL(new Blob([m.bytes], { type: 'model/gltf-binary' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = downloadName();
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// Names of error or placeholder clips (crates/cli/src/view.rs placeholder_name).
const PLACEHOLDER = /^\s*$|error|dummy|null|none|unused|blank|empty|placeholder|test|nothing/i;

// A load the lists started: its error is said, and the lists go back to what the scene shows
// (the row chosen stayed selected over the previous clip).
function reportErrors(p) {
  const done = p.catch((e) => {
    status(e.message || String(e), true);
    fillDocs();
    fillRuntime();
    fillSkeletons();
    fillAnims();
    syncControls();
    return false;
  });
  state.pending = done;
  return done;
}

function wire() {
  $('doc-filter').addEventListener('input', fillDocs);
  $('doc').addEventListener('change', (e) => reportErrors(openDoc(Number(e.target.value))));
  $('skeleton-filter').addEventListener('input', fillSkeletons);
  $('anim-filter').addEventListener('input', fillAnims);
  $('skeleton').addEventListener('change', (e) => {
    const sk = Number(e.target.value);
    // Like /api/list's `open`: the first clip whose name does not look like a placeholder.
    const clips = animsOf(sk);
    const first = clips.find((a) => !PLACEHOLDER.test(a.name)) || clips[0];
    reportErrors(select(sk, first ? first.index : -1));
  });
  $('anim').addEventListener('change', (e) => reportErrors(select(state.skeleton, Number(e.target.value))));
  $('play').addEventListener('click', () => {
    const m = state.model;
    if (!m || !m.action) return;
    if (!state.playing && state.frame >= m.frames - 1) state.frame = 0;
    state.playing = !state.playing;
    syncControls();
  });
  $('frame').addEventListener('input', (e) => {
    state.playing = false;
    setFrame(Number(e.target.value));
  });
  $('speed').addEventListener('change', (e) => (state.speed = Number(e.target.value) || 1));
  $('loop').addEventListener('change', (e) => (state.loop = e.target.checked));
  $('root-motion').addEventListener('change', (e) =>
    reportErrors(select(state.skeleton, state.anim, { keepFrame: true, keepCamera: false, rootMotion: e.target.checked })),
  );
  $('show-mesh').addEventListener('change', (e) => {
    const m = state.model;
    if (!m) return;
    m.gltf.scene.traverse((o) => {
      if (o.isMesh) o.visible = e.target.checked && !m.noModel;
    });
    if (state.capsules) state.capsules.group.visible = e.target.checked;
  });
  $('show-bones').addEventListener('change', (e) => {
    if (state.overlay) state.overlay.group.visible = e.target.checked;
  });
  $('show-grid').addEventListener('change', (e) => {
    if (grid) grid.visible = e.target.checked;
  });
  $('frame-all').addEventListener('click', () => state.model && frameMotion());
  $('download').addEventListener('click', download);
  window.addEventListener('keydown', (e) => {
    // The browser's own keys (Alt+arrows: back and forward) and a focused checkbox's space.
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target instanceof HTMLInputElement && e.target.type === 'checkbox' && e.key === ' ') return;
    if (e.target instanceof HTMLInputElement && e.target.type !== 'checkbox' && e.target.type !== 'range') return;
    if (e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') {
      e.preventDefault();
      $('play').click();
    } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      state.playing = false;
      setFrame(Math.round(state.frame) + (e.key === 'ArrowRight' ? 1 : -1));
    } else if (e.key === 'f') {
      $('frame-all').click();
    }
  });
}

// ---------------------------------------------------------------- test hook and start

let markReady;
const hook = {
  ready: false,
  whenReady: new Promise((r) => (markReady = r)),
  get docs() {
    return state.docs;
  },
  get list() {
    return state.list;
  },
  openDoc: (i) => openDoc(i),
  // Run-time state of the shown document ('' for the run's own), as its choice in the page.
  setRuntime: (key, value) => setRuntime(key, value),
  get runtime() {
    return { ...state.runtime };
  },
  select: (skeleton, anim, opts) => select(skeleton, anim, opts),
  // The last load started from the lists, settled (its error said and the lists reverted).
  settled: () => state.pending,
  setFrame,
  play(on = true) {
    state.playing = !!on;
    syncControls();
  },
  // Every joint's world position (three's getWorldPosition) at the current frame.
  jointWorldPositions() {
    const m = state.model;
    if (!m) return [];
    const v = new THREE.Vector3();
    return m.joints.map((j, i) => ({
      index: i,
      name: m.names[i],
      position: j ? j.getWorldPosition(v).toArray() : null,
    }));
  },
  // Every joint in canvas CSS pixels (null when behind the camera), for hovering tests.
  projectedJoints() {
    const m = state.model;
    if (!m) return [];
    const rect = canvas.getBoundingClientRect();
    const v = new THREE.Vector3();
    return m.joints.map((j) => {
      if (!j) return null;
      j.getWorldPosition(v).project(camera);
      if (v.z > 1) return null;
      return { x: ((v.x + 1) / 2) * rect.width, y: ((1 - v.y) / 2) * rect.height };
    });
  },
  // For each mesh /api/faces swaps: its place in the skeleton's meshes, the run-time texture
  // it shows (-1: the glb's own) and a digest of the pixels its material's map holds now.
  faceTextures() {
    const m = state.model;
    if (!m || !m.faceSlots) return [];
    return m.faceSlots.slots.map((slot) => {
      const map = slot.targets.length ? slot.targets[0].material.map : null;
      return { mesh: slot.mesh, texture: slot.current, targets: slot.targets.length, pixels: pixelDigest(map) };
    });
  },
  state() {
    const m = state.model;
    return {
      doc: state.doc,
      skeleton: state.skeleton,
      anim: state.anim,
      frame: state.frame,
      fps: m ? m.fps : null,
      frames: m ? m.frames : null,
      playing: state.playing,
      rootMotion: state.rootMotion,
      capsules: !!state.capsules,
      meshes: m ? countMeshes(m) : 0,
      error: state.error,
    };
  },
};
window.boneyard = hook;

// FNV-1a over a texture's RGBA8 pixels (a DataTexture's data, or the glb's image drawn to a
// canvas), with its size: "WxH:hash"; null without a map.
function pixelDigest(map) {
  if (!map || !map.image) return null;
  const img = map.image;
  let data = img.data;
  if (!data) {
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    data = g.getImageData(0, 0, img.width, img.height).data;
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], 0x01000193) >>> 0;
  return `${img.width}x${img.height}:${h.toString(16)}`;
}

function countMeshes(m) {
  let n = 0;
  m.gltf.scene.traverse((o) => {
    if (o.isMesh && o.visible) n++;
  });
  return n;
}

async function start() {
  wire();
  requestAnimationFrame(tick);
  state.docs = await getJSON('/api/docs');
  fillDocs();
  showProblems();
  await openDoc(state.docs.open ?? 0);
}

start()
  .catch((e) => status(e.message || String(e), true))
  .finally(() => {
    hook.ready = true;
    markReady(state.error);
  });
