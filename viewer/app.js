// boneyard viewer: a small Canvas2D renderer over the local JSON API of `boneyard view`.
// No libraries, no network beyond the page's own server.
//
// Poses come from /api/pose (the engine's own world matrices), meshes from /api/mesh (rigid:
// bone-local positions; skinned: rest model space + inverse bind matrices). Triangles are
// drawn back to front (painter's algorithm), shaded flat from the face normal with a light
// fixed to the camera, like the PNG previews.

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const ctx = canvas.getContext('2d');

const state = {
  list: null,
  skeleton: 0,
  anim: -1, // -1: rest pose
  frame: 0,
  playing: false,
  clock: 0, // seconds into the clip while playing
  mesh: null, // /api/mesh of the current skeleton
  pose: null, // the pose drawn last
  poses: new Map(), // "skeleton|anim|frame" -> /api/pose
  inFlight: new Set(),
  view: { yaw: 25, pitch: 12, zoom: 1, target: [0, 0, 0], radius: 10, pan: [0, 0] },
  projected: [], // joints in canvas pixels at the last draw, for hovering
  draws: 0, // draws since the last rate update
};

// ---------------------------------------------------------------- data

async function getJSON(url) {
  const r = await fetch(url);
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

function status(msg, isError = false) {
  const s = $('status');
  s.textContent = msg;
  s.className = isError ? 'error' : 'muted';
}

function poseKey(sk, anim, frame) {
  return `${sk}|${anim}|${frame}`;
}

function poseURL(sk, anim, frame) {
  const a = anim < 0 ? 'rest' : `%23${anim}`;
  return `/api/pose?skeleton=%23${sk}&anim=${a}&frame=${frame}`;
}

// Fetch a pose once; redraw when it arrives if it is still the one wanted.
function requestPose(sk, anim, frame) {
  const key = poseKey(sk, anim, frame);
  const have = state.poses.get(key);
  if (have) return have;
  if (!state.inFlight.has(key)) {
    state.inFlight.add(key);
    getJSON(poseURL(sk, anim, frame))
      .then((p) => {
        // Keep memory bounded for very long clips.
        if (state.poses.size > 5000) state.poses.clear();
        state.poses.set(key, p);
        if (sk === state.skeleton && anim === state.anim && frame === state.frame) {
          state.pose = p;
          draw();
        }
      })
      .catch((e) => status(e.message, true))
      .finally(() => state.inFlight.delete(key));
  }
  return null;
}

// ---------------------------------------------------------------- math (column-major 4x4)

function mul(a, b) {
  const o = new Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = s;
    }
  }
  return o;
}

function apply(m, x, y, z) {
  return [
    m[0] * x + m[4] * y + m[8] * z + m[12],
    m[1] * x + m[5] * y + m[9] * z + m[13],
    m[2] * x + m[6] * y + m[10] * z + m[14],
  ];
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

// Camera axes: yaw 0 looks from +Z towards -Z, as the PNG previews do.
function axes(yawDeg, pitchDeg) {
  const y = (yawDeg * Math.PI) / 180;
  const p = (pitchDeg * Math.PI) / 180;
  const back = [Math.sin(y) * Math.cos(p), Math.sin(p), Math.cos(y) * Math.cos(p)];
  const right = [Math.cos(y), 0, -Math.sin(y)];
  return { right, up: cross(back, right), back };
}

// ---------------------------------------------------------------- posing

function posedMeshes(pose) {
  const mesh = state.mesh;
  if (!mesh || !pose) return [];
  const world = pose.bones.map((b) => b.matrix);
  const ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const skin = mesh.inverse_bind.length ? world.map((w, j) => mul(w, mesh.inverse_bind[j] || ident)) : null;
  return mesh.meshes.map((m) => {
    const n = m.positions.length / 3;
    const out = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) {
      const x = m.positions[i * 3], y = m.positions[i * 3 + 1], z = m.positions[i * 3 + 2];
      let p;
      if (m.binding === 'rigid') {
        p = world[m.bone] ? apply(world[m.bone], x, y, z) : [x, y, z];
      } else {
        p = [0, 0, 0];
        let total = 0;
        for (let k = 0; k < 4; k++) {
          const w = m.weights[i * 4 + k];
          const s = skin && skin[m.joints[i * 4 + k]];
          if (!w || !s) continue;
          const q = apply(s, x, y, z);
          p[0] += q[0] * w; p[1] += q[1] * w; p[2] += q[2] * w;
          total += w;
        }
        p = total > 1e-6 ? p.map((v) => v / total) : [x, y, z];
      }
      out[i * 3] = p[0]; out[i * 3 + 1] = p[1]; out[i * 3 + 2] = p[2];
    }
    return { src: m, pos: out };
  });
}

