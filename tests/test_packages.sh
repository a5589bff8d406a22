#!/usr/bin/env bash
# Packaging: everything the build just made uses comes from a package that scripts/dev installs (or that
# list's Depends closure), so the README's two commands work on a fresh Debian machine. The check must also
# be able to fail: with a needed package taken out of the list, it has to name that package.
# usage: test_packages.sh SOURCE_DIR BUILD_DIR       (exit 77, skipped: not Debian, or not a Ninja build)
set -u
SRC=$1; BUILD=$2
# The set-up names no compiler version: Debian 12 and 13 (clang 14 and 19, GCC 12 and 14) each take their own
# default (clang, libclang-rt-dev, g++).
versioned=$(grep -nE '(clang|llvm|gcc|g\+\+|clang-rt)-[0-9]+' "$SRC/scripts/dev" "$SRC/tests/fuzz/CMakeLists.txt")
if [ -n "$versioned" ]; then
  echo "FAIL: a compiler version is written into the set-up (Debian 12 and 13 differ):"
  echo "$versioned"
  exit 1
fi
echo "ok: scripts/dev and tests/fuzz/CMakeLists.txt name no compiler version"
check="python3 $SRC/scripts/check-packages $BUILD"
$check; rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -ne 0 ] && { echo "FAIL: the build uses packages that scripts/dev does not install (above)"; exit 1; }
fail=0
for p in libglfw3-dev libimgui-dev libgtest-dev; do
  if ! grep -qx "$p" <($SRC/scripts/dev packages); then continue; fi
  out=$($check --without "$p"); rc=$?
  if [ $rc -ne 1 ] || ! grep -q "^  $p:" <<<"$out"; then
    echo "FAIL: with $p taken out of scripts/dev's list the check did not name it (exit $rc):"
    echo "$out"
    fail=1
  else
    echo "ok: without $p the check fails and names it: $(head -1 <<<"$out")"
  fi
done
exit $fail
