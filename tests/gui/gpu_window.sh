#!/usr/bin/env bash
# scripts/gpu-window as the GPU machine meets it: the window's runtime packed here, unpacked into a folder, and run
# where the machine's own X server, xkbcomp, xkb data, Mesa driver, fonts and every library the runtime carries are
# hidden (a mount namespace: the programs bound over with /dev/null, the folders with empty ones), so that a library,
# a font or a data folder missing from the archives fails here, not on the GPU machine. Without a GPU the four
# screenshots are drawn by the emulator (the all-reduce needs two GPUs and is skipped, as the script says).
# usage: gpu_window.sh SOURCE_DIR REDLAB WORK     (exit 77: not root, or no unshare: skipped)
set -u
src=$1 redlab=$2 work=$3
if [ "$(id -u)" != 0 ] || ! command -v unshare > /dev/null; then
  echo "SKIP: the runtime is checked with the machine's own hidden, which needs root and unshare"
  exit 77
fi
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/rt"
# Packed as on the way to the GPU machine, with xz's fastest level (the archives' sizes are not what is tested).
XZ_OPT=-0 "$src/scripts/gpu-window" pack "$work/pack" "$redlab" > "$work/pack.log" 2>&1 ||
  fail "pack: $(tail -3 "$work/pack.log")"
for a in window-runtime window-fonts; do
  tar -C "$work/rt" -xJf "$work/pack/$a.tar.xz" || fail "unpacking $a.tar.xz"
done
[ "$(ls "$work/rt/fonts" | wc -l)" -ge 3 ] || fail "window-fonts.tar.xz holds $(ls "$work/rt/fonts" | wc -l) fonts"

unshare --mount --propagation private bash -c '
  rt=$1 src=$2 redlab=$3 out=$4
  hide_file() { [ -e "$1" ] && mount --bind /dev/null "$1"; return 0; }
  hide_folder() { [ -d "$1" ] && mount -t tmpfs -o size=1m hidden "$1"; return 0; }
  hide_folder /usr/share/fonts
  hide_folder /usr/share/X11/xkb
  hide_file /usr/bin/Xvfb
  hide_file /usr/bin/xkbcomp
  # The library folder as the GPU machine'"'"'s is for the window: glibc, the GPU driver'"'"'s libraries, the C++ runtime,
  # and what the machine'"'"'s own tools load (the shell, mount, coreutils, python3, tar, g++ for the kernel file, which
  # the GPU machine has); nothing of X, Mesa, GLFW or fontconfig, which must all come from the runtime. A library
  # the runtime lacks is then missing here as it would be there.
  lib=/usr/lib/x86_64-linux-gnu
  keep="^(libc|libm|libdl|libpthread|librt|libresolv|libutil|libanl|libnss_.*|libmvec|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so|^(libcuda|libnvidia-.*)\.so"
  tools=()
  for t in bash sh mount mkdir realpath cat sed grep tail seq sleep timeout mktemp python3 tar xz nvidia-smi g++ \
           "$(g++ -print-prog-name=cc1plus 2> /dev/null)" "$(g++ -print-prog-name=collect2 2> /dev/null)" as ld; do
    t=$(command -v "$t") && tools+=("$t")
  done
  needed=$(for t in "${tools[@]}"; do ldd "$t" 2> /dev/null | sed -n "s/.*=> \(\/\S*\).*/\1/p"; done |
           xargs -r realpath | sort -u)
  mkdir -p "$out.lib"
  for f in "$lib"/*; do
    [ -f "$f" ] || continue
    name=${f##*/}
    # (what the linker reads beside the libraries, crt1.o and libc_nonshared.a among them, stays)
    if [[ $name != *.so* ]] || [[ $name =~ $keep ]] || grep -qxF "$(realpath "$f")" <<< "$needed"; then
      cp -a "$f" "$out.lib/"
    fi
  done
  for f in "$out.lib"/*; do  # a kept link'"'"'s file is kept with it
    [ -L "$f" ] && [ ! -e "$f" ] && cp -a "$(realpath "$lib/${f##*/}")" "$out.lib/" 2> /dev/null
  done
  echo "the machine'"'"'s library folder: $(ls "$out.lib" | wc -l) of its $(ls "$lib" | wc -l) entries kept;" \
       "hidden: X, Mesa, the fonts, the xkb data, Xvfb and xkbcomp"
  mount --bind "$out.lib" "$lib" || exit 2
  exec "$src/scripts/gpu-window" run "$rt" "$redlab" "$out"
' gpu-window "$(realpath "$work/rt")" "$src" "$redlab" "$work/out" > "$work/run.log" 2>&1
status=$?
cat "$work/run.log"
[ $status = 0 ] || fail "gpu-window run exited $status"
for shot in default kernel_file transposes lesson; do
  grep -q "^$shot: exit 0 in [0-9]* s; \(A: \)\?backend: " "$work/out/summary.txt" || fail "$shot: $(grep "^$shot" "$work/out/summary.txt")"
done
grep -q "^allreduce skipped: needs 2 GPUs" "$work/out/summary.txt" || nvidia-smi -L > /dev/null 2>&1 ||
  fail "no word of the all-reduce"
grep -q "^font: *none" "$work/out/version.txt" && fail "a font is missing: $(grep '^font:' "$work/out/version.txt")"
grep -q "^font: *$(realpath "$work/rt")/fonts/" "$work/out/version.txt" || fail "the fonts are not the carried ones: $(grep '^font:' "$work/out/version.txt")"
echo "gpu_window: ok"
