#!/usr/bin/env bash
# The shipped lessons on the command line: `lesson list` names them in the notes' order; `lesson check` passes on each;
# every question's answer in `lesson show --json` is the figure `stats --json` gives for the same scenario at the same
# step (a comparison: the side with more of it); a broken lesson file is refused with its line, exit 2, and one whose
# runs do not hold exits 1 naming the line.
#   test_lessons.sh REDLAB
set -u
R=$(realpath "$1")
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"   # tmp, fail, ok, finish
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp"

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
    if name in ("blocks_per_sm", "clusters_at_most"):   # the first launch's occupancy
        return s["occupancy"][name]
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
# Every text as the student reads it: each reference filled from the trace, none left as written.
for beat in lesson["beats"]:
    texts = [beat["say"]] + ([beat["question"]["ask"], beat["question"]["explain"]] if beat.get("question") else [])
    for t in texts:
        for lang in ("en", "zh_CN"):
            assert "{" not in t[lang] and "}" not in t[lang], (lesson["lesson"], beat["beat"], t[lang])
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
# The text counts steps from 1, as the window's counter does (harris beat 2 is at its second step, 'stride 1').
"$R" lesson show harris > out 2>&1 && grep -q "^  step 2 'stride 1'  look: warps" out || fail "lesson show's step numbers: $(cat out)"
"$R" lesson show no_such_lesson > out 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "no lesson 'no_such_lesson'" out || fail "an unknown lesson: exit $rc: $(cat out)"

# A hand-written figure: the shipped harris lesson with its first question's answer written into the explanation.
answer=$(python3 -c 'import json; print(next(b["question"]["answer"] for b in json.load(open("harris.json"))["beats"] if b.get("question")))')
python3 - "$SRC/assets/lessons/001_harris.lesson" "$answer" <<'PY'
import sys
src, answer = sys.argv[1:]
text = open(src).read().replace("{answer}", answer, 2)   # (explain.en and explain.zh of the first question)
open("written.lesson", "w").write(text)
PY
"$R" lesson check written.lesson > out 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "writes $answer, which is {answer} of the trace" out ||
  fail "a lesson with its answer written by hand: exit $rc: $(cat out)"

# `lesson check` within bounds: a run still going at its --time-limit (the whole check's) is stopped, the check ending
# with a sentence naming the beat (it ran on in silence); and only the last few traces are kept: twelve beats of
# distinct scenarios that trace 256 blocks (about 8 MB a trace) peak within 32 MB of four of them (every trace was
# kept: eight more traces, 64 MB more; 2.7 GB by beat 13 of a larger lesson).
{ printf 'lesson: big\ntitle.en: Big\ntitle.zh: 大\n'
  for k in 1 2; do printf '\nbeat\na: --kernel interleaved --n 2^26 --backend cpu --seed %s\nsay.en: A big run.\nsay.zh: 大的运行。\n' $k; done
} > big.lesson
t0=$(date +%s)
"$R" lesson check big.lesson --time-limit 2 > out 2>&1; rc=$?
took=$(( $(date +%s) - t0 ))
[ $rc -eq 2 ] && [ $took -le 20 ] && grep -q "big.lesson: stopped at beat 1 of 2 (line [0-9]*): its run was stopped at the check's limit of 2 s" out ||
  fail "lesson check past its time limit: exit $rc after $took s: $(cat out)"
{ printf 'lesson: many\ntitle.en: Many\ntitle.zh: 多\n'
  for k in $(seq 12); do printf '\nbeat\na: --kernel interleaved --n 2^16 --backend cpu --focus %s --seed %s\nsay.en: A run.\nsay.zh: 一次运行。\n' "$(seq -s, 0 255)" $k; done
} > many.lesson
{ printf 'lesson: four\ntitle.en: Four\ntitle.zh: 四\n'
  for k in $(seq 4); do printf '\nbeat\na: --kernel interleaved --n 2^16 --backend cpu --focus %s --seed %s\nsay.en: A run.\nsay.zh: 一次运行。\n' "$(seq -s, 0 255)" $k; done
} > four.lesson
peak() {  # peak() LESSON: the check's largest resident set, in MB
  python3 - "$R" "$1" <<'PY'
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "lesson", "check", sys.argv[2]], capture_output=True, text=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024 if r.returncode == 0 else f"exit {r.returncode}: {r.stderr}")
PY
}
four_mb=$(peak four.lesson); many_mb=$(peak many.lesson)
if ldd "$R" 2>/dev/null | grep -q libasan; then   # (ASan's quarantine holds freed memory: the peak says nothing)
  echo "skip lesson check's peak memory in the sanitizer build (12 beats $many_mb MB, 4 beats $four_mb MB)"
