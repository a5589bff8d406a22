#!/bin/sh
# Fuzzes a reader (the trace loader, the gallery index, recorded hardware counts) for a fixed number of
# executions from a fresh seed corpus, or FUZZ_SECONDS (default 45) if that comes first: the suite's six readers
# then take about three minutes between them, where their executions alone took seven (the trace loader's 100,000
# about four).
#   run.sh FUZZ_TARGET SEED_MAKER WORKDIR [RUNS [KIND]]     KIND: the seed maker's (gallery, lesson, progress, settings, hw); traces if none
# A crash, a sanitizer report, a leak, one allocation over 512 MB, 1.5 GB resident or 10 s on one input fails,
# and the input that did it is kept in WORKDIR (crash-*, oom-*, timeout-*, leak-*) to be replayed with
# `FUZZ_TARGET FILE`. -seed=1 starts every run from the same inputs (one that stops at FUZZ_SECONDS ends where the
# machine's speed lets it).
set -eu
fuzz=$1 seeds=$2 work=$3 runs=${4:-100000} kind=${5:-}
if [ ! -x "$fuzz" ]; then
  echo "fuzz target $fuzz is not built: build the target redlab_fuzz (scripts/dev test does)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work/found" "$work/seeds"
case "$kind" in
  "") "$seeds" "$work/seeds" ;;
  hw) "$seeds" "$work/seeds" hw "$work/context.rltrace"; export REDLAB_FUZZ_TRACE="$work/context.rltrace" ;;
  *) "$seeds" "$work/seeds" "$kind" ;;
esac
"$fuzz" -runs="$runs" -max_total_time="${FUZZ_SECONDS:-45}" -seed=1 -max_len=262144 -timeout=10 -rss_limit_mb=1536 -malloc_limit_mb=512 \
  -artifact_prefix="$work/" -print_final_stats=1 "$work/found" "$work/seeds" 2>"$work/fuzz.log" || {
  tail -60 "$work/fuzz.log"
  echo "FAILED: the input is kept as $(ls "$work"/crash-* "$work"/oom-* "$work"/timeout-* "$work"/leak-* 2>/dev/null | head -1)"
  exit 1
}
grep -E "^Done|stat::number_of_executed_units|stat::peak_rss_mb|cov:" "$work/fuzz.log" | tail -4
echo "ok: $(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log") of $runs executions, $(ls "$work/found" | wc -l) new inputs kept"
