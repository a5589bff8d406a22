#include "core/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace redlab {

std::string failed_after_the_run(const std::string& err) {
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(kFailedAfterTheRun, 0) == 0) return line;
  return {};
}

std::string self_executable() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
}

namespace {

// What the supervisor tells the parent, one message per write (smaller than PIPE_BUF: never interleaved).
struct Report {
  char tag;  // 'P': the child's pid (its group), 'S': its wait status, 'E': exec failed (errno), 'F': fork failed
  bool stopped;
  int value;
};

// The supervisor's fixed descriptors, moved there before it forks the child.
constexpr int kLifeFd = 3, kReportFd = 4, kOutFd = 5, kErrFd = 6, kFirstFree = 7;

void send(char tag, int value, bool stopped = false) {
  const Report m{tag, stopped, value};
  while (write(kReportFd, &m, sizeof m) < 0 && errno == EINTR) {}
}

void close_from(int first) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, first, ~0U, 0) == 0) return;
#endif
  rlimit files{};
  const int last = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? int(files.rlim_cur) : 65536;
  for (int fd = first; fd < last; ++fd) close(fd);
}

// Every process left with the supervisor as its parent once the child is reaped: what the child started and left
// behind, given to the sub-reaper. Killed and reaped, round after round (one killed may have forked first: its
// children come here too), from /proc's list of this (single-threaded) process's children. System calls only
// (supervise says why).
void end_orphans() {
  const char* path = "/proc/thread-self/children";
  for (int round = 0; round < 1000; ++round) {
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char buf[4096];
    const ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0) return;  // none left
    pid_t pid = 0;
    for (ssize_t i = 0; i <= got; ++i) {
      if (i < got && buf[i] >= '0' && buf[i] <= '9') {
        pid = pid * 10 + (buf[i] - '0');
      } else if (pid > 0) {
        kill(pid, SIGKILL);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        pid = 0;
      }
    }
  }
}

// The forked supervisor. It runs in a copy of a process that may have many threads, so it calls only
// async-signal-safe functions (system calls) and never returns.
[[noreturn]] void supervise(const char* program, char* const* argv, int fds_in[4], const rlimit* as,
                            const rlimit* cpu) {
  // Ctrl+C and the terminal's other signals reach this process's group: the parent answers them, and its end
  // (the lifeline's end of file) is what makes the supervisor clean up.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  for (int sig : {SIGINT, SIGQUIT, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE}) sigaction(sig, &ignore, nullptr);
  int high[4];
  for (int i = 0; i < 4; ++i) high[i] = fds_in[i] >= 0 ? fcntl(fds_in[i], F_DUPFD_CLOEXEC, 64) : -1;
  for (int i = 0; i < 4; ++i)
    if (high[i] >= 0) {
      dup2(high[i], kLifeFd + i);
      fcntl(kLifeFd + i, F_SETFD, FD_CLOEXEC);
    } else {
      close(kLifeFd + i);
    }
  // Nothing else of the parent's: another child's pipe held here would keep that child's output open.
  close_from(kFirstFree);
  const bool piped = fds_in[2] >= 0;
  const pid_t self = getpid();
  // The sub-reaper of everything the child starts: a process that leaves the child's group and session (a daemon's
  // fork, setsid(), fork) is given to this process when its parent ends, and ended with the run (end_orphans).
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  const pid_t child = fork();
  if (child == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != self) _exit(127);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig)
      if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (const int null = open("/dev/null", O_RDONLY); null >= 0) dup2(null, 0);
    if (piped) {
      dup2(kOutFd, 1);
      dup2(kErrFd, 2);
    }
    if (as) setrlimit(RLIMIT_AS, as);
    if (cpu) setrlimit(RLIMIT_CPU, cpu);
    execve(program, argv, environ);
    send('E', errno);
    _exit(127);
  }
  if (child < 0) {
    send('F', errno);
    _exit(0);
  }
  setpgid(child, child);  // as the child does: whichever runs first
  if (piped) {
    close(kOutFd);
    close(kErrFd);
  }
  send('P', child);
  while (true) {
    pollfd life{kLifeFd, POLLIN, 0};
    const int ready = poll(&life, 1, 50);
    int status = 0;
    if (ready > 0) {  // the parent closed the lifeline (stop) or ended
      kill(-child, SIGKILL);
      while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
      end_orphans();
      send('S', status, true);
      _exit(0);
    }
    siginfo_t info{};
    if (waitid(P_PID, id_t(child), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == child) {
      kill(-child, SIGKILL);  // what the child left running in its group; it is still unreaped, so the group exists
      while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
      end_orphans();
      send('S', status);
      _exit(0);
    }
  }
}

std::string text_of(int err) { return std::strerror(err); }

}  // namespace

ChildResult run_child(const std::string& program, const std::vector<std::string>& args, double timeout_s,
                      const std::atomic<bool>* cancel) {
  ChildOptions o;
  o.timeout_s = timeout_s;
  o.cancel = cancel;
  return run_child(program, args, o);
}