elif [ -n "${four_mb##*[!0-9]*}" ] && [ -n "${many_mb##*[!0-9]*}" ] && [ "$many_mb" -le $(( four_mb + 32 )) ]; then
  echo "ok   lesson check of 12 large beats peaks at $many_mb MB, of 4 at $four_mb MB"
else
  fail "lesson check keeps what it no longer needs: 12 beats peak at $many_mb MB, 4 at $four_mb MB"
fi

# Starting again: `lesson reset L` forgets L's answers and beat, and no other lesson's; `lesson reset` every lesson's.
export XDG_DATA_HOME=$tmp/data
mkdir -p "$XDG_DATA_HOME/redlab"
echo '{"lessons": {"harris": {"beat": 3, "answers": {"1": "64"}, "revealed": [1]}, "pairs": {"beat": 2, "answers": {}, "revealed": []}}}' \
  > "$XDG_DATA_HOME/redlab/lessons.json"
"$R" lesson reset harris > out 2>&1 || fail "lesson reset harris: $(cat out)"
python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))["lessons"]; assert "harris" not in l and "pairs" in l, l' \
  "$XDG_DATA_HOME/redlab/lessons.json" || fail "lesson reset harris: harris forgotten, pairs kept"
"$R" lesson reset > out 2>&1 || fail "lesson reset: $(cat out)"
grep -q "every lesson starts again at its first beat (1 lesson had answers or a beat kept)" out || fail "lesson reset: $(cat out)"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["lessons"] == {}' "$XDG_DATA_HOME/redlab/lessons.json" ||
  fail "lesson reset: every lesson forgotten"
"$R" lesson reset no_such_lesson > out 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "no lesson 'no_such_lesson'" out || fail "lesson reset of an unknown lesson: exit $rc: $(cat out)"
unset XDG_DATA_HOME

# Exercises: a student's file against the checks, failing (the step and the line named) and passing.
"$R" new-kernel my_strided.cu --from neighbored_strided >/dev/null && "$R" new-kernel my_sequential.cu --from interleaved >/dev/null &&
  "$R" new-kernel my_naive.cu --from transpose_naive >/dev/null && "$R" new-kernel my_padded.cu --from transpose_padded >/dev/null &&
  "$R" new-kernel my_race.cu --from gallery/missing_sync >/dev/null || fail "new-kernel for the exercises"
exercise() {  # WANT_RC LESSON EXERCISE FILE PATTERN...: the exit code, and each pattern in what it printed
  want=$1 lesson=$2 ex=$3 file=$4; shift 4
  "$R" lesson exercise "$lesson" "$ex" --source "$file" > ex.out 2> ex.err; rc=$?
  [ $rc -eq "$want" ] || fail "lesson exercise $lesson $ex --source $file: exit $rc, expected $want: $(cat ex.out ex.err)"
  for p in "$@"; do grep -q -- "$p" ex.out || fail "lesson exercise $lesson $ex --source $file: no '$p' in: $(cat ex.out)"; done
}
# The exercise's trace goes to a folder made fresh (mkdtemp), never one planted at the name a PID predicts: folders for
# the next 300 PIDs (made by one process, so that the PIDs stay ahead), each holding a symlink to a file of the user's in the trace's place (trace -o --force went through
# it), leave the file as it was; the fresh folder is gone afterwards.
planted=$(mktemp -d)
printf 'mine\n' > "$planted/victim"; chmod 600 "$planted/victim"
python3 - "$planted" <<'PY'
import os, sys
d = sys.argv[1]
now = os.getpid()   # the PIDs given out next
for p in range(now + 1, now + 301):
    os.makedirs(f"{d}/redlab-exercise-{p}", exist_ok=True)
    os.symlink(f"{d}/victim", f"{d}/redlab-exercise-{p}/exercise.rltrace")
