#!/bin/sh
# GUI screenshots under Xvfb: several scenarios and steps, each PNG checked for content, and the text of each
# shot's last frame checked for text drawn over other text (REDLAB_GUI_TEXT_CHECK: the window exits 3 and names
# the two pieces of text).
# usage: screenshots.sh REDLAB PNG_CHECK OUTDIR [PNG_DIFF [PART]]
# PART: views (the scenarios), layouts (the layouts at the lecture hall's sizes, the band redraw, F1's help) or
# all (the default). CTest runs the two parts as two tests, so that they run side by side and each stays well
# inside its time limit in the sanitizer build, where one shot takes several seconds.
set -u
REDLAB=$1; CHECK=$2; OUT=$3; DIFF=${4-}; PART=${5-all}
# One X server for every shot (3840x2160, the largest layout): xvfb-run per shot now and then failed to clean up
# its temporary folder and exited 5 instead of redlab's code.
if [ -z "${SHOTS_INNER-}" ]; then
  SHOTS_INNER=1 exec xvfb-run -a -s "-noreset -screen 0 3840x2160x24" sh "$0" "$@"
fi
export REDLAB_GUI_TEXT_CHECK=1
# Each part in a folder of its own, made afresh (a screenshot replaces only a picture redlab wrote, and the two parts
# run side by side).
OUT=$OUT/$PART
rm -rf "$OUT"
mkdir -p "$OUT"
fail=0
# The tree (centre column) and the side panels must have drawn something.
REGIONS="0.25 0.12 0.70 0.60 12 0.05  0.00 0.12 0.24 0.55 8 0.03  0.72 0.12 1.00 0.45 8 0.03"
shot() {  # name, env, args...
  name=$1; shift; envs=$1; shift
  echo "== $name: redlab gui $*"
  case " $* " in *" --frames "*) frames= ;; *) frames="--frames 4" ;; esac
  env $envs "$REDLAB" gui "$@" --screenshot "$OUT/$name.png" --size 1600x900 $frames
  rc=$?
  # RC: the exit code the shot must end with (2: a file the window refuses, drawn and reported)
  if [ $rc -ne "${RC-0}" ]; then echo "FAIL $name: exit $rc (want ${RC-0})"; fail=1; return; fi
  "$CHECK" "$OUT/$name.png" 200 ${REG-$REGIONS} || { echo "FAIL $name: content"; fail=1; }
}
if [ "$PART" != layouts ]; then
shot demo "REDLAB_LANG=en"
shot demo_zh "REDLAB_LANG=zh_CN"
shot modulo_step1 "REDLAB_LANG=en REDLAB_GUI_STEP=1" --kernel neighbored_modulo --n 256 --block 256 --input ones
shot strided_f64_step3 "REDLAB_LANG=en REDLAB_GUI_STEP=3" --kernel neighbored_strided --n 1000 --block 128 --type float64 --input ramp
shot interleaved_last "REDLAB_LANG=en REDLAB_GUI_STEP=99" --kernel interleaved --n 4097 --block 512 --op max
shot pmpp_simple "REDLAB_LANG=en REDLAB_GUI_STEP=4" --kernel pmpp_simple --n 256 --block 128 --input ones
shot warp_shuffle "REDLAB_LANG=en REDLAB_GUI_STEP=2" --kernel warp_shuffle --n 512 --block 256
# An all-reduce on the emulator's virtual GPUs: the ring mid reduce-scatter, then naive and ring side by side.
shot ring_step2 "REDLAB_LANG=en REDLAB_GUI_STEP=2" --kernel allreduce_ring --gpus 4 --n 1000
shot ring_compare_zh "REDLAB_LANG=zh_CN REDLAB_GUI_STEP=1" --kernel allreduce_ring --gpus 4 --n 1000 --compare
# Playback on a fixed clock through every step; 65,536 cells (64 blocks of 1024).
PLAYARGS="--frames 150 --frame-report"
shot play_modulo "REDLAB_LANG=en REDLAB_GUI_PLAY=1" --kernel neighbored_modulo --n 1024 --block 256 --input ones $PLAYARGS
shot play_65536 "REDLAB_LANG=en REDLAB_GUI_PLAY=1 REDLAB_GUI_COMPOSITOR=1" --kernel interleaved --n 65536 --block 1024 --input ones \
  --focus $(seq -s, 0 63) $PLAYARGS
