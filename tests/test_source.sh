#!/usr/bin/env bash
# `stats --source FILE`: a kernel file of the student's own, compiled at run time for the CPU
# emulator and run in a second redlab. A file made by `new-kernel --from X` gives exactly X's per-step figures
# and trace digest; a syntax error names the file and line; a crash, an endless loop and a full-mask shuffle that
# not every lane reaches end with a message naming where, and never the first redlab.
#   test_source.sh REDLAB [CUDA]     CUDA ON (a build with the toolkit): also the GPU's compile (--nvrtc-check), its
#                                    error naming the file and line, and bench --source refused without a GPU
set -u
R=$(realpath "$1")
CUDA=${2:-OFF}
. "$(dirname "$0")/lib.sh"   # tmp, fail, ok, finish
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp"
same() {  # same NAME FROM ARGS...: new-kernel NAME.cu --from FROM, then --source and --kernel give the same figures
  local name=$1 from=$2; shift 2
  "$R" new-kernel "$name.cu" --from "$from" >/dev/null || { fail "$name: new-kernel"; return; }
  local t0=$(date +%s%N)
  "$R" stats --source "$name.cu" "$@" --backend cpu --json >"$name.json" 2>"$name.err" || { fail "$name: exit $?"; cat "$name.err"; return; }
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  "$R" stats --kernel "$from" "$@" --backend cpu --json >"$from.json" 2>/dev/null
  python3 - "$name.json" "$from.json" "$name" <<'PY' || fails=$((fails + 1))
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
strip = lambda d: {k: v for k, v in d["summary"].items() if k != "trace_ms"}   # the tracing's wall time
ok = a["steps"] == b["steps"] and strip(a) == strip(b) and a["correct"] and a["kernel"] == sys.argv[3]
print(("ok  " if ok else "FAIL") + f" {sys.argv[3]}: {len(a['steps'])} steps, digest {a['summary'].get('trace_digest')}"
      f" vs {b['summary'].get('trace_digest')}")
sys.exit(0 if ok else 1)
PY
  echo "     ($ms ms, compile included: $(cat "$name.err" | tr -d '\n'))"
}
same my_interleaved interleaved --n 4099 --block 128 --op max
same my_shuffle warp_shuffle --n 1000 --block 256 --type float64
same my_vectorized vectorized --n 100003 --block 256
same my_strided neighbored_strided --n 4096 --block 256 --type float32 --op min
same my_tiled transpose_tiled --rows 64 --cols 96 --type float64
# The second run of a file takes the compiled kernel from the cache.
"$R" stats --source my_interleaved.cu --n 4099 --block 128 --op max >/dev/null 2>cached.err
grep -q compiled cached.err && fail "cache: the unchanged file was compiled again"
# redlab's headers, precompiled by the first compile's command (it waits for that build) and used by every compile
# after it, with the same figures (`same` above); a precompiled header that no longer matches its seal is passed over
# (the file is compiled from the headers' text) and built again.
prelude=$(ls -d "$XDG_CACHE_HOME"/redlab/kernels/prelude-* 2>/dev/null | head -1)
[ -n "$prelude" ] && [ -s "$prelude/user_prelude.h.gch" ] || fail "prelude: no precompiled header in the cache after a compile"
grep -q "headers precompiled" my_interleaved.err && fail "prelude: the first compile says it used a precompiled header"
for f in my_shuffle my_vectorized my_strided my_tiled; do
  grep -q "headers precompiled" $f.err || { fail "prelude: $f was compiled without the precompiled header:"; cat $f.err; }
done
if [ -n "$prelude" ]; then
  printf 'x' | dd of="$prelude/user_prelude.h.gch" bs=1 seek=4096 conv=notrunc status=none
  same my_again interleaved --n 777 --block 64
  grep -q "headers precompiled" my_again.err && fail "prelude: a precompiled header that fails its seal was used"
  same my_again2 interleaved --n 778 --block 64
  grep -q "headers precompiled" my_again2.err || fail "prelude: not built again after it failed its seal"
