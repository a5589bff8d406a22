#!/usr/bin/env bash
# A student's kernel file cannot hurt the student or the machine, tried as a hostile or careless user would:
# - ten `stats --source` of one new file started together all succeed with the same trace digest (one cache
#   folder, each build in a fresh folder renamed into place);
# - SIGKILL of redlab while a kernel file runs, or while it compiles, leaves no redlab, compiler or kernel process
#   2 s later; a kernel that calls fork() leaves no copy once its run ends, nor one that forks, calls setsid() and
#   forks again; one that stops its supervisor ends in a sentence within seconds; a global whose destructor aborts
#   after the run keeps the run's results and is named as such;
# - the compiler's limits: memory (an #include of /dev/zero, a template that instantiates without end) and
#   captured output (megabytes of errors) end in a sentence naming the limit;
# - a library planted or truncated in the cache is never loaded (it is rebuilt, with one line saying so); a header
#   beside the student's file named as one of redlab's does not replace it; the cache is private (0700) and a
#   cache folder another user could change is refused with a sentence; the cache is pruned to its cap;
# - a pipe or /dev/stdin as --source is refused in a sentence, not read twice or waited on.
#   test_kernel_file_safety.sh REDLAB [asan]     asan: the sanitizer build, where ASan itself reports an allocation
#                                                larger than it supports (the kernel's too-large new is not tried)
set -u
R=$(realpath "$1")
BUILD=${2:-plain}
. "$(dirname "$0")/lib.sh"   # tmp, fail, ok, finish
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp"
edit() {  # edit FILE OLD NEW
  python3 - "$@" <<'PY'
import sys
f, old, new = sys.argv[1:]
s = open(f).read()
assert old in s, old
open(f, "w").write(s.replace(old, new, 1))
PY
}
# Processes of this test's files still running (the compiler's arguments and the second redlab's name them).
left() { pgrep -f "$tmp" | grep -vx "$$" | while read -r p; do ps -o pid=,args= -p "$p"; done | grep -v pgrep; }

"$R" new-kernel mine.cu --from interleaved >/dev/null || { echo "FAIL new-kernel"; exit 1; }

# 1. Ten at once, a file never compiled before.
for i in $(seq 10); do "$R" stats --source mine.cu --backend cpu --n 4096 --json >"at$i.json" 2>"at$i.err" & done
codes=""
for j in $(jobs -p); do wait "$j"; codes="$codes $?"; done
digests=$(for i in $(seq 10); do python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['summary']['trace_digest'])" "at$i.json" 2>/dev/null || echo none; done | sort -u)
if [ "$(echo $codes)" = "0 0 0 0 0 0 0 0 0 0" ] && [ "$(echo "$digests" | wc -l)" = 1 ] && [ "$digests" != none ]; then
  ok "ten concurrent runs of one new file: all exit 0, digest $digests"
else
  fail "ten concurrent runs: exits$codes, digests $(echo $digests)"; cat at*.err | sort | uniq -c | head
fi
cache=$tmp/cache/redlab/kernels
mode=$(stat -c %a "$cache")
[ "$mode" = 700 ] && ok "the kernel cache is private (mode $mode)" || fail "the kernel cache's mode is $mode, not 700"
[ "$(ls -d "$cache"/mine-* | wc -l)" = 1 ] || fail "one file should make one cache folder: $(ls "$cache")"
[ -z "$(ls -a "$cache" | grep '^\.build-')" ] || fail "half-built folders were left: $(ls -a "$cache")"