# The compositor redraws only what changed: after a playback its image must equal a whole-frame redraw.
if [ -n "$DIFF" ]; then
  shot play_full "REDLAB_LANG=en REDLAB_GUI_PLAY=1 REDLAB_GUI_COMPOSITOR=0" --kernel interleaved --n 65536 --block 1024 \
    --input ones --focus $(seq -s, 0 63) $PLAYARGS
  "$DIFF" "$OUT/play_65536.png" "$OUT/play_full.png" 0 2 || { echo "FAIL compositor: partial redraw differs"; fail=1; }
fi
shot small_values "REDLAB_LANG=en REDLAB_GUI_STEP=2" --kernel interleaved --n 64 --block 64 --input ones
# Random values at n = 64 and scale 2: too wide for their cells, each written value gets a label of its own where the
# row has room (12243a: the label's colour), down to the block's sum in the last tree row.
REG="$REGIONS rgb 12243a 0.22 0.08 0.68 0.62 0.002" shot small_random_values_x2 "REDLAB_LANG=en REDLAB_GUI_STEP=99 REDLAB_GUI_SCALE=2" \
  --kernel interleaved --n 64 --block 64
shot classroom_zh "REDLAB_LANG=zh_CN REDLAB_GUI_SCALE=1.5 REDLAB_GUI_COLORBLIND=1 REDLAB_GUI_STEP=3" --kernel neighbored_strided --n 256 --block 256
# Bank grid of another focus block; the bank lab (English, Chinese, an expression error).
shot banks_block5 "REDLAB_LANG=en REDLAB_GUI_STEP=3 REDLAB_GUI_FOCUS_BLOCK=5 REDLAB_GUI_WARP=0" --kernel neighbored_strided --n 4096 --block 256 --focus 0,5
shot bank_lab "REDLAB_LANG=en REDLAB_GUI_BANK_LAB=(lane*7)%32" --kernel neighbored_strided --n 256 --block 256
shot bank_lab_zh "REDLAB_LANG=zh_CN REDLAB_GUI_BANK_LAB=lane*4 REDLAB_GUI_BANK_LAB_WIDTH=16 REDLAB_GUI_BANK_LAB_MASK=0x0000ffff" --kernel interleaved --n 256 --block 256
shot bank_lab_error "REDLAB_LANG=en REDLAB_GUI_BANK_LAB=(lane*2" --kernel interleaved --n 256 --block 256
# The hardware's counts: recorded on a GPU (tests/data/hw), in the source view's gutter and the per-step
# view's table; and without a GPU, the reason, in Chinese.
shot hw_recorded "REDLAB_LANG=en REDLAB_GUI_HW=1 REDLAB_GUI_STEP=2 REDLAB_GUI_HW_FROM=$(dirname "$0")/../data/hw/neighbored_strided_h100.json" \
  --kernel neighbored_strided --n 2^20 --block 256
shot hw_transpose_zh "REDLAB_LANG=zh_CN REDLAB_GUI_HW=1 REDLAB_GUI_STEP=1 REDLAB_GUI_HW_FROM=$(dirname "$0")/../data/hw/transpose_tiled_32x32_h200.json" \
  --kernel transpose_tiled --rows 32 --cols 32 --backend cpu
if ! nvidia-smi -L >/dev/null 2>&1; then
  shot hw_without_gpu_zh "REDLAB_LANG=zh_CN REDLAB_GUI_HW=1" --kernel interleaved --n 4096 --block 256