fi

edit() {  # edit FILE PYTHON_OLD PYTHON_NEW
  python3 - "$@" <<'PY'
import sys
f, old, new = sys.argv[1:]
s = open(f).read()
assert old in s, old
open(f, "w").write(s.replace(old, new, 1))
PY
}
expect() {  # expect NAME NEEDLE ARGS...: exit non-zero within the time, stderr naming NEEDLE
  local name=$1 needle=$2; shift 2
  local t0=$(date +%s)
  timeout 120 "$R" stats --source "$name.cu" --n 4096 --block 256 "$@" >/dev/null 2>"$name.err"
  local rc=$? secs=$(( $(date +%s) - t0 ))
  if [ $rc = 0 ] || [ $rc = 124 ] || ! grep -qE -- "$needle" "$name.err"; then
    fail "$name: exit $rc, stderr should name '$needle':"; cat "$name.err"
  else
    echo "ok   $name: exit $rc in $secs s: $(grep -E -- "$needle" "$name.err" | head -1)"
  fi
}
"$R" new-kernel syntax.cu --from interleaved >/dev/null
edit syntax.cu "s[tid] = op(s[tid], s[tid + offset]);" "s[tid] = op(s[tid], s[tid + offset]) oops;"
line=$(grep -n "oops" syntax.cu | head -1 | cut -d: -f1)
expect syntax "^syntax.cu:$line:[0-9]+: error"
grep -q "wrapper" syntax.err && fail "syntax: the generated wrapper is named"

"$R" new-kernel endless.cu --from interleaved >/dev/null
edit endless.cu "offset > 0; offset /= 2)" "offset > 0; offset /= 1)"
expect endless "did not finish within 2 s .*block \([0-9]+,0,0\), thread \([0-9]+,0,0\): warp [0-9]+, lane [0-9]+, in step [0-9]+ \(the probe.step at line [0-9]+\)" --time-limit 2

"$R" new-kernel crash.cu --from interleaved >/dev/null
edit crash.cu "s[tid] = i < n ? input[i] : Op::identity();" "s[tid] = i < n ? in[i * 100000000u] : Op::identity();"
expect crash "SIGSEGV\) in block \(0,0,0\), thread \([0-9]+,0,0\): warp 0, lane [0-9]+, in step 0 \(the probe.step at line [0-9]+\)"

