#!/usr/bin/env bash
# The command line as a user meets it. $REDLAB is the binary under test.
set -u
. "$(dirname "$0")/lib.sh"   # tmp, fail, ok, finish

check() {  # check NAME EXPECTED_EXIT CMD...
  local name=$1 want=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err.raw"
  local got=$?
  # The sanitizer build's notice about the emulator's fibers is not redlab's output.
  grep -v "^==[0-9]*==WARNING: ASan doesn't fully support makecontext/swapcontext" "$tmp/err.raw" >"$tmp/err"
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, expected $want"; cat "$tmp/err"; fails=$((fails + 1)); return 1
  fi
  return 0
}
expect_error() {  # expect_error NAME NEEDLE CMD... : exit 2, exactly one line on stderr naming NEEDLE
  local name=$1 needle=$2; shift 2
  check "$name" 2 "$@" || return
  if [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -qF -- "$needle" "$tmp/err"; then
    echo "FAIL $name: stderr should be one line naming '$needle':"; cat "$tmp/err"; fails=$((fails + 1))
  fi
}
json_get() { python3 -c "import json,sys; d=json.load(open('$tmp/out')); print($1)"; }

check list 0 "$REDLAB" list && grep -q neighbored_strided "$tmp/out" || { echo "FAIL list content"; fails=$((fails+1)); }
check list-json 0 "$REDLAB" list --json
# Every entry has the list JSON's fields (and its family, and whether it is traced), for every kernel the text lists.
[ "$(json_get "all({'id','title','group','seed','gpu_only','teaches','family','traced'} <= set(k) for k in d)")" = True ] \
  || { echo "FAIL list --json: an entry lacks a field"; fails=$((fails+1)); }
ids=$("$REDLAB" list | grep -cE '^  [a-z_0-9]+ ')
[ "$(json_get "len(d)")" = "$ids" ] && [ "$ids" -ge 25 ] || { echo "FAIL list --json: $(json_get "len(d)") entries, text lists $ids"; fails=$((fails+1)); }
[ "$(json_get "sorted({k['family'] for k in d})")" = "['allreduce', 'reduction', 'transpose']" ] || { echo "FAIL list --json families"; fails=$((fails+1)); }
# A search by the notes' and books' names: the samples' reduce1 is the strided kernel alone; nothing found is exit 1
# with one sentence on stderr.
check list-find 0 "$REDLAB" list --find reduce1 --json
[ "$(json_get "[k['id'] for k in d]")" = "['neighbored_strided']" ] || { echo "FAIL list --find reduce1: $(cat "$tmp/out")"; fails=$((fails+1)); }
check list-find-none 1 "$REDLAB" list --find "no such kernel"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "no kernel matches 'no such kernel'" "$tmp/err" || { echo "FAIL list --find none: $(cat "$tmp/err")"; fails=$((fails+1)); }

# An all-reduce on 4 virtual GPUs (SPEC): "gpus", and per GPU the bytes sent and received: the ring's 2(G-1)/G x S each
# (6000 of 4000 bytes), the naive gather's (G-1) x S from GPU 0; every GPU's buffer checked.
check stats-ring 0 "$REDLAB" stats --kernel allreduce_ring --gpus 4 --n 1000 --backend cpu --json
[ "$(json_get "(d['gpus'], d['correct'], d['summary']['bytes_sent_per_gpu'], d['summary']['bytes_received_per_gpu'], d['summary']['lower_bound_bytes_per_gpu'], len(d['steps']))")" = "(4, True, [6000, 6000, 6000, 6000], [6000, 6000, 6000, 6000], 6000.0, 6)" ] ||
  { echo "FAIL stats allreduce_ring: $(cat "$tmp/out" | head -c 600)"; fails=$((fails+1)); }
check stats-naive 0 "$REDLAB" stats --kernel allreduce_naive --gpus 4 --n 1000 --backend cpu --json
[ "$(json_get "d['summary']['bytes_sent_per_gpu']")" = "[12000, 4000, 4000, 4000]" ] || { echo "FAIL stats allreduce_naive bytes"; fails=$((fails+1)); }
check stats-gpus-one 2 "$REDLAB" stats --kernel interleaved --gpus 2 --backend cpu
grep -q "^redlab: --gpus: kernel 'interleaved' runs on one GPU" "$tmp/err" || { echo "FAIL --gpus on a one-GPU kernel: $(cat "$tmp/err")"; fails=$((fails+1)); }
check stats-gpus-range 2 "$REDLAB" stats --kernel allreduce_ring --gpus 9 --backend cpu
# bench --gpus times all-reduce kernels only (SPEC: --kernels allreduce_ring,nccl), and says so before any GPU is asked
# Thread block clusters: --cluster for the cluster kernels, whose partials cross distributed shared memory: one
# 8-byte load per block of each 4-block cluster (n = 5000, block 128: 20 blocks, 5 clusters, 5 partials to relaunch)
check stats-cluster 0 "$REDLAB" stats --kernel cluster_reduce --cluster 4 --n 5000 --block 128 --type float64 --backend cpu --json
[ "$(json_get "(d['correct'], [(s['phase'], s['dsmem_load_requests'], s['dsmem_load_bytes']) for s in d['steps'] if s['dsmem_load_requests']], d['passes'][0]['grid'], d['passes'][1]['n'])")" = "(True, [('cluster', 5, 160)], 20, 5)" ] ||
  { echo "FAIL cluster_reduce's distributed shared memory: $(head -c 300 "$tmp/out")"; fails=$((fails+1)); }
expect_error cluster-other "--cluster: kernel 'interleaved' launches no thread block clusters; the kernels that do: cluster_reduce, cluster_tree" \
  "$REDLAB" stats --kernel interleaved --cluster 2 --backend cpu
expect_error cluster-size "--cluster: '3' is not accepted; use 1, 2, 4, 8 or 16 blocks per cluster" \
  "$REDLAB" stats --kernel cluster_tree --cluster 3 --backend cpu
check bench-gpus-kernels 2 "$REDLAB" bench --gpus 2 --kernels allreduce_ring,interleaved
grep -q "^redlab: bench --gpus --kernels: 'interleaved' is not an all-reduce (allreduce_naive, allreduce_ring, allreduce_tree, nccl)" "$tmp/err" ||
  { echo "FAIL bench --gpus --kernels: $(cat "$tmp/err")"; fails=$((fails+1)); }
check stats-conv 0 "$REDLAB" stats --kernel pmpp_convergent --n 256 --block 128 --backend cpu --json
[ "$(json_get "round(d['summary']['tree_simd_efficiency'], 4)")" = 0.6641 ] || { echo "FAIL convergent efficiency"; fails=$((fails+1)); }
[ "$(json_get "d['correct']")" = True ] || { echo "FAIL convergent correct"; fails=$((fails+1)); }
for key in kernel backend device n block type op result reference correct steps summary passes; do
  [ "$(json_get "'$key' in d")" = True ] || { echo "FAIL stats json lacks $key"; fails=$((fails+1)); }
done
# The stats JSON's step keys, the atomics' four included
want="active_threads active_warps cycles divergent_warps dsmem_load_bytes dsmem_load_requests dsmem_store_bytes \
dsmem_store_requests gmem_atomic_requests gmem_atomic_sectors gmem_load_requests \
gmem_load_sectors gmem_store_requests gmem_store_sectors label phase smem_atomic_requests smem_atomic_wavefronts \
smem_load_requests smem_load_wavefronts smem_store_requests smem_store_wavefronts"
got=$(json_get "' '.join(sorted(d['steps'][0].keys()))")
[ "$got" = "$want" ] || { echo "FAIL step fields: $got"; fails=$((fails+1)); }
[ "$(json_get "d['steps'][0]['cycles']")" = None ] || { echo "FAIL cpu cycles must be null"; fails=$((fails+1)); }
# How the trace was taken: one run of the first launch, its memory within the 128 MiB budget, its time.
[ "$(json_get "d['summary']['trace_chunks']")" = 1 ] || { echo "FAIL trace_chunks"; fails=$((fails+1)); }
[ "$(json_get "0 < d['summary']['trace_bytes_peak'] <= 128 << 20 and d['summary']['trace_ms'] > 0")" = True ] \
  || { echo "FAIL trace memory/time"; fails=$((fails+1)); }
check stats-trace-line 0 "$REDLAB" stats --kernel interleaved --n 300000 --block 128 --backend cpu
grep -qE "^trace: 2344 blocks in [0-9]+ runs? of the first launch, [0-9.]+ MB of trace memory at most" "$tmp/out" \
  || { echo "FAIL stats text lacks the trace line"; fails=$((fails+1)); }

check stats-simple 0 "$REDLAB" stats --kernel pmpp_simple --n 256 --block 128 --backend cpu --json
[ "$(json_get "round(d['summary']['tree_simd_efficiency'], 4)")" = 0.2951 ] || { echo "FAIL simple efficiency"; fails=$((fails+1)); }
json_get "d['summary']['tree_simd_efficiency_note']" | grep -q "255/864" || { echo "FAIL PMPP note"; fails=$((fails+1)); }

check host-loop 0 "$REDLAB" stats --kernel cpu_sequential --n 1000 --type float32 --backend cpu
grep -q "host loop over 1000 elements" "$tmp/out" || { echo "FAIL cpu_sequential text"; fails=$((fails+1)); }
check vectorized 0 "$REDLAB" stats --kernel vectorized --n 100003 --type float64 --op min --backend cpu --json
[ "$(json_get "d['steps'][0]['label']")" = "grid-stride 0" ] || { echo "FAIL vectorized steps"; fails=$((fails+1)); }
check stats-text 0 "$REDLAB" stats --kernel warp_shuffle --n 2^12+5 --block 128 --type float64 --op min --backend cpu
grep -q "shuffle offset 16" "$tmp/out" || { echo "FAIL stats text"; fails=$((fails+1)); }

check trace 0 "$REDLAB" trace --kernel interleaved --dynamic-smem --n 3000 --block 64 --backend cpu -o "$tmp/t.rltrace"
[ -s "$tmp/t.rltrace" ] || { echo "FAIL trace file"; fails=$((fails+1)); }

check bank 0 "$REDLAB" bank --width 4 --access load --json --addrs "$(seq -s ' ' 0 128 3968)"
[ "$(json_get "d['wavefronts']")" = 32 ] || { echo "FAIL bank column"; fails=$((fails+1)); }
check bank-pad 0 "$REDLAB" bank --width 4 --access load --json --addrs "$(seq -s ' ' 0 132 4092)"
[ "$(json_get "d['wavefronts']")" = 1 ] || { echo "FAIL bank padded"; fails=$((fails+1)); }
check bank-inactive 0 "$REDLAB" bank --width 8 --access store --addrs "0 8 16 - $(seq -s ' ' 32 8 248)"

expect_error block "--block" "$REDLAB" stats --block 96 --backend cpu
expect_error block-big "--block" "$REDLAB" stats --block 2048 --backend cpu
expect_error n-zero "--n" "$REDLAB" stats --n 0 --backend cpu
expect_error n-text "--n" "$REDLAB" stats --n lots --backend cpu
expect_error n-huge "--n" "$REDLAB" stats --n 2^40 --backend cpu
expect_error type "--type" "$REDLAB" stats --type int64
expect_error op "--op" "$REDLAB" stats --op mul
expect_error kernel "--kernel" "$REDLAB" stats --kernel fastest
expect_error finish "--finish" "$REDLAB" stats --finish later
expect_error backend "--backend" "$REDLAB" stats --backend opencl
expect_error gpu-only "--backend cpu" "$REDLAB" stats --kernel cub_device --backend cpu
expect_error algo "--algo" "$REDLAB" stats --kernel cub_block --algo fastest
expect_error cub-atomic "--finish atomic" "$REDLAB" stats --kernel cub_block --finish atomic --backend cuda
expect_error bench-type "--type" "$REDLAB" bench --type int8
expect_error bench-n "--n" "$REDLAB" bench --n 0
expect_error bench-blocks "--blocks: '48'" "$REDLAB" bench --blocks 64,48
expect_error bench-blocks-twice "--blocks: '64'" "$REDLAB" bench --blocks 64,128,64
expect_error bench-block-and-blocks "--block and --blocks" "$REDLAB" bench --block 128 --blocks all
expect_error bench-blocks-gpus "--blocks" "$REDLAB" bench --gpus 2 --blocks all
: > "$tmp/mine.cu"
expect_error bench-blocks-source "compiled for one --block" "$REDLAB" bench --source "$tmp/mine.cu" --blocks all
expect_error bench-blocks-transpose "--block-rows" "$REDLAB" bench --kernels copy,transpose_tiled --rows 64 --cols 64 --blocks all
expect_error dyn "--dynamic-smem" "$REDLAB" stats --kernel warp_shuffle --dynamic-smem --backend cpu
expect_error focus "--focus" "$REDLAB" stats --n 100 --block 32 --focus 9 --backend cpu
expect_error bank-width "--width" "$REDLAB" bank --width 3 --addrs "0"
expect_error bank-count "--addrs" "$REDLAB" bank --addrs "0 4 8"
expect_error bank-align "--addrs" "$REDLAB" bank --width 8 --addrs "$(seq -s ' ' 4 8 252)"
expect_error unknown-cmd "redlab" "$REDLAB" frobnicate
if ! nvidia-smi -L >/dev/null 2>&1; then
  expect_error no-gpu "no CUDA device" "$REDLAB" stats --backend cuda
  expect_error bench-no-gpu "assets/reference/timings.json" "$REDLAB" bench --kernels vectorized --n 2^20
fi

# Bad rows of a wavefront CSV: refused with the row and what is accepted, never a crash.
hdr="pattern,access,width_bytes,lane_byte_addresses,ncu_wavefronts"
lanes=$(seq -s' ' 0 4 124)
printf '%s\nx,load,0,%s,1\n' "$hdr" "$lanes" > "$tmp/w0.csv"
expect_error bank-ref-width0 "width_bytes '0'" "$REDLAB" bank --reference "$tmp/w0.csv"
printf '%s\nx,load,4294967296,%s,1\n' "$hdr" "$lanes" > "$tmp/wbig.csv"
expect_error bank-ref-width-wrap "use 4, 8 or 16" "$REDLAB" bank --reference "$tmp/wbig.csv"
printf '%s\nx,load,4,%s,zz\n' "$hdr" "$lanes" > "$tmp/ncu.csv"
expect_error bank-ref-ncu "ncu_wavefronts 'zz'" "$REDLAB" bank --reference "$tmp/ncu.csv"
printf '%s\nx,read,4,%s,1\n' "$hdr" "$lanes" > "$tmp/acc.csv"
expect_error bank-ref-access "access 'read'" "$REDLAB" bank --reference "$tmp/acc.csv"
# Sizes that would wrap are refused.
expect_error n-wrap "--n" "$REDLAB" stats --kernel interleaved --n 2^10+18446744073709551000
expect_error n-sign "--n" "$REDLAB" stats --kernel interleaved --n 2^3+-1

# Empty values are refused, not run at the defaults.
for opt in --n --block --kernel --type --op --focus; do
  expect_error "empty$opt" "$opt: an empty value" "$REDLAB" stats "$opt" ""
done

# A time limit that is no number of seconds (nan passes any range check) is refused.
expect_error time-limit-nan "--time-limit: give the seconds as a number" "$REDLAB" stats --kernel interleaved --n 256 \
  --time-limit nan --backend cpu

# Options a kernel does not take, and malformed focus lists, are refused.
expect_error focus-trailing "--focus" "$REDLAB" stats --focus 0,
expect_error focus-empty-item "--focus" "$REDLAB" stats --focus 0,,3
expect_error algo-not-cub "--algo" "$REDLAB" stats --kernel interleaved --algo raking
expect_error transpose-op "--op" "$REDLAB" stats --kernel transpose_tiled --op max
expect_error transpose-finish "--finish" "$REDLAB" stats --kernel transpose_tiled --finish host
expect_error transpose-dynamic "--dynamic-smem" "$REDLAB" stats --kernel transpose_tiled --dynamic-smem

# A run that cannot fit in memory is refused at once with its estimate, one line, exit 2 (here under a 3 GB
# address-space limit, as on a small machine), the emulator's kernels and the host-only loop alike. Not in the
# sanitizer build: ASan's shadow memory needs an unlimited address space.
if ! ldd "$REDLAB" 2>/dev/null | grep -q libasan; then
  for k in interleaved cpu_sequential; do
    ( ulimit -v 3000000; exec "$REDLAB" stats --kernel $k --n 2^31 --backend cpu ) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -q "elements need .* GB" "$tmp/err"; then
      echo "FAIL memory-guard-$k: want exit 2 and one line with the estimate, got exit $rc:"; cat "$tmp/err"
      fails=$((fails + 1))
    fi
  done
fi

# Trace files are written atomically and never replace what is not a trace unless asked.
echo "my notes" > "$tmp/notes.txt"
expect_error trace-not-a-trace "--force" "$REDLAB" trace --kernel interleaved --n 512 -o "$tmp/notes.txt"
[ "$(cat "$tmp/notes.txt")" = "my notes" ] || { echo "FAIL trace-not-a-trace: the file was changed"; fails=$((fails + 1)); }
check trace-force 0 "$REDLAB" trace --kernel interleaved --n 512 -o "$tmp/notes.txt" --force
"$REDLAB" trace --kernel interleaved --n 512 -o "$tmp/keep.rltrace" 2>/dev/null
before=$(cksum < "$tmp/keep.rltrace")
# A write that fails part-way (here: the file size limit, as a full disk would) leaves the old trace whole.
( trap '' XFSZ; ulimit -f 4; "$REDLAB" trace --kernel interleaved --n 4096 --focus 0,1,2,3 -o "$tmp/keep.rltrace" ) \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] || ! grep -q "cannot write" "$tmp/err" || [ "$(cksum < "$tmp/keep.rltrace")" != "$before" ]; then
  echo "FAIL trace-partial-write: exit $rc, the old file must stay whole:"; cat "$tmp/err"; fails=$((fails + 1))
