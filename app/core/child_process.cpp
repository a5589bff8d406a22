#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace redlab {

std::string self_executable() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
}

ChildResult run_child(const std::string& program, const std::vector<std::string>& args, double timeout_s,
                      const std::atomic<bool>* cancel) {
  ChildResult r;
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    r.why = std::string("cannot make a pipe: ") + std::strerror(errno);
    return r;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    r.why = std::string("cannot make a pipe: ") + std::strerror(errno);
    close(out[0]);
    close(out[1]);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  close(err[1]);
  if (spawned != 0) {
    r.why = "cannot start " + program + ": " + std::strerror(spawned);
    close(out[0]);
    close(err[0]);
    return r;
  }
  const auto start = std::chrono::steady_clock::now();
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  int open_fds = 2;
  bool killed = false;
  while (open_fds > 0) {
    const int ready = poll(fds, 2, 50);
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? r.out : r.err).append(buf, std::size_t(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!killed && ((cancel && *cancel) || secs > timeout_s)) {
      r.why = cancel && *cancel ? "cancelled" : "no answer within " + std::to_string(int(timeout_s)) + " s";
      kill(pid, SIGKILL);
      killed = true;
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!killed) {
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    else r.why = std::string("it ended on signal ") + strsignal(WTERMSIG(status));
  }
  return r;
}

}  // namespace redlab
