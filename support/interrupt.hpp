// Stopping cleanly on SIGINT and SIGTERM. After install_interrupt_handlers(), either signal makes
// the process kill (SIGKILL) the child processes it registered (a CBC solver, the study library's
// runs, programs run_program runs), remove the temporary files it registered (an atomic write under
// way: the final file is never touched, so no partial output is left) and its scratch directories,
// print "interrupted" and exit with 128 + the signal number (130 for SIGINT, 143 for SIGTERM), as a
// shell reports a process the signal killed. Everything the handler does is async-signal-safe. A
// forked child inherits the handler but acts only on what it registered itself.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

namespace mctsat {

void install_interrupt_handlers();

// Called first in a forked child: forgets the parent's deferral (a fork inside a DeferInterrupts
// scope would otherwise leave the child deferring forever) and any pending signal.
void reset_interrupts_after_fork();

// While one exists, an interrupt waits: the handler notes the signal and the guard's destructor
// acts on it. For steps that must not be cut in half (renaming a set of finished files into place)
// and for loops that stop early on their own and record what they stopped (deferred_interrupt()).
class DeferInterrupts {
 public:
  DeferInterrupts();
  ~DeferInterrupts();
  DeferInterrupts(const DeferInterrupts&) = delete;
  DeferInterrupts& operator=(const DeferInterrupts&) = delete;
};

// The signal (SIGINT or SIGTERM) a DeferInterrupts guard is holding back; 0 when none arrived.
int deferred_interrupt();

// Registers a child process to kill on interrupt for the guard's lifetime.
class InterruptKillsChild {
 public:
  explicit InterruptKillsChild(pid_t child);
  ~InterruptKillsChild();
  InterruptKillsChild(const InterruptKillsChild&) = delete;
  InterruptKillsChild& operator=(const InterruptKillsChild&) = delete;

 private:
  int slot_;  // -1 when the table was full (the child is then not killed on interrupt)
};

// Registers a temporary file to remove on interrupt for the guard's lifetime.
class InterruptRemovesFile {
 public:
  explicit InterruptRemovesFile(const std::string& path);
  ~InterruptRemovesFile();
  InterruptRemovesFile(const InterruptRemovesFile&) = delete;
  InterruptRemovesFile& operator=(const InterruptRemovesFile&) = delete;

 private:
  int slot_;  // -1 when the table was full or the path too long
};

// Registers a scratch directory to remove on interrupt, with the files in it (not subdirectories),
// for the guard's lifetime.
class InterruptRemovesDirectory {
 public:
  explicit InterruptRemovesDirectory(const std::string& path);
  ~InterruptRemovesDirectory();
  InterruptRemovesDirectory(const InterruptRemovesDirectory&) = delete;
  InterruptRemovesDirectory& operator=(const InterruptRemovesDirectory&) = delete;

 private:
  int slot_;  // -1 when the table was full or the path too long
};

// An interrupt that only an embedding host can see (the Python module: Ctrl-C is a signal that
// Python's handler records and only Python code can raise), checked by waits that may last long:
// run_isolated polls it at least every 50 ms while its child works. While a guard exists,
// poll_host_interrupt() runs its check, which throws to unwind the work (run_isolated kills its
// child first). Guards nest (the innermost is checked); set and removed by the thread that starts
// the work, while no other thread of it runs.
class HostInterruptCheck {
 public:
  explicit HostInterruptCheck(std::function<void()> check);
  ~HostInterruptCheck();
  HostInterruptCheck(const HostInterruptCheck&) = delete;
  HostInterruptCheck& operator=(const HostInterruptCheck&) = delete;

 private:
  friend void poll_host_interrupt();
  std::function<void()> check_;
  HostInterruptCheck* previous_;
};

// Runs the innermost HostInterruptCheck's check, if any (it may throw).
void poll_host_interrupt();

}  // namespace mctsat
