#!/usr/bin/env python3
"""Every C++ file of app/ and tests/ is laid out as .clang-format says (clang-format --dry-run finds nothing to change).

Folders whose .clang-format disables formatting (kernels/, the tests' kernels and data) are left out, as clang-format
leaves them. The layout was made with clang-format 14 (Debian 12's): another major version lays some constructs out
otherwise, so the check skips there (exit 77) rather than fail on the tool.

usage: format.py SOURCE_DIR [FILE...]   (the files: all of app/ and tests/ when none is given; exit 1 naming each file
                                         that is not laid out, 2 without clang-format, 77 with another version)
"""
import os
import re
import shutil
import subprocess
import sys

MAJOR = 14
SUFFIXES = (".cpp", ".h", ".cu", ".cuh")


def disabled(path, src):
    """Whether the nearest .clang-format above `path` (within src) disables formatting."""
    d = os.path.dirname(os.path.abspath(path))
    while True:
        cfg = os.path.join(d, ".clang-format")
        if os.path.exists(cfg):
            return "DisableFormat: true" in open(cfg).read()
        if os.path.samefile(d, src) or d == os.path.dirname(d):
            return False
        d = os.path.dirname(d)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    src = os.path.abspath(sys.argv[1])
    tool = shutil.which("clang-format")
    if not tool:
        print("format: no clang-format (scripts/dev installs it)", file=sys.stderr)
        return 2
    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"version (\d+)\.", version)
    if not m or int(m.group(1)) != MAJOR:
        print("format: %s: the layout is clang-format %d's; skipped" % (version.strip(), MAJOR))
        return 77
    files = sys.argv[2:]
    if not files:
        for top in ("app", "tests"):
            for dp, _, names in os.walk(os.path.join(src, top)):
                files += [os.path.join(dp, n) for n in names if n.endswith(SUFFIXES)]
    files = sorted(f for f in files if not disabled(f, src))
    bad = []
    for f in files:
        r = subprocess.run([tool, "--dry-run", "-Werror", "--style=file", f], capture_output=True, text=True, cwd=src)
        if r.returncode != 0:
            bad.append((f, len(re.findall(r"clang-format-violations", r.stderr))))
    for f, n in bad:
        print("not laid out: %s (%d places; clang-format -i %s)" % (os.path.relpath(f, src), n, os.path.relpath(f, src)))
    print("format: %d of %d files laid out as .clang-format says" % (len(files) - len(bad), len(files)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
