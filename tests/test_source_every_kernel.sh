#!/usr/bin/env bash
# For every traced catalog kernel X, `redlab new-kernel my_X.cu --from X` followed by
# `redlab stats --source my_X.cu` gives exactly the per-step figures and trace digest of `redlab stats --kernel X`.
#   test_source_every_kernel.sh REDLAB cpu [ARCH]   the file compiled at run time for the CPU emulator; with ARCH
#                                                   (sm_90) every instance the run launches is also compiled for
#                                                   that GPU through NVRTC (--nvrtc-check), so CI checks the
#                                                   GPU's compile of every file without a GPU
#   test_source_every_kernel.sh REDLAB cuda         on the GPU through NVRTC (exit 77 without one: skipped); the
#                                                   cycles are the GPU's own and not compared, and the file's GPU
#                                                   trace must also equal its emulator trace (selftest's check)
set -u
R=$(realpath "$1"); BACKEND=$2; ARCH=${3:-}
if [ "$BACKEND" = cuda ] && ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 77; fi
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp"
check=()
[ -n "$ARCH" ] && check=(--nvrtc-check "$ARCH")
kernels=$("$R" list --json | python3 -c '
import json, sys
print(" ".join(k["id"] for k in json.load(sys.stdin) if k["traced"] and not k["host_only"] and not k["gpu_only"]
               and k["family"] != "allreduce"))')
[ -n "$kernels" ] || { echo "FAIL: redlab list names no traced kernel"; exit 1; }
count=0
for k in $kernels; do
  case $k in
    copy*|transpose*) scenario=(--rows 96 --cols 80 --type float64) ;;
    vectorized|grid_stride_warp|multi_element|coarsened) scenario=(--n 100003 --block 256 --type int32 --op max) ;;
    *) scenario=(--n 5003 --block 128 --type float32) ;;
  esac
  "$R" new-kernel "my_$k.cu" --from "$k" >/dev/null || { echo "FAIL $k: new-kernel"; fails=$((fails + 1)); continue; }
  t0=$(date +%s%N)
  "$R" stats --source "my_$k.cu" "${scenario[@]}" --backend "$BACKEND" "${check[@]}" --json >"my_$k.json" 2>"my_$k.err"
  rc=$?
  if [ $rc != 0 ]; then echo "FAIL my_$k: exit $rc"; cat "my_$k.err"; fails=$((fails + 1)); continue; fi
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  # The instance a run launches first, named from the file's text and compiled through NVRTC beside the host
  # compiler, is the one the launch looks for: the check then compiles only its twin, a GPU run nothing more.
  if [ -n "$ARCH" ] || [ "$BACKEND" = cuda ]; then
    ahead=$(grep -c "beside it, its first instance for the GPU" "my_$k.err")
    later=$(grep -oE "for the GPU \(NVRTC [0-9.]+, [a-z]+_[0-9]+, [0-9]+ instances?\)" "my_$k.err" | grep -oE "[0-9]+ instances?")
    want=$([ "$BACKEND" = cuda ] || echo "1 instance")
    if [ "$ahead" != 1 ] || [ "$later" != "$want" ]; then
      echo "FAIL my_$k: the first instance was not compiled ahead and found (later: '$later', want '$want'):"
      cat "my_$k.err"; fails=$((fails + 1))
    fi
  fi
  "$R" stats --kernel "$k" "${scenario[@]}" --backend "$BACKEND" --json >"$k.json" 2>/dev/null
  other=""
  if [ "$BACKEND" = cuda ]; then   # the same file on the emulator: the GPU trace equals it
    "$R" stats --source "my_$k.cu" "${scenario[@]}" --backend cpu --json >"my_${k}_cpu.json" 2>/dev/null
    other="my_${k}_cpu.json"
  fi
  python3 - "my_$k.json" "$k.json" "$k" "$BACKEND" "$other" <<'PY' || fails=$((fails + 1))
import json, sys
mine, catalog, k, backend, other = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4], sys.argv[5]
strip = lambda d: [{x: v for x, v in s.items() if x != "cycles"} for s in d["steps"]]
problems = []
if mine["kernel"] != "my_" + k: problems.append(f"kernel {mine['kernel']}")
if mine["backend"] != backend: problems.append(f"ran on {mine['backend']}, not {backend}")
if not (mine["correct"] and catalog["correct"]): problems.append(f"correct: {mine['correct']} / {catalog['correct']}")
if strip(mine) != strip(catalog): problems.append("per-step figures differ")
digest = mine["summary"].get("trace_digest")
if digest != catalog["summary"].get("trace_digest"): problems.append(f"digest {digest} vs {catalog['summary'].get('trace_digest')}")
if other:
    emu = json.load(open(other))
    if strip(emu) != strip(mine) or emu["summary"].get("trace_digest") != digest: problems.append("GPU and emulator traces differ")
print(("FAIL" if problems else "ok  ") + f" my_{k} on {backend}: {len(mine['steps'])} steps, digest {digest}"
      + ("" if not problems else ": " + "; ".join(problems)))
sys.exit(1 if problems else 0)
PY
  echo "     ($ms ms: $(grep -h "compiled" "my_$k.err" | sed 's/redlab: //' | tr '\n' ' '))"
  count=$((count + 1))
done
# Steps where a kernel names none (core/kernel_file.h): interleaved with every probe.step and probe.active line taken
# out steps at its barriers and counts a lane active where it accesses memory (probe.active_when_accessing, the
# traced build on either backend): the catalog's accesses and active threads, step for step.
"$R" new-kernel nosteps.cu --from interleaved >/dev/null
python3 -c '
import re, sys
lines = open("nosteps.cu").read().split("\n")
open("nosteps.cu", "w").write("\n".join(l for l in lines if not re.match(r"\s*probe\.(step|active)\(.*\);\s*$", l)))'
"$R" stats --source nosteps.cu --n 1000 --block 128 --backend "$BACKEND" "${check[@]}" --json >nosteps.json 2>nosteps.err \
  || { echo "FAIL nosteps: $(cat nosteps.err)"; fails=$((fails + 1)); }
"$R" stats --kernel interleaved --n 1000 --block 128 --backend "$BACKEND" --json >interleaved_nosteps.json 2>/dev/null
python3 - nosteps.json interleaved_nosteps.json "$BACKEND" <<'PY' || fails=$((fails + 1))
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
same = lambda s: {k: v for k, v in s.items() if k not in ("phase", "label", "cycles")}
labels = [s["label"] for s in a["steps"]]
ok = a["correct"] and a["backend"] == sys.argv[3] and labels[0] == "load" and labels[1] == "after barrier 1" \
    and [same(s) for s in a["steps"]] == [same(s) for s in b["steps"]]
print(("ok  " if ok else "FAIL") + f" nosteps on {a['backend']}: {len(labels)} steps, active threads "
      f"{[s['active_threads'] for s in a['steps']]}")
sys.exit(0 if ok else 1)
PY

echo "source, every kernel on $BACKEND${ARCH:+ (NVRTC check $ARCH)}: $count kernels, $fails failure(s)"
[ "$count" -ge 21 ] || { echo "FAIL: only $count kernels"; fails=$((fails + 1)); }
[ "$fails" = 0 ]
