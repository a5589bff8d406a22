#!/usr/bin/env bash
# What `redlab new-kernel F.cu --from X` writes reads as the course notes do: a few lines on where it comes from, then
# the kernel, each probe call explained once (before its first use, in the file's language), and the record last and
# short. The variant sized at launch (interleaved's `extern __shared__` twin) is there only with --dynamic-smem, and
# then runs as the catalog's does. (That every file gives its kernel's figures: test_source_every_kernel.sh.)
#   test_new_kernel.sh REDLAB
set -u
R=$(realpath "$1")
. "$(dirname "$0")/lib.sh"   # tmp, fail, ok, finish
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp"

# The layout, for every traced catalog kernel, in English and in Chinese.
kernels=$("$R" list --json | python3 -c '
import json, sys
print(" ".join(k["id"] for k in json.load(sys.stdin) if k["traced"] and not k["host_only"] and not k["gpu_only"]
               and k["family"] != "allreduce"))')
[ -n "$kernels" ] || { echo "FAIL: redlab list names no traced kernel"; exit 1; }
# An all-reduce is a schedule over GPUs, not one kernel: new-kernel refuses it with a sentence.
"$R" new-kernel my_ring.cu --from allreduce_ring > ring.out 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "allreduce_ring is a schedule of transfers between GPUs" ring.out && [ ! -e my_ring.cu ] ||
  { echo "FAIL allreduce_ring: new-kernel exit $rc: $(cat ring.out)"; fails=$((fails + 1)); }
for k in $kernels; do
  "$R" new-kernel "my_$k.cu" --from "$k" >/dev/null 2>"$k.err" || { fail "$k: new-kernel: $(cat "$k.err")"; continue; }
  "$R" new-kernel "zh_$k.cu" --from "$k" --lang zh_CN >/dev/null 2>"$k.err" || { fail "$k: new-kernel --lang zh_CN"; continue; }
  python3 - "my_$k.cu" "zh_$k.cu" "$k" <<'PY' || fails=$((fails + 1))
import re, sys
en_file, zh_file, k = sys.argv[1:]
problems = []
def layout(path):
    lines = open(path).read().splitlines()
    comment = lambda l: l.lstrip().startswith("//")
    first_kernel = next(i for i, l in enumerate(lines) if re.search(r"__global__\s+void\s", l))
    start = first_kernel - 1 if lines[first_kernel - 1].startswith("template") else first_kernel
    record = next((i for i, l in enumerate(lines) if re.search(r"\bKernelRecord\b|struct \w+_record\b", l)), None)
    # probe.X: its first call's line, and the comment lines that explain it ("// probe.X: ..." / "// probe.X：...")
    calls, notes = {}, {}
    for i, l in enumerate(lines):
        if comment(l):
            m = re.match(r"\s*// probe\.([a-z_]+)\s*[:：]", l)
            if m: notes.setdefault(m[1], []).append(i)
        else:
            for c in re.findall(r"\bprobe\.([a-z_]+)\s*\(", l.split("//")[0]): calls.setdefault(c, i)
    return lines, start, record, calls, notes, [l for l in lines if not comment(l)]
lines, start, record, calls, notes, code = layout(en_file)
comments_before = sum(1 for l in lines[:start] if l.lstrip().startswith("//"))
if record is None or record < start: problems.append(f"the record (line {record}) before the kernel (line {start + 1})")
if comments_before > 6: problems.append(f"{comments_before} comment lines before the kernel (at most 6)")
for c, at in calls.items():
    if len(notes.get(c, [])) != 1: problems.append(f"probe.{c} explained {len(notes.get(c, []))} times")
    elif notes[c][0] > at: problems.append(f"probe.{c} explained at line {notes[c][0] + 1}, after its use at line {at + 1}")
text = "\n".join(lines)
if "_dynamic" in text or "has_dynamic_smem" in text: problems.append("the variant sized at launch without --dynamic-smem")
# The record: what differs from the defaults, without the catalog's long texts; its source reference: the kernel.
if ".teaches" in text or "r.remark" in text: problems.append("the catalog's teaches or remark copied into the record")
if f'.sources = "{k}"' not in text: problems.append(f"the record's sources are not {k}")
# Chinese: the same code, the same notes at the same places, in Chinese.
zlines, zstart, zrecord, zcalls, znotes, zcode = layout(zh_file)
rename = lambda ls: [re.sub(r"\bmy_" + k, "NAME", l) for l in ls]
zh_rename = lambda ls: [re.sub(r"\bzh_" + k, "NAME", l) for l in ls]
if rename(code) != zh_rename(zcode): problems.append("the Chinese file's code differs from the English file's")
if {c: len(v) for c, v in notes.items()} != {c: len(v) for c, v in znotes.items()}:
    problems.append(f"the Chinese notes {sorted(znotes)} are not the English {sorted(notes)}")
zh_comments = [l for l in zlines[:zstart] if l.startswith("//")] + [zlines[i] for v in znotes.values() for i in v]
if not zh_comments or any(not re.search(r"[\u4e00-\u9fff]", l) for l in zh_comments):
    problems.append("a comment of the Chinese file's header or notes is not in Chinese")
print(("FAIL" if problems else "ok  ") + f" {k}: {len(lines)} lines, kernel at line {start + 1}, record at line "
      f"{(record or 0) + 1}, {comments_before} comment lines before the kernel, notes for {sorted(notes)}"
      + ("" if not problems else ": " + "; ".join(problems)))
sys.exit(1 if problems else 0)
PY
done
# The file a student starts from most: short.
lines=$(wc -l <my_interleaved.cu)
[ "$lines" -le 80 ] && echo "ok   my_interleaved.cu: $lines lines" || fail "my_interleaved.cu: $lines lines (at most 80)"

# Without --dynamic-smem the file has no variant sized at launch: a run that asks for it is refused.
"$R" stats --source my_interleaved.cu --n 4096 --dynamic-smem --backend cpu >/dev/null 2>nodyn.err
rc=$?
[ $rc = 2 ] && grep -q "has no dynamic shared-memory variant" nodyn.err && echo "ok   --dynamic-smem on a file without it: $(tail -1 nodyn.err)" \
  || fail "--dynamic-smem on a file without the variant: exit $rc: $(cat nodyn.err)"
# With it: the twin, the record's claim and the launch's branch, and the catalog's figures on both branches.
"$R" new-kernel dyn.cu --from interleaved --dynamic-smem >/dev/null || fail "new-kernel --dynamic-smem"
grep -q "__global__ void dyn_dynamic(" dyn.cu && grep -q "r.has_dynamic_smem = true;" dyn.cu && grep -q "if (a.dynamic_smem)" dyn.cu \
  || fail "dyn.cu: the variant sized at launch, its record's claim or its launch is missing"
for dynamic in --dynamic-smem ""; do
  # shellcheck disable=SC2086
  "$R" stats --source dyn.cu --n 4096 $dynamic --backend cpu --json >a.json 2>a.err || { fail "dyn.cu $dynamic: $(cat a.err)"; continue; }
  # shellcheck disable=SC2086
  "$R" stats --kernel interleaved --n 4096 $dynamic --backend cpu --json >b.json 2>/dev/null
  python3 - a.json b.json "$dynamic" <<'PY' || fails=$((fails + 1))
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ok = a["correct"] and a["steps"] == b["steps"] and a["summary"]["trace_digest"] == b["summary"]["trace_digest"]
print(("ok  " if ok else "FAIL") + f" dyn.cu {sys.argv[3] or '(static)'}: {len(a['steps'])} steps, digest "
      f"{a['summary']['trace_digest']} (interleaved's {b['summary']['trace_digest']})")
sys.exit(0 if ok else 1)
PY
done
# The launch's branch runs the variant: the variant's tree one level short gives a wrong result with --dynamic-smem
# only (the catalog's figures above could come from the static kernel alone).
sed 's/blockDim.x \/ 2; offset > 0;/blockDim.x \/ 2; offset > 1;/' dyn.cu >dyn_short.cu
sed -i 's/\bdyn\(_\w*\)\?\b/dyn_short\1/g' dyn_short.cu
grep -q "blockDim.x / 2; offset > 1;" dyn_short.cu || fail "dyn_short.cu: the variant's loop was not changed"
"$R" stats --source dyn_short.cu --n 4096 --backend cpu >/dev/null 2>&1 || fail "dyn_short.cu without --dynamic-smem: exit $?"
"$R" stats --source dyn_short.cu --n 4096 --dynamic-smem --backend cpu >short.out 2>&1
rc=$?
[ $rc = 1 ] && grep -q WRONG short.out && echo "ok   the variant's branch runs the variant: $(grep WRONG short.out)" \
  || fail "dyn_short.cu --dynamic-smem: exit $rc (a wrong result expected): $(tail -2 short.out)"
# Only a kernel that has the variant takes the option; a gallery file is copied as it is.
"$R" new-kernel x.cu --from warp_shuffle --dynamic-smem >/dev/null 2>x.err && fail "--dynamic-smem from warp_shuffle: accepted"
grep -q "warp_shuffle has no variant sized at launch; kernels that have one: interleaved" x.err || fail "warp_shuffle --dynamic-smem: $(cat x.err)"
"$R" new-kernel y.cu --from gallery/missing_sync --dynamic-smem >/dev/null 2>y.err && fail "--dynamic-smem from the gallery: accepted"
grep -q "copied as it is" y.err || fail "gallery --dynamic-smem: $(cat y.err)"
[ -e x.cu ] || [ -e y.cu ] && fail "a refused new-kernel wrote a file"

finish new-kernel
