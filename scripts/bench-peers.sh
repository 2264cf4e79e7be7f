#!/usr/bin/env bash
# boneyard against its speed peer on the same work, as whole processes, with medians.
#
#   scripts/bench-peers.sh [RUNS] [MOTION.BIN]     (defaults: 5, ../shared/data/shenmue/motion.bin)
#
# Rows (each run of every row interleaved with the others, so load changes hit all alike):
#   check        boneyard check MOTION.BIN: every frame of every sequence, the human rig's IK
#                solved at every frame (all threads; RAYON_NUM_THREADS=1 for the 1-thread row)
#   every human  node ny_bench.mjs once-human: new-yokosuka parsing the human family and
#                evaluating every human frame (its own runtime under Node: one JS thread, its
#                garbage collector on the other core, so its CPU exceeds its wall time)
#   list         boneyard list MOTION.BIN (parse only)
#   parse        node ny_bench.mjs once-parse: new-yokosuka parsing every sequence
#   oni_cd_check boneyard check on the synthetic CD-scale Oni level (8,604 TRAMs, 393,903 frames;
#                written by `cargo run --release -p boneyard-oni --example corpus_level`)
#   link_glb     boneyard export of adult Link with every clip of gameplay_keep and link_animetion
#                into one glb (from $BONEYARD_DATA or ../shared/data/z64/oot-gc-eu-mq-dbg; the row
#                is left out when those files are not there)
# Prints each row's median wall and CPU (user + sys) seconds and the peer / boneyard ratios, then
# the peak memory of `list` and `list --json` on the Oni level as a multiple of its input size.
# The peer lives in ../shared/peers/new-yokosuka (GPL-3.0; it is run, never copied).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
MOTION=$(realpath "${2:-../shared/data/shenmue/motion.bin}")
case "$MOTION$PWD" in *" "*) echo "paths with spaces are not supported" >&2; exit 1 ;; esac
PEER=$(realpath ../shared/peers/new-yokosuka)
command -v node >/dev/null || { echo "node is needed for the peer" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed" >&2; exit 1; }

cargo build --release -q -p boneyard
BIN=$PWD/target/release/boneyard
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cargo run --release -q -p boneyard-oni --example corpus_level -- "$OUT/corpus" >/dev/null
CORPUS=$OUT/corpus/level1_corpus.dat

# The check output must be the known one before anything is timed.
"$BIN" check "$MOTION" 2>/dev/null | tail -1 >"$OUT/hash"
echo "boneyard check: $(cat "$OUT/hash")   nproc=$(nproc)   load: $(cut -d' ' -f1-3 /proc/loadavg)"

# Row name -> command line (the peer runs from its own directory).
names=("check" "check_1thread" "every_human" "list" "parse" "oni_cd_check")
LINK=${BONEYARD_DATA:-../shared/data}/z64/oot-gc-eu-mq-dbg/object_link_boy
if [ -f "$LINK" ]; then
  LINK=$(realpath "$LINK")
  names+=("link_glb")
else
  echo "no $LINK: the link_glb row is left out" >&2
fi
declare -A cmd=(
  [check]="env $BIN check $MOTION"
  [check_1thread]="env RAYON_NUM_THREADS=1 $BIN check $MOTION"
  [every_human]="env -C $PEER node ny_bench.mjs once-human $MOTION"
  [list]="env $BIN list $MOTION"
  [parse]="env -C $PEER node ny_bench.mjs once-parse $MOTION"
  [oni_cd_check]="env $BIN check $CORPUS"
  [link_glb]="env $BIN export $LINK --skeleton gLinkAdultSkel --format glb --out $OUT/glb"
)
# Bash's own `time` in milliseconds (/usr/bin/time prints hundredths, which `list` goes under).
TIMEFORMAT='%3R %3U %3S'
for ((r = 1; r <= RUNS; r++)); do
  for n in "${names[@]}"; do
    # shellcheck disable=SC2086 # the command lines are split on purpose (no spaces in paths)
    { time ${cmd[$n]} >/dev/null 2>"$OUT/err"; } 2>"$OUT/t" \
      || { echo "$n failed:" >&2; cat "$OUT/err" >&2; exit 1; }
    read -r wall user sys <"$OUT/t"
    echo "$wall" >>"$OUT/$n.wall"
    awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f\n", u + s }' >>"$OUT/$n.cpu"
  done
  echo "run $r/$RUNS done" >&2
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '\n%-14s %10s %10s   (median of %d runs, seconds)\n' row wall cpu "$RUNS"
for n in "${names[@]}"; do
  printf '%-14s %10s %10s   runs: %s\n' "$n" "$(median "$OUT/$n.wall")" "$(median "$OUT/$n.cpu")" "$(paste -sd' ' "$OUT/$n.wall")"
done
ratio() { awk -v a="$(median "$OUT/$1.$3")" -v b="$(median "$OUT/$2.$3")" 'BEGIN { if (b > 0) printf "%.0fx", a / b; else print "inf" }'; }
echo
echo "every human frame: new-yokosuka / boneyard check   wall $(ratio every_human check wall)   cpu $(ratio every_human check cpu)   (1 thread: wall $(ratio every_human check_1thread wall), cpu $(ratio every_human check_1thread cpu))"
echo "parse only:        new-yokosuka / boneyard list    wall $(ratio parse list wall)   cpu $(ratio parse list cpu)"

# Peak resident memory (KB, /usr/bin/time's %M) over the level's input bytes (.dat + .raw).
input_kb=$(( ($(stat -c %s "$CORPUS") + $(stat -c %s "${CORPUS%.dat}.raw")) / 1024 ))
for args in "list" "list --json"; do
  # shellcheck disable=SC2086 # $args is two words on purpose
  /usr/bin/time -f "%M" -o "$OUT/m" "$BIN" $args "$CORPUS" >/dev/null 2>&1
  awk -v m="$(cat "$OUT/m")" -v i="$input_kb" -v a="$args" \
    'BEGIN { printf "oni CD level: %-12s peak %4.0f MB for %2.0f MB of input: %.2fx\n", a, m / 1024, i / 1024, m / i }'
done
