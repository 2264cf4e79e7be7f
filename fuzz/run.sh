#!/usr/bin/env bash
# Run the fuzz targets from their committed seed corpora.
#
#   fuzz/run.sh SECONDS [-runs=N] [-libfuzzer_flag=...] [TARGET...]
#   fuzz/run.sh -runs=N [TARGET...]
#
# Each target (all of fuzz_targets/ when none is named) runs for SECONDS (-max_total_time) or N
# executions, whichever comes first, one after the other. The committed seeds in
# corpus/<target>/ are read, never written: what the fuzzer adds goes to work/<target>/
# (ignored by git), crashes to artifacts/<target>/ (cargo-fuzz's place). A line per target
# gives executions, executions per second, units added, the working corpus's size, the
# coverage reached and the crashes saved; the lines are also in work/summary.txt.
# FUZZ_SANITIZER=none builds without AddressSanitizer (about twice the executions per second;
# panics, hangs and allocation limits are still caught, which is what safe Rust can hit).
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -u
self=$(realpath "$0")
cd "$(dirname "$self")"
seconds=""
flags=()
targets=()
for a in "$@"; do
    case "$a" in
        -*) flags+=("$a") ;;
        *[!0-9]*) targets+=("$a") ;;
        *) seconds="$a" ;;
    esac
done
if [ -z "$seconds" ] && [ ${#flags[@]} -eq 0 ]; then
    sed -n '2,15p' "$self" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
[ -n "$seconds" ] && flags+=("-max_total_time=$seconds")
if [ ${#targets[@]} -eq 0 ]; then
    for f in fuzz_targets/*.rs; do targets+=("$(basename "$f" .rs)"); done
fi
sanitizer=${FUZZ_SANITIZER:-address}
mkdir -p work
cargo +nightly fuzz build -s "$sanitizer" >work/build.log 2>&1 || { cat work/build.log; exit 1; }
printf '%-18s %10s %8s %6s %7s %6s %7s\n' target execs exec/s new corpus cov crashes | tee -a work/summary.txt
status=0
for t in "${targets[@]}"; do
    mkdir -p "work/$t" "corpus/$t" "artifacts/$t"
    log="work/$t.log"
    before=$(ls "artifacts/$t" | wc -l)
    cargo +nightly fuzz run -s "$sanitizer" "$t" "work/$t" "corpus/$t" -- \
        -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 "${flags[@]}" >"$log" 2>&1
    rc=$?
    stat() { grep "^stat::$1:" "$log" | tail -1 | awk '{print $2}'; }
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
    crashes=$(( $(ls "artifacts/$t" | wc -l) - before ))
    [ "$rc" -ne 0 ] && status=1
    printf '%-18s %10s %8s %6s %7s %6s %7s\n' "$t" "$(stat number_of_executed_units)" \
        "$(stat average_exec_per_sec)" "$(stat new_units_added)" "$(ls "work/$t" | wc -l)" "${cov:-?}" \
        "$crashes$([ "$rc" -ne 0 ] && echo " (exit $rc, see fuzz/$log)")" | tee -a work/summary.txt
done
exit $status
