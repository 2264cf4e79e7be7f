// Khronos glTF-Validator over exported files.
// usage: node validate.mjs FILE.glb...
// Prints, per file, the error/warning/info counts and every message; exits 1 when any file
// has an error OR a warning (boneyard's bar is 0 and 0), 2 when a file cannot be read.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator');

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate.mjs FILE.glb...');
  process.exit(2);
}

let status = 0;
for (const file of files) {
  let bytes;
  try {
    bytes = new Uint8Array(fs.readFileSync(file));
  } catch (e) {
    console.error(`${file}: cannot read: ${e.message}`);
    status = Math.max(status, 2);
    continue;
  }
  try {
    const r = await validator.validateBytes(bytes, {
      uri: file,
      maxIssues: 0, // report everything
      // Only the GLB's own buffer is expected; an external resource is an error for us.
      externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri}`)),
    });
    const i = r.issues;
    const a = r.info || {};
    console.log(
      `${file}: validator ${r.validatorVersion}: errors=${i.numErrors} warnings=${i.numWarnings} ` +
        `infos=${i.numInfos} hints=${i.numHints} (animations=${a.animationCount ?? '?'}, ` +
        `draw calls=${a.drawCallCount ?? '?'}, vertices=${a.totalVertexCount ?? '?'}, skins=${a.hasSkins ?? '?'})`,
    );
    const severity = ['error', 'warning', 'info', 'hint'];
    for (const m of i.messages) {
      console.log(`  [${severity[m.severity] ?? m.severity}] ${m.code} ${m.pointer ?? ''} ${m.message}`);
    }
    if (i.numErrors > 0 || i.numWarnings > 0) status = Math.max(status, 1);
  } catch (e) {
    console.error(`${file}: validator rejected the file: ${e && e.message ? e.message : e}`);
    status = Math.max(status, 1);
  }
}
process.exit(status);