# 2. A planted library: one of another program's, in the place of the compiled kernel, and in a folder of its own.
cat >planted.cpp <<EOF
#include <cstdio>
__attribute__((constructor)) static void planted() { std::FILE* f = std::fopen("$tmp/PLANTED", "w"); if (f) std::fclose(f); }
EOF
c++ -shared -fPIC planted.cpp -o planted.so || fail "cannot build the planted library"
dir=$(ls -d "$cache"/mine-*)
cp planted.so "$dir/libmine.so"
"$R" stats --source mine.cu --backend cpu --n 4096 >/dev/null 2>planted.err
rc=$?
if [ -e PLANTED ]; then fail "a library planted in the cache was loaded (its constructor ran)"
elif [ $rc != 0 ] || ! grep -q "not as redlab left it" planted.err || ! grep -q "compiled mine.cu" planted.err; then
  fail "a planted library: exit $rc, should be rebuilt with one line saying so:"; cat planted.err
else ok "a library planted over the compiled kernel is not loaded; it is rebuilt: $(head -1 planted.err | cut -c1-150)..."; fi
mkdir -p "$cache/evil" && cp planted.so "$cache/evil/libevil.so"
"$R" stats --load-kernel "$cache/evil/libevil.so" --kernel evil >/dev/null 2>evil.err
rc=$?
if [ -e PLANTED ] || [ $rc != 2 ] || ! grep -q "not one redlab built" evil.err; then
  fail "--load-kernel of an unsealed library: exit $rc, planted ran: $([ -e PLANTED ] && echo yes || echo no)"; cat evil.err
else ok "an unsealed library given to --load-kernel is refused: $(cut -c1-120 evil.err)..."; fi
# A truncated library: rebuilt, and the run succeeds.
dir=$(ls -d "$cache"/mine-*)
head -c 1000 "$dir/libmine.so" >cut.so && cp cut.so "$dir/libmine.so"
if "$R" stats --source mine.cu --backend cpu --n 4096 >/dev/null 2>cut.err && grep -q "compiled mine.cu" cut.err; then
  ok "a truncated library is rebuilt"
else fail "a truncated library:"; cat cut.err; fi

# 3. A header beside the file named as one of redlab's does not replace it.
mkdir -p shadow/exec && cp mine.cu shadow/mine2.cu
edit shadow/mine2.cu '.id = "mine"' '.id = "mine2"'
echo '#error the student folder shadowed redlab header' >shadow/register.cuh
cp shadow/register.cuh shadow/exec/user_launch.h
cp shadow/register.cuh shadow/probe.cuh
if "$R" stats --source shadow/mine2.cu --backend cpu --n 4096 >/dev/null 2>shadow.err; then
  ok "register.cuh, probe.cuh and exec/user_launch.h beside the file do not replace redlab's"
else fail "a header beside the file replaced redlab's:"; head -5 shadow.err; fi

# 4. Processes end with redlab: SIGKILL during a run (the kernel spins) and during a compile.
cp mine.cu spin.cu
edit spin.cu '.id = "mine"' '.id = "spin"'
edit spin.cu '  probe.step(Phase::load);
  probe.active();' '  probe.step(Phase::load);
  probe.active();
  if (tid == 0 && blockIdx.x == 0) { volatile unsigned long spins = 0; while (true) ++spins; }'
"$R" stats --source spin.cu --backend cpu --n 4096 --time-limit 60 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -n "$(left | grep load-kernel)" ] && break; sleep 0.1; done
[ -n "$(left | grep load-kernel)" ] || fail "the spinning kernel's run never started"
kill -KILL $pid; wait $pid 2>/dev/null
sleep 2
if [ -z "$(left)" ]; then ok "SIGKILL during a kernel file's run: no process left 2 s later"
else fail "SIGKILL during a run left:"; left; fi
# A kernel that forks: the copy ends with the run.
cp mine.cu forks.cu
edit forks.cu '.id = "mine"' '.id = "forks"'
edit forks.cu '  probe.step(Phase::load);
  probe.active();' '  probe.step(Phase::load);
  probe.active();
  if (tid == 0 && blockIdx.x == 0 && fork() == 0) { volatile unsigned long spins = 0; while (true) ++spins; }'
