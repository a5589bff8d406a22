#!/usr/bin/env bash
# Your own kernel: `redlab new-kernel my_X.cu --from X` writes the catalog kernel X as a file of
# its own. The build compiled such files (USER_DIR) as the catalog's records are compiled, into a CLI beside the
# catalog (USER_CLI): each must give exactly the per-step figures and trace digest of the kernel it comes from, on
# the CPU emulator. Then new-kernel's refusals (a library kernel, a file name that is not an identifier, a catalog
# name, an existing file, a language it does not have) and the Chinese description.
# usage: test_user_kernels.sh REDLAB USER_CLI USER_DIR   (USER_DIR/kernels.txt: "<id> <family>" for each file the
#        build made: tests/user_kernel_files.py)
set -u
REDLAB=$1; CLI=$2; DIR=$3
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

same() {  # KERNEL SCENARIO...: the catalog kernel and my_KERNEL, figures and digest
  k=$1; shift
  "$CLI" stats --kernel "$k" "$@" --backend cpu --json > "$tmp/a.json" 2> "$tmp/a.err" || { echo "FAIL $k: $(cat "$tmp/a.err")"; fails=$((fails+1)); return; }
  "$CLI" stats --kernel "my_$k" "$@" --backend cpu --json > "$tmp/b.json" 2> "$tmp/b.err" || { echo "FAIL my_$k: $(cat "$tmp/b.err")"; fails=$((fails+1)); return; }
  python3 - "$tmp/a.json" "$tmp/b.json" "$k" <<'PY' || fails=$((fails+1))
import json, sys
a, b, k = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
strip = lambda d: [{x: v for x, v in s.items() if x != "cycles"} for s in d["steps"]]
assert b["kernel"] == "my_" + k, b["kernel"]
assert b["correct"] and a["correct"], (a["correct"], b["correct"])
assert strip(a) == strip(b), f"{k}: per-step figures differ"
assert a["summary"]["trace_digest"] == b["summary"]["trace_digest"], f"{k}: digest {a['summary']['trace_digest']} vs {b['summary']['trace_digest']}"
print(f"my_{k}: {len(a['steps'])} steps, figures and digest {b['summary']['trace_digest']} as {k}'s")
PY
}
[ -s "$DIR/kernels.txt" ] || { echo "no kernels in $DIR/kernels.txt"; exit 1; }
while read -r -u 3 k family; do   # every traced catalog kernel the build made a file of
  case $family in
    transpose) same "$k" --rows 96 --cols 80 --type float32 ;;
    # several elements a thread: enough blocks for every loop to turn more than once
    *) same "$k" --n 100003 --block 256 --type int32 ;;
  esac
done 3< "$DIR/kernels.txt"
# the count, against the catalog's own: every kernel new-kernel starts a file from (list --json's "kernel_file")
expected=$("$REDLAB" list --json | python3 -c '
import json, sys
print(sum(1 for k in json.load(sys.stdin) if k["kernel_file"]))')
got=$(wc -l < "$DIR/kernels.txt")
[ "$got" -eq "$expected" ] && [ "$got" -gt 0 ] || { echo "FAIL: $got kernel files, the catalog has $expected kernels a file starts from"; fails=$((fails+1)); }
same interleaved --n 777 --block 64 --type float32 --op max

echo "== new-kernel's refusals"
refused() {  # WANT_SUBSTRING ARGS...
  want=$1; shift
  out=$("$REDLAB" new-kernel "$@" 2>&1); rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$want" <<<"$out"; then echo "FAIL new-kernel $*: exit $rc, '$out'"; fails=$((fails+1)); else echo "refused: $out"; fi
}
refused "no traced build" "$tmp/lib.cu" --from cub_device
refused "identifier" "$tmp/1st.cu" --from interleaved
refused "catalog kernel's name" "$tmp/interleaved.cu" --from interleaved
refused "a word C++ keeps for itself" "$tmp/short.cu" --from interleaved
refused "a name the kernel.s code already uses" "$tmp/T.cu" --from interleaved
refused "a name the kernel.s code already uses" "$tmp/probe.cu" --from transpose_tiled
refused "not a kernel redlab has" "$tmp/x.cu" --from nosuch
refused "en or zh_CN" "$tmp/x.cu" --from interleaved --lang fr
echo "keep me" > "$tmp/exists.cu"
refused "use --force" "$tmp/exists.cu" --from interleaved
grep -q "keep me" "$tmp/exists.cu" || { echo "FAIL: a refused new-kernel changed the file"; fails=$((fails+1)); }
"$REDLAB" new-kernel "$tmp/zh_kernel.cu" --from warp_shuffle --lang zh_CN > /dev/null || { echo "FAIL: --lang zh_CN"; fails=$((fails+1)); }
grep -q "探针" "$tmp/zh_kernel.cu" && grep -q "__global__ void zh_kernel" "$tmp/zh_kernel.cu" \
  || { echo "FAIL: the Chinese description or the renamed kernel is missing"; fails=$((fails+1)); }
# The files the build compiled are the ones new-kernel writes today.
"$REDLAB" new-kernel "$tmp/my_interleaved.cu" --from interleaved > /dev/null && cmp -s "$tmp/my_interleaved.cu" "$DIR/my_interleaved.cu" \
  || { echo "FAIL: new-kernel's output differs from the compiled file"; fails=$((fails+1)); }
[ $fails -eq 0 ] && echo "user kernels: all passed"
exit $fails
