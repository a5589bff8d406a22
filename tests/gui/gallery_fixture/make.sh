#!/bin/sh
# Makes a gallery of mistakes for the tests (the session tests, the screenshots) in OUTDIR/assets/gallery, where
# REDLAB_DATA_DIR=OUTDIR finds it: this folder's gallery.json and its kernel files, made the way a student would make
# them, `redlab new-kernel --from interleaved` and one mistake each (made at test time, so they follow the kernel
# file dialect as app/core/kernel_file.cpp writes it). usage: make.sh REDLAB OUTDIR
set -eu
REDLAB=$1
DIR=$2/assets/gallery
mkdir -p "$DIR"
cp "$(dirname "$0")/gallery.json" "$DIR/gallery.json"
# A full-mask shuffle only half of warp 0 reaches: the emulator's deadlock report names its line and lanes 16-31.
"$REDLAB" new-kernel "$DIR/early_shuffle.cu" --from interleaved --force >/dev/null
python3 - "$DIR/early_shuffle.cu" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = """  probe.step(Phase::store);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, T(s[0]));
  }
"""
new = """  probe.step(Phase::store);
  T total = s[0];
  // A full-mask shuffle inside a branch only half the warp takes: the other lanes never arrive.
  if (tid < 16) total = __shfl_down_sync(0xffffffffu, total, 0);
  if (tid == 0) {
    probe.active();
    write_block_result<Op>(probe, out, atomic_finish, total);
  }
"""
assert old in s, "interleaved's store step changed: update make.sh"
open(p, "w").write(s.replace(old, new, 1))
PY
# Half the threads each level (tid < offset / 2): the upper half of every level's pairs is never added, the sum is
# wrong (the tree shows which partial results were lost).
"$REDLAB" new-kernel "$DIR/half_guard.cu" --from interleaved --force >/dev/null
python3 - "$DIR/half_guard.cu" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "    if (tid < offset) {\n      probe.active();\n      s[tid] = op(s[tid], s[tid + offset]);"
assert old in s, "interleaved's tree step changed: update make.sh"
open(p, "w").write(s.replace(old, old.replace("tid < offset", "tid < offset / 2"), 1))
PY
echo "made a gallery of mistakes in $DIR"