fi
ls "$tmp"/.redlab-* >/dev/null 2>&1 && { echo "FAIL trace-partial-write: a temporary file was left"; fails=$((fails + 1)); }

# The hardware's counts (stats --hw): without a GPU the reason on stderr, the model on stdout, exit 0; a recorded
# collection of the same scenario is compared (neighbored_strided's merged loads named); another scenario's file,
# or a file that is no collection, is refused in one line.
HW=$(dirname "$0")/data/hw
if ! nvidia-smi -L >/dev/null 2>&1; then
  check hw-no-gpu 0 "$REDLAB" stats --kernel interleaved --n 4096 --hw
  grep -q "need a CUDA GPU" "$tmp/err" && grep -q "hardware counts: not collected" "$tmp/out" && grep -q "tree SIMD" "$tmp/out" \
    || { echo "FAIL hw-no-gpu: the reason and the model"; cat "$tmp/err"; fails=$((fails + 1)); }
  check hw-no-gpu-json 0 "$REDLAB" stats --kernel interleaved --n 4096 --hw --json
  [ "$(json_get "d['hw']['collected']")" = False ] && [ "$(json_get "'steps' in d")" = True ] \
    || { echo "FAIL hw-no-gpu-json"; fails=$((fails + 1)); }
fi
check hw-from 0 "$REDLAB" stats --kernel neighbored_strided --n 2^20 --block 256 --backend cpu --hw-from "$HW/neighbored_strided_h100.json"
grep -q "shared load         102,400       86,016.*merged" "$tmp/out" && grep -q "strided.cuh:29 .*131,072 *544,768.*s\[a\] = op" "$tmp/out" \
  || { echo "FAIL hw-from: the merged loads per line"; sed -n '/hardware/,$p' "$tmp/out" | head -20; fails=$((fails + 1)); }
