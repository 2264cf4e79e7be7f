// Drive `boneyard view` in headless Chromium through the DevTools protocol (no libraries):
// start the viewer on FILE..., open the page, select SKELETON and ANIM through the page's test
// hook (window.boneyard), scrub to FRAME, and compare every joint's world position
// (three.js getWorldPosition) with `boneyard pose FILE... --skeleton S --anim A --frame F
// --json` (column-major world matrices: translation = elements 12..14) within TOL of the
// model's size (the largest |translation| of that pose). Saves a screenshot.
//
// usage: node --experimental-websocket check.mjs BIN CHROMIUM OUT.png SKELETON ANIM FRAME FILE...
//   SKELETON, ANIM: a name, id or #index; "-" keeps what the page opens on.
//   FRAME: an engine frame, or several (comma-separated; the first is shown and saved);
//   "-" takes the middle of the clip.
// A skeleton without a model must show as capsules, one with meshes as the export's meshes.
// env: TOL (default 1e-4), INTERACT=1 (also hover a joint for its name and play for a moment),
//   TUNIC=R,G,B (the screenshot must show that tunic colour: count the pixels whose hue is
//   the colour's, within 25 degrees, and whose saturation is at least half the colour's;
//   at least MIN_TUNIC_PIXELS, default 2000).
//   EXPECT_ERROR=TEXT (the page opens on an error saying TEXT, and nothing else is checked);
//   EXPECT_TEXT=ID=TEXT (the element ID's text contains TEXT once the page is ready);
//   FACE=ANIM:FRAME (Zelda 64 Link: at FRAME of ANIM the page shows the run-time eye/mouth
//   textures /api/faces lists for that frame, pixel for pixel, and at frame 0 the glb's own);
//   EXPECT_FAILED=TEXT (the page's list of the files that failed says TEXT);
//   RUNTIME=KEY=VALUE,... (after selecting, choose each run-time state in the page's own
//   controls, as a user does: the checks that follow are against `boneyard pose` and
//   `export` given `--KEY VALUE`).
// FILE... that make several documents (a folder): the page lists them, and pose and export are
// run on the first file of the document it shows.
// Always: no request to the page's server is answered 404 (the favicon was), and a clip whose
// load fails leaves the lists on the clip the scene shows.
// Exits 1 on a failed check, 2 on a broken setup.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';

const [bin, chromium, shotPath, skArg, animArg, frameArg, ...files] = process.argv.slice(2);
if (!files.length) {
  console.error('usage: check.mjs BIN CHROMIUM OUT.png SKELETON ANIM FRAME FILE...');
  process.exit(2);
}
const TOL = Number(process.env.TOL || 1e-4);
const label = path.basename(shotPath, '.png');
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}: ${what}`);
  if (!ok) failures.push(what);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const children = [];
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'boneyard-chromium-'));
async function cleanup() {
  await Promise.all(
    children.map(
      (c) =>
        new Promise((r) => {
          if (c.exitCode !== null || c.signalCode !== null) return r();
          c.on('exit', r);
          // Chromium runs in its own process group (detached): its helpers go with it.
          try {
            if (c === chrome) process.kill(-c.pid, 'SIGKILL');
            else c.kill('SIGKILL');
          } catch {
            c.kill('SIGKILL');
          }
          setTimeout(r, 3000);
        }),
    ),
  );
  // Chromium's helpers may still be writing the profile for a moment.
  try {
    fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (e) {
    console.error(`${label}: note: ${profile} left behind (${e.code})`);
  }
}
async function die(msg) {
  console.error(`${label}: ${msg}`);
  await cleanup();
  process.exit(2);
}
setTimeout(() => die('timed out after 120 s'), 120000).unref();

// A line from a child's output that matches `re`, within `ms`.
function waitLine(child, stream, re, ms, what) {
  return new Promise((resolve, reject) => {
    let buf = '';
    const t = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms: ${buf.slice(-500)}`)), ms);
    child[stream].on('data', (d) => {
      buf += d;
      const m = buf.match(re);
      if (m) {
        clearTimeout(t);
        resolve(m);
      }
    });
    child.on('exit', (code) => reject(new Error(`${what}: the process exited (${code}): ${buf.slice(-500)}`)));
  });
}

