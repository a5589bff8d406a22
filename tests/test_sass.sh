#!/usr/bin/env bash
# The timed build carries no instrumentation: the machine code of every timed (NoProbe) kernel the catalog builds
# equals that of the same kernel compiled from a copy of kernels/ with every probe call deleted. The kernels are
# the catalog's own: its generated translation units (cmake/redlab_kernels.cmake, one per element type) compiled
# with the build's flags for sm_90, traced builds left out (REDLAB_TIMED_BUILD_ONLY), so that a kernel added to the
# catalog is checked with nothing to list here. The two cubins' kernels are compared section by section
# (sass_text.py); where the toolkit has cuobjdump, the SASS is also searched for clock reads.
# usage: test_sass.sh SOURCE_DIR BUILD_DIR   (skips, exit 77, without nvcc or in a build without CUDA)
set -euo pipefail
src=$1; build=$2
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUOBJDUMP=$(command -v cuobjdump || echo "$(dirname "$NVCC")/cuobjdump")
[ -x "$NVCC" ] || { echo "no nvcc: skipped"; exit 77; }
[ -f "$build/app/redlab_kernels/gpu_float32.cu" ] || { echo "not a CUDA build (no app/redlab_kernels/gpu_*.cu): skipped"; exit 77; }
tmp=$(mktemp -d)
[ -n "${KEEP_TMP:-}" ] && echo "the cubins stay in $tmp"
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT

# The stripped tree: kernels/ a copy without its probe calls, app/ a copy (its headers reach kernels/ by "../..",
# which through a link would lead back to the original), the other folders links.
root=$tmp/root
mkdir -p "$root"
for f in "$src"/*; do
  case $(basename "$f") in
    kernels|app) cp -r "$f" "$root/" ;;
    *) ln -s "$f" "$root/$(basename "$f")" ;;
  esac
done
# Strip: probe statements go; probe.shared(p) / probe.global(p, b) become p.
find "$root/kernels" -name '*.cuh' -print0 | xargs -0 sed -i -E \
  -e '/^\s*probe\.(step|active|shuffled|finish)\(.*\);\s*$/d' \
  -e 's/probe\.shared_flag\(([^,()]*), sizeof\([^()]*\)\)/\1/g' \
  -e 's/probe\.atomic\((Op\{\}, [^()]*), Buffer::[a-z]+\)/atomic_combine(\1)/g' \
  -e 's/probe\.ticket\(([A-Za-z_][A-Za-z0-9_]*)\)/atomicAdd(\1, 1u)/g' \
  -e '/^\s*if \([a-z_]+\) probe\.last_block\(\);.*$/d' \
  -e 's/probe\.shared\(([^()]*(\([^()]*\))?[^()]*)\)/\1/g' \
  -e 's/probe\.global\(([A-Za-z_][A-Za-z0-9_]*), Buffer::[a-z]+\)/\1/g' \
  -e 's/probe\.global\((reinterpret_cast<.*>\([A-Za-z_]+\)), Buffer::[a-z]+\)/\1/g' \
  -e 's/probe\.load_cg\(([A-Za-z_][A-Za-z0-9_]*), ([A-Za-z_][A-Za-z0-9_]*), Buffer::[a-z]+\)/ld_cg(\1 + \2)/g' \
  -e 's/probe\.remote_shared\(([A-Za-z_][A-Za-z0-9_]*), ([A-Za-z_][A-Za-z0-9_]*), ([^()]*)\)/\1.map_shared_rank(\2, \3)/g'
if grep -rnE "probe\.(step|active|shuffled|finish|atomic|ticket|last_block|shared|shared_flag|global|load_cg|remote_shared)\(" \
     "$root/kernels/reduce" "$root/kernels/transpose" "$root/kernels/warp" "$root/kernels/block" "$root/kernels/allreduce"; then
  echo "probe calls left after stripping (update the patterns above)"; exit 1
fi

# The build's own command for a catalog unit, as a cubin for sm_90 of its timed kernels.
command_for() {  # TYPE VARIANT: prints the command, one argument a line
  python3 - "$build/compile_commands.json" "$build/app/redlab_kernels/gpu_$1.cu" "$2" "$src" "$root" "$tmp/$2_$1.cubin" <<'PY'
import json, re, shlex, sys
db, unit, variant, src, root, out = sys.argv[1:]
entry = next(e for e in json.load(open(db)) if e["file"] == unit)
args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
kept, skip = [], False
for a in args:
    if skip: skip = False; continue
    if a in ("-o", "-MF", "-MT"): skip = True; continue
    if a in ("-c", "-MD") or a.startswith("--generate-code") or a.startswith("-gencode"): continue
    kept.append(a)
kept += ["-arch=sm_90", "-cubin", "-DREDLAB_TIMED_BUILD_ONLY", "-o", out]
if variant == "stripped":
    # -I<src> and -I<src>/app lead to the copy; the build's own paths (a build folder inside the source, as CI's
    # is) stay where they are, and the unit becomes the stripped one.
    build = unit.rsplit("/app/redlab_kernels/", 1)[0]
    def moved(a):
        if a == unit: return root + "/stripped_unit.cu"
        parts = re.split("(" + re.escape(build) + r"(?=/|$))", a)
        return "".join(p if p == build else re.sub(re.escape(src) + r"(?=/|$)", root, p) for p in parts)
    kept = [moved(a) for a in kept]
print("\n".join(kept))
PY
}

status=0
for type in int32 float32 float64; do
  unit=$build/app/redlab_kernels/gpu_$type.cu
  sed "s|$src/kernels/|$root/kernels/|g" "$unit" > "$root/stripped_unit.cu"
  for variant in original stripped; do
    mapfile -t cmd < <(command_for "$type" "$variant")
    (cd "$build" && "${cmd[@]}") || { echo "$type $variant: the compile failed"; exit 1; }
  done
  rm -f "$root/stripped_unit.cu"
  echo "== $type"
  # warp_shuffle<32> (one warp: its second stage reads one warp sum): the compiler selects one instruction of the
  # `lane < WARPS ? warp_sums[lane] : identity` select differently when the shared array comes through
  # probe.shared (PTX: or, setp and selp against setp and selp), in as many instructions, with the same loads and
  # stores; every other block size is byte for byte the same. Its length must still match.
  python3 "$here/sass_text.py" --same-length '12warp_shuffleILj32E' "$tmp/original_$type.cubin" \
    "$tmp/stripped_$type.cubin" NoProbe || status=1
done

# Every kernel of reduce/, transpose/ and allreduce/ is in the timed build (the catalog launches it).
for k in $(sed -n 's/^__global__ void \([a-z_0-9]*\)(.*/\1/p' "$src"/kernels/reduce/*.cuh "$src"/kernels/transpose/*.cuh "$src"/kernels/allreduce/*.cuh); do
  grep -aq "7kernels${#k}${k}I" "$tmp"/original_*.cubin || { echo "kernel $k is in no timed build of the catalog"; status=1; }
done
if [ -x "$CUOBJDUMP" ]; then
  for c in "$tmp"/original_*.cubin; do
    if "$CUOBJDUMP" -sass "$c" | grep -Eq 'SR_CLOCK|CS2R.*CLOCK'; then echo "clock reads in the timed build ($c)"; status=1; fi
  done
else
  echo "(no cuobjdump: the SASS was not searched for clock reads)"
fi
exit $status