PY
TMPDIR=$planted "$R" lesson exercise harris no_conflicts --source my_sequential.cu > planted.out 2>&1
if [ "$(cat "$planted/victim")" = mine ] && [ -z "$(ls "$planted" | grep -v '^redlab-exercise-[0-9]*$' | grep -v '^victim$')" ]; then
  echo "ok   an exercise with planted folders: the linked file unchanged, no folder left"
else
  fail "an exercise with planted folders: the linked file now $(wc -c < "$planted/victim") bytes (was 5), left: $(ls "$planted" | grep -v '^redlab-exercise-[0-9]*$')"
fi
rm -rf "$planted"
# The student's code runs in the second redlab only: a constructor of the file's that notes each process it runs in
# (its command line) finds only `--load-kernel` ones, and a global whose destructor aborts ends neither the exercise
# nor its results (the first redlab loaded the library to read its record: its exit then aborted, 134, the checks'
# lines lost with stdout a file). The line after the results says the process failed after its run.
cp my_sequential.cu my_atexit.cu
python3 - my_atexit.cu "$PWD/ran_in" <<'PY'
import sys
f, marker = sys.argv[1:]
s = open(f).read().replace('.id = "my_sequential"', '.id = "my_atexit"', 1)
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
grep -q '.id = "my_atexit"' my_atexit.cu || fail "my_atexit.cu: the id was not replaced"
rm -f ran_in
"$R" lesson exercise harris no_conflicts --source my_atexit.cu > atexit.out 2> atexit.err; rc=$?
if [ $rc -eq 0 ] && grep -q "^pass correct" atexit.out && grep -q "after the run had ended" atexit.err &&
   [ -s ran_in ] && ! grep -v -- "--load-kernel" ran_in >/dev/null; then
  echo "ok   a kernel file's constructor ran only in the second redlab ($(wc -l < ran_in) run(s)); its destructor's abort kept the results: $(grep -c . atexit.out) lines, exit 0"
else
  fail "a kernel file's constructor and aborting destructor: exit $rc; ran in: $(cat ran_in 2>/dev/null); out: $(cat atexit.out); err: $(tail -3 atexit.err)"
fi
# The access's expression and line are named on either backend (a GPU trace's from the emulator's run of its focus block).
backend=$("$R" stats --kernel interleaved --n 256 --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["backend"])')
line=$(grep -n 's\[a\] = op(s\[a\], s\[a + stride\]);' my_strided.cu | cut -d: -f1)
exercise 1 harris no_conflicts my_strided.cu "pass correct: correct: result 2048" \
  "FAIL ideal_wavefronts: step 2 'stride 1': 192 shared wavefronts where 96 would do; s\[a\] at line $line"
exercise 0 harris no_conflicts my_sequential.cu "pass ideal_wavefronts: every one of the 10 steps"
# The time check: on a GPU timed beside cub_device (a ratio); without one, not checked and saying why.
if [ "$backend" = cpu ]; then
  grep -q "^skip time_vs_cub: at most 2.6 times the time of cub::DeviceReduce at n = 16777216: not checked here (" ex.out ||
    fail "the time check without a GPU: $(cat ex.out)"
else
  grep -Eq "^(pass|FAIL) time_vs_cub: [0-9.]+ times the time of cub::DeviceReduce at n = 16777216" ex.out ||
    fail "the time check on a GPU: $(cat ex.out)"