function joints(pose) {
  return pose ? pose.bones.map((b) => [b.matrix[12], b.matrix[13], b.matrix[14]]) : [];
}

// Frame the camera on some points: target at the middle, radius covering every point.
function frameOn(points) {
  if (!points.length) return;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const p of points) {
    for (let k = 0; k < 3; k++) {
      if (!Number.isFinite(p[k])) continue;
      lo[k] = Math.min(lo[k], p[k]);
      hi[k] = Math.max(hi[k], p[k]);
    }
  }
  if (!Number.isFinite(lo[0])) return;
  state.view.target = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
  state.view.radius = Math.max(1e-3, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
  state.view.zoom = 1;
  state.view.pan = [0, 0];
  state.view.restTarget = state.view.target.slice();
  state.view.restRoot = null;
}

// Frame on a pose's mesh (or its joints when there is none); the ground grid goes under its
// lowest point, and "follow root" tracks the root from where it is in this pose.
function frameOnPose(pose) {
  const pts = [];
  for (const { pos } of posedMeshes(pose)) for (let k = 0; k < pos.length; k += 3) pts.push([pos[k], pos[k + 1], pos[k + 2]]);
  const js = joints(pose);
  frameOn(pts.length ? pts : js);
  let ground = Infinity;
  for (const p of pts.length ? pts : js) if (Number.isFinite(p[1]) && p[1] < ground) ground = p[1];
  state.view.ground = Number.isFinite(ground) ? ground : 0;
  state.view.restRoot = js[0] || null;
}

// ---------------------------------------------------------------- drawing

