// Only in the sanitizer build (REDLAB_SANITIZE; scripts/dev test makes it): defaults that every redlab executable
// and test carries, so that running them, by ctest or by hand, needs no environment.
extern "C" {

// UBSan: a report ends the process (-fno-sanitize-recover=all) with the stack that led to it.
const char* __ubsan_default_options() { return "print_stacktrace=1"; }
}
