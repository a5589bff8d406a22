#!/bin/sh
# The window's dialogs driven as a user drives them, with keys through xdotool into a real window under Xvfb:
#  - the Export window: Ctrl+E opens it with its file field taking the keys; a path typed there and Enter write
#    the file (a CSV with one row per step, as `redlab stats --json` has them; a PNG of the window);
#  - the question before a long run: F5 at n = 2^26 on the CPU asks first and starts nothing (the process stays
#    idle); Esc leaves the question; F5 then Enter starts the run (the process gets busy); Esc cancels it.
# The X server's own picture of each dialog is kept in OUTDIR for a person to look at.
# usage: dialogs.sh REDLAB SCREEN_CHECK PNG_CHECK OUTDIR
set -u
REDLAB=$1; SCREEN=$2; PNG=$3; OUT=$4
if [ -z "${DIALOGS_INNER-}" ]; then
  command -v xdotool >/dev/null || { echo "xdotool not found (scripts/dev installs it)"; exit 1; }
  rm -rf "$OUT"; mkdir -p "$OUT/fb" "$OUT/config"
  DIALOGS_INNER=1 exec xvfb-run -a -s "-noreset -screen 0 1280x720x24 -fbdir $OUT/fb" sh "$0" "$@"
fi
fail=0
HZ=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
busy_ticks() { a=$(ticks $1); sleep 1; b=$(ticks $1); echo $((b - a)); }
# Over 2 s: a run has begun (its input is prepared on one core first, and CI runs other tests beside this one).
busy_ticks_2s() { a=$(ticks $1); sleep 2; b=$(ticks $1); echo $((b - a)); }
picture() {  # NAME: the screen as the X server has it, as a PNG
  cp "$OUT/fb/Xvfb_screen0" "$OUT/$1.xwd" && "$SCREEN" "$OUT/$1.xwd" 1280 720 --png "$OUT/$1.png" >/dev/null 2>&1
  echo "(picture: $OUT/$1.png)"
}
# A key held over several frames: ImGui 1.86 reads Enter as held at a frame's start.
hold() { xdotool keydown --window "$wid" "$1"; sleep 0.2; xdotool keyup --window "$wid" "$1"; sleep 0.3; }
SIZE="--size 1280x720"   # the window's size (empty: the screen's, as a window without --size opens)
start_gui() {  # NAME ARGS...: starts redlab, waits for its window, gives it the keys
  name=$1; shift
  XDG_CONFIG_HOME="$OUT/config" REDLAB_LANG=en "$REDLAB" gui $SIZE "$@" >"$OUT/$name.log" 2>&1 &
  pid=$!
  wid=$(timeout 60 xdotool search --sync --onlyvisible --name redlab | head -n 1)
  [ -n "$wid" ] || { echo "FAIL $name: no window"; cat "$OUT/$name.log"; kill $pid; exit 1; }
  sleep 2
  xdotool windowfocus "$wid" 2>/dev/null
  xdotool mousemove --window "$wid" 1270 700   # over the status bar: no hover in the views
  sleep 0.3
}
# waits up to 20 s for FILE
appears() { i=0; while [ ! -s "$1" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done; [ -s "$1" ]; }

echo "== Export window: Ctrl+E, a path, Enter"
start_gui export --kernel interleaved --n 256 --block 128 --input ones
for f in steps.csv window.png; do
  xdotool key --window "$wid" ctrl+e
  sleep 0.5
  [ $f = steps.csv ] && picture export_window
  xdotool type --window "$wid" --delay 20 "$OUT/$f"
  sleep 0.3
  hold Return
  appears "$OUT/$f" || { echo "FAIL: Enter in the Export window wrote no $f"; fail=1; }
done
kill $pid; wait $pid 2>/dev/null
"$REDLAB" stats --kernel interleaved --n 256 --block 128 --input ones --json > "$OUT/stats.json" 2>/dev/null
python3 - "$OUT/steps.csv" "$OUT/stats.json" <<'PY' || fail=1
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
stats = json.load(open(sys.argv[2]))
steps = stats["steps"] if "steps" in stats else stats["launches"][0]["steps"]
assert len(rows) == len(steps), f"{len(rows)} CSV rows for {len(steps)} steps"
for r, s in zip(rows, steps):
    want = s["active_threads"] if "active_threads" in s else s["stats"]["active_threads"]
    # the CSV names the figure in words, the JSON by its key
    assert int(r["active threads"]) == want, f"step {r['step']}: CSV {r['active threads']}, stats {want}"
print(f"steps.csv from the Export window: {len(rows)} rows, the figures of redlab stats --json")
PY
[ -s "$OUT/window.png" ] && { "$PNG" "$OUT/window.png" 60 || { echo "FAIL: window.png has no content"; fail=1; }; }

echo "== the question before a long run (n = 2^26 on the CPU)"
# The command line's run starts at once (it was asked for); Esc cancels it, and the form keeps n = 2^26.
start_gui ask --kernel interleaved --n 2^26 --block 256 --backend cpu
xdotool key --window "$wid" Escape
# The cancel ends the run once its started work is done (on a busy machine, seconds later); F5 before that does nothing
# (the side still runs), so wait until the process is idle, up to a minute.
for _ in $(seq 30); do
  [ "$(busy_ticks_2s $pid)" -le $((HZ / 5)) ] && break
done
xdotool key --window "$wid" F5
sleep 0.5
idle=$(busy_ticks $pid)
picture ask_dialog
echo "after F5: $idle ticks in 1 s"
[ $idle -le $((HZ / 5)) ] || { echo "FAIL: F5 started a 2^26 run without asking ($idle ticks in 1 s)"; fail=1; }
hold Escape
idle=$(busy_ticks $pid)
echo "after Esc in the question: $idle ticks in 1 s"
[ $idle -le $((HZ / 5)) ] || { echo "FAIL: Esc in the question started the run"; fail=1; }
xdotool key --window "$wid" F5
sleep 0.5
hold Return
busy=$(busy_ticks_2s $pid)
echo "after F5, Enter: $busy ticks in 2 s"
# idle, the window uses under HZ/5 a second (the lines above); a run begun at least a quarter of a core
[ $busy -gt $((HZ / 2)) ] || { echo "FAIL: Enter in the question did not start the run"; fail=1; }
picture ask_running
xdotool key --window "$wid" Escape
sleep 1
idle=$(busy_ticks $pid)
echo "after Esc: $idle ticks in 1 s"
[ $idle -le $((HZ / 5)) ] || { echo "FAIL: Esc did not cancel the run started from the question"; fail=1; }
kill -0 $pid 2>/dev/null || { echo "FAIL: the window closed"; fail=1; }
kill $pid; wait $pid 2>/dev/null
echo "== Present on a 1280x720 screen with a lecture's playlist: Page Down, Page Up"
# No --size: the window opens at the screen's size (it asked for 1600x900). The playlist's first scenario runs;
# Page Down runs the next (the title names it), Page Up the one before.
cat > "$OUT/lecture.txt" <<'LIST'
# the reduction lecture
--kernel neighbored_modulo --n 256 --block 256 --input ones
--kernel neighbored_strided --n 256 --block 128 --input ones   # bank conflicts
LIST
SIZE=
start_gui playlist --layout present --scale 2 --playlist "$OUT/lecture.txt"
SIZE="--size 1280x720"
eval "$(xdotool getwindowgeometry --shell "$wid")"
echo "window: ${WIDTH}x$HEIGHT on the 1280x720 screen"
[ "$WIDTH" -le 1280 ] && [ "$HEIGHT" -le 720 ] || { echo "FAIL: the window is ${WIDTH}x$HEIGHT, larger than the screen"; fail=1; }
title_has() {  # TEXT: the window's title names it within 20 s
  i=0; while [ $i -lt 200 ]; do xdotool getwindowname "$wid" | grep -q -- "$1" && return 0; sleep 0.1; i=$((i + 1)); done
  echo "(title: $(xdotool getwindowname "$wid"))"; return 1
}
title_has "neighbored_modulo" || { echo "FAIL: the playlist's first scenario did not run"; fail=1; }
hold Next
title_has "neighbored_strided" || { echo "FAIL: Page Down did not run the playlist's next scenario"; fail=1; }
title_has "block=128" || { echo "FAIL: Page Down's scenario is not the line's (block 128)"; fail=1; }
sleep 1
picture present_playlist
hold Prior
title_has "neighbored_modulo" || { echo "FAIL: Page Up did not go back"; fail=1; }
kill $pid; wait $pid 2>/dev/null
printf -- '--kernel interleaved --n abc\n' > "$OUT/bad_lecture.txt"
"$REDLAB" gui --playlist "$OUT/bad_lecture.txt" 2>"$OUT/bad_playlist.err"
rc=$?
[ $rc -eq 2 ] && grep -q "line 1: --n: 'abc'" "$OUT/bad_playlist.err" && echo "a wrong playlist: $(cat "$OUT/bad_playlist.err")" \
  || { echo "FAIL: a wrong playlist: exit $rc, $(cat "$OUT/bad_playlist.err")"; fail=1; }
if grep -E "X Error|GLFW [0-9]" "$OUT"/*.log; then echo "FAIL: X or GLFW errors (above)"; fail=1; fi
[ $fail -eq 0 ] && echo "dialogs: all passed"
exit $fail
