#!/bin/sh
# The lessons in the window.
#  1. Every beat of every shipped lesson as a screenshot of a window opened on it (--beat), in one of four
#     configurations, 1280x720 x2 or 1920x1080 x1, English or Chinese, taken in turn so that every lesson meets all
#     four: the window draws it (the lesson's column and the views have content) and no text is drawn over other
#     text (REDLAB_GUI_TEXT_CHECK: the window exits 3 naming the two pieces of text). Every beat in all four (and
#     Present) is walked by lesson_hidden.py, whose walk checks each frame's text the same way.
#  2. A lesson walked through in a real window with keys only (xdotool under Xvfb): Page Down to the first question,
#     a wrong answer typed and Enter, Page Down to the next question, a right answer and Enter (the bank grids of the
#     strided and the sequential tree side by side are then one Page Down away: 3 from the lesson's start). The answers are what
#     the progress file keeps, the panel shows "Not quite" in red and "Right" in green, and a window opened again
#     starts where the walk stopped. Then with --fresh from beat 4: the answers typed with no click on the first beat
#     after launch and on beats that enter, keep and leave the compare layout are each taken, and none is kept.
#  3. Every question of every lesson answered with keys only, in the lessons' own layouts and started in Present
#     (PART answers, not in all).
# usage: lessons.sh REDLAB PNG_CHECK SCREEN_CHECK OUTDIR [PART]   (PART: shots, walk, answers or all)
set -u
REDLAB=$1; CHECK=$2; SCREEN=$3; OUT=$4; PART=${5-all}
if [ -z "${LESSONS_INNER-}" ]; then
  command -v xdotool >/dev/null || { echo "xdotool not found (scripts/dev installs it)"; exit 1; }
  rm -rf "$OUT"; mkdir -p "$OUT/fb"
  LESSONS_INNER=1 exec xvfb-run -a -s "-noreset -screen 0 1920x1080x24 -fbdir $OUT/fb" sh "$0" "$@"
fi
export REDLAB_GUI_TEXT_CHECK=1
export XDG_DATA_HOME="$OUT/data" XDG_CONFIG_HOME="$OUT/config" XDG_CACHE_HOME="$OUT/cache"
fail=0
lessons=$("$REDLAB" lesson list --json | python3 -c 'import json,sys; print(" ".join("%s:%d" % (l["lesson"], l["beats"]) for l in json.load(sys.stdin)))')
[ -n "$lessons" ] || { echo "FAIL: no lesson"; exit 1; }

if [ "$PART" = shots ] || [ "$PART" = all ]; then
  shots=0 turn=0
  for lb in $lessons; do
    lesson=${lb%%:*}; beats=${lb##*:}
    # Its gallery beats: a headless window that ends on a kernel's fault exits 2 (as the command line does), and a
    # gallery entry's fault is the mistake the beat shows.
    gallery=" $("$REDLAB" lesson show "$lesson" --json | python3 -c 'import json,sys; print(" ".join(str(b["beat"]) for b in json.load(sys.stdin)["beats"] if b.get("gallery")))') "
    beat=1
    while [ $beat -le "$beats" ]; do
      case $((turn % 4)) in
        0) size=1280x720:2 lang=en ;; 1) size=1920x1080:1 lang=zh_CN ;;
        2) size=1280x720:2 lang=zh_CN ;; 3) size=1920x1080:1 lang=en ;;
      esac
      turn=$((turn + 1))
      name="${lesson}_${beat}_${size%%:*}_x${size##*:}_$lang"
      REDLAB_LANG=$lang REDLAB_GUI_SCALE=${size##*:} "$REDLAB" gui --lesson "$lesson" --beat $beat --size ${size%%:*} \
        --screenshot "$OUT/$name.png" --frames 4 > "$OUT/$name.log" 2>&1
      rc=$?
      case "$gallery" in *" $beat "*) [ $rc -eq 2 ] && grep -q "^redlab gui: emulator: " "$OUT/$name.log" && rc=0 ;; esac
      if [ $rc -ne 0 ]; then
        echo "FAIL $name: exit $rc"; cat "$OUT/$name.log"; fail=1
      # The lesson's column (left) and the views beside it have drawn something.
      elif ! "$CHECK" "$OUT/$name.png" 100 0.00 0.06 0.22 0.40 6 0.015 0.40 0.20 0.95 0.80 6 0.03 >/dev/null; then
        echo "FAIL $name: content"; fail=1
      fi
      shots=$((shots + 1))
      beat=$((beat + 1))
    done
  done
  echo "lesson shots: $shots"