function resize() {
  const r = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(r.width * dpr)), h = Math.max(1, Math.round(r.height * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
}

function draw() {
  resize();
  const W = canvas.width, H = canvas.height;
  ctx.fillStyle = '#24282f';
  ctx.fillRect(0, 0, W, H);
  const pose = state.pose;
  if (!pose) return;
  // A newly chosen clip is framed on the first of its poses that arrives (game rest poses
  // are often not a good guide to a clip's size).
  if (state.reframe) {
    state.reframe = false;
    frameOnPose(pose);
  }
  const v = state.view;
  const { right, up, back } = axes(v.yaw, v.pitch);
  const js = joints(pose);
  // Follow the root bone's horizontal motion so a walk stays centred.
  let target = v.target;
  if ($('follow').checked && js.length && v.restRoot) {
    target = [v.restTarget[0] + js[0][0] - v.restRoot[0], v.restTarget[1], v.restTarget[2] + js[0][2] - v.restRoot[2]];
  }
  // Panning moves the target in the view plane.
  target = [0, 1, 2].map((k) => target[k] - right[k] * v.pan[0] - up[k] * v.pan[1]);
  state.draws++;
  // Perspective: the camera sits 3 radii away; the character's radius fills ~40 % of the view.
  const dist = v.radius * 3;
  const focal = (Math.min(W, H) * 0.42 * v.zoom * dist) / v.radius;
  const project = (p) => {
    const d = sub(p, target);
    const x = dot(d, right), y = dot(d, up), z = dist - dot(d, back);
    return [W / 2 + (focal * x) / z, H / 2 - (focal * y) / z, z, x, y];
  };
  const near = v.radius * 0.05;

  if ($('show-grid').checked) drawGrid(project, target, v.radius, near);

  const light = (() => {
    const l = [-0.35, 0.55, 0.76];
    const n = Math.hypot(...l);
    return l.map((c) => c / n);
  })();
  if ($('show-mesh').checked) {
    const tris = [];
    for (const { src, pos } of posedMeshes(pose)) {
      const pr = [];
      for (let i = 0; i < pos.length / 3; i++) pr.push(project([pos[i * 3], pos[i * 3 + 1], pos[i * 3 + 2]]));
      const base = src.base_color.map((c) => (Number.isFinite(c) ? Math.min(1, Math.max(0, c)) : 0.8));
      const idx = src.indices;
      for (let t = 0; t + 2 < idx.length; t += 3) {
        const a = pr[idx[t]], b = pr[idx[t + 1]], c = pr[idx[t + 2]];
        if (!a || !b || !c || a[2] < near || b[2] < near || c[2] < near) continue;
        // Face normal in camera space (x right, y up, z towards the viewer), lit two-sided.
        const pa = [a[3], a[4], -a[2]], pb = [b[3], b[4], -b[2]], pc = [c[3], c[4], -c[2]];
        const n = cross(sub(pb, pa), sub(pc, pa));
        const len = Math.hypot(...n) || 1;
        const shade = 0.3 + 0.7 * Math.abs(dot(n, light) / len);
        const col = base.slice(0, 3).map((x) => Math.round(x * shade * 255));
        tris.push({ depth: a[2] + b[2] + c[2], a, b, c, fill: `rgb(${col[0]},${col[1]},${col[2]})` });
      }
    }
    tris.sort((p, q) => q.depth - p.depth);
    ctx.lineJoin = 'round';
    ctx.lineWidth = 0.6;
    for (const t of tris) {
      ctx.beginPath();
      ctx.moveTo(t.a[0], t.a[1]);
      ctx.lineTo(t.b[0], t.b[1]);
      ctx.lineTo(t.c[0], t.c[1]);
      ctx.closePath();
      ctx.fillStyle = t.fill;
      ctx.strokeStyle = t.fill; // hides hairline seams between neighbours
      ctx.fill();
      ctx.stroke();
    }
  }
  const pj = js.map(project);
  state.projected = pj.map((p) => (p[2] < near ? null : [p[0], p[1]]));
  state.pixelsPerUnit = focal / dist;
  if ($('show-bones').checked || !(state.mesh && state.mesh.meshes.length)) {
    const dpr = window.devicePixelRatio || 1;
    ctx.strokeStyle = '#ff9628';
    ctx.lineWidth = 2 * dpr;
    ctx.beginPath();
    pose.bones.forEach((b, i) => {
      if (b.parent === null || b.parent === undefined) return;
      const p = pj[b.parent], c = pj[i];
      if (!p || !c || p[2] < near || c[2] < near) return;
      ctx.moveTo(p[0], p[1]);
      ctx.lineTo(c[0], c[1]);
    });
    ctx.stroke();
    ctx.fillStyle = '#ffecc8';
    for (const p of pj) {
      if (p[2] < near) continue;
      ctx.beginPath();
      ctx.arc(p[0], p[1], 2.5 * dpr, 0, Math.PI * 2);
      ctx.fill();
    }
  }
}

// A grid on the ground plane (y = lowest rest joint), centred under the target.
function drawGrid(project, target, radius, near) {
  const step = Math.pow(10, Math.floor(Math.log10(radius / 2)));
  const y = state.view.ground ?? 0;
  const n = Math.ceil((radius * 2) / step);
  const cx = Math.round(target[0] / step) * step, cz = Math.round(target[2] / step) * step;
  ctx.strokeStyle = '#3a414c';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let i = -n; i <= n; i++) {
    for (const [a, b] of [
      [[cx + i * step, y, cz - n * step], [cx + i * step, y, cz + n * step]],
      [[cx - n * step, y, cz + i * step], [cx + n * step, y, cz + i * step]],
    ]) {
      const p = project(a), q = project(b);
      if (p[2] < near || q[2] < near) continue;
      ctx.moveTo(p[0], p[1]);
      ctx.lineTo(q[0], q[1]);
    }
  }
  ctx.stroke();
}

// ---------------------------------------------------------------- UI

function currentAnim() {
  return state.anim >= 0 ? state.list.animations[state.anim] : null;
}

function showClipInfo() {
  const a = currentAnim();
  const sk = state.list.skeletons[state.skeleton];
  const rows = [
    ['skeleton', `${sk.name} (${sk.bones} bones, ${sk.meshes} meshes)`],
    ['source', sk.source],
  ];
  if (a) {
    rows.push(['clip', a.name], ['frames', a.frames], ['fps', a.fps], ['format', a.format],
      ['interpolation', a.interpolation], ['bones', a.bones], ['source', a.source]);
  } else {
    rows.push(['clip', 'rest pose']);
  }
  const dl = $('clip-info');
  dl.replaceChildren();
  for (const [k, v] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = String(v);
    dl.append(dt, dd);
  }
  $('fps-label').textContent = a ? `${a.fps} fps · ${(a.frames / a.fps).toFixed(2)} s` : '';
  const slider = $('frame');
  slider.max = a ? Math.max(0, a.frames - 1) : 0;
  slider.disabled = !a;
  $('play').disabled = !a;
}

function setFrame(f, fromClock = false) {
  const a = currentAnim();
  const frames = a ? Math.max(1, a.frames) : 1;
  state.frame = ((Math.floor(f) % frames) + frames) % frames;
  if (!fromClock && a) state.clock = state.frame / a.fps;
  $('frame').value = state.frame;
  $('frame-label').textContent = `${state.frame} / ${frames - 1}`;
  const p = requestPose(state.skeleton, state.anim, state.frame);
  if (p) {
    state.pose = p;
    draw();
  }
  if ($('sample-box').open) showSample();
  if (!state.playing) writeHash();
}

