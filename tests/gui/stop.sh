#!/bin/sh
# Runs you can stop: a run at n = 2^26 on the CPU emulator (minutes of work) is
#  - cancelled from the window (Esc, as the Cancel button does): within a second the process is idle and
#    has given back the run's memory;
#  - ended by Quit (Ctrl+Q), by SIGTERM and by SIGINT: the process is gone within a second;
# and the command line (`redlab stats`) ends within a second on SIGINT and SIGTERM.
# Idle and gone are read from /proc (clock ticks used, resident memory), as a user's `top` would see them.
# usage: stop.sh REDLAB OUTDIR
set -u
REDLAB=$1; OUT=$2
if [ -z "${STOP_INNER-}" ]; then
  command -v xdotool >/dev/null || { echo "xdotool not found (scripts/dev installs it)"; exit 1; }
  rm -rf "$OUT"; mkdir -p "$OUT/config"
  STOP_INNER=1 exec xvfb-run -a -s "-noreset -screen 0 1280x720x24" sh "$0" "$@"
fi
fail=0
HZ=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
rss_mb() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$1/status" 2>/dev/null || echo 0; }
now() { date +%s.%N; }
# Whether PID still runs (a child that ended stays a zombie, state Z, until the shell reaps it).
alive() { [ -e "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
# Waits up to 3 s for PID to end; prints the seconds it took.
gone_after() {
  t0=$(now)
  i=0
  while alive "$1" && [ $i -lt 300 ]; do sleep 0.01; i=$((i + 1)); done
  echo "$(now) $t0" | awk '{printf "%.2f", $1 - $2}'
}
RUN="--kernel interleaved --n 2^26 --block 256 --backend cpu --size 1280x720"
start_gui() {  # NAME: starts redlab with the run, waits for its window and for the run to be under way
  # (a background job of a script starts with SIGINT ignored: --default-signal gives it back, as a terminal would)
  XDG_CONFIG_HOME="$OUT/config" REDLAB_LANG=en env --default-signal=INT "$REDLAB" gui $RUN >"$OUT/$1.log" 2>&1 &
  pid=$!
  wid=$(timeout 60 xdotool search --sync --onlyvisible --name redlab | head -n 1)
  [ -n "$wid" ] || { echo "FAIL $1: no window"; cat "$OUT/$1.log"; kill $pid; exit 1; }
  sleep 3
  # Keys go to the window that has the focus (no window manager here to give it): focus it, pointer over it.
  xdotool windowfocus "$wid" 2>/dev/null
  xdotool mousemove --window "$wid" 640 400
  sleep 0.3
}

echo "== cancel from the window (Esc)"
start_gui cancel
a=$(ticks $pid); sleep 1; b=$(ticks $pid); busy=$((b - a)); rss_run=$(rss_mb $pid)
echo "running: $busy of $HZ ticks a core in 1 s, $rss_run MB resident"
[ $busy -gt $((HZ / 2)) ] || { echo "FAIL: the run is not under way (nothing to cancel)"; fail=1; }
xdotool key --window "$wid" Escape
sleep 1
a=$(ticks $pid); sleep 1; b=$(ticks $pid); idle=$((b - a)); rss_idle=$(rss_mb $pid)
echo "1 s after Esc: $idle ticks in 1 s, $rss_idle MB resident"
[ $idle -le $((HZ / 5)) ] || { echo "FAIL: still busy after the cancel ($idle ticks in 1 s)"; fail=1; }
[ $rss_idle -lt $((rss_run - 150)) ] || { echo "FAIL: the run's memory was not given back ($rss_run -> $rss_idle MB)"; fail=1; }
alive $pid || { echo "FAIL: the window closed on a cancel"; fail=1; }
kill $pid; wait $pid 2>/dev/null

echo "== Quit (Ctrl+Q) during the run"
start_gui quit
xdotool key --window "$wid" ctrl+q
s=$(gone_after $pid)
echo "gone after $s s"
awk "BEGIN{exit !($s <= 1.0)}" || { echo "FAIL: Quit took $s s"; fail=1; kill -9 $pid 2>/dev/null; }

for sig in TERM INT; do
  echo "== SIG$sig to the window during the run"
  start_gui sig$sig
  kill -$sig $pid
  s=$(gone_after $pid)
  echo "gone after $s s"
  awk "BEGIN{exit !($s <= 1.0)}" || { echo "FAIL: SIG$sig took $s s"; fail=1; kill -9 $pid 2>/dev/null; }
  wait $pid 2>/dev/null
  echo "== SIG$sig to redlab stats during the run"
  env --default-signal=INT "$REDLAB" stats --kernel interleaved --n 2^26 --block 256 --backend cpu >/dev/null 2>&1 &
  pid=$!
  sleep 2
  alive $pid || { echo "FAIL: redlab stats ended before the signal"; fail=1; }
  kill -$sig $pid
  s=$(gone_after $pid)
  echo "gone after $s s"
  awk "BEGIN{exit !($s <= 1.0)}" || { echo "FAIL: SIG$sig to the CLI took $s s"; fail=1; kill -9 $pid 2>/dev/null; }
  wait $pid 2>/dev/null
done
[ $fail -eq 0 ] && echo "stop: all passed"
exit $fail
