// Runs the peer runtime (new-yokosuka, shared/peers/new-yokosuka: GPL-3.0, run, not copied)
// on a MOTN file for tests/peer.rs, printing one JSON object per sequence per line.
//
//   node ny_dump.mjs PEER_DIR MOTION.BIN meta
//     every sequence: {index, name, meta: null | {offset, hit, attack, sound, surface}}
//     (the action metadata as the peer decodes it: direct hit-phase frames, direct attack
//     parameters [class, proficiency, base damage], sound cues [frame, group, track],
//     surface cues [frame, contact kind])
//   node ny_dump.mjs PEER_DIR MOTION.BIN pose INDEX...
//     for each index: {index, name, frames, poses: [[frame, [37 × 16 numbers]]...]} at frames
//     0, the middle and the last, and between frames at 0.25 and half a frame after the middle
//     (row-major, row-vector: translation at 12..14)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [peer, file, mode, ...rest] = process.argv.slice(2);
const { MotnLoader } = await import(pathToFileURL(join(peer, "src", "MotnLoader.js")).href);
const { evaluateRyoMotnFrame } = await import(pathToFileURL(join(peer, "src", "RyoMotnRuntime.js")).href);
const b = readFileSync(file);
const buf = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
const lines = [];
if (mode === "meta") {
  const doc = MotnLoader.parse(buf, {});
  for (const s of doc.sequences) {
    const m = s.actionMetadata;
    lines.push(JSON.stringify({
      index: s.index,
      name: s.name,
      meta: m ? {
        offset: m.offset,
        hit: m.directHitPhaseFrames,
        attack: m.directAttackParameters
          ? [m.directAttackParameters.attackClassIndex, m.directAttackParameters.proficiencySelector, m.directAttackParameters.baseDamage]
          : null,
        sound: m.soundCues.map((c) => [c.frame, c.group, c.track]),
        surface: m.surfaceSoundCues.map((c) => [c.frame, c.contactKind]),
      } : null,
    }));
  }
} else if (mode === "pose") {
  const indices = rest.map(Number);
  const doc = MotnLoader.parse(buf, { sequenceIndices: indices });
  for (const s of doc.sequences) {
    const n = s.durationFrames;
    const mid = Math.floor((n - 1) / 2);
    // Between frames too, where the engine evaluates its curves (and an export with
    // subframes keys them): a quarter in, and half a frame after the middle.
    const between = n > 1 ? [0.25, Math.min(mid + 0.5, n - 1.5)] : [];
    const frames = [...new Set([0, mid, n - 1, ...between])];
    const poses = frames.map((f) => [f, evaluateRyoMotnFrame(s, f).genericMatrices.flatMap((m) => Array.from(m))]);
    lines.push(JSON.stringify({ index: s.index, name: s.name, frames: n, poses }));
  }
} else {
  console.error("mode is meta or pose");
  process.exit(2);
}
process.stdout.write(lines.join("\n") + "\n");
