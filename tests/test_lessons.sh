#!/usr/bin/env bash
# The shipped lessons on the command line: `lesson list` names them in the notes' order; `lesson check` passes on each;
# every question's answer in `lesson show --json` is the figure `stats --json` gives for the same scenario at the same
# step (a comparison: the side with more of it); a broken lesson file is refused with its line, exit 2, and one whose
# runs do not hold exits 1 naming the line.
#   test_lessons.sh REDLAB
set -u
R=$(realpath "$1")
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp"
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

"$R" lesson list --json > list.json || fail "lesson list --json"
names=$(python3 -c '
import json, sys
lessons = json.load(open("list.json"))
notes = [l["note"] for l in lessons]
assert notes == sorted(notes) and len(notes) >= 5, notes
print(" ".join(l["lesson"] for l in lessons))') || fail "lesson list: five lessons in the notes' order"
for name in $names; do
  "$R" lesson check "$name" > "$name.check" 2>&1 || fail "lesson check $name: $(cat "$name.check")"
  "$R" lesson show "$name" --json > "$name.json" 2> "$name.err" || { fail "lesson show $name: $(cat "$name.err")"; continue; }
  # Every question against stats --json of the beat's own scenario words.
  python3 - "$R" "$name.json" <<'PY' || fails=$((fails + 1))
import json, subprocess, sys
redlab, path = sys.argv[1:]
lesson = json.load(open(path))
stats_of = {}
def stats(words):
    if words not in stats_of:
        out = subprocess.run([redlab, "stats"] + words.split() + ["--json"], capture_output=True, text=True)
        stats_of[words] = json.loads(out.stdout)
    return stats_of[words]
def figure(s, name, step):
    if name == "result":
        return s["result"]
    if name in s["steps"][0]:
        return s["steps"][step][name]
    return s["summary"][name]
def text(v):
    return v if isinstance(v, str) else json.dumps(v)
asked = 0
for beat in lesson["beats"]:
    q = beat.get("question")
    if not q:
        continue
    asked += 1
    a = stats(beat["a"])
    step = beat["step"]
    if q["compare"]:
        b = stats(beat["b"])
        # B's step: the same step as the lesson names it (an index, or a label found in B's steps).
        x, y = figure(a, q["figure"], step), figure(b, q["figure"], step)
        want = "A" if x > y else "B" if y > x else "same"
    else:
        want = text(figure(a, q["figure"], step))
    assert a["steps"][step]["label"] == beat["step_label"], (beat["beat"], beat["step_label"])
    if q["answer"] != want:
        print(f"FAIL {lesson['lesson']} beat {beat['beat']}: lesson show says {q['answer']}, stats --json {want}")
        sys.exit(1)
assert asked >= 4, f"{lesson['lesson']}: only {asked} questions"
PY
done

# A lecturer's file: a mistake is refused with its line (exit 2); a step the run does not have, exit 1 with the line.
cat > bad.lesson <<'L'
lesson: mine
note: 001
title.en: Mine
title.zh: 我的
beat
a: --kernel interleaved --n 512 --block 128
say.en: Look.
say.zh: 看。
ask: wavefront
L
"$R" lesson check bad.lesson > out 2>&1; rc=$?
[ $rc -eq 2 ] || fail "a bad lesson file: exit $rc, expected 2"
grep -q "bad.lesson: line 9: ask: no figure 'wavefront'" out || fail "a bad lesson file: $(cat out)"
sed -i 's/^ask: wavefront$/step: offset 512/' bad.lesson
"$R" lesson check bad.lesson > out 2>&1; rc=$?
[ $rc -eq 1 ] || fail "a step the trace lacks: exit $rc, expected 1"
grep -q "line 5: A: step 'offset 512': the trace's steps are load, offset 64" out || fail "a step the trace lacks: $(cat out)"
"$R" lesson show no_such_lesson > out 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "no lesson 'no_such_lesson'" out || fail "an unknown lesson: exit $rc: $(cat out)"

[ $fails -eq 0 ] && echo "lessons: every check passed" || echo "lessons: $fails failure(s)"
[ $fails -eq 0 ]