# The seed's full-mask shuffle under `if (tid < WARPS)`: a hang on a GPU, a deadlock named by the emulator.
"$R" new-kernel hang.cu --from warp_shuffle >/dev/null
edit hang.cu "    probe.step(Phase::warp, Label::offset, offset);
    if (warp == 0) {" "    probe.step(Phase::warp, Label::offset, offset);
    if (tid < WARPS) {"
expect hang "deadlock in block 0: __shfl_down_sync \(kernel line [0-9]+ of hang.cu\) in warp 0 names lanes 8-31"

# Refusals: a file without a record, a record named like a catalog kernel, --kernel naming another.
echo "int main() {}" > norecord.cu
expect norecord "declares no kernel record"
sed 's/"my_interleaved"/"interleaved"/' my_interleaved.cu > catalogname.cu
expect catalogname "a kernel redlab already has"
"$R" stats --source my_interleaved.cu --kernel interleaved >/dev/null 2>other.err && fail "--kernel other: accepted"
grep -q "declares the kernel 'my_interleaved'" other.err || fail "--kernel other: $(cat other.err)"
# --load-kernel is the second redlab's: beside --source it is refused in one sentence (not CLI11's "At Most 1").
"$R" stats --source my_interleaved.cu --load-kernel x.so >/dev/null 2>both.err && fail "--source with --load-kernel: accepted"
grep -q "give --source alone" both.err || fail "--source with --load-kernel: $(cat both.err)"
# trace --source writes a trace of the kernel file.
"$R" trace --source my_interleaved.cu --n 4099 --block 128 -o my.rltrace 2>trace.err && [ -s my.rltrace ] \
  || { fail "trace --source"; cat trace.err; }

# The steps are counted, not restated: the record's formula is room to start with. A common off-by-one (the tree
# loop stops at offset 2) is one step fewer, traced as it is, its wrong result shown; a kernel with 40 steps more
# than its record says is traced again with more room, and its result is right.
"$R" new-kernel one_short.cu --from interleaved >/dev/null
sed -i '0,/offset > 0; offset \/= 2/s//offset > 1; offset \/= 2/' one_short.cu
grep -q "offset > 1; offset /= 2" one_short.cu || fail "one_short.cu: the loop was not changed"
"$R" stats --source one_short.cu --n 4096 --block 256 --backend cpu --json >one_short.json 2>one_short.err
rc=$?
python3 - one_short.json "$rc" <<'PY' || fail "one_short.cu: exit $rc, $(tail -1 one_short.err)"
import json, sys
j = json.load(open(sys.argv[1]))
labels = [s["label"] for s in j["steps"]]
assert sys.argv[2] == "1" and not j["correct"] and len(labels) == 9 and "offset 1" not in labels, (sys.argv[2], labels)
PY
"$R" new-kernel many.cu --from interleaved >/dev/null
sed -i '0,/  probe.step(Phase::store);/s//  for (int i = 0; i < 40; ++i) probe.step(Phase::tree, Label::offset, 1000 + i);\n  probe.step(Phase::store);/' many.cu
"$R" stats --source many.cu --n 4096 --block 256 --backend cpu --json >many.json 2>many.err \
  || fail "many.cu: exit $?, $(tail -1 many.err)"
python3 -c "import json,sys; j=json.load(open('many.json')); sys.exit(0 if j['correct'] and len(j['steps']) == 50 else 1)" \
  || fail "many.cu: not 50 steps and a right result"

# Steps where a kernel names none: interleaved with every probe.step and probe.active line taken out gets one step
# per barrier interval ("load", "after barrier k"), on the lines of its __syncthreads, and a lane is active where it
# makes an access: the catalog's per-step accesses and active threads, step for step, and a correct result.
"$R" new-kernel nosteps.cu --from interleaved >/dev/null
python3 - nosteps.cu <<'PY'
import re, sys
f = sys.argv[1]
lines = open(f).read().split("\n")
open(f, "w").write("\n".join(l for l in lines if not re.match(r"\s*probe\.(step|active)\(.*\);\s*$", l)))
PY
"$R" stats --source nosteps.cu --n 1000 --block 128 --backend cpu --json >nosteps.json 2>nosteps.err || fail "nosteps: $(cat nosteps.err)"
"$R" stats --kernel interleaved --n 1000 --block 128 --backend cpu --json >interleaved.json 2>/dev/null
sync_lines=$(grep -n "__syncthreads();" nosteps.cu | cut -d: -f1 | paste -sd, | sed 's/,/, /g')
grep -q "nosteps.cu names no probe.step in nosteps: one step per barrier interval, from the start and after the __syncthreads() at lines $sync_lines" nosteps.err \
  || fail "nosteps: the note should name lines $sync_lines: $(cat nosteps.err)"
python3 - nosteps.json interleaved.json <<'PY' || fails=$((fails + 1))
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
labels = [s["label"] for s in a["steps"]]
want = ["load"] + [f"after barrier {k}" for k in range(1, len(b["steps"]))]
same = lambda s: {k: v for k, v in s.items() if k not in ("phase", "label", "cycles")}
ok = a["correct"] and labels == want and [same(s) for s in a["steps"]] == [same(s) for s in b["steps"]]
print(("ok  " if ok else "FAIL") + f" nosteps: {labels[:3]}..., active threads {[s['active_threads'] for s in a['steps']]}")
sys.exit(0 if ok else 1)
PY

# The GPU's compile (NVRTC) of a file the host compiler takes: device code cannot use the host's library, and the
# message names the file and line as NVRTC gives them.
if [ "$CUDA" = ON ]; then
  "$R" new-kernel hostlib.cu --from interleaved >/dev/null
  edit hostlib.cu "#include \"reduce/common.cuh\"" "#include \"reduce/common.cuh\"
#include <vector>"
  line=$(grep -n "#include <vector>" hostlib.cu | cut -d: -f1)
  "$R" stats --source hostlib.cu --n 300 --block 64 --backend cpu >/dev/null 2>hostlib.err || fail "hostlib: the emulator refused it: $(cat hostlib.err)"
  expect hostlib "^hostlib.cu\($line\): catastrophic error: cannot open source file \"vector\"" --backend cpu --nvrtc-check sm_90
  grep -qE "^hostlib.cu does not compile for the GPU \(NVRTC [0-9.]+, sm_90\)" hostlib.err \
    || fail "hostlib: no summary line: $(cat hostlib.err)"
  # NVRTC sees libcu++ configured as nvcc does (its type lists unrolled 10 deep, not 16: the parse is 5 times shorter).
  "$R" new-kernel asnvcc.cu --from interleaved >/dev/null
  edit asnvcc.cu "#include \"reduce/common.cuh\"" "#include \"reduce/common.cuh\"
#include <type_traits>
#ifdef __CUDACC_RTC__
static_assert(_CCCL_META_UNROLL_LIMIT == 10, \"libcu++ as nvcc configures it\");
#endif"
  if "$R" stats --source asnvcc.cu --n 300 --block 64 --backend cpu --nvrtc-check sm_90 >/dev/null 2>asnvcc.err; then
    echo "ok   asnvcc: NVRTC compiles libcu++ as nvcc does"
  else
    fail "asnvcc: NVRTC does not see libcu++ as nvcc does:"; cat asnvcc.err
  fi
  cp my_interleaved.cu badarch.cu
  expect badarch "nvrtc-check 'hopper': give a GPU architecture as sm_XY" --backend cpu --nvrtc-check hopper
  if ! nvidia-smi -L >/dev/null 2>&1; then
    "$R" bench --source my_interleaved.cu --n 2^20 >/dev/null 2>bench.err && fail "bench --source without a GPU: exit 0"
    grep -qi "GPU\|CUDA" bench.err || fail "bench --source without a GPU: $(cat bench.err)"
    echo "ok   bench --source without a GPU: $(tail -1 bench.err)"
  fi
fi

# A file whose name holds terminal escapes (a title change, a colour) and a right-to-left override: every message
# that names it (compiled, does not compile, new-kernel's wrote, CLI11's own) quotes it escaped, never raw.
evil=$'evil\e]0;pwned\a\e[41m\u202e.cu'
cp my_interleaved.cu "$evil" 2>/dev/null || "$R" new-kernel my_interleaved.cu --from interleaved >/dev/null && cp my_interleaved.cu "$evil"
sed -i 's/"my_interleaved"/"evil_id"/; s/my_interleaved_/evil_id_/g' "$evil"
"$R" stats --source "$evil" --n 256 --backend cpu >/dev/null 2>evil.err
echo "broken" >> "$evil"
"$R" stats --source "$evil" --n 256 --backend cpu >/dev/null 2>>evil.err
"$R" stats --kernel interleaved --n 256 --hw-from $'none\e[41m.json' >/dev/null 2>>evil.err
"$R" lesson exercise memory --source $'none\e[41m.cu' >/dev/null 2>>evil.err
if grep -q $'\e\|\a\|\u202e' evil.err; then
  fail "a file name's escapes reached the terminal raw:"; cat -v evil.err
else
  grep -q 'evil\\x1b\]0;pwned' evil.err && echo "ok   escaped file names: $(grep -c . evil.err) lines, none raw" \
    || fail "the escaped file name is not quoted: $(cat -v evil.err)"
fi
rm -f "$evil"

finish source
