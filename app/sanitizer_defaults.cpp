// Only in the sanitizer build (REDLAB_SANITIZE; scripts/dev test makes it): defaults that every redlab executable
// and test carries, so that running them, by ctest or by hand, needs no environment.
extern "C" {

// LeakSanitizer: two 56-byte blocks that the UBSan runtime allocates for itself (calloc called from inside
// libubsan, with no frame of redlab's above it) are reported at the exit of every process that opened a window.
// They are the runtime's, not a leak of redlab's; any leak with another frame in its stack is still reported.
const char* __lsan_default_suppressions() { return "leak:libubsan.so\n"; }

// UBSan: a report ends the process (-fno-sanitize-recover=all) with the stack that led to it.
const char* __ubsan_default_options() { return "print_stacktrace=1"; }

}
