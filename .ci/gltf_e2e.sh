#!/usr/bin/env bash
# End-to-end glTF checks. For the demo files of every family, and for real files of
# ../shared/data when present: export a .glb with `boneyard export`, validate it with the
# Khronos validator (0 errors, 0 warnings), and compare three.js's joint world matrices at
# every frame with `boneyard pose --all-frames` (three_check.mjs).
set -euo pipefail
bin=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
data="$here/../../shared/data"
[ -d "${BONEYARD_DATA:-}" ] && data=$BONEYARD_DATA
fail=0

# check NAME "ANIM..." FILE...: export the animations (all of the first skeleton when ANIM is
# empty) to one .glb, validate it, and compare every exported animation with boneyard's pose.
check() {
  local name=$1 anims=$2; shift 2
  local out="$work/e2e/$name" a args=() expected=() i=0
  rm -rf "$out"; mkdir -p "$out"
  for a in $anims; do args+=(--anim "$a"); done
  echo "--- $name"
  "$bin" export "$@" "${args[@]}" --format glb --out "$out" > /dev/null
  local glb clips skeleton
  # One .glb per skeleton of the document (those the chosen animations play on).
  for glb in "$out"/*.glb; do
    node "$here/gltf/validate.mjs" "$glb" || fail=1
    # Every animation in that file, as export chose them.
    clips=$(node -e '
      const g = require("fs").readFileSync(process.argv[1]);
      const len = g.readUInt32LE(12), j = JSON.parse(g.subarray(20, 20 + len).toString());
      console.log((j.animations || []).map(a => "#" + a.extras.index).join(" "));' "$glb")
    # The skeleton the file holds (a clip is written with each skeleton it plays on).
    skeleton=$(node -e '
      const g = require("fs").readFileSync(process.argv[1]);
      const len = g.readUInt32LE(12), j = JSON.parse(g.subarray(20, 20 + len).toString());
      console.log(j.scenes[0].extras.skeleton);' "$glb")
    expected=()
    for a in $clips; do
      "$bin" pose "$@" --skeleton "$skeleton" --anim "$a" --all-frames --json > "$out/expected_$i.json"
      expected+=("$out/expected_$i.json")
      i=$((i + 1))
    done
    if [ ${#expected[@]} -gt 0 ]; then
      node "$here/gltf/three_check.mjs" "$glb" "${expected[@]}" || fail=1
    fi
  done
}

for dir in "$work"/demo/*/; do
  inputs=()
  for f in "$dir"*; do
    case "$f" in *.glb|*.png|*.gif|*.bvh|*.obj|*.json) ;; *) inputs+=("$f") ;; esac
  done
  [ ${#inputs[@]} -gt 0 ] && check "demo_$(basename "$dir")" "" "${inputs[@]}"
done

if [ -d "$data" ]; then
  oni=$data/oni z=$data/z64/oot-gc-eu-mq-dbg
  check oni_walk19_body19 "" "$oni/TRBSfixture_body19.oni" "$oni/TRAMfixture_walk19.oni"
  check oni_level1 "" "$oni/level1_Final.dat"
  check z64_dekunuts "" "$z/object_dekunuts"
  # The Gibdo's and the Redead's skeletons share their 11 clips: each glb holds them, posed
  # on its own skeleton (as the level's two 19-part bodies above share its clips).
  check z64_rd "" "$z/object_rd"
  check z64_link_boy "gPlayerAnim_clink_demo_atozusari gPlayerAnim_link_normal_walk gPlayerAnim_link_normal_run gPlayerAnim_Link_ue_wait" "$z/object_link_boy" "$z/gameplay_keep" "$z/link_animetion"
  check z64_human "" "$z/object_human"
  check z64_horse "#0 #4 #8" "$z/object_horse"
  # The treasure chest's curve skeleton (SkelCurve, 0x5EB8): meshes in dList[1], limbs hidden
  # by a zero scale.
  check z64_box_curve "#3 #4" "$z/object_box"
  # The chest itself (gTreasureChestSkel): its box and lid are drawn by En_Box after limbs 0
  # and 2 (PostLimbDraw); the lid opens.
  check z64_box_chest "#0 #1 #2" "$z/object_box"
  check z64_fan_aria "" "$data/z64/fan/Aria_Hiro_Girl_OOTO.zobj"
  check shenmue_motion "A_WALK_L_02 #0 #1000" "$data/shenmue/motion.bin"
else
  echo "SKIPPED (real-file glTF checks): ../shared/data is not present"
fi

exit $fail
