# Optional cross-check with Blender (not run by .ci/run: Blender is large). Imports an
# exported .glb or .bvh headless and compares every bone head, at every frame of each
# EXPECTED.json (`boneyard pose FILE --anim A --all-frames --json`), with the expected
# joint origin. glTF and BVH are Y-up, Blender Z-up: (x, y, z) -> (x, -z, y).
#
#   blender --background --factory-startup --python blender_check.py -- FILE.glb|FILE.bvh EXPECTED.json...
#
# A .bvh holds one clip (give one EXPECTED). Prints the max head error per animation; exits 1
# when one exceeds 1e-3 (Blender's pose evaluation is f32) or a bone/action is missing.
# Written for Debian 12's Blender 3.4.1, with its two known breakages worked around.
import builtins
import functools
import json
import sys

import bpy
import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool  # the 3.4 glTF add-on uses np.bool, removed in numpy 1.24
_open = builtins.open  # the 3.4 BVH add-on opens with mode "rU", which Python 3.11 rejects
builtins.open = functools.wraps(_open)(lambda f, mode="r", *a, **k: _open(f, mode.replace("U", ""), *a, **k))

argv = sys.argv[sys.argv.index("--") + 1:]
path, expected = argv[0], [json.load(open(e)) for e in argv[1:]]
if not expected:
    print("usage: blender ... --python blender_check.py -- FILE EXPECTED.json...")
    sys.exit(2)
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
is_bvh = path.lower().endswith(".bvh")
if is_bvh:
    bpy.ops.import_anim.bvh(filepath=path, update_scene_fps=True, update_scene_duration=True, rotate_mode="NATIVE")
else:
    # The glTF importer places keys at time * scene fps: use the clips' own rate.
    scene.render.fps = max(1, round(expected[0]["animation"]["fps"]))
    scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=path)
rate = scene.render.fps / scene.render.fps_base
arm = next((o for o in scene.objects if o.type == "ARMATURE"), None)
if arm is None:
    print("FAIL: no armature imported")
    sys.exit(1)
status = 0
for d in expected:
    name = d["animation"]["name"]
    fps = d["animation"]["fps"]
    start = 1 if is_bvh else 0  # the BVH importer starts at frame 1
    if not is_bvh:
        act = next((a for a in bpy.data.actions if a.name == name or a.name.startswith(name + "_")), None)
        if act is None:
            print(f"FAIL {name}: no action (have {[a.name for a in bpy.data.actions]})")
            status = 1
            continue
        arm.animation_data.action = act
    worst = 0.0
    for fr in d["frames"]:
        t = start + fr["frame"] / fps * rate
        scene.frame_set(int(t), subframe=t - int(t))
        for b in fr["bones"]:
            pb = arm.pose.bones.get(b["name"])
            if pb is None:
                print(f"FAIL {name}: no bone {b['name']}")
                sys.exit(1)
            h = arm.matrix_world @ pb.head
            m = b["matrix"]
            worst = max(worst, abs(h.x - m[12]), abs(h.y + m[14]), abs(h.z - m[13]))
    ok = worst <= 1e-3
    status |= 0 if ok else 1
    print(f"{'ok  ' if ok else 'FAIL'} blender {bpy.app.version_string}: {name}: {len(d['frames'])} frames, max head error {worst:.3e}")
sys.exit(status)
