#!/usr/bin/env python3
"""The README as a newcomer follows it: every command in its code blocks runs, in order, in a fresh folder.

    python3 tests/readme_commands.py REDLAB [README]

- `redlab ...` lines run with the build's binary from an empty folder with an empty HOME (so `new-kernel mine.cu`
  comes before `stats --source mine.cu`, as a reader types them). `redlab gui ...` gets `--screenshot` and runs
  under xvfb-run; the PNG must be there. A line whose comment says "GPU only" passes on a machine without a CUDA GPU
  when redlab refuses it with exit 2 and says there is no CUDA device; elsewhere it must exit 0.
- `scripts/dev X` names a command scripts/dev has (`packages`, quick and side-effect free, is run); the others
  install, build and test, which .ci/run and scripts/check-platform run whole.
- Any other line must be one of OTHER below, with the check that runs it.
Beside the commands: the README is under 200 lines, every `docs/...` or `third_party/...` path and image it names
exists, and its keys table says what the window's help (F1) says, key for key (assets/i18n/en.json).
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

OTHER = {
    "sudo apt install ./build-package/redlab_*.deb":
        "scripts/check-package installs the package with apt alone into a fresh chroot of its release",
}

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def code_lines(text):
    """(line number, command) for each line of the README's code blocks (indented by 4, or fenced)."""
    out, fenced, prev_blank = [], False, True
    in_indented = False
    for no, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            body = line
        elif line.startswith("    ") and (prev_blank or in_indented):
            body, in_indented = line[4:], True
        else:
            in_indented = in_indented and line.strip() == ""
            prev_blank = line.strip() == ""
            continue
        prev_blank = False
        cmd = re.split(r"\s+#\s", body, maxsplit=1)
        comment = cmd[1] if len(cmd) > 1 else ""
        cmd = cmd[0].strip()
        if cmd:
            out.append((no, cmd, comment))
    return out


def has_cuda_gpu(redlab):
    r = subprocess.run([redlab, "--version", "-v"], capture_output=True, text=True, timeout=60)
    m = re.search(r"^GPU:\s+(.*)$", r.stdout, re.M)
    return bool(m) and not m.group(1).startswith(("none", "no "))


def main():
    redlab = os.path.abspath(sys.argv[1])
    readme = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "README.md")
    src = os.path.dirname(os.path.abspath(readme))
    text = open(readme, encoding="utf-8").read()

    lines = text.count("\n")
    print(f"README: {lines} lines")
    if lines >= 200:
        fail(f"README.md has {lines} lines: a newcomer reads it in five minutes at under 200")
    for path in sorted(set(re.findall(r"(?:`|\()((?:docs|third_party|scripts|assets)/[\w./-]+)", text))):
        if not os.path.exists(os.path.join(src, path.rstrip("."))):
            fail(f"README.md names {path}, which does not exist")

    # The keys table against the window's own help: every key the help lists, and no other.
    en = json.load(open(os.path.join(src, "assets/i18n/en.json"), encoding="utf-8"))
    help_keys = {v for k, v in en.items() if k.startswith("help.key.")}
    section = text.split("## The window's keys", 1)
    if len(section) < 2:
        fail("README.md has no section \"The window's keys\"")
    else:
        rows = re.findall(r"^\| ([^|]+?) \| [^|]+ \|$", section[1].split("\n## ", 1)[0], re.M)
        table = {r for r in rows if r not in ("key", "---")}
        for k in sorted(help_keys - table):
            fail(f"the window's help lists {k!r}, the README's keys table does not")
        for k in sorted(table - help_keys):
            fail(f"the README's keys table lists {k!r}, the window's help (help.key.* in en.json) does not")

    gui = subprocess.run([redlab, "gui", "--help"], capture_output=True).returncode == 0
    gpu = has_cuda_gpu(redlab)
    dev = open(os.path.join(src, "scripts/dev"), encoding="utf-8").read()
    dev_commands = set(re.findall(r"^  ([a-z]+)\)", dev, re.M))
    work = tempfile.mkdtemp(prefix="redlab-readme-")
    env = dict(os.environ, HOME=os.path.join(work, "home"), XDG_CACHE_HOME=os.path.join(work, "cache"),
               XDG_DATA_HOME=os.path.join(work, "data"), XDG_CONFIG_HOME=os.path.join(work, "config"))
    os.makedirs(env["HOME"])
    ran = 0
    for no, cmd, comment in code_lines(text):
        where = f"README.md:{no}: {cmd}"
        argv = shlex.split(cmd)
        if argv[0] == "redlab":
            argv[0] = redlab
            shot = None
            if len(argv) == 1 or argv[1] == "gui":
                if not gui:
                    print(f"skip (no window in this build): {where}")
                    continue
                shot = os.path.join(work, f"readme-{no}.png")
                if len(argv) == 1:
                    argv.append("gui")
                argv = ["xvfb-run", "-a", "-s", "-noreset -screen 0 1600x900x24"] + argv + [
                    "--screenshot", shot, "--frames", "4"]
            try:
                r = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=900)
            except subprocess.TimeoutExpired:
                fail(f"{where}: did not finish in 900 s")
                continue
            ran += 1
            said = (r.stdout + r.stderr).strip().split("\n")
            if "GPU only" in comment and not gpu:
                if r.returncode == 2 and "no CUDA device" in r.stderr:
                    print(f"ok (exit 2 without a GPU, as it says: {r.stderr.strip()[:90]}): {where}")
                else:
                    fail(f"{where}: without a GPU, exit {r.returncode} (2 and 'no CUDA device' expected): {said[-1]}")
                continue
            if r.returncode != 0:
                fail(f"{where}: exit {r.returncode}: {' | '.join(said[-3:])}")
                continue
            if shot and (not os.path.exists(shot) or open(shot, "rb").read(8) != b"\x89PNG\r\n\x1a\n"
                         or os.path.getsize(shot) < 20000):
                fail(f"{where}: no screenshot of the window ({shot})")
                continue
            print(f"ok: {where}")
        elif argv[0] == "scripts/dev":
            sub = argv[1] if len(argv) > 1 else "run"
            if sub not in dev_commands:
                fail(f"{where}: scripts/dev has no command {sub!r} (it has {', '.join(sorted(dev_commands))})")
            elif sub == "packages":
                r = subprocess.run([os.path.join(src, "scripts/dev"), "packages"], capture_output=True, text=True)
                if r.returncode != 0 or "cmake" not in r.stdout.split():
                    fail(f"{where}: exit {r.returncode}")
                else:
                    ran += 1
                    print(f"ok: {where}")
            else:
                print(f"ok (a command of scripts/dev; .ci/run and scripts/check-platform run it): {where}")
        elif cmd in OTHER:
            print(f"ok ({OTHER[cmd]}): {where}")
        else:
            fail(f"{where}: a command this test does not know how to run (add it, or say in OTHER what runs it)")
    print(f"{ran} commands run, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
