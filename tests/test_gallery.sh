#!/usr/bin/env bash
# The gallery of mistakes (assets/gallery): every entry of its index runs through `stats --source`
# with its scenario and gives its documented failure: the exit code (2 for the emulator's reports, 1 for a wrong
# result), nothing else on stderr (no crash, no second message), and exactly the message its file's header quotes
# under "What redlab says". A copy made with `new-kernel --from gallery/NAME` fails the same way under its own name.
# `list --gallery` lists every entry, in text and JSON (the index's schema, which the window's menu reads).
#   test_gallery.sh REDLAB
set -u
R=$(realpath "$1")
. "$(dirname "$0")/lib.sh"   # tmp, fail, ok, finish
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp"

"$R" list --gallery --json >gallery.json 2>list.err || { fail "list --gallery --json: exit $?"; cat list.err; }
"$R" list --gallery >gallery.txt 2>>list.err || { fail "list --gallery: exit $?"; cat list.err; }

# One line per entry: name, path, expect, the scenario's options.
python3 - gallery.json gallery.txt >entries.txt <<'PY' || fails=$((fails + 1))
import json, re, sys
index = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
expects = {"deadlock", "wrong_result", "race", "out_of_bounds"}
ok = True
assert len(index["entries"]) == 5, "five entries: the four mistakes of the notes and the cluster's"
for e in index["entries"]:
    keys = {"file", "id", "from", "scenario", "expect", "title", "explanation", "path"}
    if set(e) != keys:
        print(f"FAIL {e.get('file')}: keys {sorted(e)}, expected {sorted(keys)}", file=sys.stderr); ok = False
    if e["expect"] not in expects:
        print(f"FAIL {e['file']}: expect {e['expect']}", file=sys.stderr); ok = False
    for field in ("title", "explanation"):
        if set(e[field]) != {"en", "zh_CN"} or not re.search(r"[\u4e00-\u9fff]", e[field]["zh_CN"]):
            print(f"FAIL {e['file']}: {field} needs en and a Chinese zh_CN", file=sys.stderr); ok = False
    name = e["file"][:-3]
    if f"  {name}  ({e['expect']}, from {e['from']})" not in text or e["title"]["en"] not in text:
        print(f"FAIL list --gallery does not list {name}", file=sys.stderr); ok = False
    opts = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in e["scenario"].items())
    print(name, e["path"], e["expect"], opts)
sys.exit(0 if ok else 1)
PY

# What the file's header says redlab prints: the indented lines under "What redlab says", joined where wrapped
# (an error message is one line) or kept apart (a wrong result's lines).
documented() {  # documented FILE EXPECT
  python3 - "$1" "$2" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith("// What redlab says"))
quoted = []
for l in lines[start + 1:]:
    if not l.startswith("//   "): break
    quoted.append(l[5:])
print("\n".join(quoted) if sys.argv[2] == "wrong_result" else " ".join(quoted))
PY
}

check() {  # check LABEL FILE EXPECT OPTIONS...: runs FILE, compares with what FILE's header documents
  local label=$1 file=$2 expect=$3; shift 3
  local want=2; [ "$expect" = wrong_result ] && want=1
  timeout 300 "$R" stats --source "$file" "$@" >"$label.out" 2>"$label.err"
  local rc=$?
  # Not the kernel's report: the compile notice, and the line ASan prints once in the sanitizer build, where the
  # emulator's fibers switch through swapcontext (no ASAN_OPTIONS turns it off).
  grep -v -e '^redlab: compiled ' -e "^==[0-9]*==WARNING: ASan doesn't fully support makecontext/swapcontext" \
    "$label.err" >"$label.msg"
  documented "$file" "$expect" >"$label.doc"
  if [ $rc != $want ]; then
    fail "$label: exit $rc, expected $want"; cat "$label.err"; return
  fi
  if [ "$expect" = wrong_result ]; then
    # stdout holds the documented lines (indentation aside); stderr is empty
    python3 - "$label.doc" "$label.out" <<'PY' || { fail "$label: stdout lacks the documented lines"; cat "$label.out"; return; }
import sys
doc = [l.strip() for l in open(sys.argv[1]).read().splitlines()]
out = [l.strip() for l in open(sys.argv[2]).read().splitlines()]
sys.exit(0 if all(d in out for d in doc) and doc else 1)
PY
    [ -s "$label.msg" ] && { fail "$label: stderr: $(cat "$label.msg")"; return; }
  else
    # one line on stderr, the documented one, and it names the failure the index expects
    local name
    name=$(basename "$file")
    if [ "$(wc -l <"$label.msg")" != 1 ] || ! diff -q "$label.msg" "$label.doc" >/dev/null; then
      fail "$label: stderr is not what $name documents:"; echo "  got:  $(cat "$label.msg")"; echo "  want: $(cat "$label.doc")"; return
    fi
    local needle
    case $expect in
      deadlock) needle="deadlock in block 0: __shfl_down_sync \(kernel line [0-9]+ of [a-z_]+\.cu\) in warp 0 names lanes 8-31";;
      race) needle="race in block 0 on shared s\[[0-9]+\]: thread [0-9]+ \(warp [0-9]+, lane [0-9]+\) wrote it at kernel line [0-9]+ of [a-z_]+\.cu in step '[^']+' and thread [0-9]+ \(warp [0-9]+, lane [0-9]+\) read it at kernel line [0-9]+ of [a-z_]+\.cu in step '[^']+', with no __syncthreads between them: one belongs after the write at line [0-9]+ in step '[^']+' and before the read at line [0-9]+ in step '[^']+' \(s\[[0-9]+\]: byte [0-9]+ of s_mem, "
            # a race through distributed shared memory: both blocks, and cluster.sync() where a barrier belongs
            [ "$(basename "$file")" = cluster_sync_once.cu ] && needle="race across the cluster on shared s\[0\] of block 1 \(rank 1 in its cluster\): thread 0 \(warp 0, lane 0\) of block 1 \(rank 1 in its cluster\) wrote it at kernel line [0-9]+ of [a-z_]+\.cu in step 'rank stride 2' and thread 0 \(warp 0, lane 0\) of block 0 \(rank 0 in its cluster\) read it through distributed shared memory at kernel line [0-9]+ of [a-z_]+\.cu in step 'rank stride 1', with no cluster.sync\(\) between them: ";;
      out_of_bounds) needle="out-of-bounds shared index in block 0: thread 255 \(warp 7, lane 31\) used s\[255\] at kernel line [0-9]+ of [a-z_]+\.cu in step 'load', but the array \(s_mem, .*\) has 255 elements";;
    esac
    grep -qE -- "$needle" "$label.msg" || { fail "$label: the message does not name its $expect: $(cat "$label.msg")"; return; }
  fi
  grep -qE "SIGSEGV|SIGBUS|SIGABRT|stopped on|did not finish" "$label.err" && { fail "$label: crashed: $(cat "$label.err")"; return; }
  echo "ok   $label ($expect, exit $rc): $(tr '\n' ' ' <"$label.doc")"
}

