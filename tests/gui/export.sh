#!/bin/sh
# Exports from the command line (redlab gui --export), read back and checked:
#  - the per-step table as CSV: one row per step, the same figures as `redlab stats --json`;
#  - the playback as GIF: at least one frame per step (and the moves between them), pictures that change;
#  - a view as PNG (the tree), the whole window, a transparent one, one scaled to a width; compare as one image;
#  - bad requests (an unknown extension, an unknown view) refused with a message naming what is accepted.
# usage: export.sh REDLAB PNG_CHECK GIF_CHECK OUTDIR
set -u
REDLAB=$1; PNG=$2; GIF=$3; OUT=$4
# One X server for the whole test: xvfb-run per command now and then failed to clean up its temporary folder
# and exited 5 instead of redlab's code (a fresh machine's run refused the unknown view with the right words).
if [ -z "${EXPORT_INNER-}" ]; then
  EXPORT_INNER=1 exec xvfb-run -a -s "-noreset -screen 0 1920x1080x24" sh "$0" "$@"
fi
mkdir -p "$OUT"; rm -f "$OUT"/*
fail=0
x() { "$REDLAB" gui "$@"; }
SC="--kernel interleaved --n 256 --block 128 --lang en"

echo "== CSV"
x $SC --export "$OUT/steps.csv" || { echo "FAIL csv: exit"; fail=1; }
"$REDLAB" stats --kernel interleaved --n 256 --block 128 --json > "$OUT/stats.json" 2>/dev/null
python3 - "$OUT/steps.csv" "$OUT/stats.json" <<'PY' || fail=1
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
stats = json.load(open(sys.argv[2]))
steps = stats["steps"] if "steps" in stats else stats["launches"][0]["steps"]
assert len(rows) == len(steps), f"{len(rows)} CSV rows for {len(steps)} steps"
for r, s in zip(rows, steps):
    # The CSV's headers are words (the per-step table's), the JSON's keys: each figure the same.
    for key, word in (("active_threads", "active threads"), ("active_warps", "active warps"),
                      ("divergent_warps", "divergent warps"), ("smem_load_wavefronts", "smem load wavefronts"),
                      ("gmem_load_sectors", "gmem load sectors")):
        want = s[key] if key in s else s["stats"][key]
        assert word in r, f"no column '{word}' in the CSV's header: {list(r)}"
        assert int(r[word]) == want, f"step {r['step']} {word}: CSV {r[word]}, stats {want}"
    assert r["scenario"] == "A" and r["kernel"] == "interleaved"
print(f"steps.csv: {len(rows)} rows, the figures of redlab stats --json")
PY
STEPS=$(($(wc -l < "$OUT/steps.csv") - 1))

echo "== GIF ($STEPS steps)"
x $SC --export "$OUT/anim.gif" --size 1280x720 || { echo "FAIL gif: exit"; fail=1; }
# every step is a frame, and each move into a step adds frames: more than 2 per step after the first
"$GIF" "$OUT/anim.gif" $((STEPS * 2 - 1)) dump 0 "$OUT/anim_first.png" || { echo "FAIL gif"; fail=1; }
"$PNG" "$OUT/anim_first.png" 30 || fail=1
x $SC --export "$OUT/fast.gif" --speed 6 --export-width 480 || { echo "FAIL gif speed: exit"; fail=1; }
"$GIF" "$OUT/fast.gif" "$STEPS" || fail=1
# Slide-ready: each finished step stays 1.5 s (--hold): the whole GIF lasts at least 1.5 s a step (it lasted 0.67).
secs=$("$GIF" "$OUT/anim.gif" 1 | sed -n 's/.* \([0-9.]*\) s,.*/\1/p')
python3 -c "import sys; sys.exit(0 if float('$secs') >= 1.5 * $STEPS else 1)" && echo "anim.gif: $secs s for $STEPS steps" \
  || { echo "FAIL gif: $secs s for $STEPS steps, under 1.5 s a step"; fail=1; }
x $SC --export "$OUT/held.gif" --hold 3 --export-width 320 || { echo "FAIL gif hold: exit"; fail=1; }
secs=$("$GIF" "$OUT/held.gif" 1 | sed -n 's/.* \([0-9.]*\) s,.*/\1/p')
python3 -c "import sys; sys.exit(0 if float('$secs') >= 3 * $STEPS else 1)" && echo "held.gif (--hold 3): $secs s" \
  || { echo "FAIL gif --hold 3: $secs s"; fail=1; }