fi

# Waits (30 s at most) until a Python condition on LESSON's entry in the progress file, p, holds: the window writes
# the file when a beat is entered and when an answer is given.
until_progress() {  # LESSON CONDITION
  python3 - "$OUT/data/redlab/lessons.json" "$1" "$2" <<'PY'
import json, sys, time
path, lesson, condition = sys.argv[1:]
end = time.monotonic() + 30
while True:
    try:
        with open(path) as f:
            p = json.load(f)["lessons"].get(lesson)
    except (OSError, ValueError, KeyError):
        p = None
    if p is not None and eval(condition, {}, {"p": p}):
        sys.exit(0)
    if time.monotonic() > end:
        sys.exit(1)
    time.sleep(0.05)
PY
}
picture() { cp "$OUT/fb/Xvfb_screen0" "$OUT/$1.xwd" && "$SCREEN" "$OUT/$1.xwd" 1920 1080 --png "$OUT/$1.png" >/dev/null 2>&1; }
start() {
  REDLAB_LANG=en "$REDLAB" gui --size 1920x1080 "$@" > "$OUT/walk.log" 2>&1 &
  pid=$!
  wid=$(timeout 60 xdotool search --sync --onlyvisible --name redlab | head -n 1)
  [ -n "$wid" ] || { echo "FAIL walk: no window"; cat "$OUT/walk.log"; kill $pid; exit 1; }
  sleep 2
  xdotool windowfocus "$wid" 2>/dev/null
  xdotool mousemove --window "$wid" 1900 1070
  sleep 0.3
}
key() { xdotool key --window "$wid" "$1"; sleep 1.2; }
hold() { xdotool keydown --window "$wid" "$1"; sleep 0.2; xdotool keyup --window "$wid" "$1"; sleep 0.8; }
if [ "$PART" = walk ] || [ "$PART" = all ]; then
  echo "== harris walked through with keys only"
  progress() { python3 -c "import json; p=json.load(open('$OUT/data/redlab/lessons.json'))['lessons']['harris']; print(p['beat'], json.dumps(p['answers'], sort_keys=True))" 2>/dev/null; }
  rm -rf "$OUT/data"
  start --lesson harris --beat 1
  key Next                      # beat 2: divergent warps at stride 1 (64); its answer field takes the keys
  xdotool type --window "$wid" --delay 30 "32"
  hold Return
  picture walk_wrong
  key Next                      # beat 3: reduce1's shared load wavefronts at stride 2 (128)
  xdotool type --window "$wid" --delay 30 "128"
  hold Return
  picture walk_right
  kill $pid; wait $pid 2>/dev/null
  got=$(progress)
  echo "progress: $got"
  [ "$got" = '2 {"1": "32", "2": "128"}' ] || { echo "FAIL walk: progress '$got', expected beat index 2 and the two answers"; fail=1; }
  # Not quite (red, ff8c73) after the wrong answer; Right (green, 66d966) after the right one: in the lesson's column,
  # and not the other colour there.
  COLUMN="0.0 0.05 0.24 0.6"
  "$CHECK" "$OUT/walk_wrong.png" 50 rgbnear ff8c73 20 $COLUMN 0.0003 >/dev/null &&
    ! "$CHECK" "$OUT/walk_wrong.png" 50 rgbnear 66d966 20 $COLUMN 0.0001 >/dev/null ||
    { echo "FAIL walk: the wrong answer 32 is not shown red ('Not quite')"; fail=1; }
  "$CHECK" "$OUT/walk_right.png" 50 rgbnear 66d966 20 $COLUMN 0.0003 >/dev/null &&
    ! "$CHECK" "$OUT/walk_right.png" 50 rgbnear ff8c73 20 $COLUMN 0.0001 >/dev/null ||
    { echo "FAIL walk: the right answer 128 is not shown green ('Right')"; fail=1; }
  # Opened again without --beat: where the walk stopped.
  start --lesson harris
  picture walk_again
  kill $pid; wait $pid 2>/dev/null
  "$CHECK" "$OUT/walk_again.png" 50 rgbnear 66d966 20 $COLUMN 0.0003 >/dev/null ||
    { echo "FAIL walk: opened again, beat 3's answer is not shown"; fail=1; }
  # A lecturer's class (--fresh): no answer kept shows, and none is kept. The answer field takes the keys on the first
  # beat after launch, on a beat that enters the compare layout (4), one that stays in it (5) and one that leaves it
  # (6), with no click: each typed answer and Enter is taken (Right, in green).
  answer_of() {  # BEAT: the answer lesson show computes for it (beats from 1)
    "$REDLAB" lesson show harris --json 2>/dev/null |
      python3 -c "import json,sys; print(json.load(sys.stdin)['beats'][$1 - 1]['question']['answer'])"
  }
  start --lesson harris --beat 4 --fresh
  for beat in 4 5 6; do
    [ $beat -gt 4 ] && key Next
    xdotool type --window "$wid" --delay 30 "$(answer_of $beat)"
    hold Return
    picture walk_fresh_$beat
    "$CHECK" "$OUT/walk_fresh_$beat.png" 50 rgbnear 66d966 20 $COLUMN 0.0003 >/dev/null &&
      ! "$CHECK" "$OUT/walk_fresh_$beat.png" 50 rgbnear ff8c73 20 $COLUMN 0.0001 >/dev/null ||
      { echo "FAIL walk: beat $beat's answer $(answer_of $beat), typed without a click, was not taken (walk_fresh_$beat.png)"; fail=1; }
  done
  kill $pid; wait $pid 2>/dev/null
  got=$(progress)
  [ "$got" = '2 {"1": "32", "2": "128"}' ] || { echo "FAIL walk: --fresh changed the progress kept: '$got'"; fail=1; }