fi
# A kernel file of the student's own: run as the tree and views show it, and one with a syntax error:
# the compiler's message above the source, its line marked red (exit 2: the window shows what failed).
export XDG_CACHE_HOME="$OUT/cache"
"$REDLAB" new-kernel "$OUT/my_strided.cu" --from neighbored_strided --force >/dev/null
shot source_file "REDLAB_LANG=en REDLAB_GUI_STEP=2" --source "$OUT/my_strided.cu" --n 1024 --block 256
sed 's/s\[a\] = op(s\[a\], s\[a + stride\]);/s[a] = op(s[a], s[a + stride]) oops;/' "$OUT/my_strided.cu" > "$OUT/my_broken.cu"
sed -i 's/"my_strided"/"my_broken"/; s/my_strided/my_broken/g' "$OUT/my_broken.cu"
# The editor (the right column while a file is followed) shows the error's line red (7b2525: IM_COL32(140, 40, 40, 220)
# over the editor).
EDITOR="0.69 0.08 1.00 0.66"
RC=2 REG="0.73 0.08 1.00 0.38 8 0.03 rgb 7b2525 $EDITOR 0.002" shot source_error_zh "REDLAB_LANG=zh_CN" --source "$OUT/my_broken.cu" --n 1024 --block 256
# Compare A/B with a kernel file on either side: two files (A's source shown, its step's lines lit green, 425922), and
# a catalog kernel beside a file (Chinese, the compare layout, B's source shown).
"$REDLAB" new-kernel "$OUT/my_interleaved.cu" --from interleaved --force >/dev/null
REG="$REGIONS rgb 425922 $EDITOR 0.003" shot source_ab "REDLAB_LANG=en REDLAB_GUI_STEP=3" --source "$OUT/my_interleaved.cu" \
  --source-b "$OUT/my_strided.cu" --n 1024 --block 256
REG="0.02 0.12 0.98 0.60 12 0.05  0.00 0.66 1.00 0.94 8 0.03 rgb 425922 0.00 0.66 1.00 0.94 0.003" shot source_b_catalog_zh \
  "REDLAB_LANG=zh_CN REDLAB_GUI_STEP=3" --kernel interleaved --source-b "$OUT/my_strided.cu" --n 1024 --block 256 --layout compare
