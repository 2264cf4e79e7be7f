#!/usr/bin/env bash
# Decoding against the memcpy floor (issue 10's "pure decoding within 5x of the floor"), in one
# run of the divan bench: every `decode/*` row over its `memcpy_floor/*` row, every
# `corpus_decode/*` (a folder's files opened one after another) over `corpus_memcpy_floor/*`
# (one thread copying), `corpus_decode_threads/*` (on rayon's threads, as `boneyard list DIR`
# opens them) over `corpus_memcpy_floor_threads/*` (the same copies on rayon's threads), and
# the CD-scale Oni level's decode over its floor, and a retail-like ROM of the OoT objects opened
# whole (`rom_decode`) and only decompressed (`rom_read`) over a copy of the ROM, as medians and
# as fastest samples.
#
#   scripts/bench-decode.sh [SAMPLES]     (default: divan's own sample counts)
#
# The rows are those of crates/export/benches/pipeline.rs: real files when ../shared/data (or
# $BONEYARD_DATA) is there, the families' demo files always. The floor copies every byte the
# opens are handed once, into new memory (from cache for small files, so a small file's ratio
# is its fixed cost; for inputs of megabytes mostly the kernel mapping the new pages); the last
# two columns are the same copy into buffers made beforehand (`*_memcpy_warm`: the memory's
# bandwidth alone) and the decode over it.
set -euo pipefail
cd "$(dirname "$0")/.."
extra=()
[ -n "${1:-}" ] && extra=(--sample-count "$1")
# The ratios depend on the machine as much as on the decoders: a processor that copies from a
# large cache at tens of GB/s gives floors several times lower than one that maps new pages, so
# every run says which processor and caches it ran on.
if command -v lscpu >/dev/null; then
  lscpu | awk -F: '/^(Model name|L2 cache|L3 cache)/ { gsub(/^ +/, "", $2); printf "%s: %s; ", $1, $2 } END { print "" }'
fi
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.table"' EXIT
cargo bench -q -p boneyard-export --bench pipeline -- "${extra[@]}" \
  decode memcpy_floor memcpy_warm corpus_decode corpus_memcpy_floor corpus_memcpy_warm \
  oni_cd_corpus_decode oni_cd_corpus_memcpy_floor oni_cd_corpus_memcpy_warm \
  rom_decode rom_read rom_memcpy_floor rom_memcpy_warm \
  | tee "$OUT"
echo

# Divan's table: a group line ("├─ decode"), then "│  ├─ label  fastest │ slowest │ median │ ...".
# Each time is printed with its unit (ns, µs, ms, s); everything is turned into microseconds.
awk '
  function us(v, u) { return u == "ns" ? v / 1000 : u == "ms" ? v * 1000 : u == "s" ? v * 1e6 : v }
  {
    line = $0
    gsub(/[│├╰─]/, " ", line)
    n = split(line, f, " ")
    if (n == 0) next
    # A group line: one word; a row: a label then (value unit) pairs.
    if (n == 1) { group = f[1]; next }
    if (n >= 7 && f[2] ~ /^[0-9.]+$/) {
      key = (f[1] ~ /^oni_cd_corpus_/) ? f[1] : group "/" f[1]
      fastest[key] = us(f[2], f[3]); median[key] = us(f[6], f[7])
    }
  }
  END {
    for (k in median) {
      split(k, p, "/")
      floor = ""; warm = ""
      if (p[1] == "decode") { floor = "memcpy_floor/" p[2]; warm = "memcpy_warm/" p[2] }
      else if (p[1] == "corpus_decode") { floor = "corpus_memcpy_floor/" p[2]; warm = "corpus_memcpy_warm/" p[2] }
      else if (p[1] == "corpus_decode_threads") { floor = "corpus_memcpy_floor_threads/" p[2] }
      else if (k == "oni_cd_corpus_decode") { floor = "oni_cd_corpus_memcpy_floor"; warm = "oni_cd_corpus_memcpy_warm" }
      else if (p[1] == "rom_decode" || p[1] == "rom_read") { floor = "rom_memcpy_floor/" p[2]; warm = "rom_memcpy_warm/" p[2] }
      if (floor == "" || !(floor in median) || median[floor] == 0) continue
      w = (warm in median && median[warm] > 0) ? sprintf("%9.1f %7.1fx", median[warm], median[k] / median[warm]) : sprintf("%9s %8s", "-", "-")
      printf "%-34s %12.1f %12.1f %7.1fx %9.1fx %s\n", k, median[k], median[floor], median[k] / median[floor], fastest[k] / fastest[floor], w
    }
  }
' "$OUT" | sort >"$OUT.table"
printf "%-34s %12s %12s %8s %10s %9s %8s\n" "decode / floor" "median us" "floor us" "median" "fastest" "warm us" "median"
cat "$OUT.table"
