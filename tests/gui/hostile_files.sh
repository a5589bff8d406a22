#!/bin/sh
# The window's own files as a hostile user (or a mistake) leaves them, each case bounded in time:
#  - settings.json and imgui.ini as FIFOs: the window still appears, ends on SIGTERM, and the FIFOs are left as
#    they were (ImGui's own reading of imgui.ini blocked on a FIFO, and a FIFO as settings.json kept the window
#    from appearing);
#  - settings.json and lessons.json (a lesson's progress) as symlinks to a file of the user's: after a lesson was
#    opened and the window ended, the file is unchanged (the links are replaced by redlab's own files);
#  - a kernel file whose constructor notes the processes it runs in and whose global's destructor aborts: only the
#    second redlab runs it, and the window exits 0;
#  - lessons.json holding a value nested 60,000 deep (a 120 KB file): a lesson opens, goes to its next beat and keeps
#    its progress (the window reads it with its nesting bounded; on Debian 12's nlohmann 3.11 the old reading did
#    not crash either: this case guards the window, core's UntrustedFiles tests the bound).
# usage: hostile_files.sh REDLAB OUTDIR
set -u
REDLAB=$1; OUT=$2
if [ -z "${HOSTILE_INNER-}" ]; then
  command -v xdotool >/dev/null || { echo "xdotool not found (scripts/dev installs it)"; exit 1; }
  rm -rf "$OUT"; mkdir -p "$OUT"
  # -noreset: each case's window is the server's only client, and Xvfb resets when the last one leaves; the next
  # window, connecting during the reset, found no display (GLFW: "Failed to detect any supported platform").
  HOSTILE_INNER=1 exec xvfb-run -a -s "-noreset -screen 0 1280x720x24" sh "$0" "$@"