# Values during the moves: a frame halfway into step 1 shows the load row's numbers (12243a: a value's label).
"$GIF" "$OUT/anim.gif" 1 dump 6 "$OUT/anim_moving.png" >/dev/null || fail=1
"$PNG" "$OUT/anim_moving.png" 30 rgbnear 12243a 8 0 0 1 1 0.002 || { echo "FAIL gif: no values during a move"; fail=1; }
msg=$(x $SC --export "$OUT/x.gif" --hold 0 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "0.2 to 10" || { echo "FAIL: --hold 0 not refused: $msg"; fail=1; }

echo "== PNG"
x $SC --export "$OUT/tree.png" --size 1280x720 || { echo "FAIL png: exit"; fail=1; }
# the tree view alone: smaller than the window, with the tree's colours; a slide: no title bar (0a0a0a along the top),
# no Fit / + / - buttons (23456d), the caption's words in their place
"$PNG" "$OUT/tree.png" 40 0.15 0.25 0.95 0.75 8 0.1 alpha 0 0 rgbmax 0a0a0a 0 0 1 0.05 0.05 \
  rgbmax 23456d 0 0 1 0.25 0.001 0 0 0.6 0.12 3 0.02 || { echo "FAIL tree.png: not a slide (title bar, toolbar or no caption)"; fail=1; }
x $SC --export "$OUT/bare.png" --export-view tree --no-caption --size 1280x720 || { echo "FAIL png --no-caption: exit"; fail=1; }
cmp -s "$OUT/tree.png" "$OUT/bare.png" && { echo "FAIL: --no-caption drew the caption all the same"; fail=1; }
x $SC --export "$OUT/window.png" --size 1280x720 || { echo "FAIL window png: exit"; fail=1; }
x $SC --export "$OUT/clear.png" --export-view tree --transparent --size 1280x720 || { echo "FAIL transparent png: exit"; fail=1; }
"$PNG" "$OUT/clear.png" 20 alpha 0.2 1 || fail=1
x $SC --export "$OUT/small.png" --export-width 640 --size 1280x720 || { echo "FAIL scaled png: exit"; fail=1; }
x --kernel neighbored_modulo --n 256 --block 256 --compare --layout compare --export "$OUT/compare.png" --size 1600x900 \
  || { echo "FAIL compare png: exit"; fail=1; }
python3 - "$OUT" <<'PY' || fail=1
import struct, sys
def size(p):
    with open(p, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", p + " is not a PNG"
    return struct.unpack(">II", head[16:24])
d = sys.argv[1]
w, h = size(d + "/window.png"); assert (w, h) == (1280, 720), f"window.png is {w}x{h}"
tw, th = size(d + "/tree.png"); assert tw < w and th < h, f"tree.png {tw}x{th} is not one view"
sw, sh = size(d + "/small.png"); assert sw == 640 and sh == 360, f"small.png is {sw}x{sh}"
cw, ch = size(d + "/compare.png"); assert 0 < cw < 1600 and 0 < ch < 900, f"compare.png {cw}x{ch}"
print(f"window 1280x720, tree {tw}x{th}, scaled 640x360, compare {cw}x{ch}")
PY

echo "== refused"
msg=$("$REDLAB" gui $SC --export "$OUT/x.bmp" 2>&1); rc=$?
echo "$msg"
[ $rc -eq 2 ] && echo "$msg" | grep -q ".png, .csv or .gif" || { echo "FAIL: .bmp not refused as it should"; fail=1; }
msg=$(x $SC --export "$OUT/x.png" --export-view nosuch 2>&1); rc=$?
echo "$msg"
[ $rc -eq 2 ] && echo "$msg" | grep -q "tree" || { echo "FAIL: unknown view not refused with the list"; fail=1; }
[ ! -e "$OUT/x.png" ] || { echo "FAIL: a refused export wrote a file"; fail=1; }

echo "== an export replaces only what redlab exported"
# A file of the student's: kept, with its mode; --force replaces it and keeps its mode; a symlink stays a link to
# the file it names; redlab's own exports (CSV, PNG, GIF) are replaced without --force; a PNG of anyone else's is not.
echo "my notes" > "$OUT/notes.csv"; chmod 600 "$OUT/notes.csv"
msg=$(x $SC --export "$OUT/notes.csv" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(cat "$OUT/notes.csv")" = "my notes" ] && echo "$msg" | grep -q "is not a CSV redlab exported; add --force" \
  && echo "notes.csv kept: $msg" || { echo "FAIL: an unrelated notes.csv was not kept (exit $rc): $msg"; fail=1; }
x $SC --export "$OUT/notes.csv" --force 2>/dev/null && head -1 "$OUT/notes.csv" | grep -q "^scenario,kernel" \
  && [ "$(stat -c %a "$OUT/notes.csv")" = 600 ] && echo "notes.csv replaced with --force, mode 600 kept" \
  || { echo "FAIL: --force did not replace notes.csv keeping its mode ($(stat -c %a "$OUT/notes.csv"))"; fail=1; }
ln -sf steps.csv "$OUT/link.csv"
x $SC --export "$OUT/link.csv" 2>/dev/null && [ -L "$OUT/link.csv" ] && [ "$(readlink "$OUT/link.csv")" = steps.csv ] \
  && echo "an export through a symlink wrote the file it names; the link stays" \
  || { echo "FAIL: the symlink link.csv became $(stat -c %F "$OUT/link.csv")"; fail=1; }
for f in anim.gif tree.png; do
  x $SC --export "$OUT/$f" --speed 20 2>/dev/null && echo "$f (redlab's export) replaced without --force" \
    || { echo "FAIL: redlab's own $f was not replaced"; fail=1; }
done
python3 - "$OUT/photo.png" <<'PY'
import struct, sys, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)) +
                              chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))