check hw-from-json 0 "$REDLAB" stats --kernel vectorized --n 2^20 --block 256 --backend cpu --hw-from "$HW/vectorized_h100.json" --json
[ "$(json_get "[k for k, f in d['hw']['total'].items() if 'cause' in f]")" = "[]" ] \
  || { echo "FAIL hw-from-json: vectorized should agree everywhere"; fails=$((fails + 1)); }
expect_error hw-from-other "run the same scenario" "$REDLAB" stats --kernel interleaved --n 4096 --backend cpu --hw-from "$HW/interleaved_h100.json"
echo '{"not": "counts"}' > "$tmp/bad.json"
expect_error hw-from-bad "not a hardware collection" "$REDLAB" stats --kernel interleaved --n 4096 --backend cpu --hw-from "$tmp/bad.json"

# Empty file names and malformed steps and scales are refused before any window opens (they opened the interactive
# window, or were read as another number). Without a display: a refusal is the option's sentence, not the display's.
gui_options="--step -1|--step ''|--step 0x1|--step 1e3|--scale ''|--export ''|--screenshot ''|--open ''"
DISPLAY= "$REDLAB" gui --step -1 2>&1 | grep -q "has no GUI" && gui_options=""   # (a headless build: no window to refuse)
IFS='|'; set -f
for bad in $gui_options; do
  unset IFS; set +f
  option=${bad%% *}
  eval "set -- $bad"
  DISPLAY= expect_error "gui-refuses${option}-$(echo "$2" | tr -c 'a-z0-9' '_')" "$option" "$REDLAB" gui --kernel interleaved "$@"
