#!/usr/bin/env python3
"""Every source and header includes the standard headers it uses itself, not through another standard header.

A file that calls std::find with only <string> and <vector> included builds with one libstdc++ (Debian 12's
brings <algorithm> in through them) and not with the next (Debian 13's does not). This runs include-what-you-use
(Debian's iwyu) on each C++ file of the project, with the flags the build compiles it with, and reports every
standard C++ header IWYU says the file should add: headers (.h, .cuh) are checked alone, as a translation unit of
their own, so a header that leans on its includer's includes is caught too. What IWYU says of anything but the
standard headers (the project's own, Debian's libraries, libstdc++'s internal <bits/...>) and its "should remove"
advice are left out: the check is only the one that another standard library would fail.

A file that uses std::vector through one of the project's headers (which include <vector> themselves) is still
reported: the rule is the same for every file, and it costs one line.

IWYU's verdict on a file is kept (in $XDG_CACHE_HOME/redlab/std_includes, or ~/.cache) under a digest of all it
was given: IWYU's version, the arguments (with the source and build folders' paths taken out), the file's text and the
text of every file of the source or build folder it may include (every #include, whatever #if it sits under, followed
through the folders the arguments name), and the system's headers (dpkg's record of installed packages, and each
include folder outside /usr by its files' sizes and times). A file whose digest was seen gets the verdict without
IWYU; any change to any of those runs IWYU again. A file with an #include the scan cannot follow (a macro) is always
run. REDLAB_STD_INCLUDES_CACHE=0 turns the cache off; the test of the test (--expect-missing) never uses it.

usage: std_includes.py BUILD_DIR SOURCE_DIR           check app/, kernels/ and tests/ (exit 1 and a list on a
                                                      missing include, 2 when IWYU or the compile commands are
                                                      missing)
       std_includes.py --fix BUILD_DIR SOURCE_DIR     the same, and add each missing include to its file's block
                                                      of standard includes (in order; a new block where there is none)
       std_includes.py --expect-missing N BUILD_DIR FILE...
                                                      the files must show at least N missing includes (the test
                                                      of the test: a file as it was before its include was added)
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time

# The C++20 standard library's headers, and the C library's in their C++ names.
STD_HEADERS = set("""
algorithm any array atomic barrier bit bitset charconv chrono codecvt compare complex concepts condition_variable
coroutine deque exception execution filesystem format forward_list fstream functional future initializer_list
iomanip ios iosfwd iostream istream iterator latch limits list locale map memory memory_resource mutex new numbers
numeric optional ostream queue random ranges ratio regex scoped_allocator semaphore set shared_mutex source_location
span sstream stack stdexcept stop_token streambuf string string_view syncstream system_error thread tuple type_traits
typeindex typeinfo unordered_map unordered_set utility valarray variant vector version
cassert cctype cerrno cfenv cfloat cinttypes climits clocale cmath csetjmp csignal cstdarg cstddef cstdint cstdio
cstdlib cstring ctime cuchar cwchar cwctype
""".split())

SOURCE_DIRS = ("app", "kernels", "tests")
SOURCE_SUFFIXES = (".cpp", ".h", ".cuh")
# Folders whose files are data for other tests (kernels as they were, files that must fail), not the project's code.
SKIPPED_DIRS = ("tests/probe_audit", "tests/std_includes", "tests/data")
# Device code only nvcc reads (inline PTX, CUB, cooperative groups): no host compiler parses these alone.
NVCC_ONLY = ("kernels/library/bank_access.cuh", "kernels/library/read_only.cuh", "kernels/library/cg_reduce.cuh",
             "kernels/library/cub_block.cuh")

# Symbols IWYU names that a file does not use itself: a container's default allocator and traits, which come with
# the container's own header.
IMPLIED_SYMBOLS = {"allocator", "char_traits", "allocator_traits<>::value_type"}
# The standard has these headers include <compare> and <initializer_list> ([utility.syn], [string.syn],
# [sequences.general], ...): a file that includes one of them has both on every standard library.
BRINGS_COMPARE_AND_INIT_LIST = {
    "array", "deque", "forward_list", "list", "map", "optional", "set", "string", "string_view", "tuple",
    "unordered_map", "unordered_set", "utility", "variant", "vector", "valarray", "regex", "random", "chrono",
    "system_error", "filesystem", "memory", "iterator", "ranges", "thread", "typeindex", "coroutine",
}
DIRECT_INCLUDE = re.compile(r'^\s*#\s*include\s*<([^>]+)>', re.M)

STD_UNDECLARED = re.compile(r"no (member|type|template) named '[^']+' in namespace 'std'")
ADD_BLOCK = re.compile(r"^(?P<file>.+) should add these lines:$")
INCLUDE_LINE = re.compile(r"^#include <(?P<header>[^>]+)>\s*(?://\s*for (?P<why>.*))?$")


def compile_commands(build_dir):
    path = os.path.join(build_dir, "compile_commands.json")
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        sys.exit(f"std_includes: {path}: {e.strerror} (the build exports it: CMAKE_EXPORT_COMPILE_COMMANDS)")


def iwyu_arguments(entry):
    """The compile command's arguments without the compiler, the source, -c and -o."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    out, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD") or os.path.abspath(os.path.join(entry["directory"], a)) == entry["file"]:
            continue
        if a.startswith("-fsanitize") or a.startswith("-fno-sanitize"):
            continue  # clang's sanitizer flags differ from g++'s, and they change no declaration
        out.append(a)
    return out


