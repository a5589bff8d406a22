// Only in the sanitizer build (REDLAB_SANITIZE). There the emulator uses Boost.Context's ucontext fibers, which
// are header-only and tell ASan about every stack switch, including the unwinding of a fiber (BOOST_USE_ASAN).
// They need one function that Boost keeps out of line: the context running on this thread. Debian's
// libboost-context is built for the assembly fibers and lacks it, so it is defined here: each thread starts in
// a record of its own stack (the "main context"), made the first time the thread switches, freed when it ends.
#if defined(BOOST_USE_UCONTEXT)
#include <boost/context/fiber.hpp>

namespace boost::context::detail {

namespace {
struct ThreadMainContext {
  fiber_activation_record* record = new fiber_activation_record();  // getcontext() of this thread's stack
  ~ThreadMainContext() { delete record; }
};
}  // namespace

fiber_activation_record*& fiber_activation_record::current() noexcept {
  thread_local ThreadMainContext main_context;
  thread_local fiber_activation_record* running = main_context.record;
  return running;
}

}  // namespace boost::context::detail
#endif