done
unset IFS; set +f
expect_error trace-empty-name "-o: give a file name" "$REDLAB" trace --kernel interleaved --n 256 -o ''
# A file that cannot be written is the environment's problem: exit 2, as for a bad option (it was 1, "wrong result").
: > "$tmp/not_a_folder"
expect_error trace-cannot-write "cannot write" "$REDLAB" trace --kernel interleaved --n 256 --backend cpu -o "$tmp/not_a_folder/t.rltrace"
# ... said before the run, not after minutes of it (2^26 elements take the emulator far longer than 10 s).
expect_error trace-cannot-write-before-run "No such file or directory" timeout 10 "$REDLAB" trace --kernel interleaved \
  --n 2^26 --backend cpu -o "$tmp/no_such_folder/t.rltrace"
expect_error new-kernel-cannot-write "cannot write" "$REDLAB" new-kernel "$tmp/not_a_folder/mine.cu" --from interleaved
# A recorded-counts file nested 100,000 deep, and one whose kernel is a 20 MB string: one short line, exit 2.
python3 -c 'import sys; sys.stdout.write("{\"kernel\": " + "[" * 100000 + "]" * 100000 + "}")' > "$tmp/deep.json"
expect_error hw-from-deep "nests deeper than 64" "$REDLAB" stats --kernel interleaved --n 4096 --backend cpu --hw-from "$tmp/deep.json"
python3 -c 'import sys; sys.stdout.write("{\"kernel\": \"" + "x" * (20 << 20) + "\", \"hw\": {}}")' > "$tmp/long.json"
check hw-from-long 2 "$REDLAB" stats --kernel interleaved --n 4096 --backend cpu --hw-from "$tmp/long.json"
[ "$(wc -c < "$tmp/err")" -lt 1000 ] || { echo "FAIL hw-from-long: a $(wc -c < "$tmp/err")-byte message"; fails=$((fails + 1)); }

finish cli
