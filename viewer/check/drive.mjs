// Drive the viewer in a real browser through the DevTools protocol: load a page state from the
// URL hash, hover a joint (its name shows), drag (the camera orbits), play (frames advance).
// Not part of the build; run by hand (or from CI) with a viewer and a headless Chromium up:
//
//   boneyard view FILE... --port 8766 &
//   chromium --headless --no-sandbox --remote-debugging-port=9333 about:blank &
//   node --experimental-websocket viewer/check/drive.mjs 'http://127.0.0.1:8766/#anim=0&frame=3&play=0' [OUT_DIR]
//
// Exits non-zero when a check fails; writes hover.png and after.png to OUT_DIR when given.
import fs from 'node:fs';
import path from 'node:path';
const out = process.argv[3];
const failures = [];
const check = (ok, what) => { console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`); if (!ok) failures.push(what); };
const list = await (await fetch('http://127.0.0.1:9333/json')).json();
const page = list.find((t) => t.type === 'page');
const ws = new WebSocket(page.webSocketDebuggerUrl);
await new Promise((r) => ws.addEventListener('open', r));
let id = 0;
const pending = new Map();
const logs = [];
ws.addEventListener('message', (m) => {
  const d = JSON.parse(m.data);
  if (d.id && pending.has(d.id)) { pending.get(d.id)(d); pending.delete(d.id); }
  if (d.method === 'Runtime.consoleAPICalled') logs.push(d.params.args.map((a) => a.value).join(' '));
  if (d.method === 'Runtime.exceptionThrown') logs.push('EXCEPTION ' + JSON.stringify(d.params.exceptionDetails.exception?.description || d.params.exceptionDetails.text));
});
const send = (method, params = {}) => new Promise((r) => { const i = ++id; pending.set(i, r); ws.send(JSON.stringify({ id: i, method, params })); });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const evaluate = async (expr) => (await send('Runtime.evaluate', { expression: expr, returnByValue: true })).result?.result?.value;
const shot = async (name) => {
  if (!out) return;
  const data = (await send('Page.captureScreenshot', { format: 'png' })).result.data;
  fs.writeFileSync(path.join(out, name), Buffer.from(data, 'base64'));
};
await send('Runtime.enable');
await send('Page.enable');
await send('Page.navigate', { url: process.argv[2] });
await sleep(2500);
// Hover the joint nearest the canvas centre-ish: read a projected joint from the page.
const corner = await evaluate(`(() => { const c = document.getElementById('view').getBoundingClientRect(); return [c.left, c.top]; })()`);
const proj = await evaluate(`window.__boneyard ? window.__boneyard.projected : null`);
check(Array.isArray(proj) && proj.some((q) => q), `the page drew a pose (${proj ? proj.length : 0} joints)`);
if (proj && proj.some((q) => q)) {
  const p = proj.find((q) => q);
  const dpr = await evaluate('window.devicePixelRatio || 1');
  await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: corner[0] + p[0] / dpr, y: corner[1] + p[1] / dpr });
  await sleep(200);
  const tip = await evaluate(`document.getElementById('tip').hidden ? '' : document.getElementById('tip').textContent`);
  check(tip.startsWith('#'), `hovering a joint names it: ${JSON.stringify(tip)}`);
  await shot('hover.png');
}
const yaw0 = await evaluate('window.__boneyard.view.yaw');
// Drag to orbit by 100 px.
await send('Input.dispatchMouseEvent', { type: 'mousePressed', x: 300, y: 300, button: 'left', clickCount: 1 });
for (let k = 1; k <= 10; k++) await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 300 - 10 * k, y: 300, button: 'left', buttons: 1 });
await send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: 200, y: 300, button: 'left', clickCount: 1 });
await sleep(500);
const yaw1 = await evaluate('window.__boneyard.view.yaw');
check(Math.abs(yaw1 - yaw0 - 40) < 1e-6, `dragging 100 px orbits 40 degrees (yaw ${yaw0} -> ${yaw1})`);
check(String(await evaluate('location.hash')).includes(`yaw=${Math.round(yaw1)}`), 'the URL hash follows the camera');
// Play for a second: the frame must advance.
const f0 = await evaluate(`document.getElementById('frame').value`);
await evaluate(`document.getElementById('play').click()`);
await sleep(1000);
const f1 = await evaluate(`document.getElementById('frame').value`);
check(f0 !== f1, `playing for 1 s moves the frame (${f0} -> ${f1})`);
await shot('after.png');
check(!logs.some((l) => l.startsWith('EXCEPTION')), `no script errors ${JSON.stringify(logs)}`);
ws.close();
process.exit(failures.length ? 1 : 0);