fi
if [ "$PART" = answers ]; then
  # 3. Every question of every shipped lesson answered by keys only: Page Down from the first beat to the last, each
  #    question's answer typed and Enter, with no click, in the lessons' own layouts (study and compare, entered and
  #    left as the beats say) and started in Present. Each answer is typed as soon as the progress file says its beat
  #    was entered (a student need not wait for the beat's runs: Enter before them is judged when they come in), and
  #    each is taken: the progress file keeps every one. No fixed waits: the file says when each step is done.
  echo "== every question of every lesson answered with keys only"
  for lb in $lessons; do
    lesson=${lb%%:*}; beats=${lb##*:}
    "$REDLAB" lesson show "$lesson" --json > "$OUT/$lesson.json" 2>/dev/null || { echo "FAIL lesson show $lesson"; fail=1; continue; }
    answer_of() { python3 -c "import json,sys; q=json.load(open('$OUT/$lesson.json'))['beats'][$1 - 1].get('question'); print(q['answer'] if q else '')"; }
    expected=$(python3 -c "import json; print(json.dumps({str(b['beat'] - 1): b['question']['answer'] for b in json.load(open('$OUT/$lesson.json'))['beats'] if b.get('question')}, sort_keys=True))")
    for layout in own present; do
      rm -rf "$OUT/data"
      if [ $layout = present ]; then start --lesson "$lesson" --beat 1 --layout present; else start --lesson "$lesson" --beat 1; fi
      beat=1
      while [ $beat -le "$beats" ]; do
        a=$(answer_of $beat)
        if [ -n "$a" ]; then
          xdotool type --window "$wid" --delay 30 "$a"
          xdotool keydown --window "$wid" Return; sleep 0.2; xdotool keyup --window "$wid" Return
          # Taken when the progress file keeps it (a beat's runs may still be coming in: Enter then waits for them).
          until_progress "$lesson" "p['answers'].get('$((beat - 1))') == '$a'" ||
            echo "($lesson, $layout layout: beat $beat's answer $a not kept within 30 s)"
        fi
        if [ $beat -lt "$beats" ]; then
          xdotool key --window "$wid" Next
          until_progress "$lesson" "p['beat'] == $beat" ||
            { echo "FAIL answers $lesson ($layout layout): Page Down from beat $beat did not move on within 30 s"; fail=1; break; }
        fi
        beat=$((beat + 1))
      done
      kill $pid; wait $pid 2>/dev/null
      got=$(python3 -c "import json; print(json.dumps(json.load(open('$OUT/data/redlab/lessons.json'))['lessons']['$lesson']['answers'], sort_keys=True))" 2>/dev/null)
      if [ "$got" = "$expected" ]; then
        echo "$lesson ($layout layout): every answer taken"
      else
        echo "FAIL answers $lesson ($layout layout): kept $got, typed $expected"; fail=1
      fi
    done
  done
fi
[ $fail -eq 0 ] && echo "lessons in the window: every check passed"
exit $fail