# The gallery of mistakes (a fixture gallery, made by gallery_fixture/make.sh): the list (Chinese, scale 1.5), an entry that
# deadlocks (its shuffle's line red, the explanation above it; exit 2: the run failed, as the window shows) and one
# with a wrong sum (Chinese). The copies go to a data folder of the test's own.
rm -rf "$OUT/data" "$OUT/gallery"
sh "$(dirname "$0")/gallery_fixture/make.sh" "$REDLAB" "$OUT/gallery" >/dev/null || { echo "FAIL: gallery_fixture/make.sh"; fail=1; }
GALLERY="REDLAB_DATA_DIR=$OUT/gallery XDG_DATA_HOME=$OUT/data"
REG="0.20 0.15 0.80 0.60 12 0.05" shot gallery_list_zh "$GALLERY REDLAB_LANG=zh_CN REDLAB_GUI_SCALE=1.5 REDLAB_GUI_GALLERY=list"
RC=2 REG="0.73 0.08 1.00 0.38 8 0.03 rgb 7b2525 $EDITOR 0.002" shot gallery_deadlock "$GALLERY REDLAB_LANG=en REDLAB_GUI_GALLERY=early_shuffle"
shot gallery_wrong_zh "$GALLERY REDLAB_LANG=zh_CN REDLAB_GUI_GALLERY=half_guard REDLAB_GUI_STEP=99"
# The real gallery (assets/gallery), copied to a data folder of the test's own: the missing barrier and the short
# array end in the emulator's report with its line red (exit 2: the run failed); the wrong sum names the inputs it
# lost, in amber beside the result (core/input_reach.h).
rm -rf "$OUT/data_real"   # a copy left by an earlier run of an older gallery file would be asked about, not run
REAL="XDG_DATA_HOME=$OUT/data_real"
RC=2 REG="0.73 0.08 1.00 0.38 8 0.03 rgb 7b2525 $EDITOR 0.002" shot gallery_race "$REAL REDLAB_LANG=en REDLAB_GUI_GALLERY=missing_sync"
RC=2 REG="0.73 0.08 1.00 0.38 8 0.03 rgb 7b2525 $EDITOR 0.002" shot gallery_out_of_bounds_zh "$REAL REDLAB_LANG=zh_CN REDLAB_GUI_GALLERY=shared_one_short"
REG="$REGIONS rgb ffbf4d $EDITOR 0.0003" shot gallery_lost_inputs "$REAL REDLAB_LANG=en REDLAB_GUI_GALLERY=stride_below_block"
# Timings from a reference file (synthetic figures, bench_json format), labelled as not live.
shot timings_ref "REDLAB_LANG=en REDLAB_REFERENCE_TIMINGS=$(dirname "$0")/sample_timings.json" --kernel interleaved --n 256 --block 256
# Measure forced on the CPU build: the background run reports that timings need a GPU, and the window goes on.
shot timings_measure_cpu "REDLAB_LANG=en REDLAB_GUI_MEASURE=1" --kernel interleaved --n 256 --block 256
# Transposes (CPU emulator): the tile view alone, float64 swizzled, the naive one (no tile), and tiled vs padded
# in the compare window at tile_store; the bank lab's GPU measurement refused on a CPU build.
TILE_REGIONS="0.25 0.18 0.45 0.55 12 0.05  0.00 0.12 0.24 0.55 8 0.03"
REG="$TILE_REGIONS" shot tile_tiled "REDLAB_LANG=en REDLAB_GUI_STEP=1" --kernel transpose_tiled --rows 256 --cols 256 --backend cpu
REG="$TILE_REGIONS" shot tile_swizzled_f64 "REDLAB_LANG=zh_CN REDLAB_GUI_STEP=1 REDLAB_GUI_TILE_REQ=1 REDLAB_GUI_COLORBLIND=1" --kernel transpose_swizzled --type float64 --rows 128 --cols 128 --backend cpu
shot tile_naive "REDLAB_LANG=en REDLAB_GUI_STEP=1" --kernel transpose_naive --rows 256 --cols 256 --backend cpu
# The 64 x 64 tile kept in pairs (Chinese): the pairs a warp reads lit, beside the padded tile in the compare window.
REG="$TILE_REGIONS" shot tile_vectorized_zh "REDLAB_LANG=zh_CN REDLAB_GUI_STEP=1 REDLAB_GUI_TILE_REQ=5" --kernel transpose_vectorized --rows 128 --cols 128 --backend cpu
REG="0.25 0.18 0.38 0.45 12 0.05  0.63 0.18 0.77 0.45 12 0.05" shot tile_vectorized_compare "REDLAB_LANG=en REDLAB_GUI_STEP=1 REDLAB_GUI_TILE_REQ=5" --kernel transpose_vectorized --rows 128 --cols 128 --backend cpu --compare
REG="0.25 0.18 0.38 0.45 12 0.05  0.63 0.18 0.77 0.45 12 0.05" shot tile_compare "REDLAB_LANG=en REDLAB_GUI_STEP=1" --kernel transpose_tiled --rows 256 --cols 256 --backend cpu --compare
shot bank_lab_measure_cpu "REDLAB_LANG=en REDLAB_GUI_BANK_LAB=lane*32 REDLAB_GUI_BANK_LAB_MEASURE=1" --kernel interleaved --n 256 --block 256
# Timings of a transpose: every transpose of assets/reference/transpose_<type>.json in one table, the scenario's
# kernel lit (that row's colour, 324a71, must show in the Timings window, bottom right), float32 and float64 (zh_CN).
# With Measure forced on the CPU build (as on a GPU): copy and the kernel requested, the refusal shown, and the
# reference table folded under its header ("not this GPU").
TIM_T="0.73 0.60 1.00 0.96 8 0.05"
REG="$TILE_REGIONS $TIM_T rgb 324a71 0.73 0.60 1.00 0.96 0.02" shot timings_transpose "REDLAB_LANG=en" --kernel transpose_padded --rows 1024 --cols 1024 --type float32 --backend cpu
REG="$TILE_REGIONS $TIM_T rgb 324a71 0.73 0.60 1.00 0.96 0.02" shot timings_transpose_f64_zh "REDLAB_LANG=zh_CN" --kernel transpose_swizzled --rows 512 --cols 256 --block-rows 4 --type float64 --backend cpu
REG="$TILE_REGIONS $TIM_T" shot timings_measure_transpose_cpu "REDLAB_LANG=en REDLAB_GUI_MEASURE=1" --kernel transpose_tiled --rows 256 --cols 256 --type float64 --backend cpu
# A file that is not a trace: the window shows the reason and still runs.
echo "not a trace" > "$OUT/not_a_trace.txt"
RC=2 REG="0.00 0.12 0.24 0.55 8 0.03" shot bad_trace "REDLAB_LANG=en" --open "$OUT/not_a_trace.txt"
# A kernel the device cannot run (GPU only, on a machine without a GPU): the reason in the window, exit 2.
if ! nvidia-smi -L >/dev/null 2>&1; then
  RC=2 REG="0.60 0.12 1.00 0.55 8 0.03" shot gpu_only_without_gpu "REDLAB_LANG=en" --kernel cub_device
