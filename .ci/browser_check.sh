#!/usr/bin/env bash
# The viewer in a real browser: build its three.js bundle, rebuild the CLI to embed it, then
# for the demo files and real files (../shared/data or $BONEYARD_DATA, when present) start
# `boneyard view`, drive headless Chromium (WebGL through SwiftShader) over the DevTools
# protocol, and compare the joints the page shows with `boneyard pose` (browser/check.mjs).
# Screenshots: target/viewer-*.png.
# usage: browser_check.sh [WORK_DIR_WITH_demo/]
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-}
start=$(date +%s)
data=${BONEYARD_DATA:-../shared/data}

# Chromium: Debian's, installed when absent (CI runs as root).
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    echo "installing chromium (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium > /dev/null
    chromium=$(command -v chromium)
  else
    echo "browser check: no chromium, and cannot install it (not root or no apt-get)" >&2
    exit 1
  fi
fi
echo "$("$chromium" --version 2>/dev/null || echo chromium)"

# The bundle, then the binary that embeds it.
# (build.rs bundles viewer/src with the installed esbuild.)
(cd viewer && npm ci --no-audit --no-fund --loglevel=error)
cargo build -p boneyard
bin=target/debug/boneyard
if ! "$bin" view --help > /dev/null; then echo "no view command" >&2; exit 1; fi

fail=0
run() { node --no-warnings --experimental-websocket .ci/browser/check.mjs "$bin" "$chromium" "$@" || fail=1; }

# The demo files of every family: the clip the page opens on, at its middle frame.
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  "$bin" demo --out "$work/demo" > /dev/null
fi
for dir in "$work"/demo/*/; do
  inputs=()
  for f in "$dir"*; do
    case "$f" in *.glb|*.png|*.gif|*.bvh|*.obj|*.mtl|*.json) ;; *) inputs+=("$f") ;; esac
  done
  [ ${#inputs[@]} -gt 0 ] && run "target/viewer-demo-$(basename "$dir").png" - - - "${inputs[@]}"
done

# A folder: each file its own document, listed in the page; a file that fails (a .dat cut
# short) is named there with its error and offset, and the others are served.
folder="$work/folder"
rm -rf "$folder" && mkdir -p "$folder"
cp "$work"/demo/z64/*.zobj "$work"/demo/oni/boneyard_demo.dat "$work"/demo/oni/boneyard_demo.raw "$folder"/
head -c 300 "$work"/demo/oni/boneyard_demo.dat > "$folder"/broken.dat
EXPECT_FAILED="broken.dat: at byte offset 32 (0x20): data block" run target/viewer-folder.png - - - "$folder"

if [ -d "$data" ]; then
  z=$data/z64/oot-gc-eu-mq-dbg
  # Adult Link walking, textured; hover, play and root motion off too; the tunic is the
  # Kokiri green the player's draw sets (sTunicColors in the decomp's z_player_lib.c).
  # Then a clip whose face word closes his eyes at frame 11: the page swaps the eye and mouth
  # textures as /api/faces lists them.
  INTERACT=1 TUNIC=30,105,27 FACE=gPlayerAnim_clink_demo_Tbox_open:11 run target/viewer-link.png gLinkAdultSkel gPlayerAnim_link_normal_walk 7,0,28 \
    "$z/object_link_boy" "$z/gameplay_keep" "$z/link_animetion"
  # The same Link in the Goron tunic with the Mirror Shield, chosen in the page's controls:
  # the screenshot shows the tunic's red (sTunicColors), the download is `export --tunic goron
  # --shield mirror`'s glb.
  RUNTIME=tunic=goron,shield=mirror INTERACT=1 TUNIC=100,20,0 run target/viewer-link-goron.png gLinkAdultSkel gPlayerAnim_link_normal_walk 7 \
    "$z/object_link_boy" "$z/gameplay_keep" "$z/link_animetion"
  # Phantom Ganon: 4 of the object's 27 clips (40-41 joints) play on none of its skeletons
  # (25 limbs): not offered on it, and counted. An object of clips only: the page says so.
  EXPECT_TEXT="anim-count=4 more play on no skeleton of these files" run target/viewer-gnd.png - - 0 "$z/object_gnd"
  EXPECT_ERROR="65 animations but no skeleton to play them on" run target/viewer-os-anime.png - - - "$z/object_os_anime"
  # The Oni fixtures' folder: TRAMfixture_badlast.oni fails (its keys end before its last
  # frame), the 10 other documents are served.
  EXPECT_FAILED="TRAMfixture_badlast.oni: at byte offset 684 (0x2ac): TRAM fixture_badlast" run target/viewer-oni-folder.png - - - "$data/oni"
  # The Zelda folder: 207 objects, each a document; the page opens on Link.
  run target/viewer-z64-folder.png - - - "$z"
  # Shenmue's MOTION.BIN (1559 clips, no model): what it opens on, drawn as capsules; the
  # reader's 32 warnings under their count; hovering, playing and the download named as
  # `export` names it (the rig's label, not the skeleton's display name).
  INTERACT=1 EXPECT_TEXT="warnings=32 warnings on these files" \
    run target/viewer-shenmue.png - - 10,0 "$data/shenmue/motion.bin"
else
  echo "SKIPPED (browser check on real files): $data is not present"
fi

echo "browser check took $(( $(date +%s) - start ))s"
exit $fail
