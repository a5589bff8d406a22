#!/usr/bin/env python3
"""A GUI monkey test: random clicks, drags, wheel turns, keys, typed values and window resizes, driven
through xdotool into a real redlab window under Xvfb, for a fixed time, on the sanitizer build (scripts/dev test
builds it with ASan and UBSan).

The scenario changes under it: the monkey's clicks land on the kernel, type and layout menus and on Run, its typed
values ("2^10", "abc", "-1", "2^40", ...) land in the n, block and focus fields, and the window is started again
every so often with another launch: another kernel, layout, language and scale, a compare, a transpose, a trace
file (good or hostile) to open.

Fails on: a sanitizer report (ASan, UBSan; leaks are checked without the window, see below), a crash or any exit other than 0 (a Quit the monkey
clicked ends a launch with 0, and the next launch starts), or a window that stops answering (its process stays
but no window is found). Repeatable: the actions follow --seed.

usage: monkey.py REDLAB WORKDIR [--seconds S] [--seed K] [--seeds-tool T]
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import time

SCREEN = (1920, 1080)


def xdo(*args, check=False):
    return subprocess.run(["xdotool", *map(str, args)], capture_output=True, text=True, timeout=10, check=check)


def find_window(pid, timeout):
    """The window of process `pid`, or None."""
    end = time.time() + timeout
    while time.time() < end:
        r = xdo("search", "--onlyvisible", "--pid", pid)
        ids = r.stdout.split()
        if ids:
            return ids[0]
        time.sleep(0.2)
    return None


SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer")


def sanitizer_report(log_path):
    """The sanitizer report in a launch's log (its stderr), or None. Warnings do not count."""
    with open(log_path, errors="replace") as f:
        text = f.read()
    at = min((text.find(m) for m in SANITIZER_MARKS if m in text), default=-1)
    return None if at < 0 else text[max(0, at - 200):at + 6000]