fi
fail=0
alive() { [ -e "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
# A window of redlab (interactive) on lesson pairs with the files in $1's folders, taken to its next beat; true when it
# appeared and ended on SIGTERM.
window_comes_and_goes() {
  XDG_CONFIG_HOME="$1/config" XDG_DATA_HOME="$1/data" XDG_CACHE_HOME="$1/cache" REDLAB_LANG=en \
    "$REDLAB" gui --lesson pairs --size 1024x640 > "$1/gui.log" 2>&1 &
  pid=$!
  i=0
  while [ $i -lt 300 ] && ! xdotool search --pid $pid >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
  if ! xdotool search --pid $pid >/dev/null 2>&1; then
    echo "FAIL $1: no window within 30 s"; kill -KILL $pid 2>/dev/null; return 1
  fi
  sleep 2   # a few frames: the lesson is open
  # The next beat (Page Down, held over frames): the lesson's progress is written.
  wid=$(xdotool search --pid $pid | head -1)
  xdotool keydown --window "$wid" Next; sleep 0.1; xdotool keyup --window "$wid" Next; sleep 1
  kill -TERM $pid
  i=0
  while alive $pid && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  if alive $pid; then echo "FAIL $1: still running 10 s after SIGTERM"; kill -KILL $pid; return 1; fi
  wait $pid 2>/dev/null
  return 0
}

echo "== FIFOs as settings.json and imgui.ini"
D="$OUT/fifos"; mkdir -p "$D/config/redlab" "$D/data/redlab" "$D/cache"
mkfifo "$D/config/redlab/settings.json" "$D/config/redlab/imgui.ini"
if window_comes_and_goes "$D"; then
  [ -p "$D/config/redlab/settings.json" ] && [ -p "$D/config/redlab/imgui.ini" ] \
    && echo "the window came and went; the FIFOs are still FIFOs" \
    || { echo "FAIL: a FIFO was replaced"; fail=1; }
else
  fail=1
fi

echo "== symlinks as settings.json and lessons.json"
D="$OUT/links"; mkdir -p "$D/config/redlab" "$D/data/redlab" "$D/cache"
printf 'the user'"'"'s own notes\n' > "$OUT/notes.txt"; chmod 600 "$OUT/notes.txt"
before=$(md5sum < "$OUT/notes.txt")
ln -s "$OUT/notes.txt" "$D/config/redlab/settings.json"
ln -s "$OUT/notes.txt" "$D/data/redlab/lessons.json"
if window_comes_and_goes "$D"; then
  if [ "$(md5sum < "$OUT/notes.txt")" = "$before" ]; then
    echo "the linked file is unchanged; settings.json is $( [ -L "$D/config/redlab/settings.json" ] && echo 'still a link' || echo "redlab's own file")"
  else
    echo "FAIL: the file a symlink named was overwritten:"; cat "$OUT/notes.txt"; fail=1
  fi
else
  fail=1
fi

echo "== a progress file nested 60,000 deep"
D="$OUT/deep"; mkdir -p "$D/config/redlab" "$D/data/redlab" "$D/cache"
python3 -c 'import sys; sys.stdout.write("{\"lessons\": {\"memory\": " + "[" * 60000 + "]" * 60000 + "}}")' > "$D/data/redlab/lessons.json"
if window_comes_and_goes "$D"; then
  grep -q "Segmentation\|Aborted\|AddressSanitizer" "$D/gui.log" && { echo "FAIL: $(tail -2 "$D/gui.log")"; fail=1; } \
    || echo "the lesson opened, its progress kept: $(wc -c < "$D/data/redlab/lessons.json") bytes now"
else
  fail=1
fi

echo "== a kernel file whose constructor notes its process and whose global's destructor aborts"
# The window reads a kernel file's record from the trace its second redlab wrote: the file's library is never loaded
# into the window (it was: a destructor that aborts ended the window with 134 at exit, and the constructor ran there).
D="$OUT/atexit"; mkdir -p "$D/config" "$D/data" "$D/cache"
export XDG_CACHE_HOME="$D/cache"
( cd "$D" && "$REDLAB" new-kernel my_atexit.cu --from interleaved > /dev/null ) || { echo "FAIL: new-kernel"; fail=1; }
python3 - "$D/my_atexit.cu" "$D/ran_in" <<'PY'
import sys
f, marker = sys.argv[1:]
s = open(f).read()
i = s.index("#include")
s = s[:i] + f"""#include <cstdio>
#include <cstdlib>
__attribute__((constructor)) static void note_process() {{
  char cmd[4096] = {{}};
  std::FILE* c = std::fopen("/proc/self/cmdline", "rb");
  const std::size_t n = c ? std::fread(cmd, 1, sizeof cmd - 1, c) : 0;
  if (c) std::fclose(c);
  for (std::size_t i = 0; i < n; ++i) if (!cmd[i]) cmd[i] = ' ';
  if (std::FILE* m = std::fopen("{marker}", "a")) {{ std::fprintf(m, "%s\\n", cmd); std::fclose(m); }}
}}
struct AbortsAtExit {{ ~AbortsAtExit() {{ std::abort(); }} }} aborts_at_exit;
""" + s[i:]
open(f, "w").write(s)
PY
XDG_CONFIG_HOME="$D/config" XDG_DATA_HOME="$D/data" REDLAB_LANG=en timeout 300 "$REDLAB" gui --source "$D/my_atexit.cu" \
  --backend cpu --n 4096 --size 1024x640 --screenshot "$D/shot.png" > "$D/gui.log" 2>&1
rc=$?
unset XDG_CACHE_HOME
if [ $rc -eq 0 ] && [ -s "$D/shot.png" ] && [ -s "$D/ran_in" ] && ! grep -v -- "--load-kernel" "$D/ran_in" > /dev/null; then
  echo "the file's constructor ran in the second redlab only ($(wc -l < "$D/ran_in") run(s)); the window exited 0"
else
  echo "FAIL: gui --source with a constructor and an aborting destructor: exit $rc; ran in: $(cat "$D/ran_in" 2>/dev/null)"
  tail -3 "$D/gui.log"; fail=1
fi

[ $fail -eq 0 ] && echo "hostile files: all passed"
exit $fail
