#!/usr/bin/env python3
"""Nothing a lesson asks is on screen before the student answers, and it is after.

Every beat of every shipped lesson is walked in a headless window (REDLAB_GUI_LESSON_WALK: the frame's text as drawn,
from its draw data), in English and in Chinese, at 1920x1080 and at 1280x720 x2. For each question, the figure it asks
(for "which has more", A's and B's) is taken from `redlab stats --json` of the beat's scenario, at its step, and looked
for among the numbers the frame draws:
  - before the answer: in no text but the lesson's panel (`lesson check` keeps figures out of its narration and
    question; the scenario's n, block, grid and the like are what the student computes from);
  - after Reveal: in the frame, outside the lesson's panel too where the beat names a view to look at.
Not figures, and left out of the search: the steps' labels ("stride 64"), the source's lines, the tree's cell values
(the data the student reads), the warp's 32 lanes. A figure that equals one of the scenario's own numbers (a sum of n
ones is n) or a number below 10 (a count of steps, which every step counter shows) is reported but not looked for.
And in every frame the view the beat names (`look:`) is one the window drew: the front tab of its pane (while it keeps
its figures back, the picture they are of: the tree, tile, ring or compare view); and a beat's
question, from its words to the answer field and buttons (or the verdict), lies wholly inside the lesson panel (never
scrolled out of sight); and the Chinese window's frames hold no English word of the window's own text (english_in: the
source's lines and the kernels' and lessons' ids aside). The lecture's case is walked too: Present at 1280x720 x2, which a lesson keeps (its beats'
layouts are a student's); the views that run past their panes there are listed (note:), not failed. While a question
asks a wavefront count, no request's count or conflict degree is written outside the lesson panel either. In Present
at 1280x720 x2 the tree, where it is in front, draws at least 16 values (of a row of 16 cells or more), and no tree
with Values on (alone or in the compare panes) draws a value smaller than 0.7 of the UI's type (the walk's
tree_value_size: the smallest glyph in its canvas). And no frame draws text over other text (the walk's overlaps: the
check REDLAB_GUI_TEXT_CHECK makes of a screenshot's last frame), in every configuration walked.

usage: lesson_hidden.py REDLAB OUTDIR [LESSON ...]     (exit 0 pass, 1 a figure shown or missing, 2 cannot run)
       lesson_hidden.py --after-as-before REDLAB OUTDIR   the check of the check: each frame after Reveal searched as
           if the question were still open must show harris's beat 5 figure (A's SIMD efficiency, in the compare
           panes' header, where the window drew it before it was kept back): exit 0 when found. (B's stays kept
           back there after beat 5: beat 7 asks for its active warps, which the header's ratio gives.)
"""
import json
import os
import re
import subprocess
import sys

# A number as the window writes one: not the digits inside a word ("int32", "sm_90", "s[4k]"); CJK text may touch it.
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d[\d,]*(?:\.\d+)?(?![A-Za-z_])")
# A request's wavefronts or its conflict's degree as the bank grid and the tile write them ("32 wavefronts", "a 32-way
# conflict", the "x32" under a column; "32 个波前", "32 路"): while a wavefront count is asked, they give the answer
# (the grid's rows are the student's to count).
REQUEST_WAVEFRONTS = re.compile(r"\d+ wavefront|\d+-way|(?<![A-Za-z0-9_])x\d+\b|\d+ 个波前|\d+ 路")
# Numbers every frame shows that are no figure of a run: the warp's 32 lanes, the 32 banks.
CONSTANTS = {"32"}


def numbers(text):
    """The numbers a text shows, as written without their thousands' commas."""
    return [m.group(0).replace(",", "") for m in NUMBER.finditer(text)]