edit forks.cu '#include' '#include <unistd.h>
#include'
timeout 60 "$R" stats --source forks.cu --backend cpu --n 4096 >/dev/null 2>forks.err
sleep 1
if [ -z "$(left)" ]; then ok "a kernel that calls fork() leaves no copy once its run ends"
else fail "a kernel's fork() outlived the run:"; left; fi
# A kernel that leaves the run's session: fork, setsid(), fork again (a daemon's double fork; the grandchild is in no
# process group redlab started). The supervisor is the sub-reaper of everything the run starts: none is left 2 s later.
cp mine.cu daemon.cu
edit daemon.cu '.id = "mine"' '.id = "daemon"'
edit daemon.cu '  probe.step(Phase::load);
  probe.active();' '  probe.step(Phase::load);
  probe.active();
  if (tid == 0 && blockIdx.x == 0 && fork() == 0) {
    setsid();
    if (fork() == 0) { volatile unsigned long spins = 0; while (true) ++spins; }
    _exit(0);
  }'
edit daemon.cu '#include' '#include <unistd.h>
#include'
timeout 60 "$R" stats --source daemon.cu --backend cpu --n 4096 >/dev/null 2>daemon.err
sleep 2
if [ -z "$(left)" ]; then ok "a kernel that forks, calls setsid() and forks again leaves no process 2 s after the run"
else fail "a kernel's double fork outlived the run:"; left; pkill -KILL -f "$tmp/cache"; fi
# A kernel that stops its supervisor (kill(getppid(), SIGSTOP)): noticed at once, everything of the run ended, a
# sentence and exit 2 within the time limit (the command waited past 60 s).
cp mine.cu stopper.cu
edit stopper.cu '.id = "mine"' '.id = "stopper"'
edit stopper.cu '  probe.step(Phase::load);
  probe.active();' '  probe.step(Phase::load);
  probe.active();
  if (tid == 0 && blockIdx.x == 0) kill(getppid(), SIGSTOP);'
edit stopper.cu '#include' '#include <signal.h>
#include <unistd.h>
#include'
t0=$(date +%s)
timeout 60 "$R" stats --source stopper.cu --backend cpu --n 4096 --time-limit 2 >/dev/null 2>stopper.err
rc=$?; took=$(( $(date +%s) - t0 ))
sleep 1
if [ $rc -eq 2 ] && [ $took -le 10 ] && grep -q "stopped" stopper.err && [ -z "$(left)" ]; then
  ok "a kernel that stops its supervisor: exit 2 after ${took} s, nothing left: $(tail -1 stopper.err)"
else
  fail "a kernel that stops its supervisor: exit $rc after ${took} s: $(tail -2 stopper.err)"; left; pkill -KILL -f "$tmp/cache"
fi
# A global of the file's whose destructor aborts: the run's results are out (stdout a file: they were lost, the
# buffer never flushed) and the line says the process failed after its run, not in a thread of the kernel ("thread
# (246,0,0)" was blamed); exit 2.
cp mine.cu atexit.cu
edit atexit.cu '.id = "mine"' '.id = "atexit"'
edit atexit.cu '#include' '#include <cstdlib>
struct AbortsAtExit { ~AbortsAtExit() { std::abort(); } } aborts_at_exit;
#include'
timeout 120 "$R" stats --source atexit.cu --backend cpu --n 4096 --json >atexit.json 2>atexit.err
rc=$?
if [ $rc -eq 2 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))["summary"]' atexit.json 2>/dev/null &&
   grep -q "after the run had ended" atexit.err && ! grep -q "thread (" atexit.err; then
  ok "a destructor that aborts after the run: the results kept, exit 2: $(tail -1 atexit.err | cut -c1-100)"
else
  fail "a destructor that aborts after the run: exit $rc, $(wc -c <atexit.json) bytes of results: $(tail -2 atexit.err)"
