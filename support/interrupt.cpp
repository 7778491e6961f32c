// SIGINT/SIGTERM handlers over fixed tables of child processes and temporary files (no allocation
// in the handler), each entry owned by the process that registered it.
#include "support/interrupt.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>

namespace mctsat {
namespace {

constexpr int kChildSlots = 256, kFileSlots = 64, kDirectorySlots = 16;
constexpr std::size_t kMaxPath = 4096;

struct ChildSlot {
  std::atomic<pid_t> owner{0};  // 0: free
  std::atomic<pid_t> child{0};
};
struct FileSlot {
  std::atomic<pid_t> owner{0};  // 0: free; set after `path` is written
  char path[kMaxPath];
};

std::array<ChildSlot, kChildSlots> children;
std::array<FileSlot, kFileSlots> files;
std::array<FileSlot, kDirectorySlots> directories;

// Removes the files in `path` and then the directory, with system calls only (getdents64 into a
// static buffer: no allocation, safe in a signal handler).
void remove_flat_directory(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) static char buffer[8192];
    for (;;) {
      const long n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
      if (n <= 0) break;
      for (long at = 0; at < n;) {
        const auto* entry = reinterpret_cast<const dirent64*>(buffer + at);
        const char* name = entry->d_name;
        if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0) ::unlinkat(fd, name, 0);
        at += entry->d_reclen;
      }
    }
    ::close(fd);
  }
  ::rmdir(path);
}

void write_stderr(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

std::atomic<int> deferring{0};       // live DeferInterrupts guards
std::atomic<int> pending_signal{0};  // a signal that arrived while deferring

void on_interrupt(int signal) {
  if (deferring.load() > 0) {
    pending_signal.store(signal);
    return;
  }
  const pid_t self = ::getpid();
  for (ChildSlot& slot : children) {
    if (slot.owner.load() == self) {
      const pid_t child = slot.child.load();
      if (child > 0) ::kill(child, SIGKILL);
    }
  }
  for (FileSlot& slot : files)
    if (slot.owner.load() == self) ::unlink(slot.path);
  for (FileSlot& slot : directories)
    if (slot.owner.load() == self) remove_flat_directory(slot.path);
  write_stderr(signal == SIGINT
                   ? "\nmctsat: interrupted (SIGINT): stopped, no partial output left\n"
                   : "\nmctsat: terminated (SIGTERM): stopped, no partial output left\n");
  ::_exit(128 + signal);
}

template <class Slots>
int claim(Slots& slots) {
  for (int i = 0; i < static_cast<int>(slots.size()); ++i) {
    pid_t free = 0;
    // -1 marks a slot being filled in: the handler skips it (its owner is not a real pid).
    if (slots[i].owner.compare_exchange_strong(free, -1)) return i;
  }
  return -1;
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

void reset_interrupts_after_fork() {
  deferring.store(0);
  pending_signal.store(0);
}

DeferInterrupts::DeferInterrupts() {
  deferring.fetch_add(1);
}

DeferInterrupts::~DeferInterrupts() {
  if (deferring.fetch_sub(1) == 1) {
    if (const int signal = pending_signal.exchange(0); signal != 0) on_interrupt(signal);
  }
}

int deferred_interrupt() {
  return pending_signal.load();
}

InterruptKillsChild::InterruptKillsChild(pid_t child) : slot_(claim(children)) {
  if (slot_ < 0) return;
  children[slot_].child.store(child);
  children[slot_].owner.store(::getpid());
}

InterruptKillsChild::~InterruptKillsChild() {
  if (slot_ < 0) return;
  children[slot_].owner.store(-1);
  children[slot_].child.store(0);
  children[slot_].owner.store(0);
}

InterruptRemovesFile::InterruptRemovesFile(const std::string& path) : slot_(-1) {
  if (path.size() >= kMaxPath) return;
  slot_ = claim(files);
  if (slot_ < 0) return;
  std::memcpy(files[slot_].path, path.c_str(), path.size() + 1);
  files[slot_].owner.store(::getpid());
}

InterruptRemovesFile::~InterruptRemovesFile() {
  if (slot_ >= 0) files[slot_].owner.store(0);
}

InterruptRemovesDirectory::InterruptRemovesDirectory(const std::string& path) : slot_(-1) {
  if (path.size() >= kMaxPath) return;
  slot_ = claim(directories);
  if (slot_ < 0) return;
  std::memcpy(directories[slot_].path, path.c_str(), path.size() + 1);
  directories[slot_].owner.store(::getpid());
}

InterruptRemovesDirectory::~InterruptRemovesDirectory() {
  if (slot_ >= 0) directories[slot_].owner.store(0);
}

namespace {
std::atomic<HostInterruptCheck*> host_check{nullptr};
}  // namespace

HostInterruptCheck::HostInterruptCheck(std::function<void()> check)
    : check_(std::move(check)), previous_(host_check.exchange(this)) {}

HostInterruptCheck::~HostInterruptCheck() {
  host_check.store(previous_);
}

void poll_host_interrupt() {
  // The check_ of a guard is only read while the guard exists (the work it guards runs within it).
  if (HostInterruptCheck* check = host_check.load()) {
    if (check->check_) check->check_();
  }
}

}  // namespace mctsat