fi
# A race: the emulator stops the kernel there; a GPU has no race detector, and the missing barrier shows as a wrong sum.
if [ "$backend" = cpu ]; then
  exercise 1 harris no_conflicts my_race.cu "FAIL no_fault: the kernel stopped: Race in block 0 on shared s\[32\]" "FAIL correct: The kernel stopped (race)"
  # Three classic mistakes, each said where: the step it happened in (the counter's number, from 1), the line, the
  # thread and the other access; and no check passes on a run that stopped.
  #  1. The tree started at offset = BLOCK: thread 255 reads s[511] in the first tree step, not in a second 'load'.
  "$R" new-kernel my_oob.cu --from interleaved >/dev/null && sed -i 's|offset = BLOCK / 2; offset > 0|offset = BLOCK; offset > 0|' my_oob.cu
  line=$(grep -n 's\[tid\] = op(s\[tid\], s\[tid + offset\]);' my_oob.cu | cut -d: -f1)
  exercise 1 harris no_conflicts my_oob.cu \
    "FAIL correct: The kernel stopped (out of bounds) in block 0, step 2 'offset 256'" \
    "thread 255 (warp 7, lane 31) used it in step 2 'offset 256' at line $line of my_oob.cu" \
    "FAIL ideal_wavefronts: The kernel stopped (out of bounds) in block 0, step 2 'offset 256'"
  "$R" stats --source my_oob.cu --n 2048 --block 256 --input ones > oob.out 2>&1
  grep -q "stopped at its fault, out-of-bounds index in block 0, step 2 'offset 256'" oob.out &&
    [ "$(grep -c '^load ' oob.out)" = 1 ] && grep -q "^tree  *offset 256 .*<- out-of-bounds index: thread 255 used s\[511\] at line $line" oob.out ||
    fail "stats --source of a tree started at offset = BLOCK: the fault's step: $(cat oob.out)"
  #  2. The transpose without its barrier: a race between the tile's write and its read, both lines and threads.
  "$R" new-kernel my_nobarrier.cu --from transpose_padded >/dev/null && sed -i '/^  __syncthreads();$/d' my_nobarrier.cu
  exercise 1 memory coalesced_transpose my_nobarrier.cu \
    "FAIL correct: The kernel stopped (race) in block 0, step 2 'tile store'" \
    "wrote it in step 1 'tile load' at line [0-9]* of my_nobarrier.cu, then thread [0-9]* (warp [0-9]*, lane [0-9]*) read it in step 2 'tile store' at line [0-9]* of my_nobarrier.cu" \
    "FAIL sectors_per_request: The kernel stopped (race)"
  #  3. The tree one level short: the wrong sum names the inputs it lost, as stats does.
  "$R" new-kernel my_short.cu --from interleaved >/dev/null && sed -i 's|offset > 0; offset /= 2|offset > 1; offset /= 2|' my_short.cu
  exercise 1 harris no_conflicts my_short.cu \
    "FAIL correct: wrong: result 512 (reference 2048); block 0: inputs 1, 3, 5, 7, 9, 11, 13, 15, ... (128 of 256) never reached its result"
else
  exercise 1 harris no_conflicts my_race.cu "FAIL correct: wrong: result"
fi
line=$(grep -n 'output\[x \* rows + y0 + ty + j\]' my_naive.cu | head -n 1 | cut -d: -f1)
exercise 1 memory coalesced_transpose my_naive.cu \
  "FAIL sectors_per_request: step 2 'tile store': 32.0 sectors per global request, more than 4; output\[x \* rows + y0 + ty + j\] at line $line"
exercise 0 memory coalesced_transpose my_padded.cu "pass sectors_per_request: at most 4.0" "pass ideal_wavefronts"
exercise 2 harris no_such_exercise my_sequential.cu
grep -q "has no exercise 'no_such_exercise' (it has no_conflicts)" ex.err || fail "an unknown exercise: $(cat ex.err)"
echo '__global__ void broken( {' > broken.cu
exercise 2 harris no_conflicts broken.cu

finish lessons