while read -r name path expect opts; do
  # shellcheck disable=SC2086
  check "$name" "$path" "$expect" $opts
  # A copy to start from: its own name, the same failure (the message names the copy).
  "$R" new-kernel "my_$name.cu" --from "gallery/$name" >new.out 2>new.err || { fail "new-kernel --from gallery/$name: $(cat new.err)"; continue; }
  grep -q "\.id = \"my_$name\"" "my_$name.cu" || fail "my_$name.cu: its record is not renamed"
  grep -qE "^(template|__global__|struct).*\b$name\b" "my_$name.cu" && fail "my_$name.cu: code still names $name"
  # shellcheck disable=SC2086
  "$R" stats --source "my_$name.cu" $opts >copy.out 2>copy.err
  rc=$?
  want=2; [ "$expect" = wrong_result ] && want=1
  [ $rc = $want ] || fail "my_$name.cu: exit $rc, expected $want: $(cat copy.err)"
done <entries.txt
[ "$(wc -l <entries.txt)" = 5 ] || fail "the index lists $(wc -l <entries.txt) entries"

# Refusals: a name the gallery does not have; a catalog kernel is still a catalog kernel.
"$R" new-kernel x.cu --from gallery/no_such_mistake >/dev/null 2>refuse.err && fail "gallery/no_such_mistake accepted"
grep -q "is not in the gallery of mistakes; it has full_mask_shuffle" refuse.err || fail "refusal: $(cat refuse.err)"

# A hostile index (REDLAB_DATA_DIR): a file outside the gallery's folder, a scenario value that is a shell command.
# The command line reads it as the window does: both entries are left out with their reason, nothing is copied,
# and what is listed is quoted for the shell.
mkdir -p data/assets/gallery
cp "$(dirname "$(realpath "$0")")/../assets/gallery/missing_sync.cu" "data/assets/gallery/with space.cu"
cat > data/assets/gallery/gallery.json <<'JSON'
{"entries": [
 {"file": "../../../../../../etc/passwd", "id": "passwd", "from": "interleaved", "expect": "race",
  "scenario": {"n": 4096}, "title": {"en": "t", "zh_CN": "t"}, "explanation": {"en": "e", "zh_CN": "e"}},
 {"file": "with space.cu", "id": "missing_sync", "from": "interleaved", "expect": "race",
  "scenario": {"n": "4096; touch pwned", "block": 256}, "title": {"en": "t", "zh_CN": "t"}, "explanation": {"en": "e", "zh_CN": "e"}},
 {"file": "with space.cu", "id": "missing_sync", "from": "interleaved", "expect": "race",
  "scenario": {"n": 4096, "block": 256}, "title": {"en": "listed", "zh_CN": "t"}, "explanation": {"en": "e", "zh_CN": "e"}}
]}
JSON
REDLAB_DATA_DIR=$PWD/data "$R" list --gallery >hostile.txt 2>hostile.err || fail "list --gallery (hostile index): exit $?"
grep -q "left out: .*entry 1 .*give the name of a file in the gallery's folder" hostile.err || fail "passwd entry: $(cat hostile.err)"
grep -q "left out: .*entry 2 .*scenario \"n\"" hostile.err || fail "shell command in n: $(cat hostile.err)"
grep -q "redlab stats --source '[^']*/with space.cu' --block 256 --n 4096" hostile.txt || fail "not quoted: $(cat hostile.txt)"
grep -q "passwd\|pwned" hostile.txt && fail "a hostile entry is listed: $(cat hostile.txt)"
REDLAB_DATA_DIR=$PWD/data "$R" new-kernel stolen.cu --from gallery/passwd >/dev/null 2>stolen.err \
  && fail "new-kernel --from gallery/passwd copied $(head -c 80 stolen.cu)"
[ -e stolen.cu ] && fail "stolen.cu was written"

finish gallery