let sampleTimer = 0;
function showSample() {
  clearTimeout(sampleTimer);
  if (state.anim < 0) {
    $('sample').textContent = '(rest pose: no sample)';
    return;
  }
  sampleTimer = setTimeout(() => {
    getJSON(`/api/sample?anim=%23${state.anim}&frame=${state.frame}`)
      .then((s) => {
        $('frame-sampled').textContent = `(engine frame ${s.frame})`;
        $('sample').textContent = JSON.stringify({ frame: s.frame, root_motion: s.root_motion, bones: s.bones, channels: s.channels }, null, 1);
      })
      .catch((e) => ($('sample').textContent = e.message));
  }, state.playing ? 250 : 0);
}

async function selectSkeleton(i) {
  state.skeleton = i;
  $('skeleton').value = String(i);
  status('loading mesh…');
  state.mesh = await getJSON(`/api/mesh?skeleton=%23${i}`);
  frameOnPose(await getJSON(poseURL(i, -1, 0)));
  state.poses.clear();
  status('');
  showClipInfo();
  setFrame(0);
}

function selectAnim(i) {
  state.anim = i;
  $('anim').value = String(i);
  const a = currentAnim();
  state.clock = 0;
  state.reframe = !!a;
  state.pose = null;
  showClipInfo();
  const own = a && a.skeleton_index !== null && a.skeleton_index !== undefined ? a.skeleton_index : state.skeleton;
  if (own !== state.skeleton) {
    selectSkeleton(own).catch((e) => status(e.message, true));
  } else {
    setFrame(0);
  }
}

function togglePlay(on = !state.playing) {
  state.playing = on && !!currentAnim();
  $('play').textContent = state.playing ? 'Pause' : 'Play';
  writeHash();
  last = performance.now();
}

// Name the joint under the pointer.
function hover(e) {
  const tip = $('tip');
  const r = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const x = (e.clientX - r.left) * dpr, y = (e.clientY - r.top) * dpr;
  let best = -1, bestD = (10 * dpr) ** 2;
  state.projected.forEach((p, i) => {
    if (!p) return;
    const d = (p[0] - x) ** 2 + (p[1] - y) ** 2;
    if (d < bestD) {
      best = i;
      bestD = d;
    }
  });
  const bone = best >= 0 && state.pose ? state.pose.bones[best] : null;
  if (!bone) {
    tip.hidden = true;
    return;
  }
  tip.textContent = `#${best} ${bone.name ?? ''}` + (bone.parent != null ? ` (parent #${bone.parent})` : ' (root)');
  tip.style.left = `${e.clientX + 12}px`;
  tip.style.top = `${e.clientY + 12}px`;
  tip.hidden = false;
}

let last = performance.now();
let rateClock = performance.now();
function tick(now) {
  if (now - rateClock >= 1000) {
    $('draw-rate').textContent = `drawing ${Math.round((state.draws * 1000) / (now - rateClock))}/s`;
    state.draws = 0;
    rateClock = now;
  }
  const dt = Math.min(0.25, (now - last) / 1000);
  last = now;
  const a = currentAnim();
  if (state.playing && a && a.fps > 0) {
    state.clock = (state.clock + dt) % (a.frames / a.fps);
    const f = Math.floor(state.clock * a.fps + 1e-9);
    if (f !== state.frame) setFrame(f, true);
    // Fetch a few frames ahead so playback does not wait on the server.
    for (let k = 1; k <= 3; k++) requestPose(state.skeleton, state.anim, (f + k) % a.frames);
  }
  requestAnimationFrame(tick);
}

