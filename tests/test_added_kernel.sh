#!/usr/bin/env bash
# A kernel added from its two files alone (tests/kernels/first_warp_sums.{cuh,record.cuh}): the command line
# built with it lists it, runs it through the trace pipeline with the per-step figures its source implies,
# and writes its trace file; redlab itself, built without it, does not list it.
# usage: test_added_kernel.sh REDLAB_TEST_CLI REDLAB
set -u
CLI=$1; REDLAB=$2
. "$(dirname "$0")/lib.sh"   # tmp, fail, ok, finish
py() { python3 -c "import json,sys; d=json.load(open('$tmp/out')); $1"; }

"$CLI" list --json >"$tmp/out" || fail "list"
py "k=[x for x in d if x['id']=='first_warp_sums']; assert len(k)==1 and k[0]['family']=='reduction' and k[0]['traced'], k" \
  || fail "the test CLI does not list first_warp_sums as a traced reduction"
# its record names its sources by the field's old name (.seed): read as `sources`, and listed under both keys
py "k=[x for x in d if x['id']=='first_warp_sums'][0]; assert k['sources']==k['seed']=='tests/kernels', k" \
  || fail "first_warp_sums's .seed is not read as its sources"
"$REDLAB" list --json | grep -q first_warp_sums && fail "redlab lists the test-only kernel"

# One block of 256 threads, every element 1. Warps: 8. Per step (see the kernel's source):
#   load        256 threads, 8 warps; 8 global loads (4 sectors each), 8 shared stores (1 wavefront each)
#   warp sums   lane 0 of each warp: 8 threads, 8 divergent warps; 32 one-lane shared loads each, 1 store
#   block sum   thread 0: 1 thread; 8 shared loads (one per warp sum), 1 store
#   store       thread 0: 1 shared load, 1 global store
"$CLI" stats --kernel first_warp_sums --n 256 --block 256 --input ones --backend cpu --json >"$tmp/out" \
  || fail "stats exit $?"
py "assert d['correct'] and d['result']==256, (d['result'], d['correct'])" || fail "result"
want='[[256,8,0,0,0,8,8,8,32,0,0],[8,8,8,256,256,8,8,0,0,0,0],[1,1,1,8,8,1,1,0,0,0,0],[1,1,1,1,1,0,0,0,0,1,1]]'
got=$(py "print(json.dumps([[s[k] for k in ('active_threads','active_warps','divergent_warps','smem_load_requests',
  'smem_load_wavefronts','smem_store_requests','smem_store_wavefronts','gmem_load_requests','gmem_load_sectors',
  'gmem_store_requests','gmem_store_sectors')] for s in d['steps']], separators=(',',':')))")
[ "$got" = "$want" ] || fail "per-step figures: $got, expected $want"

# Many blocks, a ragged tail, every operator and type: right results, relaunches over the partials.
for t in int32 float32 float64; do
  for op in sum min max; do
    "$CLI" stats --kernel first_warp_sums --n 100003 --block 128 --type $t --op $op --backend cpu --json >"$tmp/out" \
      && py "assert d['correct'] and len(d['passes'])>1" || fail "n=100003 $t $op"
  done
done
"$CLI" trace --kernel first_warp_sums --n 5000 --block 64 --backend cpu -o "$tmp/t.rltrace" 2>/dev/null || fail "trace"
[ "$(head -c 8 "$tmp/t.rltrace" 2>/dev/null)" = REDLABTR ] || fail "the trace file has no redlab header"
[ $fails = 0 ] && echo "first_warp_sums: listed, traced, checked and written from its two files"
exit $(( fails > 0 ))
