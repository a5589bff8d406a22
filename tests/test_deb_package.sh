#!/usr/bin/env bash
# The Debian package of this build (scripts/dev package: CPack's DEB generator): its version is the binary's own,
# its dependencies are those dpkg-shlibdeps found (GLFW among them) with OpenGL, the fonts and g++, apt can resolve
# every one of them from this machine's archive, it holds what `cmake --install` installs under /usr, and unpacked
# anywhere it runs from there (the lessons listed, its files found beside it).
#   test_deb_package.sh BUILD_DIR
set -u
build=$(realpath "$1")
. "$(dirname "$0")/lib.sh"   # tmp, fail, ok, finish
# (scripts/dev installs dpkg-dev and file, which CPack's DEB generator needs; dpkg-deb alone marks a Debian system.)
command -v dpkg-deb > /dev/null || { echo "not a Debian system"; exit 77; }

(cd "$build" && cpack -G DEB -B "$tmp/out" > "$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/out/redlab_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "FAIL no package was made"; exit 1; }
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"

field() { dpkg-deb -f "$deb" "$1"; }
version=$("$build/redlab" --version | sed 's/^redlab //')
case "$(field Version)" in "$version"-1*) ;; *) fail "the package's version $(field Version) is not the binary's ($version)" ;; esac
depends=$(field Depends)
names=$(tr ',' '\n' <<<"$depends" | sed 's/^ *//; s/ .*//')
for d in libglfw3 libc6 libstdc++6 libgl1 fonts-noto-cjk fonts-dejavu-core "g++"; do
  grep -qxF -- "$d" <<<"$names" || fail "Depends has no $d: $depends"
done
grep -q "nvidia-cuda-toolkit" <<<"$(field Suggests)" || fail "Suggests: $(field Suggests)"
dpkg-deb -c "$deb" | awk '{print $6}' > "$tmp/files"
for f in ./usr/bin/redlab ./usr/share/redlab/assets/i18n/en.json ./usr/share/redlab/kernels/probe.cuh \
         ./usr/share/redlab/app/exec/user_launch.h ./usr/share/applications/redlab.desktop \
         ./usr/share/bash-completion/completions/redlab; do
  grep -qx -- "$f" "$tmp/files" || fail "the package has no $f"
done
if [ -e "$build/redlab.1" ]; then grep -qx -- "./usr/share/man/man1/redlab.1" "$tmp/files" || fail "the package has no man page"; fi
# Every dependency resolvable from this machine's archive (a simulation: nothing is installed).
if command -v apt-get > /dev/null; then
  apt-get install -s "$deb" > "$tmp/apt.log" 2>&1 || fail "apt-get cannot install the package here: $(tail -5 "$tmp/apt.log")"
fi
# Unpacked in a folder of its own, it finds its files there.
dpkg-deb -x "$deb" "$tmp/root"
(cd "$tmp" && "$tmp/root/usr/bin/redlab" --version -v > version.txt 2>&1) || fail "--version -v"
grep -qx "data: *$tmp/root/usr/share/redlab" "$tmp/version.txt" || fail "unpacked, its files: $(grep data: "$tmp/version.txt")"
(cd "$tmp" && "$tmp/root/usr/bin/redlab" lesson list > lessons.txt 2>&1) && grep -q "^harris " "$tmp/lessons.txt" ||
  fail "unpacked, lesson list: $(cat "$tmp/lessons.txt")"
[ "$fails" -eq 0 ] && echo "ok: $(basename "$deb"): Depends: $depends"
exit $((fails > 0))