function wireControls() {
  $('skeleton').addEventListener('change', (e) => selectSkeleton(Number(e.target.value)).catch((x) => status(x.message, true)));
  $('anim').addEventListener('change', (e) => selectAnim(Number(e.target.value)));
  $('play').addEventListener('click', () => togglePlay());
  $('frame').addEventListener('input', (e) => {
    togglePlay(false);
    setFrame(Number(e.target.value));
  });
  for (const id of ['show-mesh', 'show-bones', 'show-grid', 'follow']) $(id).addEventListener('change', draw);
  $('sample-box').addEventListener('toggle', () => $('sample-box').open && showSample());
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    // Left button orbits; shift or the right/middle button pans.
    drag = { x: e.clientX, y: e.clientY, pan: e.shiftKey || e.button !== 0 };
    canvas.setPointerCapture(e.pointerId);
    $('tip').hidden = true;
  });
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) {
      hover(e);
      return;
    }
    const v = state.view;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (drag.pan) {
      const k = (window.devicePixelRatio || 1) / (state.pixelsPerUnit || 1);
      v.pan = [v.pan[0] + dx * k, v.pan[1] - dy * k];
    } else {
      v.yaw -= dx * 0.4;
      v.pitch = Math.max(-89, Math.min(89, v.pitch + dy * 0.4));
    }
    drag.x = e.clientX;
    drag.y = e.clientY;
    draw();
    writeHash();
  });
  canvas.addEventListener('pointerup', () => (drag = null));
  canvas.addEventListener('pointerleave', () => ($('tip').hidden = true));
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    state.view.zoom = Math.max(0.05, Math.min(50, state.view.zoom * Math.exp(-e.deltaY * 0.001)));
    draw();
  }, { passive: false });
  canvas.addEventListener('dblclick', () => {
    Object.assign(state.view, { yaw: 25, pitch: 12, zoom: 1, pan: [0, 0] });
    draw();
  });
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLSelectElement || (e.target instanceof HTMLInputElement && e.target.type === 'search')) return;
    if (e.key === ' ') {
      e.preventDefault();
      togglePlay();
    } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      togglePlay(false);
      setFrame(state.frame + (e.key === 'ArrowRight' ? 1 : -1));
    }
  });
  window.addEventListener('resize', draw);
}

// The page's state in the URL (#skeleton=0&anim=3&frame=10&play=0&yaw=25&pitch=12), so a view
// can be bookmarked, shared or screenshotted as it is.
function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  const num = (k) => (h.has(k) && h.get(k) !== '' && Number.isFinite(Number(h.get(k))) ? Number(h.get(k)) : null);
  return { skeleton: num('skeleton'), anim: num('anim'), frame: num('frame'), play: num('play'), yaw: num('yaw'), pitch: num('pitch') };
}

let hashTimer = 0;
function writeHash() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(() => {
    const v = state.view;
    const h = `skeleton=${state.skeleton}&anim=${state.anim}&frame=${state.frame}&play=${state.playing ? 1 : 0}` +
      `&yaw=${Math.round(v.yaw)}&pitch=${Math.round(v.pitch)}`;
    history.replaceState(null, '', `#${h}`);
  }, 300);
}

function fillAnimations(filter = '') {
  const l = state.list;
  const sel = $('anim');
  const f = filter.trim().toLowerCase();
  sel.replaceChildren(new Option('(rest pose)', '-1'));
  l.animations.forEach((a, i) => {
    const label = `#${i} ${a.name} (${a.frames} f)`;
    if (!f || label.toLowerCase().includes(f) || i === state.anim) sel.add(new Option(label, String(i)));
  });
  sel.value = String(state.anim);
}

async function main() {
  wireControls();
  try {
    state.list = await getJSON('/api/list');
  } catch (e) {
    status(`cannot read /api/list: ${e.message}`, true);
    return;
  }
  const l = state.list;
  const base = (p) => String(p).split(/[\\/]/).pop();
  $('family').textContent = `${l.family} · ${l.files.map(base).join(', ')}`;
  $('family').title = l.files.join('\n');
  if (!l.skeletons.length) {
    status('this input has no skeleton to show', true);
    return;
  }
  const skSel = $('skeleton');
  l.skeletons.forEach((s, i) => skSel.add(new Option(`${s.id} — ${s.name} (${s.bones})`, String(i))));
  fillAnimations();
  $('anim-filter').addEventListener('input', (e) => fillAnimations(e.target.value));
  // Start from the URL, else skeleton #0 and the first clip that plays on it.
  const h = readHash();
  const onFirst = l.animations.findIndex((a) => a.skeleton_index === 0 || a.skeleton_index == null);
  let anim = h.anim !== null && h.anim >= -1 && h.anim < l.animations.length ? Math.trunc(h.anim) : onFirst;
  const own = anim >= 0 ? l.animations[anim].skeleton_index : null;
  let sk = own ?? (h.skeleton !== null && h.skeleton >= 0 && h.skeleton < l.skeletons.length ? Math.trunc(h.skeleton) : 0);
  try {
    await selectSkeleton(sk);
  } catch (e) {
    status(e.message, true);
    return;
  }
  if (h.yaw !== null) state.view.yaw = h.yaw;
  if (h.pitch !== null) state.view.pitch = Math.max(-89, Math.min(89, h.pitch));
  selectAnim(anim);
  if (h.frame !== null) setFrame(h.frame);
  if (anim >= 0 && h.play !== 0) togglePlay(true);
  requestAnimationFrame(tick);
}

// For debugging and for driving the page from tests (DevTools protocol).
window.__boneyard = state;

main();