fi
# A compile that takes long (a template that instantiates 2^30 classes), killed midway.
cp mine.cu blow.cu
edit blow.cu '.id = "mine"' '.id = "blow"'
cat >>blow.cu <<'EOF'
template <int N, long M> struct Blow { static const long v = Blow<N - 1, M * 2>::v ^ Blow<N - 1, M * 2 + 1>::v; };
template <long M> struct Blow<0, M> { static const long v = M; };
long blow_value = Blow<30, 0>::v;
EOF
"$R" stats --source blow.cu --backend cpu >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -n "$(left | grep -v "stats --source")" ] && break; sleep 0.1; done
sleep 1
[ -n "$(left | grep -v "stats --source")" ] || fail "the compile of blow.cu never started"
kill -KILL $pid; wait $pid 2>/dev/null
sleep 2
if [ -z "$(left)" ]; then ok "SIGKILL during a compile: no compiler left 2 s later"
else fail "SIGKILL during a compile left:"; left; fi

# 5. The compiler's limits, each named.
t0=$(date +%s)
"$R" stats --source blow.cu --backend cpu >/dev/null 2>blow.err
rc=$?
if [ $rc = 2 ] && grep -q "ran out of the 2 GiB of memory" blow.err; then
  ok "a template without end stops at the compiler's memory limit in $(( $(date +%s) - t0 )) s: $(grep 'ran out' blow.err | cut -c1-110)..."
else fail "template without end: exit $rc:"; tail -3 blow.err; fi
cp mine.cu zero.cu
edit zero.cu '.id = "mine"' '.id = "zero"'
edit zero.cu '#include' '#include "/dev/zero"
#include'
"$R" stats --source zero.cu --backend cpu >/dev/null 2>zero.err
rc=$?
[ $rc = 2 ] && grep -q "ran out of the 2 GiB of memory" zero.err && ok "#include \"/dev/zero\" stops at the memory limit" \
  || { fail "#include /dev/zero: exit $rc:"; tail -3 zero.err; }
cp mine.cu garbage.cu
edit garbage.cu '.id = "mine"' '.id = "garbage"'
python3 -c "
import random
random.seed(1)
with open('garbage.cu', 'a') as f:
    for i in range(40000): f.write('int x%d = @#%d; struct { } %d;\n' % (i, i, i))"
"$R" stats --source garbage.cu --backend cpu >/dev/null 2>garbage.err
rc=$?
size=$(stat -c %s garbage.err)
if [ $rc = 2 ] && [ "$size" -lt 200000 ] && grep -q "does not compile" garbage.err; then
  ok "$(stat -c %s garbage.cu) bytes of garbage: $size bytes of messages ($(grep -c 'error:' garbage.err) errors shown)"
else fail "garbage: exit $rc, $size bytes of messages"; fi

# The compiler quotes a line with an escape sequence in it (a title-changing one here): it reaches the terminal
# escaped.
cp mine.cu esc.cu
edit esc.cu '.id = "mine"' '.id = "esc"'
printf 'int esc_value = 1 +; // \033]0;owned\007\033[31m red\n' >> esc.cu
"$R" stats --source esc.cu --backend cpu >/dev/null 2>esc.err
rc=$?
if [ $rc = 2 ] && grep -q "esc.cu:[0-9]*:" esc.err && ! grep -q "$(printf '\033')" esc.err; then
  ok "a compile error on a line with escape sequences: shown escaped ($(grep -o 'x1b\]0;owned' esc.err | head -1))"
else fail "escape sequences in the compiler's messages: exit $rc"; cat -v esc.err | head -5; fi

# 6. A pipe or /dev/stdin as the file: refused in a sentence, without waiting.
mkfifo pipe.cu
timeout 10 "$R" stats --source pipe.cu --backend cpu >/dev/null 2>pipe.err
rc=$?
[ $rc = 2 ] && grep -q "not a regular file" pipe.err && ok "a FIFO as --source: $(cut -c1-100 pipe.err)..." \
  || { fail "a FIFO as --source: exit $rc"; cat pipe.err; }