fi
# Replay: record a trace, open it.
if "$REDLAB" trace --kernel interleaved --n 512 --block 128 --input ones -o "$OUT/replay.rltrace" >/dev/null 2>&1; then
  shot replay "REDLAB_LANG=en REDLAB_GUI_STEP=2" --open "$OUT/replay.rltrace"
else
  echo "(skipped replay: redlab trace failed)"
fi
fi
if [ "$PART" != views ]; then
# The layouts at the lecture hall's sizes and scales, English and Chinese: 1280x720 x2, 1920x1080 x1
# and x1.5, 3840x2160 x3. Each must fill the window: the centre (tree or tabs) drawn, the menu and status bar.
LAYOUT_REGIONS="0.05 0.15 0.95 0.85 12 0.05  0.00 0.00 1.00 0.04 3 0.02  0.00 0.95 1.00 1.00 3 0.02"
for layout in study present compare; do
  for cfg in "1280x720 2" "1920x1080 1" "1920x1080 1.5" "3840x2160 3"; do
    set -- $cfg
    for lang in en zh_CN; do
      name="layout_${layout}_$1_x$2_$lang"
      echo "== $name"
      "$REDLAB" gui --layout $layout --lang $lang --scale $2 --size $1 \
        --kernel neighbored_modulo --n 1024 --block 256 --step 3 --screenshot "$OUT/$name.png" --frames 4 \
        || { echo "FAIL $name: exit"; fail=1; continue; }
      "$CHECK" "$OUT/$name.png" 60 $LAYOUT_REGIONS || { echo "FAIL $name: content"; fail=1; }
    done
  done
done
# Transposes in the same layouts at the small sizes: the tile's row and column numbers (they ran together at
# 1280x720 x2), and in Compare the two tiles side by side, each drawn large.
for layout in study present compare; do
  for cfg in "1280x720 2" "1920x1080 1.5"; do
    set -- $cfg
    name="layout_tile_${layout}_$1_x$2"
    echo "== $name"
    "$REDLAB" gui --layout $layout --lang en --scale $2 --size $1 --kernel transpose_tiled --rows 256 --cols 256 \
      --backend cpu --step 1 --screenshot "$OUT/$name.png" --frames 4 || { echo "FAIL $name: exit"; fail=1; continue; }
    "$CHECK" "$OUT/$name.png" 60 $LAYOUT_REGIONS || { echo "FAIL $name: content"; fail=1; }
  done
