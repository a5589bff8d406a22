# Sourced by the shell tests (bash): a scratch folder that goes at exit with anything still running from it, the
# failures counted, and the summary line that ends a test.
#   fail MESSAGE   a failure, counted (the test goes on)
#   ok MESSAGE     a check that passed, said
#   finish NAME    "NAME: N failure(s)"; the status is 0 only without failures (the test's last command)
fails=0
tmp=$(mktemp -d)
trap 'pkill -KILL -f "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
ok() { echo "ok   $*"; }
finish() { echo "$1: $fails failure(s)"; [ "$fails" -eq 0 ]; }
