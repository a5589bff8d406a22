#!/bin/sh
# Resizing a real window: redlab runs as a user would start it (no --screenshot) on an Xvfb screen larger than
# 3840x2160; xdotool resizes its window, growing and shrinking between 800x600 and 3840x2160, the way a window
# manager would. After each resize, what the X server shows (Xvfb's framebuffer file, not redlab's read-back)
# is checked by screen_check: the frame drawn for the new size, panels filling it, nothing stale or doubled,
# a settled picture. The process must live through every resize and print no X or GLFW error.
# usage: resize.sh REDLAB SCREEN_CHECK OUTDIR
set -u
REDLAB=$1; CHECK=$2; OUT=$3
if [ -z "${RESIZE_INNER-}" ]; then
  command -v xdotool >/dev/null || { echo "xdotool not found (scripts/dev installs it)"; exit 1; }
  rm -rf "$OUT"; mkdir -p "$OUT/fb" "$OUT/config"
  RESIZE_INNER=1 exec xvfb-run -a -s "-noreset -screen 0 3904x2200x24 -fbdir $OUT/fb" sh "$0" "$@"
fi
fail=0
XDG_CONFIG_HOME="$OUT/config" REDLAB_LANG=en "$REDLAB" gui --kernel neighbored_modulo --n 4096 --block 256 \
  --size 1280x720 >"$OUT/redlab.log" 2>&1 &
pid=$!
wid=$(timeout 60 xdotool search --sync --onlyvisible --name redlab | head -n 1)
[ -n "$wid" ] || { echo "FAIL: no redlab window within 60 s"; cat "$OUT/redlab.log"; kill $pid; exit 1; }
xdotool mousemove 3900 2196   # the pointer off the window: no hover highlight
# Wait until the screen shows a settled, correct frame for W x H (the run and the first frames take a moment).
settle() {  # W H NAME
  tries=0
  while :; do
    sleep 0.4; cp "$OUT/fb/Xvfb_screen0" "$OUT/a.xwd"
    sleep 0.4; cp "$OUT/fb/Xvfb_screen0" "$OUT/b.xwd"
    if "$CHECK" "$OUT/a.xwd" "$1" "$2" --again "$OUT/b.xwd" --png "$OUT/$3.png" >"$OUT/$3.txt" 2>&1; then
      cat "$OUT/$3.txt"; return 0
    fi
    tries=$((tries + 1))
    if [ $tries -ge 25 ]; then cat "$OUT/$3.txt"; return 1; fi
  done
}
settle 1280 720 start || { echo "FAIL: the first frame at 1280x720"; fail=1; }
i=0
for size in 3840x2160 800x600 1920x1080 1024x768 2560x1440 800x600 3840x2160 1366x768 1280x720; do
  i=$((i + 1)); w=${size%x*}; h=${size#*x}
  echo "== resize $i to $size"
  xdotool windowsize "$wid" "$w" "$h"
  geom=$(xdotool getwindowgeometry "$wid" | sed -n 's/.*Geometry: //p')
  [ "$geom" = "$size" ] || { echo "FAIL: the window is $geom, not $size"; fail=1; }
  settle "$w" "$h" "resize$i-$size" || { echo "FAIL: the screen after resizing to $size"; fail=1; }
  kill -0 $pid 2>/dev/null || { echo "FAIL: redlab exited after resizing to $size"; cat "$OUT/redlab.log"; exit 1; }
done
kill $pid; wait $pid 2>/dev/null
if grep -E "X Error|GLFW [0-9]|BadValue|BadMatch" "$OUT/redlab.log"; then echo "FAIL: X or GLFW errors (above)"; fail=1; fi
exit $fail
