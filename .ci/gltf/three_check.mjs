// Read an exported .glb back with three.js and compare its poses with boneyard's own.
// usage: node three_check.mjs [--tol=1e-4] FILE.glb EXPECTED.json...
//
// EXPECTED.json is what `boneyard pose FILE --anim A --all-frames --json` prints:
//   {"animation":{"index","name","frames","fps"},
//    "frames":[{"frame":0,"bones":[{"index","name","parent","matrix":[16 floats, column-major]}]}]}
// For each file: load the GLB with GLTFLoader.parse (plain Node, no DOM), find the animation
// (by `extras.index` as boneyard writes it, else by name), and for every frame f play it with
// AnimationMixer.setTime(t) at t = the key's own time, Math.fround(f / fps) (boneyard stores
// key times as f32 f/fps; a time a hair before a STEP key would show the previous frame).
// The action plays once and clamps, so the last frame is reached rather than wrapped to 0.
// Then every joint node (found by bone name, made unique the way boneyard's exporter does)
// must have matrixWorld equal to the expected matrix: |a - b| <= 1e-4 for the rotation part,
// |a - b| <= 1e-4 * extent for translations (extent: the largest |translation| of the frame, >= 1).
// Prints the max error per animation; exits 1 on any mismatch, missing node or animation,
// 2 on unreadable input.
import fs from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const args = process.argv.slice(2);
const tolArg = args.find((a) => a.startsWith('--tol='));
const TOL = tolArg ? Number(tolArg.slice(6)) : 1e-4;
const [glbPath, ...expectedPaths] = args.filter((a) => !a.startsWith('--tol='));
if (!(TOL > 0)) {
  console.error(`bad ${tolArg}`);
  process.exit(2);
}
if (!glbPath || expectedPaths.length === 0) {
  console.error('usage: node three_check.mjs [--tol=1e-4] FILE.glb EXPECTED.json...');
  process.exit(2);
}

function readOrExit(path, what) {
  try {
    return fs.readFileSync(path);
  } catch (e) {
    console.error(`${path}: cannot read ${what}: ${e.message}`);
    process.exit(2);
  }
}

// Node has no image decoding (GLTFLoader's texture path needs `self`, createImageBitmap or a
// DOM), and poses do not depend on textures: drop every texture reference from the JSON
// chunk and re-pack the GLB before parsing.
function withoutTextures(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 20 || dv.getUint32(0, true) !== 0x46546c67) return { bytes, images: 0 };
  const jsonLen = dv.getUint32(12, true);
  if (dv.getUint32(16, true) !== 0x4e4f534a || 20 + jsonLen > bytes.byteLength) return { bytes, images: 0 };
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLen)));
  const images = (json.images || []).length;
  if (!images && !(json.textures || []).length) return { bytes, images: 0 };
  delete json.images;
  delete json.textures;
  delete json.samplers;
  for (const m of json.materials || []) {
    for (const k of ['normalTexture', 'occlusionTexture', 'emissiveTexture']) delete m[k];
    if (m.pbrMetallicRoughness) {
      delete m.pbrMetallicRoughness.baseColorTexture;
      delete m.pbrMetallicRoughness.metallicRoughnessTexture;
    }
  }
  const text = new TextEncoder().encode(JSON.stringify(json));
  const padded = (text.length + 3) & ~3;
  const rest = bytes.subarray(20 + jsonLen); // the BIN chunk, header included
  const out = new Uint8Array(20 + padded + rest.length);
  const odv = new DataView(out.buffer);
  odv.setUint32(0, 0x46546c67, true);
  odv.setUint32(4, 2, true);
  odv.setUint32(8, out.length, true);
  odv.setUint32(12, padded, true);
  odv.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + padded);
  out.set(text, 20);
  out.set(rest, 20 + padded);
  return { bytes: out, images };
}

const stripped = withoutTextures(readOrExit(glbPath, 'the glb'));
const glbBytes = stripped.bytes;
if (stripped.images) console.log(`(${stripped.images} embedded images ignored: poses do not depend on them)`);

function load() {
  const ab = glbBytes.buffer.slice(glbBytes.byteOffset, glbBytes.byteOffset + glbBytes.byteLength);
  return new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
}

// Load once; before each animation put every object back to its loaded (rest) TRS, so
// nothing one clip sets leaks into the next.
let gltf;
try {
  gltf = await load();
} catch (e) {
  console.error(`${glbPath}: GLTFLoader failed: ${e && e.message ? e.message : e}`);
  process.exit(1);
}
const restState = [];
gltf.scene.traverse((o) => restState.push([o, o.position.clone(), o.quaternion.clone(), o.scale.clone()]));
function restoreRest() {
  for (const [o, p, q, s] of restState) {
    o.position.copy(p);
    o.quaternion.copy(q);
    o.scale.copy(s);
  }
}

// boneyard's node names: in order, an empty name becomes `bone<index>`, a taken name gets
// `.2`, `.3`, ... (the first one free). Same rule as crates/export/src/names.rs.
function uniqueNames(names, fallback) {
  const taken = new Set();
  return names.map((n, i) => {
    const base = n === '' || n == null ? `${fallback}${i}` : n;
    let name = base;
    for (let k = 2; taken.has(name); k++) name = `${base}.${k}`;
    taken.add(name);
    return name;
  });
}