cat mine.cu | timeout 10 "$R" stats --source /dev/stdin --backend cpu >/dev/null 2>stdin.err
rc=${PIPESTATUS[1]}
[ $rc = 2 ] && grep -q "not a regular file" stdin.err && ok "/dev/stdin (a pipe) as --source is refused" \
  || { fail "/dev/stdin as --source: exit $rc"; cat stdin.err; }

# 7. A cache folder that others could change, or another user's, is refused with a sentence; a read-only one says so
#    and does not blame the file.
mkdir -p open/redlab && chmod 777 open/redlab
XDG_CACHE_HOME=$tmp/open "$R" stats --source mine.cu --backend cpu >/dev/null 2>open.err
rc=$?
[ $rc = 2 ] && grep -q "can be changed by other users" open.err && ! grep -q "does not compile" open.err \
  && ok "a cache under a folder anyone may write: $(cut -c1-120 open.err)..." || { fail "open cache folder: exit $rc"; cat open.err; }
if [ "$(id -u)" = 0 ]; then
  mkdir -p other/redlab/kernels && chown -R 12345 other/redlab
  XDG_CACHE_HOME=$tmp/other "$R" stats --source mine.cu --backend cpu >/dev/null 2>other.err
  rc=$?
  [ $rc = 2 ] && grep -q "belongs to another user" other.err && ok "another user's cache folder is refused" \
    || { fail "another user's cache folder: exit $rc"; cat other.err; }
else
  mkdir -p ro/redlab/kernels && chmod 500 ro/redlab/kernels
  XDG_CACHE_HOME=$tmp/ro "$R" stats --source mine.cu --backend cpu >/dev/null 2>ro.err
  rc=$?
  [ $rc = 2 ] && ! grep -q "does not compile" ro.err && ok "a read-only cache: $(cut -c1-100 ro.err)..." || { fail "read-only cache: exit $rc"; cat ro.err; }
fi

# A cache that cannot be made (here under a regular file, as a read-only disk would refuse it too): the message
# says so and does not blame the file.
echo "not a folder" > notafolder
XDG_CACHE_HOME=$tmp/notafolder "$R" stats --source mine.cu --backend cpu >/dev/null 2>nodir.err
rc=$?
[ $rc = 2 ] && ! grep -q "does not compile" nodir.err && grep -q "no folder to keep compiled kernels in" nodir.err \
  && ok "a cache that cannot be made: $(cut -c1-110 nodir.err)..." || { fail "a cache that cannot be made: exit $rc"; cat nodir.err; }

# 8. Pruned to the cap: with a cap of 0 MB the folders not used in the last ten minutes go, oldest first.
for k in old1 old2; do
  cp mine.cu "$k.cu" && edit "$k.cu" '.id = "mine"' ".id = \"$k\"" && "$R" stats --source "$k.cu" --backend cpu >/dev/null 2>&1
done
touch -d '2 hours ago' "$cache"/old1-* "$cache"/old2-*
mkdir "$cache/.build-left" && touch -d '2 hours ago' "$cache/.build-left"
cp mine.cu new.cu && edit new.cu '.id = "mine"' '.id = "new"'
REDLAB_KERNEL_CACHE_MB=0 "$R" stats --source new.cu --backend cpu >/dev/null 2>&1
if ls -d "$cache"/old1-* "$cache"/old2-* >/dev/null 2>&1 || [ -e "$cache/.build-left" ] || ! ls -d "$cache"/new-* >/dev/null 2>&1; then
  fail "pruning: $(ls -a "$cache" | tr '\n' ' ')"
else ok "pruned to the cap: the folders unused for 2 hours and a half-built one are gone, the new one kept"; fi