PY
before=$(md5sum < "$OUT/photo.png")
msg=$(x $SC --export "$OUT/photo.png" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(md5sum < "$OUT/photo.png")" = "$before" ] && echo "a PNG redlab did not write is kept: $msg" \
  || { echo "FAIL: photo.png (not redlab's) was replaced or not refused (exit $rc)"; fail=1; }
echo "== a screenshot is written as a PNG export is"
# Over a PNG of anyone else's, through a symlink to a student's file, over a pipe or a device: refused before the
# window opens, each target as it was (it wrote through all of them, and waited for ever on the pipe). Its own
# screenshot is replaced, and says what it was drawn from.
echo "secret" > "$OUT/victim"; chmod 600 "$OUT/victim"; ln -sf victim "$OUT/shot_link.png"; mkfifo "$OUT/shot_fifo.png"
for target in photo.png shot_link.png shot_fifo.png /dev/null; do
  case $target in /*) path=$target ;; *) path=$OUT/$target ;; esac
  msg=$(timeout 60 "$REDLAB" gui $SC --screenshot "$path" --frames 2 2>&1); rc=$?
  [ $rc -eq 2 ] && echo "$msg" | grep -q "is not a PNG redlab exported; add --force" &&
    echo "--screenshot $target refused: $msg" || { echo "FAIL: --screenshot $target: exit $rc: $msg"; fail=1; }
done
[ "$(md5sum < "$OUT/photo.png")" = "$before" ] && [ "$(cat "$OUT/victim")" = secret ] && [ -p "$OUT/shot_fifo.png" ] ||
  { echo "FAIL: a refused screenshot changed photo.png, the victim or the pipe"; fail=1; }
msg=$(timeout 60 "$REDLAB" gui $SC --screenshot "$OUT/shot_fifo.png" --force --frames 2 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "pipe" && echo "--screenshot over a pipe with --force: $msg" ||
  { echo "FAIL: --screenshot over a pipe with --force: exit $rc: $msg"; fail=1; }
for i in 1 2; do
  x $SC --compare --screenshot "$OUT/shot.png" --frames 2 2>/dev/null || { echo "FAIL: screenshot $i: exit $?"; fail=1; }
done
python3 - "$OUT/shot.png" <<'PY' || { echo "FAIL: the screenshot's text"; fail=1; }
import struct, sys
data, at, text = open(sys.argv[1], "rb").read(), 8, {}
while at + 8 <= len(data):
    n, kind = struct.unpack(">I4s", data[at:at + 8])
    if kind == b"tEXt":
        key, _, value = data[at + 8:at + 8 + n].partition(b"\0")
        text[key.decode()] = value.decode("latin-1")
    at += 12 + n
src = text.get("Source", "")
assert text.get("Software") == "redlab", text
assert src.startswith("A: backend: ") and "; B: backend: " in src and " | device: " in src, src
print("a screenshot replaced its own; Source:", src)
PY
# A PNG, a GIF or a screenshot that cannot be written (its folder is a file): exit 2, the environment's problem (was 1,
# which says a result was wrong).
: > "$OUT/not_a_folder"
for target in "--export $OUT/not_a_folder/x.png" "--export $OUT/not_a_folder/x.gif" "--screenshot $OUT/not_a_folder/x.png"; do
  x $SC $target > "$OUT/unwritable.log" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "not_a_folder" "$OUT/unwritable.log" && echo "${target%% *} into a file's place: exit 2" \
    || { echo "FAIL ${target%% *} into a file's place: exit $rc: $(cat "$OUT/unwritable.log")"; fail=1; }
done
# A CSV needs no display; a PNG without one says to use xvfb-run.
env -u DISPLAY -u WAYLAND_DISPLAY "$REDLAB" gui $SC --export "$OUT/nodisplay.csv" 2>/dev/null \
  && [ "$(wc -l < "$OUT/nodisplay.csv")" -eq "$((STEPS + 1))" ] && cmp -s "$OUT/nodisplay.csv" "$OUT/steps.csv" \
  && echo "a CSV export without a display: $STEPS rows, the same as the window's" \
  || { echo "FAIL: a CSV export without a display"; fail=1; }
msg=$(env -u DISPLAY -u WAYLAND_DISPLAY "$REDLAB" gui $SC --export "$OUT/nodisplay.png" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$msg" | grep -q "xvfb-run" && echo "a PNG without a display: $msg" \
  || { echo "FAIL: a PNG export without a display (exit $rc): $msg"; fail=1; }

echo "== compare: A's bank grid and B's side by side"
# Seed 001's key picture: strided (4-way conflicts, red) beside interleaved (none) at one step. The left half holds
# A's red columns; the right half B's grid, with no conflict red (one grid across the whole view had red there).
x --kernel neighbored_strided --n 256 --compare --layout compare --step 2 --size 1920x1080 \
  --export "$OUT/banks-compare.png" --export-view banks 2>/dev/null || { echo "FAIL: banks-compare.png"; fail=1; }
"$PNG" "$OUT/banks-compare.png" 10 rgb EA4335 0 0 0.5 1 0.01 rgbmax EA4335 0.5 0 1 1 0.0001 || fail=1

echo "== a kernel file's tile, as its kernel declares it"
# The exercise's way: a transpose of the student's own on a matrix (--rows/--cols given with --source), padded to
# tile[32][33] from the unpadded tiled transpose. The tile view draws the pad column (grey, IM_COL32(58, 60, 66)):
# the shape comes from the file's declaration, not the record it was made from (which has no padding).
"$REDLAB" new-kernel "$OUT/padded.cu" --from transpose_tiled >/dev/null 2>&1
sed -i 's/\[TILE_DIM\]\[TILE_DIM\]/[TILE_DIM][TILE_DIM + 1]/' "$OUT/padded.cu"
XDG_CACHE_HOME="$OUT/cache" x --source "$OUT/padded.cu" --rows 64 --cols 64 --step 1 --lang en \
  --export "$OUT/padded-tile.png" --export-view tile 2>"$OUT/padded.err" \
  || { echo "FAIL: gui --source with --rows/--cols: $(cat "$OUT/padded.err")"; fail=1; }
"$PNG" "$OUT/padded-tile.png" 10 rgb 3a3c42 0 0 0.6 1 0.002 || { echo "FAIL: the padded file's tile has no pad column"; fail=1; }

echo "== a kernel file of clusters, given its cluster size"
# --cluster with --source is checked as a catalog cluster kernel's (the file's kernel takes its place once it
# compiles), not refused as the default kernel's, which launches no clusters.
"$REDLAB" new-kernel "$OUT/my_clusters.cu" --from cluster_tree >/dev/null 2>&1
XDG_CACHE_HOME="$OUT/cache" x --source "$OUT/my_clusters.cu" --n 4096 --block 128 --cluster 2 --lang en \
  --export "$OUT/cluster-tree.png" --export-view tree 2>"$OUT/clusters.err" \
  || { echo "FAIL: gui --source with --cluster: $(cat "$OUT/clusters.err")"; fail=1; }

echo "== the Timings view's block-size sweep"
# tests/gui/sample_blocks.json (synthetic): interleaved's line and dots (4285f4, the first warp colour) and CUB's dashed
# level (fbbc05) must be drawn; with no sweep of the type the view names the file and the command instead (no line).
# (The other views closed, so that the Timings view has the window's room: REDLAB_GUI_HIDE.)
SWEEP="$(dirname "$0")/sample_blocks.json"
ONLY_TIMINGS="REDLAB_GUI_HIDE=scenario,warps,tree,code,banks,metrics"
env $ONLY_TIMINGS REDLAB_REFERENCE_BLOCKS="$SWEEP" "$REDLAB" gui --kernel interleaved --n 2^20 --block 128 --backend cpu --lang en \
  --export "$OUT/sweep.png" --export-view timings --size 1600x900 2>"$OUT/sweep.err" \
  || { echo "FAIL: timings sweep export: $(cat "$OUT/sweep.err")"; fail=1; }
"$PNG" "$OUT/sweep.png" 10 rgb 4285f4 0 0 1 1 0.0005 rgb fbbc05 0 0 1 1 0.0003 \
  || { echo "FAIL: the sweep's chart is not drawn"; fail=1; }
env $ONLY_TIMINGS REDLAB_REFERENCE_BLOCKS="$OUT/none.json" "$REDLAB" gui --kernel interleaved --n 2^20 --block 128 --backend cpu --lang en \
  --export "$OUT/no-sweep.png" --export-view timings --size 1600x900 2>"$OUT/no-sweep.err" \
  || { echo "FAIL: timings export without a sweep: $(cat "$OUT/no-sweep.err")"; fail=1; }
"$PNG" "$OUT/no-sweep.png" 10 rgbmax 4285f4 0 0 1 1 0.0002 || { echo "FAIL: a chart without a sweep"; fail=1; }
# "Sweep block sizes" forced on the CPU build (as on a GPU): the refusal is shown and the recorded chart stays.
REDLAB_GUI_MEASURE_SWEEP=1 env $ONLY_TIMINGS REDLAB_REFERENCE_BLOCKS="$SWEEP" "$REDLAB" gui --kernel interleaved --n 2^20 --block 128 --backend cpu \
  --lang zh_CN --export "$OUT/sweep-cpu.png" --export-view timings --size 1600x900 2>"$OUT/sweep-cpu.err" \
  || { echo "FAIL: timings sweep forced on the CPU: $(cat "$OUT/sweep-cpu.err")"; fail=1; }
"$PNG" "$OUT/sweep-cpu.png" 10 rgb 4285f4 0 0 1 1 0.0005 || { echo "FAIL: the forced sweep hid the recorded one"; fail=1; }
# A kernel file is compiled for one block: no sweep is started or drawn for it (the view says how to time it).
"$REDLAB" new-kernel "$OUT/mine_sweep.cu" --from interleaved >/dev/null 2>&1
env $ONLY_TIMINGS REDLAB_GUI_MEASURE_SWEEP=1 REDLAB_REFERENCE_BLOCKS="$SWEEP" XDG_CACHE_HOME="$OUT/cache" "$REDLAB" gui \
  --source "$OUT/mine_sweep.cu" --n 2^20 --block 128 --backend cpu --lang en --export "$OUT/sweep-file.png" \
  --export-view timings --size 1600x900 2>"$OUT/sweep-file.err" \
  || { echo "FAIL: timings of a kernel file: $(cat "$OUT/sweep-file.err")"; fail=1; }
"$PNG" "$OUT/sweep-file.png" 10 rgbmax 4285f4 0 0 1 1 0.0002 || { echo "FAIL: a sweep chart for a kernel file"; fail=1; }

[ $fail -eq 0 ] && echo "export: all passed"
exit $fail
