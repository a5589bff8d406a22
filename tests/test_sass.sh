#!/usr/bin/env bash
# The timed build carries no instrumentation: the SASS of each NoProbe kernel equals the SASS of the same
# kernel with every probe call deleted from its source. Needs nvcc and cuobjdump (skips, exit 77, without).
set -euo pipefail
src=$1
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUOBJDUMP=$(command -v cuobjdump || echo "$(dirname "$NVCC")/cuobjdump")
[ -x "$NVCC" ] && [ -x "$CUOBJDUMP" ] || { echo "no nvcc/cuobjdump: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/stripped"
cp -r "$src/kernels/." "$tmp/stripped/"
# Strip: probe statements go; probe.shared(p) / probe.global(p, b) become p.
find "$tmp/stripped" -name '*.cuh' -print0 | xargs -0 sed -i -E \
  -e '/^\s*probe\.(step|active|shuffled|finish)\(.*\);\s*$/d' \
  -e 's/probe\.shared_flag\(([^,()]*), sizeof\([^()]*\)\)/\1/g' \
  -e 's/probe\.atomic\((Op\{\}, [^()]*), Buffer::[a-z]+\)/atomic_combine(\1)/g' \
  -e 's/probe\.ticket\(([A-Za-z_][A-Za-z0-9_]*)\)/atomicAdd(\1, 1u)/g' \
  -e '/^\s*if \([a-z_]+\) probe\.last_block\(\);.*$/d' \
  -e 's/probe\.shared\(([^()]*(\([^()]*\))?[^()]*)\)/\1/g' \
  -e 's/probe\.global\(([A-Za-z_][A-Za-z0-9_]*), Buffer::[a-z]+\)/\1/g' \
  -e 's/probe\.global\((reinterpret_cast<.*>\([A-Za-z_]+\)), Buffer::[a-z]+\)/\1/g' \
  -e 's/probe\.load_cg\(([A-Za-z_][A-Za-z0-9_]*), ([A-Za-z_][A-Za-z0-9_]*), Buffer::[a-z]+\)/ld_cg(\1 + \2)/g'
if grep -rnE "probe\.(step|active|shuffled|finish|atomic|ticket|last_block|shared|shared_flag|global|load_cg)\(" "$tmp/stripped/reduce" "$tmp/stripped/transpose" "$tmp/stripped/warp" "$tmp/stripped/block" "$tmp/stripped/allreduce"; then
  echo "probe calls left after stripping (update the patterns above)"; exit 1
fi
for variant in original stripped; do
  inc="$src/kernels"; [ $variant = stripped ] && inc="$tmp/stripped"
  "$NVCC" -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I"$src/app" -I"$inc" -I"$src" -cubin \
    -o "$tmp/$variant.cubin" "$src/tests/sass/instantiate.cu"
  # Keep opcodes and operands, drop addresses, encodings and comments.
  "$CUOBJDUMP" -sass "$tmp/$variant.cubin" | sed -E -n \
    -e 's/^\s+Function : (.*)$/FUNCTION \1/p' \
    -e 's@^\s+/\*[0-9a-f]{4}\*/\s+([^;]*);.*@\1@p' > "$tmp/$variant.sass"
done
# Every instantiation listed in instantiate.cu must be in the SASS, and every kernel of the catalog's reduce/,
# transpose/ and allreduce/ sources must be listed there at least once.
functions=$(grep -c '^FUNCTION' "$tmp/original.sass")
listed=$(grep -c '^template __global__' "$src/tests/sass/instantiate.cu")
[ "$functions" -eq "$listed" ] || { echo "instantiate.cu lists $listed kernels, the SASS holds $functions"; exit 1; }
for k in $(sed -n 's/^__global__ void \([a-z_0-9]*\)(.*/\1/p' "$src"/kernels/reduce/*.cuh "$src"/kernels/transpose/*.cuh "$src"/kernels/allreduce/*.cuh); do
  grep -q "redlab::kernels::$k<" "$src/tests/sass/instantiate.cu" || { echo "kernel $k is not instantiated in tests/sass/instantiate.cu"; exit 1; }
done
if ! diff -u "$tmp/stripped.sass" "$tmp/original.sass" > "$tmp/diff"; then
  echo "the timed (NoProbe) kernels differ from the probe-free source:"; head -60 "$tmp/diff"; exit 1
fi
echo "SASS of $functions NoProbe kernels is identical to their probe-free source ($(grep -vc '^FUNCTION' "$tmp/original.sass") instructions)"
if grep -Eq 'SR_CLOCK|CS2R.*CLOCK' "$tmp/original.sass"; then echo "clock reads in the timed build"; exit 1; fi