# 9. Messages that name the real cause: a compiler that is not there or not GCC (not "does not compile"), a kernel
#    that overflows its stack or allocates more than the machine has (exit 2, naming the thread).
for cxx in "ccache-not-installed g++" "no-such-compiler" "clang++"; do
  if [ "$cxx" = clang++ ] && ! command -v clang++ >/dev/null; then continue; fi
  CXX="$cxx" XDG_CACHE_HOME=$tmp/cxx "$R" stats --source mine.cu --backend cpu >/dev/null 2>cxx.err
  rc=$?
  if [ $rc = 2 ] && ! grep -q "does not compile" cxx.err && grep -q "g++" cxx.err; then ok "CXX=$cxx: $(tail -1 cxx.err | cut -c1-110)..."
  else fail "CXX=$cxx: exit $rc:"; cat cxx.err; fi
done
cp mine.cu deep.cu && cp mine.cu big.cu
edit deep.cu '.id = "mine"' '.id = "deep"'
edit deep.cu 'template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void mine(' '__device__ int deep_sum(int k) { volatile int pad[64]; pad[0] = k; return k <= 0 ? pad[0] : deep_sum(k - 1) + pad[0]; }

template <unsigned BLOCK, class T, class Op, class Probe>
__global__ void mine('
edit deep.cu '  probe.step(Phase::load);
  probe.active();' '  probe.step(Phase::load);
  probe.active();
  if (tid == 3) s_mem[0] = T(deep_sum(int(n)));'
"$R" stats --source deep.cu --backend cpu --n 1000000 >/dev/null 2>deep.err
rc=$?
[ $rc = 2 ] && grep -q "stack overflow.*thread (3,0,0)" deep.err && ok "a recursion too deep: $(tail -1 deep.err | cut -c1-120)..." \
  || { fail "a stack overflow: exit $rc:"; cat deep.err; }
edit big.cu '.id = "mine"' '.id = "big"'
edit big.cu '  probe.step(Phase::load);
  probe.active();' '  probe.step(Phase::load);
  probe.active();
  if (tid == 5) { T* big = new T[1ull << 60]; big[0] = T(1); s_mem[0] = big[0]; }'
if [ "$BUILD" = asan ]; then
  echo "skip new of 2^60 elements in a kernel: ASan reports an allocation that large itself (allocation-size-too-big)"
else
  "$R" stats --source big.cu --backend cpu >/dev/null 2>big.err
  rc=$?
  [ $rc = 2 ] && grep -q "allocation.*thread (5,0,0)" big.err && ok "new of 2^60 elements in a kernel: $(tail -1 big.err | cut -c1-120)..." \
    || { fail "an allocation too large: exit $rc:"; cat big.err; }
fi

# 10. new-kernel --force and trace -o keep the file's mode, and write through a symlink to the file it names.
cp mine.cu kept.cu && chmod 640 kept.cu && ln -s kept.cu kept_link.cu
"$R" new-kernel kept_link.cu --from warp_shuffle --force >/dev/null 2>&1
[ "$(stat -c %a kept.cu)" = 640 ] && [ -L kept_link.cu ] && grep -q '"kept_link"' kept.cu \
  && ok "new-kernel --force keeps the mode (640) and the symlink" \
  || fail "new-kernel --force: mode $(stat -c %a kept.cu), link $(stat -c %F kept_link.cu)"
"$R" trace --kernel interleaved --n 256 --backend cpu -o t.rltrace >/dev/null 2>&1 && chmod 600 t.rltrace && ln -s t.rltrace t_link.rltrace
"$R" trace --kernel interleaved --n 512 --backend cpu -o t_link.rltrace --force >/dev/null 2>&1
[ "$(stat -c %a t.rltrace)" = 600 ] && [ -L t_link.rltrace ] && ok "trace -o through a symlink keeps the link and the mode" \
  || fail "trace -o: mode $(stat -c %a t.rltrace), link $(stat -c %F t_link.rltrace)"

finish kernel_file_safety