done
# Present on a 1280x720 projector at x2 and x3, English and Chinese: the tree (left) and the bank grid (right) at once,
# every row of the 8-way conflict of neighbored_strided's stride 8 in the right part (ea4335: the conflict's red over
# at least 1.5 % of it: 16 cells of 8 rows), the bars at x2 (x3's views keep x2's room).
for cfg in "2 en" "3 zh_CN"; do
  set -- $cfg
  name="present_banks_1280x720_x$1_$2"
  echo "== $name"
  "$REDLAB" gui --layout present --lang $2 --scale $1 --size 1280x720 --kernel neighbored_strided --n 256 --block 256 \
    --step 4 --screenshot "$OUT/$name.png" --frames 4 || { echo "FAIL $name: exit"; fail=1; continue; }
  "$CHECK" "$OUT/$name.png" 60 0.02 0.30 0.54 0.85 8 0.05 rgb ea4335 0.57 0.55 0.99 0.88 0.015 \
    || { echo "FAIL $name: the tree beside the bank grid's conflict rows"; fail=1; }
done
# A step change redraws only the band of tree rows it changes (tree_renderer.h): after a playback through
# every step, the Present layout's tree must be pixel for pixel the tree drawn whole at the last step.
BAND="--kernel interleaved --n 65536 --block 1024 --input ones --focus $(seq -s, 0 63) --size 1920x1080 --layout present --scale 2"
env REDLAB_LANG=en REDLAB_GUI_PLAY=1 "$REDLAB" gui $BAND --frames 150 \
  --screenshot "$OUT/band_play.png" && env REDLAB_LANG=en "$REDLAB" gui $BAND \
  --step 99 --screenshot "$OUT/band_whole.png" || { echo "FAIL band: exit"; fail=1; }
if [ -n "$DIFF" ]; then
  # the panes below the control strip (the strip shows the playback's speed)
  "$DIFF" "$OUT/band_play.png" "$OUT/band_whole.png" 0 0 0 0.12 1 0.95 || { echo "FAIL band: the tree differs from a whole redraw"; fail=1; }
fi
# A lesson whose Chinese text has 20,400 distinct characters, at scale 3: the font atlas stays within the GPU's largest
# texture (it grew past it and the whole window drew black): the lesson panel and the tree drawn.
python3 - "$OUT/many_characters.lesson" <<'PY'
import sys
lines = ["lesson: many_characters", "title.en: Many characters", "title.zh: 很多字", ""]
for b in range(17):
    zh = "".join(chr(0x4E00 + i) for i in range(b * 1200, b * 1200 + 1200))
    lines += ["beat", "a: --kernel interleaved --n 256 --block 128", "say.en: Characters.", "say.zh: " + zh, ""]
open(sys.argv[1], "w", encoding="utf-8").write("\n".join(lines))
PY
"$REDLAB" gui --lesson "$OUT/many_characters.lesson" --fresh --lang zh_CN --scale 3 \
  --size 1920x1080 --screenshot "$OUT/many_characters.png" --frames 6 &&
  "$CHECK" "$OUT/many_characters.png" 60 0.0 0.3 0.4 0.9 6 0.05 0.45 0.3 1.0 0.9 6 0.05 ||
  { echo "FAIL many_characters: the window with 20,400 distinct characters at scale 3"; fail=1; }