def nearest_command(path, by_dir, source_dir):
    """The flags of a file the build compiles in the same folder, or the nearest folder above it; else app/'s."""
    d = os.path.dirname(path)
    while d.startswith(source_dir):
        if d in by_dir:
            return by_dir[d]
        d = os.path.dirname(d)
    for fallback in ("app/exec", "app/core", "app"):
        if os.path.join(source_dir, fallback) in by_dir:
            return by_dir[os.path.join(source_dir, fallback)]
    return None


# A <source_location> for clangs without __builtin_source_location (Debian 12's iwyu is clang 14's).
CLANG14_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "std_includes", "clang14")


def run_iwyu(iwyu, path, args, directory, is_header):
    cmd = [iwyu, "-isystem", CLANG14_DIR] + args + ["-Wno-unknown-warning-option", "-Wno-pragma-once-outside-header", "-w",
                           "-Xiwyu", "--no_fwd_decls", "-Xiwyu", "--cxx17ns", "-Xiwyu", "--max_line_length=1000"]
    if is_header:
        cmd += ["-x", "c++"]
    cmd.append(path)
    p = subprocess.run(cmd, cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace", timeout=600)
    return p.stdout


def missing_from_output(text):
    """{file: [(header, why)]}: the standard headers IWYU says each file should add."""
    found, current = {}, None
    for line in text.splitlines():
        m = ADD_BLOCK.match(line)
        if m:
            current = os.path.abspath(m.group("file"))
            continue
        if current is None:
            continue
        if not line.strip():
            current = None
            continue
        m = INCLUDE_LINE.match(line.strip())
        if not m or m.group("header") not in STD_HEADERS:
            continue
        symbols = [w.strip() for w in (m.group("why") or "").split(",") if w.strip()]
        used = [w for w in symbols if w not in IMPLIED_SYMBOLS and not w.startswith("allocator_traits")]
        if symbols and not used:
            continue
        found.setdefault(current, []).append((m.group("header"), used))
    return found


# Where the standard declares a name (the first header) and the others that declare it too. Each IWYU maps a symbol
# to a header through its own tables for its own libstdc++, and some of its answers are another header that happens
# to declare the name there (Debian 12's finds ptrdiff_t in <iosfwd>; Debian 13's says <format> for vector and
# <iterator> for pair): a name whose header the file includes is there on every standard library, and one that is
# missing is asked for by its own header.
HOMES = {
    "vector": ("vector",), "pair": ("utility",), "make_pair": ("utility",), "move": ("utility", "algorithm"),
    "swap": ("utility",), "forward": ("utility",), "exchange": ("utility",), "function": ("functional",),
    "string": ("string",), "basic_string": ("string",), "to_string": ("string",), "stoi": ("string",),
    "stoul": ("string",), "stoull": ("string",), "stod": ("string",), "map": ("map",), "set": ("set",),
    "optional": ("optional",), "nullopt": ("optional",), "string_view": ("string_view",), "array": ("array",),
    "unordered_map": ("unordered_map",), "unordered_set": ("unordered_set",), "deque": ("deque",),
    "size_t": ("cstddef", "cstdio", "cstdlib", "cstring", "ctime", "cwchar", "cuchar"),
    "ptrdiff_t": ("cstddef",), "isnan": ("cmath",), "isfinite": ("cmath",), "floor": ("cmath",),
    "fabs": ("cmath",), "sqrt": ("cmath",), "round": ("cmath",), "duration": ("chrono",),
    "steady_clock": ("chrono",), "milliseconds": ("chrono",), "unique_ptr": ("memory",), "make_unique": ("memory",),
    "shared_ptr": ("memory",), "make_shared": ("memory",), "is_floating_point_v": ("type_traits",),
    "is_same_v": ("type_traits",), "is_integral_v": ("type_traits",), "runtime_error": ("stdexcept",),
    "invalid_argument": ("stdexcept",), "exception": ("exception",), "min": ("algorithm",), "max": ("algorithm",),
    "sort": ("algorithm",), "find": ("algorithm",), "clamp": ("algorithm",),
}


def settle(path, suggestions):
    """[(header, why)]: what the file lacks, each name at its own header (HOMES), none the file includes itself, and
    no <compare> or <initializer_list> where the file includes a header the standard has bring them."""
    try:
        with open(path, errors="replace") as f:
            direct = set(DIRECT_INCLUDE.findall(f.read()))
    except OSError:
        direct = set()
    needed = {}
    for header, symbols in suggestions:
        for symbol in symbols or [""]:
            homes = HOMES.get(symbol)
            if homes and direct & set(homes):
                continue   # (IWYU's other header for a name the file has from its own)
            h = homes[0] if homes else header
            if h in direct:
                continue
            needed.setdefault(h, [])
            if symbol:
                needed[h].append(symbol)
    if direct & BRINGS_COMPARE_AND_INIT_LIST:
        needed.pop("compare", None)
        needed.pop("initializer_list", None)
    return [(h, ", ".join(why)) for h, why in needed.items()]


def compile_errors(text):
    return [l for l in text.splitlines() if ": error:" in l or ": fatal error:" in l]


# The CUDA toolkit's own headers: a file that includes one is compiled only where the build has the toolkit.
TOOLKIT_HEADER = re.compile(r'^\s*#\s*include\s*<(cuda[A-Za-z_]*\.h|nvrtc\.h|cupti[A-Za-z_]*\.h|nccl\.h)>', re.M)


def toolkit_only(path):
    try:
        with open(path, errors="replace") as f:
            return TOOLKIT_HEADER.search(f.read()) is not None
    except OSError:
        return False


ANY_INCLUDE = re.compile(r'^\s*#\s*include\s*(.*)$', re.M)
CACHE_FORMAT = "1"  # a change to what is kept, or to how a verdict is reached from IWYU's output, changes this


class VerdictCache:
    """IWYU's output for one run, under a digest of everything the run read (see the module's text)."""

    def __init__(self, iwyu, source_dir, build_dir):
        root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        self.dir = os.path.join(root, "redlab", "std_includes")
        self.source_dir, self.build_dir = source_dir.rstrip("/"), os.path.abspath(build_dir).rstrip("/")
        self.hits = self.runs = 0
        self.file_digests, self.folder_digests = {}, {}
        version = subprocess.run([iwyu, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 errors="replace").stdout
        h = hashlib.sha256((CACHE_FORMAT + "\0" + version).encode())
        for status in ("/var/lib/dpkg/status",):
            try:
                with open(status, "rb") as f:
                    h.update(hashlib.sha256(f.read()).digest())
            except OSError:
                h.update(b"no dpkg")
        # (The project's own headers for clang 14, by their text: a folder's times differ from clone to clone, and CI
        # checks out a new clone each run.)
        for root, dirs, names in os.walk(CLANG14_DIR):
            dirs.sort()
            for n in sorted(names):
                with open(os.path.join(root, n), "rb") as f:
                    data = f.read()
                h.update(f"{os.path.relpath(os.path.join(root, n), CLANG14_DIR)}:".encode())
                h.update(hashlib.sha256(data).digest())
        self.system = h.hexdigest()

    def neutral(self, text):
        """The text with the build and source folders' paths as names (the build folder first: it may lie inside)."""
        return text.replace(self.build_dir, "@BUILD@").replace(self.source_dir, "@SOURCE@")

    def placed(self, text):
        return text.replace("@BUILD@", self.build_dir).replace("@SOURCE@", self.source_dir)

    def ours(self, path):
        return any(path == d or path.startswith(d + "/") for d in (self.source_dir, self.build_dir))

    def folder_digest(self, folder):
        """A folder of headers outside the project and outside /usr (dpkg's record covers those): its files' paths,
        sizes and times."""
        if folder not in self.folder_digests:
            h = hashlib.sha256(folder.encode())
            for root, dirs, names in os.walk(folder):
                dirs.sort()
                for n in sorted(names):
                    try:
                        st = os.stat(os.path.join(root, n))
                        h.update(f"{root}/{n}:{st.st_size}:{st.st_mtime_ns}\n".encode())
                    except OSError:
                        pass
            self.folder_digests[folder] = h.hexdigest()
        return self.folder_digests[folder]

    def text_digest(self, path):
        if path not in self.file_digests:
            try:
                with open(path, "rb") as f:
                    data = f.read()
                self.file_digests[path] = (hashlib.sha256(data).hexdigest(), data.decode("utf-8", "replace"))
            except OSError:
                self.file_digests[path] = (None, "")
        return self.file_digests[path]

    def key(self, path, args, directory, is_header):
        """The digest of the run, or None where an include cannot be followed."""
        dirs, roots, skip = [], [path], None
        for a in args:
            if skip:
                (dirs if skip != "-include" else roots).append(os.path.abspath(os.path.join(directory, a)))
                skip = None
            elif a in ("-I", "-isystem", "-iquote", "-include"):
                skip = a
            else:
                prefix = next((p for p in ("-isystem", "-iquote", "-I") if a.startswith(p)), None)
                if prefix:
                    dirs.append(os.path.abspath(os.path.join(directory, a[len(prefix):])))
        h = hashlib.sha256((self.system + "\0" + ("header" if is_header else "source")).encode())
        h.update(self.neutral("\0".join(args) + "\0" + directory + "\0" + path).encode())
        for d in dirs:
            if not self.ours(d) and not d.startswith("/usr/"):
                h.update(self.folder_digest(d).encode())
        seen, todo = set(), list(roots)
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            digest, text = self.text_digest(f)
            h.update(self.neutral(f"{f}:{digest}\n").encode())
            if digest is None:
                continue
            for m in ANY_INCLUDE.finditer(text):
                spec = m.group(1).strip()
                if spec[:1] == '"' and '"' in spec[1:]:
                    name, local = spec[1:spec.index('"', 1)], True
                elif spec[:1] == "<" and ">" in spec:
                    name, local = spec[1:spec.index(">")], False
                else:
                    return None  # #include MACRO: not followed
                for d in ([os.path.dirname(f)] if local else []) + dirs:
                    candidate = os.path.normpath(os.path.join(d, name))
                    if self.ours(candidate) and os.path.isfile(candidate):
                        todo.append(candidate)
                        break
        return h.hexdigest()

    def get(self, key):
        if key is None:
            return None
        entry = os.path.join(self.dir, key[:2], key)
        try:
            with open(entry) as f:
                text = f.read()
            os.utime(entry)
        except OSError:
            return None
        self.hits += 1
        return self.placed(text)

    def put(self, key, output):
        self.runs += 1
        if key is None:
            return
        entry = os.path.join(self.dir, key[:2], key)
        try:
            os.makedirs(os.path.dirname(entry), exist_ok=True)
            tmp = f"{entry}.{os.getpid()}.{threading.get_ident()}"
            with open(tmp, "w") as f:
                f.write(self.neutral(output))
            os.replace(tmp, entry)
        except OSError:
            pass

    def prune(self, days=30):
        """Verdicts not used for a month go."""
        limit = time.time() - days * 86400
        for root, _, names in os.walk(self.dir):
            for n in names:
                p = os.path.join(root, n)
                try:
                    if os.stat(p).st_mtime < limit:
                        os.remove(p)
                except OSError:
                    pass


def check(files, commands, source_dir, jobs, build_dir=None):
    iwyu = shutil.which("include-what-you-use")
    if not iwyu:
        print("std_includes: include-what-you-use is not installed (Debian's iwyu; scripts/dev installs it)")
        sys.exit(2)
    cache = None
    if build_dir is not None and os.environ.get("REDLAB_STD_INCLUDES_CACHE", "1") != "0":
        cache = VerdictCache(iwyu, source_dir, build_dir)
    by_file, by_dir = {}, {}
    for e in commands:
        f = os.path.abspath(os.path.join(e["directory"], e["file"]))
        if not f.endswith(".cpp"):
            continue  # nvcc's .cu and the C loader glad writes are not read by a host C++ compiler alone
        e = dict(e, file=f)
        by_file[f] = e
        by_dir.setdefault(os.path.dirname(f), e)

    texts = {}
    for f in by_file:
        try:
            with open(f, errors="replace") as fh:
                texts[f] = fh.read()
        except OSError:
            texts[f] = ""

    def includer(header):
        """A file the build compiles that includes the header: its own .cpp first, else any that names it."""
        own = os.path.splitext(header)[0] + ".cpp"
        if own in by_file:
            return by_file[own]
        name = os.path.basename(header)
        for f in sorted(by_file):
            for m in re.finditer(r'#\s*include\s*"([^"]*)"', texts[f]):
                inc = m.group(1)
                if os.path.basename(inc) == name and (header.endswith("/" + inc) or
                                                      os.path.abspath(os.path.join(os.path.dirname(f), inc)) == header):
                    return by_file[f]
        return None

    def one(path):
        entry = by_file.get(path)
        if entry is None and not path.endswith(".cpp"):
            entry = includer(path)
        # A file of the CUDA executor that this build leaves out (configured without the toolkit: REDLAB_CUDA=OFF)
        # has no compile command that finds the toolkit's headers: checked by the builds that have them (CI's).
        if entry is None and toolkit_only(path):
            return path, {}, []
        entry = entry or nearest_command(path, by_dir, source_dir)
        if entry is None:
            return path, None, ["no compile command to borrow flags from"]
        args, is_header = iwyu_arguments(entry), not path.endswith(".cpp")
        key = cache.key(path, args, entry["directory"], is_header) if cache else None
        out = cache.get(key) if cache else None
        if out is None:
            out = run_iwyu(iwyu, path, args, entry["directory"], is_header)
            if cache:
                cache.put(key, out)
        return path, missing_from_output(out), compile_errors(out)

    missing, errors = {}, {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for path, found, errs in pool.map(one, files):
            if errs:
                errors[path] = errs
            for f, headers in (found or {}).items():
                if f == path or f in files:
                    for h in settle(f, headers):
                        if h not in missing.get(f, []):
                            missing.setdefault(f, []).append(h)
    if cache:
        cache.prune()
        print(f"std_includes: {cache.hits} of {len(files)} verdicts from the cache ({cache.dir}), {cache.runs} runs of IWYU")
    return missing, errors


def project_files(source_dir):
    files = []
    for top in SOURCE_DIRS:
        for root, dirs, names in os.walk(os.path.join(source_dir, top)):
            rel = os.path.relpath(root, source_dir)
            if any(rel == s or rel.startswith(s + "/") for s in SKIPPED_DIRS):
                dirs[:] = []
                continue
            dirs.sort()
            files += [os.path.join(root, n) for n in sorted(names)
                      if n.endswith(SOURCE_SUFFIXES) and os.path.join(rel, n) not in NVCC_ONLY]
    return files


def report(missing, errors, source_dir):
    for path in sorted(errors):
        print(f"{os.path.relpath(path, source_dir)}: does not compile alone with clang:")
        for e in errors[path][:5]:
            print(f"  {e}")
    count = 0
    for path in sorted(missing):
        for header, why in missing[path]:
            print(f"{os.path.relpath(path, source_dir)}: include <{header}>" + (f" (for {why})" if why else ""))
            count += 1
    return count


STD_INCLUDE_LINE = re.compile(r"^#include <([^>]+)>")


def add_includes(path, headers):
    """Put `#include <h>` for each header into the file's first run of standard includes, each in its place in
    alphabetical order; a file with none gets a block of its own after its own header (x.cpp's x.h), after
    `#pragma once`, or before its first include."""
    with open(path) as f:
        lines = f.read().split("\n")
    std_at = [i for i, l in enumerate(lines) if STD_INCLUDE_LINE.match(l) and STD_INCLUDE_LINE.match(l).group(1) in STD_HEADERS]
    if std_at:
        first = std_at[0]
        last = first
        while last + 1 < len(lines) and STD_INCLUDE_LINE.match(lines[last + 1]):
            last += 1
        for h in sorted(set(headers)):
            new = f"#include <{h}>"
            block = lines[first:last + 1]
            if new in block:
                continue
            at = last + 1
            for i in range(first, last + 1):
                m = STD_INCLUDE_LINE.match(lines[i])
                if m and m.group(1) in STD_HEADERS and m.group(1) > h:
                    at = i
                    break
            lines.insert(at, new)
            last += 1
    else:
        block = [f"#include <{h}>" for h in sorted(set(headers))]
        own = os.path.splitext(os.path.basename(path))[0] + ".h"
        includes = [i for i, l in enumerate(lines) if l.startswith("#include")]
        pragma = [i for i, l in enumerate(lines) if l.strip() == "#pragma once"]
        if includes and lines[includes[0]].rstrip().endswith(f'{own}"') and path.endswith(".cpp"):
            lines[includes[0] + 1:includes[0] + 1] = [""] + block
        elif pragma:
            lines[pragma[0] + 1:pragma[0] + 1] = block + ([""] if pragma[0] + 1 < len(lines) and lines[pragma[0] + 1].strip() else [])
        elif includes:
            lines[includes[0]:includes[0]] = block + [""]
        else:
            lines[0:0] = block + [""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main(argv):
    jobs = os.cpu_count() or 2
    if argv[:1] == ["--expect-missing"]:
        if len(argv) < 4:
            print(__doc__)
            return 2
        expected, build_dir, files = int(argv[1]), argv[2], [os.path.abspath(f) for f in argv[3:]]
        source_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        missing, errors = check(files, compile_commands(build_dir), source_dir, jobs)
        count = report(missing, errors, source_dir)
        # Where the standard library is the one these files were written against (Debian 13's), they do not compile:
        # the compiler's "no member named 'find' in namespace 'std'" is the same finding.
        undeclared = [e for errs in errors.values() for e in errs if STD_UNDECLARED.search(e)]
        if len(undeclared) < sum(len(e) for e in errors.values()):
            print("FAIL: the files of the test of the test do not compile for another reason")
            return 1
        count += len(undeclared)
        if count < expected:
            print(f"FAIL: {count} missing standard includes found, {expected} expected: the check no longer finds them")
            return 1
        print(f"ok: the check finds {count} missing standard includes (at least {expected} expected)")
        return 0
    fix = argv[:1] == ["--fix"]
    if fix:
        argv = argv[1:]
    if len(argv) != 2:
        print(__doc__)
        return 2
    build_dir, source_dir = argv[0], os.path.abspath(argv[1])
    files = project_files(source_dir)
    missing, errors = check(files, compile_commands(build_dir), source_dir, jobs, build_dir)
    count = report(missing, errors, source_dir)
    if fix:
        for path, headers in missing.items():
            add_includes(path, [h for h, _ in headers])
        print(f"std_includes: added {count} includes to {len(missing)} files; run it again to check")
        return 0
    if count or errors:
        print(f"FAIL: {count} standard headers used but not included, {len(errors)} files that do not compile alone "
              f"({len(files)} files checked): another libstdc++ (Debian 13's) need not bring them in")
        return 1
    print(f"ok: {len(files)} files include every standard header they use")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
