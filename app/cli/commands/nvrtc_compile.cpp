// `redlab nvrtc-compile DIR --arch sm_XY --expression NAME`: a kernel file's GPU instance compiled beside the host
// compiler, in a child redlab under the compiler's limits (exec/user_kernel.cpp starts it; not for users, so it is
// left out of the help).
#if REDLAB_HAVE_CUDA
#include <memory>
#include <string>

#include "cli/command.h"
#include "exec/nvrtc.h"

namespace redlab::cli {
namespace {

class NvrtcCompileCommand : public Command {
  std::string dir_, arch_, expression_;

 public:
  CLI::App* declare(CLI::App& parent) override {
    CLI::App* c = parent.add_subcommand("nvrtc-compile", "")->group("");
    c->add_option("dir", dir_)->required();
    c->add_option("--arch", arch_)->required();
    c->add_option("--expression", expression_)->required();
    return c;
  }
  int run(const Invocation&) override { return nvrtc_compile_command(dir_, arch_, expression_); }
};

const CommandRegistration nvrtc_compile_command{Order::internal,
                                                [] { return std::unique_ptr<Command>(new NvrtcCompileCommand); }};

}  // namespace
}  // namespace redlab::cli
#endif
