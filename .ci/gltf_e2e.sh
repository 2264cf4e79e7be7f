#!/usr/bin/env bash
# For every family's demo files (and the real files of ../shared/data, when present):
# export a .glb, validate it, and compare three.js's poses with `boneyard pose --all-frames`.
set -euo pipefail
bin=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
fail=0

# check_glb NAME GLB FILE...: validate GLB, then compare every animation in it.
check_glb() {
  local name=$1 glb=$2; shift 2
  echo "--- $name"
  node "$here/gltf/validate.mjs" "$glb" || fail=1
  local n i expected=()
  n=$("$bin" list --json "$@" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).animations.length))')
  for ((i = 0; i < n; i++)); do
    "$bin" pose "$@" --anim "#$i" --all-frames --json > "$work/expected_$i.json"
    expected+=("$work/expected_$i.json")
  done
  if [ ${#expected[@]} -gt 0 ]; then
    node "$here/gltf/three_check.mjs" "$glb" "${expected[@]}" || fail=1
  fi
  rm -f "$work"/expected_*.json
}

for dir in "$work"/demo/*/; do
  fam=$(basename "$dir")
  glb=$(ls "$dir"*.glb | head -n 1)
  inputs=()
  for f in "$dir"*; do
    case "$f" in *.glb|*.png|*.gif|*.bvh|*.obj|*.json) ;; *) inputs+=("$f") ;; esac
  done
  if [ ${#inputs[@]} -eq 0 ]; then
    # The built-in (format-less) demo has no input files: validate only.
    echo "--- demo $fam"; node "$here/gltf/validate.mjs" "$glb" || fail=1
  else
    check_glb "demo $fam" "$glb" "${inputs[@]}"
  fi
done

exit $fail
