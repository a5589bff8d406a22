#!/usr/bin/env python3
"""Holds the UI text to the glossary in the i18n files: one term per concept in every language.

The glossary is part of assets/i18n/<lang>.json:
  "glossary.<concept>"        the term, in each file ("bank" / "存储体"); in en.json the English forms,
                              comma-separated ("divergence, divergent")
  "glossary.<concept>.avoid"  words a translation must not use for it, separated by "、" or ", "
                              (a second word for the concept, or a word of the concept used alone)

Checks (exit 1 with one line per finding):
  - en.json and zh_CN.json have the same keys, and every concept has its term and avoid list in both;
  - no Chinese text has an English glossary term in Latin letters, except as code: in `backticks`, an
    identifier (s_mem, probe.step, tile[32][33], index(lane)), an operand (2*stride), a command-line option
    or command (--block, redlab trace), or a kernel id;
  - no Chinese text has an avoided word, once every glossary term in it is set aside (线程块大小 is
    fine, 块大小 is not);
  - a Chinese text whose English counterpart names a concept uses that concept's Chinese term;
  - the glossary window's eleven concepts have a term and a definition (define.<concept>) in both files;
  - the gallery's Chinese titles and explanations follow the same rules (they are shown in the window), and so do
    the lessons' texts (assets/lessons: each `key.zh:` against the `key.en:` before it).

Usage: i18n_glossary.py [--expect-problems N] [EN_JSON ZH_JSON [GALLERY_JSON]]   (default: the repository's files)
  --expect-problems N: the test of the test; exit 0 only when exactly N problems are found.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What makes a neighbouring Latin word code rather than prose: an operator, even a space away (2*stride, tid % stride),
# and right beside it an ASCII bracket or member access (index(lane), tile[32], probe.step, cluster.sync()); not the
# placeholders' braces ("{1} wavefronts" is prose) nor a bracket after a space ("wavefronts (ideal 2)").
OPERATOR = r"[*%+=<>^&|/~!]"
ATTACHED_BEFORE, ATTACHED_AFTER = r"[\[\]().:_#]", r"[\[\](_]"   # a full stop or colon after a word ends prose


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def split_terms(text):
    return [t.strip() for t in re.split(r"[、,，]", text) if t.strip()]


def prose_only(text, kernel_ids):
    """The text with its code set aside (replaced by a space)."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"(?:redlab\s+[a-z-]+|--[a-z][a-z0-9-]*)", " ", text)
    words = []
    for m in re.finditer(r"[A-Za-z][A-Za-z0-9_]*", text):
        before, after = text[max(0, m.start() - 2):m.start()], text[m.end():m.end() + 2]
        word = m.group(0)
        code = "_" in word or word in kernel_ids or (len(word) > 1 and word.isupper())   # BLOCK: a constant
        code = code or re.search(OPERATOR + r" ?$", before) or re.match(r"^ ?" + OPERATOR, after)
        code = code or re.search(ATTACHED_BEFORE + r"$", before) or re.match(r"^" + ATTACHED_AFTER, after)
        code = code or re.search(r"[0-9]$", before) or re.match(r"^[0-9]", after)
        code = code or re.match(r"^\.[A-Za-z_]", text[m.end():m.end() + 2])   # a member's object: cluster.sync()
        if code:
            words.append((m.start(), m.end()))
    for s, e in reversed(words):
        text = text[:s] + " " + text[e:]
    return text


def latin_pattern(term):
    # The term and its plural, as a whole Latin word (or words).
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(term).replace(r"\ ", r"\s+") + r"(?:s|es)?(?![A-Za-z0-9_])",
                      re.IGNORECASE)


