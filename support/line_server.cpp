// A program answering requests a line at a time, over a socket pair (its standard input, written
// with MSG_NOSIGNAL) and two pipes (its standard output and error).
#include "support/line_server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "support/error.hpp"
#include "support/interrupt.hpp"

extern char** environ;

namespace mctsat {
namespace {

constexpr std::size_t kKeptErrorBytes = 64 << 10;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

LineServer::LineServer(const std::vector<std::string>& argv) {
  if (argv.empty()) throw Error("LineServer: no program given");
  std::array<int, 2> request{-1, -1}, out{-1, -1}, err{-1, -1};
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, request.data()) != 0 ||
      pipe2(out.data(), O_CLOEXEC) != 0 || pipe2(err.data(), O_CLOEXEC) != 0) {
    const std::string reason = std::strerror(errno);
    for (int* fd : {&request[0], &request[1], &out[0], &out[1], &err[0], &err[1]}) close_fd(*fd);
    throw Error("cannot create the pipes to " + argv[0] + ": " + reason);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, request[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  std::vector<std::string> arguments = argv;
  std::vector<char*> c_argv;
  for (std::string& a : arguments) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);
  const int spawned = posix_spawnp(&pid_, c_argv[0], &actions, nullptr, c_argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close_fd(request[1]);
  close_fd(out[1]);
  close_fd(err[1]);
  to_child_ = request[0];
  from_child_ = out[0];
  child_errors_ = err[0];
  if (spawned != 0) {
    pid_ = -1;
    close_fd(to_child_);
    close_fd(from_child_);
    close_fd(child_errors_);
    throw Error(argv[0] + " cannot be started: " + std::strerror(spawned));
  }
  kill_on_interrupt_ = std::make_unique<InterruptKillsChild>(pid_);
}

LineServer::~LineServer() {
  close_fd(to_child_);
  if (pid_ > 0) {
    // Its input closed, it should end; a second later it is killed.
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  close_fd(from_child_);
  close_fd(child_errors_);
}

void LineServer::fail(const std::string& what) {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    kill_on_interrupt_.reset();
  }
  close_fd(to_child_);
  // What it wrote to standard error before it ended (a descendant still holding the pipe gets a
  // tenth of a second).
  while (child_errors_ >= 0) {
    pollfd errors{child_errors_, POLLIN, 0};
    if (poll(&errors, 1, 100) <= 0 || !read_errors()) break;
  }
  throw Error(what + (errors_.empty() ? std::string() : ": " + errors_));
}

bool LineServer::read_errors() {
  std::array<char, 4096> buffer{};
  const ssize_t n = ::read(child_errors_, buffer.data(), buffer.size());
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) {
    close_fd(child_errors_);
    return false;
  }
  errors_.append(buffer.data(), static_cast<std::size_t>(n));
  if (errors_.size() > kKeptErrorBytes) errors_.erase(0, errors_.size() - kKeptErrorBytes);
  return true;
}

std::string LineServer::ask(const std::string& request, double seconds) {
  if (pid_ < 0) throw Error("the program answering requests has ended");
  const std::string line = request + "\n";
  for (std::size_t sent = 0; sent < line.size();) {
    const ssize_t n = ::send(to_child_, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("the program ended before it was asked");
    sent += static_cast<std::size_t>(n);
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(seconds));
  std::array<char, 4096> buffer{};
  for (;;) {
    if (const auto newline = pending_.find('\n'); newline != std::string::npos) {
      std::string answer = pending_.substr(0, newline);
      pending_.erase(0, newline + 1);
      return answer;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) fail("no answer within " + std::to_string(seconds) + " s");
    std::array<pollfd, 2> fds{{{from_child_, POLLIN, 0}, {child_errors_, POLLIN, 0}}};
    if (poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left, 1000))) < 0) {
      if (errno == EINTR) continue;
      fail(std::string("poll failed: ") + std::strerror(errno));
    }
    if (fds[1].revents != 0) read_errors();
    if (fds[0].revents != 0) {
      const ssize_t n = ::read(from_child_, buffer.data(), buffer.size());
      if (n > 0)
        pending_.append(buffer.data(), static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR)
        fail("the program ended without answering");
    }
  }
}

}  // namespace mctsat
