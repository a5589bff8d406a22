#!/usr/bin/env python3
"""Every shared and global access of a traced kernel goes through the probe.

A kernel that reads a __shared__ flag directly, or takes a ticket with a bare atomicAdd, makes accesses the trace
never sees: the student is shown fewer accesses than the hardware makes. This reads the kernels' sources (comments
removed) and reports every such use:

  - a __shared__ variable's name anywhere but its declaration, `sizeof(...)` and the argument of `probe.shared(...)`,
    `probe.shared_flag(...)` or `probe.remote_shared(...)` (another block's copy of it: distributed shared memory);
  - a pointer parameter of a kernel, or of a device function that takes the probe, anywhere but the argument of
    `probe.global`, `probe.load_cg`, `probe.atomic`, `probe.ticket`, or of a call that passes the probe along
    (a helper, itself checked by the same rules);
  - an atomic (atomicAdd, atomicCAS, ..., atomic_combine) called outside the probe.

usage: probe_audit.py KERNELS_DIR                    check kernels/{reduce,warp,block,transpose}/*.cuh
       probe_audit.py --expect-unprobed N FILE...    the files must show at least N unprobed accesses (the test
                                                     of the test: a kernel as it was before its flag and ticket
                                                     went through the probe)
"""
import os
import re
import sys

ALLOWED_CALLS = {"probe.shared", "probe.shared_flag", "probe.remote_shared", "probe.global", "probe.load_cg", "probe.atomic",
                 "probe.ticket", "sizeof"}
ATOMICS = re.compile(r"\b(atomic(Add|Sub|Min|Max|Inc|Dec|And|Or|Xor|Exch|CAS)(_block|_system)?|atomic_combine)\s*\(")


def strip_comments(text):
    # Keep line numbers: comments become spaces, newlines stay.
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r"/\*.*?\*/", blank, text, flags=re.S)
    return re.sub(r"//[^\n]*", blank, text)


def enclosing_call(text, pos):
    """The call whose argument list holds `pos`: (name, start of its arguments, end), or None at top level."""
    depth = 0
    i = pos - 1
    while i >= 0:
        c = text[i]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                if c != "(":
                    return None
                m = re.search(r"([A-Za-z_][A-Za-z0-9_.]*(<[^()]*>)?)\s*$", text[:i])
                name = m.group(1) if m else ""
                name = re.sub(r"<.*>$", "", name)
                # the end of the argument list
                d, j = 0, i
                while j < len(text):
                    if text[j] == "(":
                        d += 1
                    elif text[j] == ")":
                        d -= 1
                        if d == 0:
                            break
                    j += 1
                return name, i + 1, j
            depth -= 1
        elif c == ";" and depth == 0:
            return None
        i -= 1
    return None


def passes_probe(text, call):
    _, start, end = call
    return re.search(r"(^|[^A-Za-z0-9_.])probe\s*($|[,)])", text[start:end] + ")") is not None


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def uses_outside_probe(text, name, decl_spans):
    bad = []
    for m in re.finditer(r"(?<![A-Za-z0-9_.>])" + re.escape(name) + r"(?![A-Za-z0-9_])", text):
        if any(a <= m.start() < b for a, b in decl_spans):
            continue
        call = enclosing_call(text, m.start())
        ok = False
        while call:
            cname = call[0]
            if cname in ALLOWED_CALLS:
                ok = True
                break
            if cname == "reinterpret_cast" or cname == "static_cast":
                call = enclosing_call(text, call[1] - 1)   # the cast's own argument: look at what takes it
                continue
            ok = passes_probe(text, call) and not cname.startswith("probe.")
            break
        if not ok:
            bad.append(m.start())
    return bad


CHECKED = {"shared": 0, "pointers": 0}


def audit(path):
    text = strip_comments(open(path, encoding="utf-8").read())
    found = []
    # __shared__ variables (static and extern)
    for m in re.finditer(r"(extern\s+)?__shared__\s+[^;]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*(\[[^;]*\])?\s*;", text):
        name = m.group(2)
        CHECKED["shared"] += 1
        for pos in uses_outside_probe(text, name, [(m.start(), m.end())]):
            found.append((line_of(text, pos), f"__shared__ {name} is used outside probe.shared()"))
    # pointer parameters of kernels and of device functions that take the probe
    for m in re.finditer(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]*\bProbe\b[^()]*)\)\s*\{", text):
        params = m.group(2)
        body_start = m.end()
        depth, j = 1, body_start
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        body = text[:j]   # positions stay the file's
        for p in params.split(","):
            pm = re.search(r"\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*$", p.strip())
            if not pm:
                continue
            name = pm.group(1)
            CHECKED["pointers"] += 1
            for pos in uses_outside_probe(body, name, [(0, body_start)]):
                found.append((line_of(text, pos), f"pointer {name} (a parameter of {m.group(1)}) is used outside the probe"))
    for m in ATOMICS.finditer(text):
        call = enclosing_call(text, m.start())
        found.append((line_of(text, m.start()), f"{m.group(1)}() is called outside the probe"))
    return sorted(set(found))


def main(argv):
    if len(argv) >= 3 and argv[1] == "--expect-unprobed":
        want = int(argv[2])
        total = 0
        for path in argv[3:]:
            found = audit(path)
            for line, what in found:
                print(f"{path}:{line}: {what}")
            total += len(found)
        if total < want:
            print(f"FAIL: the audit found {total} unprobed accesses, want at least {want}")
            return 1
        print(f"the audit finds the {total} unprobed accesses it should")
        return 0
    root = argv[1]
    files = []
    for sub in ("reduce", "warp", "block", "transpose"):
        d = os.path.join(root, sub)
        files += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".cuh") and ".record." not in f)
    bad = 0
    for path in files:
        for line, what in audit(path):
            print(f"{path}:{line}: {what}")
            bad += 1
    if bad:
        print(f"FAIL: {bad} accesses outside the probe: the trace would not see them (kernels/probe.cuh)")
        return 1
    print(f"{len(files)} kernel sources, {CHECKED['shared']} __shared__ variables, {CHECKED['pointers']} pointer "
          "parameters: every shared and global access goes through the probe")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