def main(argv):
    expected = None
    if len(argv) > 2 and argv[1] == "--expect-problems":
        expected = int(argv[2])
        argv = argv[:1] + argv[3:]
    en_path = argv[1] if len(argv) > 1 else os.path.join(ROOT, "assets/i18n/en.json")
    zh_path = argv[2] if len(argv) > 2 else os.path.join(ROOT, "assets/i18n/zh_CN.json")
    gallery_path = argv[3] if len(argv) > 3 else os.path.join(ROOT, "assets/gallery/gallery.json")
    en, zh = load(en_path), load(zh_path)
    problems = []

    for k in sorted(set(en) - set(zh)):
        problems.append(f"{k}: in en.json, not in zh_CN.json")
    for k in sorted(set(zh) - set(en)):
        problems.append(f"{k}: in zh_CN.json, not in en.json")

    concepts = sorted({k.split(".")[1] for k in list(en) + list(zh) if k.startswith("glossary.")})
    if not concepts:
        problems.append("no glossary: add glossary.<concept> and glossary.<concept>.avoid to both files")
    glossary = {}
    for c in concepts:
        term, avoid = f"glossary.{c}", f"glossary.{c}.avoid"
        missing = [f"{k} in {name}" for k in (term, avoid) for name, d in (("en.json", en), ("zh_CN.json", zh))
                   if k not in d]
        if missing or not en.get(term) or not zh.get(term):
            problems.append(f"glossary.{c}: needs a term and an avoid list in both files ({', '.join(missing)})")
            continue
        glossary[c] = {"en": split_terms(en[term]), "zh": zh[term], "avoid": split_terms(zh[avoid])}

    kernel_ids = {k[len("kernel."):] for k in en if k.startswith("kernel.")}
    all_zh_terms = sorted({g["zh"] for g in glossary.values()}, key=len, reverse=True)

    def check(where, text, english):
        prose = prose_only(text, kernel_ids)
        for c, g in glossary.items():
            for form in g["en"]:
                m = latin_pattern(form).search(prose)
                if m:
                    problems.append(f"{where}: English '{m.group(0)}' in Chinese text (glossary.{c}: {g['zh']}): {text[:90]!r}")
                    break
        masked = text
        for t in all_zh_terms:
            masked = masked.replace(t, "\u25a0")
        for c, g in glossary.items():
            for bad in g["avoid"]:
                if bad in masked:
                    problems.append(f"{where}: '{bad}' for {g['en'][0]} (glossary.{c}: {g['zh']}): {text[:90]!r}")
        if english is not None:
            english_prose = prose_only(english, kernel_ids)
            for c, g in glossary.items():
                # A longer term that holds this one ("random seed" beside "seed", say) is set aside first.
                longer = [f for o, h in glossary.items() if o != c for f in h["en"]
                          if any(form.lower() in f.lower() and form.lower() != f.lower() for form in g["en"])]
                prose = english_prose
                for f in longer:
                    prose = latin_pattern(f).sub(" ", prose)
                named = any(latin_pattern(form).search(prose) for form in g["en"])
                if named and g["zh"] not in text:
                    problems.append(f"{where}: the English says '{g['en'][0]}', the Chinese has no {g['zh']} (glossary.{c}): {text[:90]!r}")

    for k in sorted(zh):
        if k.startswith("glossary.") or not isinstance(zh[k], str):
            continue
        check(f"zh_CN.json {k}", zh[k], en.get(k) if isinstance(en.get(k), str) else None)

    if os.path.exists(gallery_path):
        for e in load(gallery_path).get("entries", []):
            for field in ("title", "explanation"):
                t = e.get(field, {})
                if isinstance(t, dict) and "zh_CN" in t:
                    check(f"gallery {e.get('id')} {field}", t["zh_CN"], t.get("en"))

    # The glossary window's concepts (app/gui/views/view_glossary.cpp) each have a definition in both languages.
    # (Files without any definition, as the test's own fixtures, have no glossary window to hold.)
    for c in ("warp", "lane", "divergence", "bank", "wavefront", "sector", "coalescing", "occupancy", "barrier",
              "shuffle", "atomic") if any(k.startswith("define.") for k in en) else ():
        for name, texts in (("en.json", en), ("zh_CN.json", zh)):
            if not texts.get(f"glossary.{c}") or not texts.get(f"define.{c}"):
                problems.append(f"{name}: the glossary's {c} needs glossary.{c} and define.{c}")

    # The lessons' texts (assets/lessons/*.lesson: `key.en:` and `key.zh:` lines, each pair in its beat or exercise).
    lesson_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(en_path))), "lessons")
    if os.path.isdir(lesson_dir):
        for name in sorted(os.listdir(lesson_dir)):
            if not name.endswith(".lesson"):
                continue
            en_text = {}
            with open(os.path.join(lesson_dir, name), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    m = re.match(r"^\s*([a-z_]+)\.(en|zh):\s*(.*)$", line.rstrip("\n"))
                    if not m:
                        continue
                    if m.group(2) == "en":
                        en_text[m.group(1)] = m.group(3)
                    else:
                        check(f"{name} line {number} {m.group(1)}.zh", m.group(3), en_text.get(m.group(1)))
    for p in problems:
        print(p)
    print(f"i18n glossary: {len(glossary)} concepts, {len(zh)} Chinese texts, {len(problems)} problem(s)")
    if expected is not None:
        return 0 if len(problems) == expected else 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