# No Chinese font installed (fonts-noto-cjk hidden in a mount namespace, where the test runs as root): Chinese is
# drawn as '?', and the window says why and which package brings the font, on stderr and in the status bar.
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && [ -d /usr/share/fonts/opentype/noto ]; then
  mkdir -p "$OUT/no_fonts"
  unshare --mount sh -c 'mount --bind "$0" /usr/share/fonts/opentype/noto && exec "$@"' "$OUT/no_fonts" \
    "$REDLAB" gui --lang zh_CN --size 1600x900 --screenshot "$OUT/no_chinese_font.png" --frames 4 2> "$OUT/no_chinese_font.err" &&
    grep -q "no Chinese font is installed.*apt install fonts-noto-cjk" "$OUT/no_chinese_font.err" &&
    "$CHECK" "$OUT/no_chinese_font.png" 200 $REGIONS ||
    { echo "FAIL no_chinese_font: $(cat "$OUT/no_chinese_font.err")"; fail=1; }
  # --version -v names the package too, and the faces it still has
  unshare --mount sh -c 'mount --bind "$0" /usr/share/fonts/opentype/noto && exec "$@"' "$OUT/no_fonts" \
    "$REDLAB" --version -v > "$OUT/no_chinese_font.version" &&
    grep -qx "font: *none for Chinese: install fonts-noto-cjk" "$OUT/no_chinese_font.version" &&
    grep -qx "font: */.*DejaVuSans.ttf (text)" "$OUT/no_chinese_font.version" ||
    { echo "FAIL no_chinese_font_version: $(grep font: "$OUT/no_chinese_font.version")"; fail=1; }
fi
# Fonts outside /usr/share/fonts (another system's folders, or fonts carried to a machine that has none, as
# scripts/gpu-window does): found through fontconfig's FONTCONFIG_FILE with every system font hidden, the Chinese
# window drawn pixel for pixel as with the installed fonts.
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && [ -n "$DIFF" ]; then
  carried=$OUT/carried_fonts
  rm -rf "$carried" && mkdir -p "$carried/fonts" "$carried/hidden"
  # the files the window draws with, as it names them (--version -v): text, code and Chinese
  "$REDLAB" --version -v | sed -n 's/^font: *\(\/.*\) ([a-zA-Z ]*)$/\1/p' | sed 's/, face [0-9]*$//' | sort -u \
    > "$carried/files"
  [ "$(wc -l < "$carried/files")" -ge 3 ] ||
    { echo "FAIL carried_fonts: --version -v names $(wc -l < "$carried/files") font files"; fail=1; }
  while read -r f; do
    cp -l "$f" "$carried/fonts/" 2> /dev/null || cp "$f" "$carried/fonts/"
  done < "$carried/files"
  printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir><cachedir>%s</cachedir></fontconfig>\n' \
    "$carried/fonts" "$carried/cache" > "$carried/fonts.conf"
  "$REDLAB" gui --lang zh_CN --size 1600x900 --screenshot "$carried/installed.png" --frames 4 &&
    env FONTCONFIG_FILE="$carried/fonts.conf" \
      unshare --mount sh -c 'mount --bind "$0" /usr/share/fonts && exec "$@"' "$carried/hidden" \
      "$REDLAB" gui --lang zh_CN --size 1600x900 --screenshot "$carried/carried.png" --frames 4 2> "$carried/err" &&
    ! grep -q "no Chinese font" "$carried/err" && "$DIFF" "$carried/installed.png" "$carried/carried.png" ||
    { echo "FAIL carried_fonts: $(cat "$carried/err")"; fail=1; }
fi
# F1's help over the window, Chinese, at 1280x720 x2: opaque, readable.
env REDLAB_GUI_HELP=1 "$REDLAB" gui --lang zh_CN --scale 2 --size 1280x720 \
  --screenshot "$OUT/help_zh.png" --frames 4 && "$CHECK" "$OUT/help_zh.png" 60 0.2 0.2 0.8 0.8 6 0.05 \
  || { echo "FAIL help_zh"; fail=1; }
fi
exit $fail