class Monkey:
    KEYS = ["Left", "Right", "Up", "Down", "space", "Return", "Escape", "Home", "End", "Tab", "shift+Tab", "F1",
            "F11", "Prior", "Next", "plus", "minus", "BackSpace", "Delete", "ctrl+a", "1", "2", "0", "a", "z"]
    TYPED = ["2^10", "4096", "-1", "abc", "", "2^40", "1e9", "0", "2^16", "2^20", "0,", "0,1,3", "64", "1025",
             "   7", "2^3+-1", "\u6d4b\u8bd5", "999999999999999999999"]

    def __init__(self, rng, wid):
        self.rng, self.wid = rng, wid
        self.size = (1280, 720)
        self.counts = {}

    def point(self):
        w, h = self.size
        # Bias towards the menu bar and the top rows of the panels (menus, combos, the Run button), where the
        # scenario changes, and cover the rest too.
        y = self.rng.randrange(0, 60) if self.rng.random() < 0.25 else self.rng.randrange(0, h)
        return self.rng.randrange(0, w), y

    def act(self):
        r = self.rng.random()
        if r < 0.40:
            kind = "click"
            x, y = self.point()
            xdo("mousemove", "--window", self.wid, x, y)
            button = self.rng.choice([1, 1, 1, 1, 3])
            xdo("click", "--repeat", self.rng.choice([1, 1, 1, 2]), button)
        elif r < 0.52:
            kind = "drag"
            x, y = self.point()
            x2, y2 = self.point()
            xdo("mousemove", "--window", self.wid, x, y)
            xdo("mousedown", 1)
            for i in range(1, 5):
                xdo("mousemove", "--window", self.wid, x + (x2 - x) * i // 4, y + (y2 - y) * i // 4)
                time.sleep(0.01)
            xdo("mouseup", 1)
        elif r < 0.60:
            kind = "wheel"
            x, y = self.point()
            xdo("mousemove", "--window", self.wid, x, y)
            xdo("click", "--repeat", self.rng.randrange(1, 6), self.rng.choice([4, 5]))
        elif r < 0.82:
            kind = "key"
            xdo("key", "--window", self.wid, self.rng.choice(self.KEYS))
        elif r < 0.95:
            kind = "type"
            xdo("key", "--window", self.wid, "ctrl+a")
            text = self.rng.choice(self.TYPED)
            if text:
                xdo("type", "--window", self.wid, "--delay", 2, text)
            xdo("key", "--window", self.wid, "Return")
        else:
            kind = "resize"
            self.size = (self.rng.randrange(640, SCREEN[0] + 1), self.rng.randrange(480, SCREEN[1] + 1))
            xdo("windowsize", self.wid, *self.size)
        self.counts[kind] = self.counts.get(kind, 0) + 1


def launches(seeds_dir):
    """The launches the window is started with in turn."""
    out = [
        ["--kernel", "interleaved", "--n", "4096", "--block", "256", "--layout", "study"],
        ["--kernel", "warp_shuffle", "--n", "256", "--block", "128", "--layout", "present", "--scale", "2",
         "--lang", "zh_CN"],
        ["--kernel", "neighbored_strided", "--compare", "--layout", "compare", "--scale", "1.5"],
        ["--kernel", "transpose_padded", "--rows", "64", "--cols", "64"],
        ["--kernel", "vectorized", "--n", "2^16", "--type", "float64", "--focus", "0,3"],
    ]
    if seeds_dir:   # recorded traces and hostile files, between the scenarios
        files = ["interleaved.rltrace", "hostile-shared-address-4e9.rltrace", "transpose_padded.rltrace",
                 "hostile-warps-2e31.rltrace", "hostile-nested-200000.rltrace"]
        for i, f in enumerate(files):
            out.insert(2 * i + 1, ["--open", os.path.join(seeds_dir, f)])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("redlab")
    ap.add_argument("work")
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--seeds-tool", help="redlab_fuzz_seeds: good and hostile trace files to open")
    ap.add_argument("--inner", action="store_true")
    a = ap.parse_args()
    a.redlab = os.path.abspath(a.redlab)
    a.work = os.path.abspath(a.work)
    if a.seeds_tool:
        a.seeds_tool = os.path.abspath(a.seeds_tool)
    if not a.inner:  # a display of our own
        shutil.rmtree(a.work, ignore_errors=True)
        os.makedirs(a.work)
        cmd = ["xvfb-run", "-a", "-s", f"-noreset -screen 0 {SCREEN[0]}x{SCREEN[1]}x24", sys.executable, *sys.argv, "--inner"]
        return subprocess.call(cmd)

    seeds_dir = None
    if a.seeds_tool:
        seeds_dir = os.path.join(a.work, "seeds")
        subprocess.run([a.seeds_tool, seeds_dir], check=True, capture_output=True)
    files = os.path.join(a.work, "cwd")   # exports and saved traces the monkey makes land here
    os.makedirs(files, exist_ok=True)
    rng = random.Random(a.seed)
    runs = launches(seeds_dir)
    env = dict(os.environ)
    # Leak checking is off in the window's process: at exit the GL driver (Mesa, loaded and unloaded by GLFW)
    # leaves two 56-byte blocks whose stacks point into the unloaded library, so LeakSanitizer names whichever
    # library took its place and no suppression can match them. The window's model is leak-checked in the
    # session tests (test_gui_session), which run without GL.
    env.update(XDG_CONFIG_HOME=os.path.join(a.work, "config"), REDLAB_LANG="en", ASAN_OPTIONS="detect_leaks=0")
    end = time.time() + a.seconds
    actions, launched, quits, failures, reports = 0, 0, 0, [], []
    totals = {}
    while time.time() < end and not failures:
        args = runs[launched % len(runs)]
        launched += 1
        log = open(os.path.join(a.work, f"launch{launched}.log"), "w")
        p = subprocess.Popen([a.redlab, "gui", "--size", "1280x720", *args], cwd=files, env=env, stdout=log,
                             stderr=subprocess.STDOUT)
        wid = find_window(p.pid, 90)
        if wid is None:
            log.close()
            if p.poll() is None:
                failures.append(f"launch {launched} ({' '.join(args)}): no window after 90 s")
                p.kill()
            elif p.returncode != 0:
                failures.append(f"launch {launched} ({' '.join(args)}): exit {p.returncode} before its window")
            continue
        xdo("windowfocus", wid)
        m = Monkey(rng, wid)
        # Each launch gets its share of the time (at least 10 s), then the next one starts.
        launch_end = min(end, time.time() + max(10.0, a.seconds / len(runs)))
        while time.time() < launch_end and p.poll() is None:
            m.act()
            actions += 1
            time.sleep(rng.choice([0.02, 0.05, 0.1]))
        for k, v in m.counts.items():
            totals[k] = totals.get(k, 0) + v
        if p.poll() is None:
            # Still up: it must still answer (a window), then end cleanly on SIGTERM.
            if find_window(p.pid, 5) is None:
                failures.append(f"launch {launched}: the process runs but has no window")
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                failures.append(f"launch {launched}: still running 30 s after SIGTERM")
                p.kill()
                p.wait()
        else:
            quits += 1   # the monkey clicked Quit (or pressed its key)
        if p.returncode not in (0, 128 + signal.SIGTERM, -signal.SIGTERM):   # SIGTERM ends it with 143
            failures.append(f"launch {launched} ({' '.join(args)}): exit {p.returncode}"
                            f" (log: {log.name})")
        log.close()
        report = sanitizer_report(log.name)
        if report:
            reports.append(report)
            failures.append(f"launch {launched} ({' '.join(args)}): a sanitizer report (log: {log.name})")
    for r in reports:
        print("== sanitizer report\n" + r)
    print(f"{actions} actions ({', '.join(f'{k} {v}' for k, v in sorted(totals.items()))}) in {launched} launches"
          f" ({quits} ended by the monkey's own Quit), {a.seconds:.0f} s")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