function nodeObjects(gltf) {
  const byIndex = new Map();
  for (const [obj, assoc] of gltf.parser.associations) {
    if (assoc && assoc.nodes !== undefined && !byIndex.has(assoc.nodes)) byIndex.set(assoc.nodes, obj);
  }
  return byIndex;
}

function findAnimation(gltf, anim) {
  const js = gltf.parser.json.animations || [];
  let k = js.findIndex((a) => a.extras && a.extras.index === anim.index);
  if (k < 0) {
    const byName = js.map((a, i) => [a.name, i]).filter(([n]) => n === anim.name);
    if (byName.length === 1) k = byName[0][1];
  }
  return k < 0 ? null : { json: js[k], clip: gltf.animations[k] };
}

let failed = false;
for (const expectedPath of expectedPaths) {
  let expected;
  try {
    expected = JSON.parse(readOrExit(expectedPath, 'the expected poses'));
  } catch (e) {
    console.error(`${expectedPath}: not JSON: ${e.message}`);
    process.exit(2);
  }
  const anim = expected.animation;
  const label = `${anim.name} (#${anim.index}, ${anim.frames} frames at ${anim.fps} fps)`;
  restoreRest();
  const found = findAnimation(gltf, anim);
  if (!found) {
    console.log(`FAIL ${label}: no such animation in ${glbPath}`);
    failed = true;
    continue;
  }
  const problems = [];
  if (found.json.extras && found.json.extras.fps !== undefined && found.json.extras.fps !== anim.fps) {
    problems.push(`extras.fps is ${found.json.extras.fps}, expected ${anim.fps}`);
  }
  // The key times of the full-length tracks must be f32(f / fps).
  const longest = found.clip.tracks.reduce((a, t) => (t.times.length > a.times.length ? t : a));
  if (longest.times.length !== anim.frames) {
    problems.push(`the longest track has ${longest.times.length} keys, expected ${anim.frames}`);
  } else {
    for (let f = 0; f < anim.frames; f++) {
      if (longest.times[f] !== Math.fround(f / anim.fps)) {
        problems.push(`key ${f} is at ${longest.times[f]} s, expected ${Math.fround(f / anim.fps)}`);
        break;
      }
    }
  }

  const nodes = nodeObjects(gltf);
  const jsonNodes = gltf.parser.json.nodes || [];
  const firstByName = new Map();
  jsonNodes.forEach((n, i) => {
    if (n.name !== undefined && !firstByName.has(n.name)) firstByName.set(n.name, i);
  });
  const bones = expected.frames.length ? expected.frames[0].bones : [];
  const gltfNames = uniqueNames(bones.map((b) => b.name), 'bone');
  const objects = gltfNames.map((n) => nodes.get(firstByName.get(n)));
  gltfNames.forEach((n, i) => {
    if (!objects[i]) problems.push(`no node named ${JSON.stringify(n)} (bone ${bones[i].index})`);
  });

  const mixer = new THREE.AnimationMixer(gltf.scene);
  const action = mixer.clipAction(found.clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  let maxErr = 0;
  let maxRel = 0;
  let where = '';
  let mismatches = 0;
  if (expected.frames.length !== anim.frames) {
    problems.push(`${expected.frames.length} frames listed, animation says ${anim.frames}`);
  }
  for (const fr of problems.length ? [] : expected.frames) {
    action.reset(); // un-pause after clamping at the end of the previous frame's jump
    mixer.setTime(Math.fround(fr.frame / anim.fps));
    gltf.scene.updateMatrixWorld(true);
    // Translations are compared relative to the pose's extent (the largest |translation|
    // in this frame, at least 1): an engine whose matrices are not exactly rigid (Zelda's
    // sine table gives rotations of length 1 ± 3e-5) cannot be carried by glTF's TRS
    // exactly, and its error grows with the distance from the root, not with each value.
    // The rotation part is dimensionless and is compared as is.
    let extent = 1;
    for (const b of fr.bones) for (const k of [12, 13, 14]) extent = Math.max(extent, Math.abs(b.matrix[k]));
    fr.bones.forEach((b, i) => {
      const m = objects[i].matrixWorld.elements;
      for (let k = 0; k < 16; k++) {
        const err = Math.abs(m[k] - b.matrix[k]);
        const rel = k >= 12 && k <= 14 ? err / extent : err;
        if (err > maxErr) maxErr = err;
        if (rel > maxRel) {
          maxRel = rel;
          where = `frame ${fr.frame} bone ${b.index} ${b.name} element ${k}`;
        }
        if (rel > TOL && mismatches++ < 10) {
          problems.push(`frame ${fr.frame} bone ${b.index} ${b.name} element ${k}: three.js ${m[k]}, boneyard ${b.matrix[k]}`);
        }
      }
    });
  }
  action.stop();
  mixer.uncacheRoot(gltf.scene);
  const summary = `${label}: ${bones.length} joints, max abs error ${maxErr.toExponential(3)}, max relative ${maxRel.toExponential(3)}${where ? ` at ${where}` : ''}`;
  if (problems.length || mismatches) {
    failed = true;
    console.log(`FAIL ${summary}${mismatches ? `, ${mismatches} elements off` : ''}`);
    for (const p of problems) console.log(`  ${p}`);
  } else {
    console.log(`ok   ${summary}`);
  }
}
process.exit(failed ? 1 : 0);
