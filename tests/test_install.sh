#!/usr/bin/env bash
# An installed redlab, as a lecturer puts it on a lab's machines: `cmake --install` of this build into a fresh
# prefix holds the executable, its files under share/redlab, the desktop entry, icon, bash completion and man page;
# run from a folder outside the source tree, with the source tree out of its reach (the installed binary must not
# look there), it finds its files beside itself, passes the CPU selftest, lists the lessons, compiles and runs a
# kernel file against the installed headers, completes a kernel id, and (with a display server) draws its window.
#   test_install.sh BUILD_DIR
set -u
build=$(realpath "$1")
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"   # tmp, fail, ok, finish

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install"; }
for f in bin/redlab share/redlab/assets/i18n/zh_CN.json share/redlab/assets/lessons/001_harris.lesson \
         share/redlab/assets/gallery/gallery.json share/redlab/kernels/probe.cuh share/redlab/kernels/reduce/interleaved.cuh \
         share/redlab/app/exec/user_launch.h share/redlab/app/emu/simt.h share/applications/redlab.desktop \
         share/icons/hicolor/scalable/apps/redlab.svg share/bash-completion/completions/redlab; do
  [ -e "$prefix/$f" ] || fail "the installation has no $f"
done
if [ -e "$build/redlab.1" ]; then
  [ -e "$prefix/share/man/man1/redlab.1" ] || fail "the installation has no man page"
  grep -q "^\.SS redlab lesson exercise" "$prefix/share/man/man1/redlab.1" ||
    fail "the man page does not show each command's help"
fi
[ -e "$prefix/share/redlab/assets/desktop" ] && fail "the desktop files are installed twice (under share/redlab too)"

# The user's folders in the temporary one; the commands run from a folder that is neither the build nor the source.
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_CACHE_HOME=$tmp/home/.cache XDG_DATA_HOME=$tmp/home/.local/share
unset REDLAB_DATA_DIR
mkdir -p "$HOME" "$tmp/work"
cd "$tmp/work"
R=$prefix/bin/redlab
"$R" --version -v > version.txt 2>&1 || fail "--version -v: $(cat version.txt)"
grep -qx "redlab [0-9][0-9.]*\(+git\.[0-9a-f]*\(\.dirty\)\?\)\?" <(head -1 version.txt) || fail "--version: $(head -1 version.txt)"
grep -qx "data: *$prefix/share/redlab" version.txt || fail "the installed redlab's files are not its own: $(grep data: version.txt)"

# The source tree out of reach: were the binary to look there (as it does in the build tree), it would fail below.
hidden=""
if [ -w "$(dirname "$SRC")" ] && [ "$(id -u)" = 0 ] && command -v unshare > /dev/null; then hidden=yes; fi
run() {  # COMMAND...: with the source tree hidden behind an empty folder where that can be done
  if [ -n "$hidden" ]; then
    unshare --mount sh -c 'mount --bind "$0" "$1" && shift && exec "$@"' "$tmp/empty" "$SRC" "$@"
  else
    "$@"
  fi
}
mkdir -p "$tmp/empty"
run "$R" --version -v | grep -qx "data: *$prefix/share/redlab" || fail "with the source tree hidden, --version -v"
run "$R" selftest --backend cpu --quick > selftest.txt 2>&1 || fail "selftest --backend cpu --quick: $(tail -5 selftest.txt)"
run "$R" lesson list > lessons.txt 2>&1 || fail "lesson list: $(cat lessons.txt)"
[ "$(wc -l < lessons.txt)" -ge 6 ] && grep -q "^harris " lessons.txt || fail "lesson list: $(cat lessons.txt)"
run "$R" lesson show harris > harris.txt 2>&1 || fail "lesson show harris: $(tail -3 harris.txt)"
run "$R" new-kernel mine.cu --from interleaved > new.txt 2>&1 || fail "new-kernel: $(cat new.txt)"
run "$R" stats --source mine.cu --n 4096 --block 128 > stats.txt 2>&1 ||
  fail "a kernel file compiled against the installed headers: $(tail -5 stats.txt)"
grep -q "correct" stats.txt || fail "stats --source: $(tail -5 stats.txt)"
run "$R" list --gallery > gallery.txt 2>&1 || fail "list --gallery: $(tail -3 gallery.txt)"

# bash completion: the subcommands and, after --kernel, the catalog's ids, asked of the installed redlab.
completion=$(PATH=$prefix/bin:$PATH bash -c '
  source "$1"
  COMP_WORDS=(redlab stats --kernel inter); COMP_CWORD=3; _redlab; echo "${COMPREPLY[*]}"
  COMP_WORDS=(redlab les); COMP_CWORD=1; _redlab; echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/redlab")
[ "$completion" = "interleaved
lesson" ] || fail "bash completion: '$completion'"

# The window, where a display server can be started.
if command -v xvfb-run > /dev/null && "$build/redlab" gui --help > /dev/null 2>&1; then
  if run xvfb-run -a -s "-noreset -screen 0 1600x900x24" "$R" gui --screenshot shot.png --frames 4 > gui.txt 2>&1; then
    [ -s shot.png ] || fail "gui --screenshot wrote nothing"
  else
    fail "gui --screenshot: $(tail -5 gui.txt)"
  fi
fi

[ -n "$hidden" ] || echo "note: the source tree could not be hidden (not root, or no unshare): the data line checked it"
[ "$fails" -eq 0 ] && echo "ok: installed into $prefix and run from outside the source tree"
exit $((fails > 0))
