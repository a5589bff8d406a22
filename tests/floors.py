#!/usr/bin/env python3
"""The floors as docs/architecture.md draws them: no #include climbs to a floor above its own.

    python3 tests/floors.py [SOURCE_DIR]

From the bottom: app/emu (the CPU SIMT runtime); kernels/ (the base headers, then warp/, then block/, then the
families: reduce/, transpose/, allreduce/, library/); app/core; app/exec; app/model; app/cli and app/gui (neither
includes the other; cli/main.cpp, the executable, opens the window). An include may name its own floor or one below.
Exit 1 naming each include that climbs, with the floors it joins.
"""
import os
import re
import sys

FLOORS = [
    ("app/emu", 0),
    ("kernels/rtc", 1),
    ("kernels/warp", 2),
    ("kernels/block", 3),
    ("kernels/reduce", 4), ("kernels/transpose", 4), ("kernels/allreduce", 4), ("kernels/library", 4),
    ("kernels", 1),   # the base headers (probe, ops, records, analysis, step names)
    ("app/core", 5),
    ("app/exec", 6),
    ("app/model", 7),
    ("app/cli", 8),
    ("app/gui", 8),
]
# What may sit above its floor by design: the executable's entry opens the window.
ALLOWED = {("app/cli/main.cpp", "app/gui/gui.h")}
SIBLINGS = {"app/cli", "app/gui"}   # the two top floors never include each other


def floor_of(path):
    for prefix, level in FLOORS:
        if path == prefix or path.startswith(prefix + "/"):
            return prefix, level
    return None, None


def resolve(src, including, name):
    """The included file's path relative to SRC: next to the includer, then the include roots (app/, the tree,
    kernels/)."""
    here = os.path.dirname(including)
    for base in (here, "app", "", "kernels"):
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(src, candidate)):
            return candidate
    return None


def main():
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    climbs, checked = [], 0
    for root in ("app", "kernels"):
        for folder, _, files in os.walk(os.path.join(src, root)):
            for f in sorted(files):
                if not re.search(r"\.(h|hpp|cpp|cu|cuh)$", f):
                    continue
                path = os.path.relpath(os.path.join(folder, f), src)
                mine, level = floor_of(path)
                if mine is None:
                    continue
                for no, line in enumerate(open(os.path.join(src, path), encoding="utf-8", errors="replace"), 1):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m:
                        continue
                    target = resolve(src, path, m.group(1))
                    if target is None:
                        continue   # generated, or a system header given in quotes
                    checked += 1
                    theirs, their_level = floor_of(target)
                    if theirs is None or (path, target) in ALLOWED:
                        continue
                    if their_level > level or (mine != theirs and {mine, theirs} <= SIBLINGS):
                        climbs.append(f"{path}:{no}: includes {target} ({theirs} is above {mine})")
    for c in climbs:
        print("FAIL " + c)
    print(f"floors: {checked} includes checked, {len(climbs)} climb")
    return 1 if climbs else 0


if __name__ == "__main__":
    sys.exit(main())