def shown_forms(value):
    """The ways the window writes a figure: a count whole (with or without commas), a fraction as 0.66 or 66.4 %."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and value > 1):
        return {str(int(value))}
    return {f"{value:.2f}", f"{value:.3f}", f"{100 * value:.1f}"}


# Figures the window writes as a size ("12.3 KB", the rings' bytes_text): looked for in that form too.
BYTES = {"most_bytes_sent_per_gpu", "lower_bound_bytes_per_gpu"}


def bytes_forms(value):
    for unit, digits in ((1e9, 2), (1e6, 2), (1e3, 1)):
        if value >= unit:
            return {f"{value / unit:.{digits}f}"}
    return {f"{value:.0f}"}


LESSON = "###win.lesson"
TREES = ("###win.tree", "###win.compare")
SOURCE = "###win.code"


I18N = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "i18n")


def view_state_patterns():
    """What a view says of itself, not of a run: the tree's "12 of 256 cells (shared memory, 1 block(s))" (its zoom;
    cut with "..." in a narrow pane), in both languages, as regular expressions of its words before the parenthesis."""
    out = []
    for name in ("en.json", "zh_CN.json"):
        with open(os.path.join(I18N, name), encoding="utf-8") as f:
            template = re.split(r"[(（]", json.load(f)["tree.showing"])[0].strip()
        pattern = re.escape(template)
        for k in ("0", "1"):
            pattern = pattern.replace(re.escape("{" + k + "}"), r"[\d,]+")
        out.append(re.compile(pattern))
    return out


VIEW_STATE = view_state_patterns()

# A word standing alone (not inside an identifier, a path, a call or an index: code and names stay as written).
WORD = re.compile(r"(?<![\w./:\[`\\-])[A-Za-z]{3,}(?![\w./:(\[`-])")


def english_words():
    """The window's English vocabulary that its Chinese text never uses: the words of en.json's strings less those of
    zh_CN.json's and of the lessons' Chinese lines (the technical words the Chinese text keeps: GPU, SIMD, warp ids)."""
    def words(texts):
        return {w.lower() for t in texts if isinstance(t, str) for w in re.findall(r"[A-Za-z]{3,}", t)}
    with open(os.path.join(I18N, "en.json"), encoding="utf-8") as f:
        en = words(json.load(f).values())
    with open(os.path.join(I18N, "zh_CN.json"), encoding="utf-8") as f:
        zh = words(json.load(f).values())
    lessons = os.path.join(I18N, "..", "lessons")
    for name in os.listdir(lessons):
        with open(os.path.join(lessons, name), encoding="utf-8") as f:
            zh |= words(line for line in f if re.match(r"\s*[\w.]+\.zh:", line))
    return en - zh


def in_source_view(root, frame):
    """Whether a run of text is the source view's, in its own window or the front tab of a pane (a view is in one
    pane: drawn, it is that pane's front tab)."""
    return root.endswith(SOURCE) or (":code" in root and "code" in frame.get("drawn", []))


def english_in(frame, ids):
    """The English words of the window's own text in a frame of the Chinese window: not the source's lines, not kernel
    or lesson ids."""
    out = []
    for run in frame["text"]:
        root, _, text = run.partition(": ")
        # The source view's text: the file's code and comments, and the emulator's report it quotes as written.
        if in_source_view(root, frame):
            continue
        for w in WORD.findall(text):
            if w.lower() in ENGLISH and w not in ids:
                out.append(f"'{w}' in {root}: {text[:80]}")
    return out


ENGLISH = english_words()


# The tree's toolbar: "12 of 256 cells (...)", "显示 12 / 256 个单元格（...）".
TREE_SHOWING = re.compile(r"\d+ of (\d+) cells|显示 \d+ / (\d+) 个单元格")


def tree_values_drawn(frame):
    """(values, cells): the values the tree's canvas draws (its runs of nothing but numbers, in the pane whose front
    tab is the tree) and the cells of its row, 0 when the frame has no tree toolbar."""
    values, cells = 0, 0
    for run in frame["text"]:
        root, _, text = run.partition(": ")
        if ":tree" not in root:
            continue
        if m := TREE_SHOWING.search(text):
            cells = int(m.group(1) or m.group(2))
        elif re.fullmatch(r"[\d\s.,-]+", text):
            values += len(numbers(text))
    return values, cells


def figure_runs(frame):
    """The frame's runs of text that may state a figure, as (root, text): without the steps' labels, the source's
    lines (a line number, then code), the tree's cells (runs of nothing but numbers in a tree) and the views' words
    about themselves (VIEW_STATE)."""
    out = []
    for run in frame["text"]:
        root, _, text = run.partition(": ")
        for label in sorted(set(frame["labels"]), key=len, reverse=True):
            if any(c.isdigit() for c in label):
                text = text.replace(label, " ")
        for state in VIEW_STATE:
            text = state.sub(" ", text)
        if in_source_view(root, frame) and re.match(r"\s*\d+ ", text):
            continue
        if root.endswith(TREES) and re.fullmatch(r"[\d\s.,-]*", text):
            continue
        out.append((root, text))
    return out