// The viewer, on a free port.
const view = spawn(bin, ['view', ...files, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
children.push(view);
view.stderr.on('data', (d) => process.stderr.write(`[view] ${d}`));
let pageURL;
try {
  pageURL = (await waitLine(view, 'stdout', /(http:\/\/127\.0\.0\.1:\d+\/)/, 60000, 'viewer URL'))[1];
} catch (e) {
  await die(e.message);
}

// Chromium, headless, WebGL through SwiftShader.
const chrome = spawn(
  chromium,
  [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu-sandbox',
    '--enable-unsafe-swiftshader',
    '--use-angle=swiftshader',
    '--use-gl=angle',
    '--ignore-gpu-blocklist',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-extensions',
    '--disable-background-networking',
    '--window-size=1280,800',
    `--user-data-dir=${profile}`,
    '--remote-debugging-port=0',
    'about:blank',
  ],
  { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
);
children.push(chrome);
let devtools;
try {
  devtools = (await waitLine(chrome, 'stderr', /DevTools listening on (ws:\/\/[^\s]+)/, 30000, 'DevTools endpoint'))[1];
} catch (e) {
  await die(e.message);
}
const port = new URL(devtools).port;
let pageTarget;
for (let k = 0; k < 50 && !pageTarget; k++) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  pageTarget = targets.find((t) => t.type === 'page');
  if (!pageTarget) await sleep(100);
}
if (!pageTarget) await die('Chromium shows no page');

const ws = new WebSocket(pageTarget.webSocketDebuggerUrl);
await new Promise((r, j) => {
  ws.addEventListener('open', r);
  ws.addEventListener('error', () => j(new Error('DevTools websocket failed')));
}).catch((e) => die(e.message));
let id = 0;
const pending = new Map();
const logs = [];
ws.addEventListener('message', (m) => {
  const d = JSON.parse(m.data);
  if (d.id && pending.has(d.id)) {
    pending.get(d.id)(d);
    pending.delete(d.id);
  }
  if (d.method === 'Runtime.consoleAPICalled') logs.push(`${d.params.type}: ${d.params.args.map((a) => a.value ?? a.description).join(' ')}`);
  if (d.method === 'Runtime.exceptionThrown') {
    const x = d.params.exceptionDetails;
    logs.push(`EXCEPTION ${x.exception ? x.exception.description : x.text}`);
  }
  if (d.method === 'Network.responseReceived' && d.params.response.url.startsWith(pageURL) && d.params.response.status === 404) {
    logs.push(`HTTP 404 ${d.params.response.url}`);
  }
  if (d.method === 'Network.requestWillBeSent' && !d.params.request.url.startsWith(pageURL) && !d.params.request.url.startsWith('blob:') && !d.params.request.url.startsWith('data:')) {
    logs.push(`OFF-HOST ${d.params.request.url}`);
  }
});
const send = (method, params = {}) =>
  new Promise((r) => {
    const i = ++id;
    pending.set(i, r);
    ws.send(JSON.stringify({ id: i, method, params }));
  });
async function evaluate(expression) {
  const d = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
  if (d.error) throw new Error(`${expression}: ${d.error.message}`);
  if (d.result.exceptionDetails) {
    const x = d.result.exceptionDetails;
    throw new Error(`${expression}: ${x.exception ? x.exception.description : x.text}`);
  }
  return d.result.result.value;
}

await send('Runtime.enable');
await send('Page.enable');
await send('Network.enable');
await send('Page.navigate', { url: pageURL });
const t0 = Date.now();
let ready = false;
while (!ready && Date.now() - t0 < 60000) {
  await sleep(100);
  ready = await evaluate('!!(window.boneyard && window.boneyard.ready)').catch(() => false);
}
if (!ready) await die(`the page was not ready within 60 s: ${JSON.stringify(logs)}`);
const opened = await evaluate('window.boneyard.state()');
console.log(`     ${label}: page ready in ${Date.now() - t0} ms, opened on skeleton #${opened.skeleton}, animation #${opened.anim}`);
// Files with nothing the page can play: it must say why (EXPECT_ERROR), and stop there.
if (process.env.EXPECT_ERROR) {
  check((opened.error || '').includes(process.env.EXPECT_ERROR), `the page says "${process.env.EXPECT_ERROR}" (${opened.error || 'no message'})`);
  check(!logs.some((l) => l.startsWith('EXCEPTION')), `no script errors ${JSON.stringify(logs.filter((l) => l.startsWith('EXCEPTION')))}`);
  ws.close();
  await cleanup();
  process.exit(failures.length ? 1 : 0);
}
check(!opened.error, `the page opened without error (${opened.error || 'none'})`);
// EXPECT_TEXT=ID=TEXT: the element ID's text, once the page is ready, contains TEXT.
if (process.env.EXPECT_TEXT) {
  const [el, ...rest] = process.env.EXPECT_TEXT.split('=');
  const want = rest.join('=');
  const got = await evaluate(`document.getElementById(${JSON.stringify(el)})?.textContent ?? ''`);
  check(got.includes(want), `#${el} says "${want}" (${got.length > 160 ? `${got.slice(0, 160)}...` : got})`);
}
// Several documents (a folder): listed, the files that failed named with their error; pose and
// export read the shown document's first file.
const docs = await evaluate('window.boneyard.docs');
let docFiles = files;
if (process.env.EXPECT_FAILED) {
  const failed = await evaluate(`document.getElementById('problems').hidden ? '' : document.getElementById('failed').textContent`);
  check(failed.includes(process.env.EXPECT_FAILED), `the page lists the file that failed: "${process.env.EXPECT_FAILED}" (${failed})`);
}
if (docs.documents.length > 1) {
  const shownDocs = await evaluate(`document.getElementById('documents').hidden ? 0 : document.getElementById('doc').options.length`);
  check(shownDocs === docs.documents.length,
    `the page lists the ${docs.documents.length} documents (${shownDocs} rows), opened on ${docs.documents[opened.doc].name}`);
  docFiles = [docs.documents[opened.doc].file];
}
const list = await evaluate('window.boneyard.list');
if (opened.anim >= 0) {
  const name = list.animations[opened.anim].name;
  check(!/error|dummy|placeholder/i.test(name), `it opens on a clip that is not a placeholder: ${name}`);
}

// Select, scrub.
const q = (x) => JSON.stringify(x);
const sk = skArg === '-' ? opened.skeleton : skArg;
const anim = animArg === '-' ? opened.anim : animArg;
await evaluate(`window.boneyard.select(${q(sk)}, ${q(anim)})`).catch((e) => die(e.message));
// RUNTIME: each key's <select> set and changed as a user does; the page draws again.
const runtimeArgs = [];
if (process.env.RUNTIME) {
  for (const pair of process.env.RUNTIME.split(',')) {
    const [key, value] = pair.split('=');
    const has = await evaluate(`(() => {
      const s = document.getElementById(${q(`runtime-${key}`)});
      if (!s || document.getElementById('runtime').hidden) return false;
      s.value = ${q(value)};
      s.dispatchEvent(new Event('change'));
      return true;
    })()`);
    check(has, `the page offers ${key} for this document`);
    await evaluate('window.boneyard.settled()');
    runtimeArgs.push(`--${key}`, value);
  }
  const chosen = await evaluate('window.boneyard.runtime');
  const after = await evaluate('window.boneyard.state()');
  check(
    process.env.RUNTIME.split(',').every((p) => chosen[p.split('=')[0]] === p.split('=')[1]) && !after.error,
    `the page draws with ${process.env.RUNTIME} (${JSON.stringify(chosen)}${after.error ? `, error: ${after.error}` : ''})`,
  );
}
const st = await evaluate('window.boneyard.state()');
// FRAME: one frame or a comma-separated list; the first is the one shown and screenshotted.
const frames = frameArg === '-' ? [Math.floor((st.frames - 1) / 2)] : frameArg.split(',').map(Number);
const frame = frames[0];
const clip = st.anim >= 0 ? list.animations[st.anim] : null;
const skInfo = list.skeletons[st.skeleton];
console.log(`     ${label}: ${skInfo.name || skInfo.id}, ${clip ? clip.name : 'rest'}, ${st.frames} frames at ${st.fps} fps, ${st.meshes} meshes shown`);

// Scrub to frame f on the page and compare every joint with boneyard's own pose.
async function compareAt(f) {
  await evaluate(`window.boneyard.setFrame(${f})`);
  const got = await evaluate('window.boneyard.jointWorldPositions()');
  const poseArgs = ['pose', ...docFiles, ...runtimeArgs, '--skeleton', `#${st.skeleton}`, '--frame', String(f), '--json'];
  if (st.anim >= 0) poseArgs.push('--anim', `#${st.anim}`);
  const expected = JSON.parse(execFileSync(bin, poseArgs, { maxBuffer: 1 << 28 }).toString());
  const bones = expected.bones;
  check(bones.length === got.length, `frame ${f}: ${got.length} joints on the page, ${bones.length} in pose`);
  let size = 0;
  for (const b of bones) for (const k of [12, 13, 14]) size = Math.max(size, Math.abs(b.matrix[k]));
  size = Math.max(size, 1e-6);
  let maxErr = 0;
  let where = '';
  for (const b of bones) {
    const g = got[b.index];
    if (!g || !g.position) {
      check(false, `frame ${f}: joint ${b.index} ${b.name} is missing on the page`);
      continue;
    }
    for (let k = 0; k < 3; k++) {
      const err = Math.abs(g.position[k] - b.matrix[12 + k]);
      if (!(err <= maxErr)) {
        maxErr = Number.isNaN(err) ? Infinity : err;
        where = `joint ${b.index} ${b.name} axis ${'xyz'[k]}: page ${g.position[k]}, pose ${b.matrix[12 + k]}`;
      }
    }
  }
  const rel = maxErr / size;
  check(
    rel <= TOL,
    `frame ${f}: joint world positions match boneyard pose: max error ${maxErr.toExponential(3)}, model size ${size}, relative ${rel.toExponential(3)} (tolerance ${TOL})${where ? `, worst ${where}` : ''}`,
  );
  // Joint nodes carry the bones' names (made unique by the exporter: "name.2" ...).
  check(got.every((g, i) => bones[i] && (g.name === bones[i].name || g.name.startsWith(`${bones[i].name}.`))), `frame ${f}: joint names match`);
}
for (const f of [...frames.slice(1), frame]) await compareAt(f);
if (!skInfo.meshes) check(st.capsules && st.meshes === 0, 'a skeleton without a model is drawn as capsules, not the stick figure');
else check(st.meshes > 0 && !st.capsules, `the export's meshes show (${st.meshes})`);

if (process.env.INTERACT === '1') {
  // Hover a joint: its name shows.
  const spot = await evaluate(`(() => {
    const c = document.getElementById('view').getBoundingClientRect();
    return { left: c.left, top: c.top, w: c.width, h: c.height };
  })()`);
  const proj = await evaluate(`window.boneyard.projectedJoints()`);
  const target = proj.find((p) => p && p.x > 5 && p.y > 5 && p.x < spot.w - 5 && p.y < spot.h - 5);
  if (target) {
    await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: spot.left + target.x, y: spot.top + target.y });
    await sleep(200);
    const tip = await evaluate(`document.getElementById('tip').hidden ? '' : document.getElementById('tip').textContent`);
    check(tip.startsWith('#') && tip.length > 2, `hovering a joint names it: ${JSON.stringify(tip)}`);
    await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 1, y: 1 });
  } else {
    check(false, 'a joint is on screen to hover');
  }
  // Play for a moment: the frame advances; then stop on the checked frame again.
  await evaluate('window.boneyard.play(true)');
  await sleep(700);
  const moved = await evaluate('window.boneyard.state().frame');
  await evaluate('window.boneyard.play(false)');
  check(moved !== frame, `playing moves the frame (${frame} -> ${moved.toFixed(2)})`);
  // Root motion off: the export's in-place glb, same frame.
  await evaluate(`window.boneyard.select(${q(sk)}, ${q(anim)}, { rootMotion: false })`);
  await evaluate(`window.boneyard.setFrame(${frame})`);
  const inPlace = await evaluate('window.boneyard.state()');
  check(!inPlace.rootMotion && !inPlace.error, 'root motion off loads the in-place export');
  await evaluate(`window.boneyard.select(${q(sk)}, ${q(anim)}, { rootMotion: true })`);
  await evaluate(`window.boneyard.setFrame(${frame})`);
  // "Download .glb" gives the very file `boneyard export` writes for this selection.
  const dl = fs.mkdtempSync(path.join(os.tmpdir(), 'boneyard-download-'));
  await send('Page.setDownloadBehavior', { behavior: 'allow', downloadPath: dl });
  await evaluate(`document.getElementById('download').click()`);
  let saved = [];
  for (let k = 0; k < 100 && !saved.some((f) => f.endsWith('.glb')); k++) {
    await sleep(100);
    saved = fs.readdirSync(dl);
  }
  const file = saved.find((f) => f.endsWith('.glb'));
  const exportDir = path.join(dl, 'export');
  const exportArgs = ['export', ...docFiles, ...runtimeArgs, '--skeleton', `#${st.skeleton}`, '--format', 'glb', '--out', exportDir];
  if (st.anim >= 0) exportArgs.push('--anim', `#${st.anim}`);
  execFileSync(bin, exportArgs, { stdio: ['ignore', 'ignore', 'inherit'] });
  const exported = fs.readdirSync(exportDir).filter((f) => f.endsWith('.glb'));
  const same =
    file && exported.length === 1 && fs.readFileSync(path.join(dl, file)).equals(fs.readFileSync(path.join(exportDir, exported[0])));
  check(same, `the downloaded ${file || '(nothing)'} is byte for byte boneyard export's ${exported.join(', ')}`);
  check(file === exported[0], 'and has its name');
  fs.rmSync(dl, { recursive: true, force: true });
}