ChildResult run_child(const std::string& program, const std::vector<std::string>& args, const ChildOptions& opt) {
  ChildResult r;
  int life[2] = {-1, -1}, report[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  auto close_all = [&] {
    for (int* p : {life, report, out, err})
      for (int i = 0; i < 2; ++i)
        if (p[i] >= 0) {
          close(p[i]);
          p[i] = -1;
        }
  };
  bool made = pipe2(life, O_CLOEXEC) == 0 && pipe2(report, O_CLOEXEC) == 0;
  if (made && !opt.pass_output) made = pipe2(out, O_CLOEXEC) == 0 && pipe2(err, O_CLOEXEC) == 0;
  if (!made) {
    r.why = "cannot make a pipe: " + text_of(errno);
    close_all();
    return r;
  }
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const rlimit as{opt.address_space, opt.address_space};
  const rlimit cpu{opt.cpu_seconds, opt.cpu_seconds + 5};  // SIGXCPU at the soft limit, SIGKILL at the hard one
  int fds[4] = {life[0], report[1], out[1], err[1]};
  const pid_t supervisor = fork();
  if (supervisor == 0)
    supervise(program.c_str(), argv.data(), fds, opt.address_space ? &as : nullptr, opt.cpu_seconds ? &cpu : nullptr);
  if (supervisor < 0) {
    r.why = "cannot start " + program + ": " + text_of(errno);
    close_all();
    return r;
  }
  for (int* end : {&life[0], &report[1], &out[1], &err[1]})
    if (*end >= 0) {
      close(*end);
      *end = -1;
    }
  const auto start = std::chrono::steady_clock::now();
  // The read ends belong to the poll list from here (closed there once each, never twice: another thread may
  // have the number again by then).
  pollfd fds_poll[3] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}, {report[0], POLLIN, 0}};
  out[0] = err[0] = report[0] = -1;
  pid_t group = 0;
  int status = 0, start_error = 0;
  bool have_status = false, stopped = false;
  Report partial{};
  std::size_t partial_bytes = 0;
  auto open_count = [&] { return int(fds_poll[0].fd >= 0) + int(fds_poll[1].fd >= 0) + int(fds_poll[2].fd >= 0); };
  while (open_count() > 0) {
    const int ready = poll(fds_poll, 3, 50);
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < 3; ++i) {
      pollfd& p = fds_poll[i];
      if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) continue;
      char buf[65536];
      const ssize_t n =
          i < 2 ? read(p.fd, buf, sizeof buf)
                : read(p.fd, reinterpret_cast<char*>(&partial) + partial_bytes, sizeof partial - partial_bytes);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(p.fd);
        p.fd = -1;
        continue;
      }
      if (i < 2) {
        std::string& to = i == 0 ? r.out : r.err;
        const std::size_t room = opt.max_output == 0           ? std::size_t(n)
                                 : to.size() >= opt.max_output ? 0
                                                               : std::min(std::size_t(n), opt.max_output - to.size());
        to.append(buf, room);
        r.dropped += std::size_t(n) - room;
        continue;
      }
      partial_bytes += std::size_t(n);
      if (partial_bytes < sizeof partial) continue;
      partial_bytes = 0;
      if (partial.tag == 'P')
        group = partial.value;
      else if (partial.tag == 'S')
        have_status = true, status = partial.value, stopped = partial.stopped;
      else
        start_error = partial.value;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (life[1] >= 0 && ((opt.cancel && *opt.cancel) || secs > opt.timeout_s)) {
      r.cancelled = opt.cancel && *opt.cancel;
      r.timed_out = !r.cancelled;
      close(life[1]);  // the supervisor kills the group
      life[1] = -1;
    }
    // A supervisor that cannot answer: stopped (the kernel may signal its parent: kill(getppid(), SIGSTOP)), or
    // not done 5 s after the lifeline closed. It and the child's group are killed here, and the wait ends.
    siginfo_t info{};
    const bool halted = waitid(P_PID, id_t(supervisor), &info, WSTOPPED | WNOHANG | WNOWAIT) == 0 &&
                        info.si_pid == supervisor && info.si_code == CLD_STOPPED;
    if (!have_status && (halted || (life[1] < 0 && secs > opt.timeout_s + 5))) {
      kill(supervisor, SIGKILL);
      if (group > 0) kill(-group, SIGKILL);
      if (halted && !r.cancelled && !r.timed_out) r.supervisor_stopped = true;
      break;
    }
  }
  close_all();
  for (pollfd& p : fds_poll)
    if (p.fd >= 0) close(p.fd);
  int sup_status = 0;
  while (waitpid(supervisor, &sup_status, 0) < 0 && errno == EINTR) {}
  // A supervisor killed from outside leaves the group to this process.
  if (!have_status && group > 0) kill(-group, SIGKILL);
  if (start_error) {
    r.why = "cannot start " + program + ": " + text_of(start_error);
    return r;
  }
  if (r.supervisor_stopped) {
    r.why = "the process that watches the run was stopped (SIGSTOP: a kernel can signal its parent); the run was ended";
    return r;
  }
  if (r.timed_out || r.cancelled) {
    r.why = r.cancelled ? "cancelled" : "no answer within " + std::to_string(int(opt.timeout_s)) + " s";
    return r;
  }
  if (!have_status || stopped) {
    r.why = "it was stopped from outside redlab";
    return r;
  }
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
    r.why = std::string("it ended on signal ") + strsignal(r.signal);
  }
  return r;
}

}  // namespace redlab