def figure_of(stats, figure, step):
    if figure == "result":
        r = stats.get("result")
        try:
            return float(r) if "." in str(r) else int(r)
        except (TypeError, ValueError):
            return None
    if figure in ("blocks_per_sm", "clusters_at_most"):   # the first launch's occupancy
        return (stats.get("occupancy") or {}).get(figure)
    if figure in stats["steps"][step]:
        return stats["steps"][step][figure]
    return stats["summary"].get(figure)


def main():
    args = sys.argv[1:]
    after_as_before = bool(args) and args[0] == "--after-as-before"
    if after_as_before:
        args = args[1:3] + ["harris"]
    if len(args) < 2:
        print(__doc__)
        return 2
    redlab, out = args[0], args[1]
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, XDG_DATA_HOME=f"{out}/data", XDG_CONFIG_HOME=f"{out}/config", XDG_CACHE_HOME=f"{out}/cache")
    listed = json.loads(subprocess.run([redlab, "lesson", "list", "--json"], capture_output=True, text=True, env=env).stdout)
    lessons = args[2:] or [l["lesson"] for l in listed]
    stats_cache = {}

    def stats(words):
        if words not in stats_cache:
            r = subprocess.run([redlab, "stats", *words.split(), "--json"], capture_output=True, text=True, env=env)
            if r.returncode != 0:
                raise RuntimeError(f"redlab stats {words}: exit {r.returncode}: {r.stderr.strip()}")
            stats_cache[words] = json.loads(r.stdout)
        return stats_cache[words]

    failures, unavoidable, cut, checked = [], set(), set(), 0
    listed_kernels = json.loads(subprocess.run([redlab, "list", "--json"], capture_output=True, text=True, env=env).stdout)
    ids = {k["id"] for k in listed_kernels} | {l["lesson"] for l in listed}
    for lesson in lessons:
        shown = json.loads(subprocess.run([redlab, "lesson", "show", lesson, "--json"], capture_output=True, text=True,
                                          env=env).stdout)
        beats = {b["beat"]: b for b in shown["beats"]}
        for lang in ("en", "zh_CN"):
            for size, scale, layout in (("1920x1080", "1", ""), ("1280x720", "2", ""), ("1280x720", "2", "present")):
                name = f"{lesson}_{lang}_{size}" + (f"_{layout}" if layout else "")
                walk = f"{out}/{name}.jsonl"
                r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", redlab, "gui", "--lesson", lesson,
                                    "--fresh", "--lang", lang, "--size", size, "--screenshot", f"{out}/{name}.png",
                                    *(["--layout", layout] if layout else [])],
                                   capture_output=True, text=True, env=dict(env, REDLAB_GUI_LESSON_WALK=walk,
                                                                            REDLAB_GUI_SCALE=scale))
                if r.returncode != 0 or not os.path.exists(walk):
                    print(f"FAIL {name}: the walk ended with exit {r.returncode}: {r.stderr.strip()[-500:]}")
                    return 1
                frames = [json.loads(line) for line in open(walk, encoding="utf-8")]
                if {f["beat"] for f in frames} != set(beats):
                    print(f"FAIL {name}: the walk drew beats {sorted({f['beat'] for f in frames})} of {sorted(beats)}")
                    return 1
                if after_as_before:
                    frames = [dict(f, phase="before") for f in frames if f["phase"] == "after"]
                for frame in frames:
                    b = beats[frame["beat"]]
                    if lang == "zh_CN" and not after_as_before:
                        failures += [f"{name} beat {b['beat']} ({frame['phase']}): English in the Chinese window: {e}"
                                     for e in english_in(frame, ids)[:3]]
                    # No text drawn over other text (text_check.h, as the screenshot tests check their last frame).
                    if "overlaps" not in frame:
                        failures.append(f"{name}: the walk's frames carry no overlaps")
                    elif frame["overlaps"] and not after_as_before:
                        failures.append(f"{name} beat {b['beat']} ({frame['phase']}): text over text: "
                                        f"{frame['overlaps']}")
                    # The view the beat names is in front (a tab of its pane raised), in every layout and size; comparing,
                    # the compare view draws the trees, tiles and rings of both.
                    look = "compare" if b.get("b") and b.get("look") in ("tree", "ring", "tile") else b.get("look")
                    # (While the named view keeps its figures back, the picture they are of is in front instead.)
                    pictures = ["compare"] if b.get("b") else ["tree", "ring", "tile"]
                    if frame.get("look_hidden") and any(p in frame.get("drawn", []) for p in pictures):
                        pass
                    elif look and look not in frame.get("drawn", []):
                        failures.append(f"{name} beat {b['beat']} ({frame['phase']}): look: {look} is not in "
                                        f"front (drawn: {', '.join(frame.get('drawn', []))})")
                    if layout == "present" and size == "1280x720" and "tree" in frame.get("drawn", []):
                        values, cells = tree_values_drawn(frame)
                        if cells >= 16 and values < 16:
                            failures.append(f"{name} beat {b['beat']} ({frame['phase']}): the tree draws {values} "
                                            f"values of its {cells} cells (at least 16 at x2 on 1280 px)")
                    # Values on: the values readable (the rows as high as they need, the rows above out of view).
                    if layout == "present" and size == "1280x720":
                        if "tree_value_size" not in frame:
                            failures.append(f"{name}: the walk's frames carry no tree_value_size")
                        elif small := [v for v in frame["tree_value_size"] if 0 < v < 70]:
                            failures.append(f"{name} beat {b['beat']} ({frame['phase']}): a tree with Values on draws "
                                            f"its values at {min(small)} % of the UI's type (at least 70 %)")
                    q = b.get("question")
                    if not q or frame["phase"] == "shown":
                        continue
                    if not frame.get("question_in_view", False):
                        failures.append(f"{name} beat {b['beat']} ({frame['phase']}): the question is not wholly in "
                                        "sight in the lesson panel")
                    if layout and look in frame.get("overflow", {}):
                        cut.add(f"{lesson} beat {b['beat']} ({lang}, {size} x{scale} {layout}): look: {look} runs past "
                                f"its pane by {frame['overflow'][look]} px (across, down)")
                    if frame["phase"] == "before" and "wavefront" in q["figure"]:
                        said = [f"{root}: {text}" for root, text in figure_runs(frame)
                                if not root.endswith(LESSON) and REQUEST_WAVEFRONTS.search(text)]
                        if said:
                            failures.append(f"{name} beat {b['beat']} ({q['figure']}): a request's wavefronts or "
                                            "conflict degree shown before the answer in: " + " | ".join(said[:3]))
                    sides = [("A", b["a"])] + ([("B", b["b"])] if q["compare"] and b.get("b") else [])
                    own = set(CONSTANTS)   # the scenario's own numbers: the student's to read
                    for _, words in sides:
                        own.update(numbers(words))
                    runs = figure_runs(frame)
                    for side, words in sides:
                        value = figure_of(stats(words), q["figure"], b["step"])
                        forms = shown_forms(value)
                        if q["figure"] in BYTES and forms:
                            forms |= bytes_forms(value)
                        if not forms:
                            failures.append(f"{name} beat {b['beat']}: no value of {q['figure']} in stats --json of {words}")
                            continue
                        where = f"{name} beat {b['beat']} ({q['figure']} of {side} = {value})"
                        if forms & own or (isinstance(value, int) and value < 10):
                            unavoidable.add(where.replace(name, f"{lesson} ({lang})").split(" (", 1)[0] +
                                            f" ({q['figure']} of {side} = {value})")
                            continue
                        checked += 1
                        if frame["phase"] == "before":
                            hits = [f"{root}: {text}" for root, text in runs
                                    if forms & set(numbers(text)) and not root.endswith(LESSON)]
                            if hits:
                                failures.append(f"{where}: shown before the answer in: " + " | ".join(hits[:4]))
                        else:
                            if not any(forms & set(numbers(text)) for _, text in runs):
                                failures.append(f"{where}: not in the frame after Reveal")
    for u in sorted(unavoidable):
        print(f"note: {u}: one of the scenario's own numbers, or below 10: not looked for")
    for c in sorted(cut):
        print(f"note: {c}")
    for f in failures:
        print(f"FAIL {f}")
    print(f"{len(lessons)} lesson(s), {checked} figure(s) checked before and after, {len(failures)} failure(s)")
    if after_as_before:
        found = [f for f in failures if "beat 5 (tree_simd_efficiency of A" in f and "###pane:compare" in f]
        print(f"after Reveal, searched as before: harris beat 5's SIMD efficiency of A found {len(found)} time(s) in "
              "the compare panes (in both languages at 1920x1080 at least)")
        return 0 if len(found) >= 2 else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