await sleep(300);
const shot = await send('Page.captureScreenshot', { format: 'png' });
fs.mkdirSync(path.dirname(shotPath), { recursive: true });
fs.writeFileSync(shotPath, Buffer.from(shot.result.data, 'base64'));
console.log(`     ${label}: screenshot ${shotPath}`);
if (process.env.TUNIC) {
  const want = process.env.TUNIC.split(',').map(Number);
  const img = decodePng(Buffer.from(shot.result.data, 'base64'));
  const [wh, ws] = hueSat(want);
  let n = 0;
  for (let i = 0; i < img.width * img.height; i++) {
    const px = [img.rgb[i * 3], img.rgb[i * 3 + 1], img.rgb[i * 3 + 2]];
    const [h, s] = hueSat(px);
    const dh = Math.min(Math.abs(h - wh), 360 - Math.abs(h - wh));
    if (dh <= 25 && s >= ws / 2 && Math.max(...px) >= 24) n++;
  }
  const min = Number(process.env.MIN_TUNIC_PIXELS || 2000);
  check(n >= min, `the screenshot shows the tunic colour (${want}): ${n} of ${img.width * img.height} pixels of its hue (at least ${min})`);
}
if (process.env.FACE) {
  const [faceAnim, faceFrame] = process.env.FACE.split(':');
  const f = Number(faceFrame);
  await evaluate(`window.boneyard.select(${q(sk)}, ${q(faceAnim)})`).catch((e) => die(e.message));
  const fst = await evaluate('window.boneyard.state()');
  const faces = await (await fetch(`${pageURL}api/faces?skeleton=%23${fst.skeleton}&anim=%23${fst.anim}`)).json();
  const digest = (t) => {
    let h = 0x811c9dc5;
    for (const x of t.rgba) h = Math.imul(h ^ x, 0x01000193) >>> 0;
    return `${t.width}x${t.height}:${h.toString(16)}`;
  };
  await evaluate('window.boneyard.setFrame(0)');
  const at0 = await evaluate('window.boneyard.faceTextures()');
  await evaluate(`window.boneyard.setFrame(${f})`);
  const atF = await evaluate('window.boneyard.faceTextures()');
  const row = faces.frames[f] || [];
  check(faces.meshes.length > 0 && atF.length === faces.meshes.length && atF.every((s) => s.targets > 0),
    `${faceAnim}: the ${faces.meshes.length} meshes whose face changes (${faces.meshes}) are found in the glb (${atF.map((s) => s.targets)})`);
  check(row.some((k) => k >= 0), `frame ${f} of ${faceAnim} picks a run-time face (${row})`);
  for (const [k, slot] of atF.entries()) {
    const want = row[k] >= 0 ? digest(faces.textures[row[k]]) : at0[k].pixels;
    check(slot.texture === row[k] && slot.pixels === want,
      `frame ${f}: mesh ${slot.mesh} shows texture ${slot.texture} (${slot.pixels}), /api/faces says ${row[k]} (${want})`);
  }
  // (Another face swaps every slot, also those it leaves as they were, like the mouth here.)
  const changed = atF.filter((slot, k) => slot.pixels !== at0[k].pixels).map((s) => s.mesh);
  check(changed.length > 0 && at0.every((s) => s.texture === -1),
    `frame 0 shows the glb's own textures, frame ${f} another on mesh ${changed}`);
  await sleep(300);
  const faceShot = await send('Page.captureScreenshot', { format: 'png' });
  const facePath = shotPath.replace(/\.png$/, '-face.png');
  fs.writeFileSync(facePath, Buffer.from(faceShot.result.data, 'base64'));
  console.log(`     ${label}: screenshot ${facePath}`);
}
// A clip whose load fails (one of another skeleton, which the server refuses, or one that is
// not there): the error is said, and the lists stay on what the scene shows.
{
  const before = await evaluate('window.boneyard.state()');
  const other = list.animations.find((a) => a.skeleton_index != null && a.skeleton_index !== before.skeleton);
  const bad = String(other ? other.index : list.animations.length + 1000);
  await evaluate(`(() => {
    const sel = document.getElementById('anim');
    sel.add(new Option('fails', ${q(bad)}));
    sel.value = ${q(bad)};
    sel.dispatchEvent(new Event('change'));
  })()`);
  await evaluate('window.boneyard.settled()');
  const after = await evaluate('window.boneyard.state()');
  const rows = await evaluate(`[document.getElementById('skeleton').value, document.getElementById('anim').value]`);
  check(!!after.error && after.skeleton === before.skeleton && after.anim === before.anim &&
    rows[0] === String(before.skeleton) && rows[1] === String(before.anim),
    `a failed load (clip #${bad}: ${after.error}) leaves the lists on the clip shown (#${before.anim}; rows ${rows})`);
}
// Another document, chosen in the page's list: its lists and its clip; then back.
if (docs.documents.length > 1) {
  const before = await evaluate('window.boneyard.state()');
  const next = docs.documents.find((d) => d.index !== before.doc && d.skeletons > 0);
  if (next) {
    const choose = (i) => evaluate(`(() => {
      const sel = document.getElementById('doc');
      sel.value = ${q(String(i))};
      sel.dispatchEvent(new Event('change'));
      return window.boneyard.settled();
    })()`);
    await choose(next.index);
    const there = await evaluate('window.boneyard.state()');
    const files = await evaluate('window.boneyard.list.files');
    check(there.doc === next.index && !there.error && there.skeleton >= 0 && files[0] === next.file,
      `choosing ${next.name} in the document list shows it (skeleton #${there.skeleton}, clip #${there.anim}; ${there.error || 'no error'})`);
    await choose(before.doc);
  }
}
const icon = await fetch(`${pageURL}favicon.ico`);
check(icon.ok && (icon.headers.get('content-type') || '').startsWith('image/'), `/favicon.ico is an image (${icon.status})`);
check(!logs.some((l) => l.startsWith('HTTP 404')), `no request answered 404 ${JSON.stringify(logs.filter((l) => l.startsWith('HTTP 404')))}`);
check(!logs.some((l) => l.startsWith('EXCEPTION')), `no script errors ${JSON.stringify(logs.filter((l) => l.startsWith('EXCEPTION')))}`);
check(!logs.some((l) => l.startsWith('OFF-HOST')), `nothing loaded off-host ${JSON.stringify(logs.filter((l) => l.startsWith('OFF-HOST')))}`);
ws.close();
await cleanup();
process.exit(failures.length ? 1 : 0);

// Hue (degrees) and saturation (0..1, HSV) of an RGB8 colour.
function hueSat([r, g, b]) {
  const max = Math.max(r, g, b), min = Math.min(r, g, b), d = max - min;
  if (max === 0 || d === 0) return [0, 0];
  let h;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return [(h * 60 + 360) % 360, d / max];
}

// A non-interlaced 8-bit RGB or RGBA PNG (what Chromium's screenshots are) to RGB8.
function decodePng(buf) {
  let at = 8, width = 0, height = 0, type = 0;
  const idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at), kind = buf.toString('latin1', at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + len);
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      type = body[9];
      if (body[8] !== 8 || body[12] !== 0 || (type !== 2 && type !== 6)) throw new Error('unsupported PNG');
    } else if (kind === 'IDAT') idat.push(body);
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const bpp = type === 6 ? 4 : 3, stride = width * bpp;
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp] : 0;
      let p = src[x];
      if (f === 1) p += a;
      else if (f === 2) p += b;
      else if (f === 3) p += (a + b) >> 1;
      else if (f === 4) {
        const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
        p += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = p & 255;
    }
  }
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) for (let k = 0; k < 3; k++) rgb[i * 3 + k] = out[i * bpp + k];
  return { width, height, rgb };
}
