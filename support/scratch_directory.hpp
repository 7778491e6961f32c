// A private scratch directory for a command's intermediate files (e.g. models handed to another
// program): created fresh under $TMPDIR (else /tmp) with a unique name and mode 0700, and removed
// with everything in it when the object is destroyed, also when an exception unwinds; on SIGINT or
// SIGTERM (support/interrupt.hpp) the handler removes it and the files in it.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace mctsat {

class InterruptRemovesDirectory;

class ScratchDirectory {
 public:
  // Throws Error when the directory cannot be made. `prefix` starts its name.
  explicit ScratchDirectory(std::string_view prefix);
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::string& path() const { return path_; }
  std::string file(std::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
  std::unique_ptr<InterruptRemovesDirectory> on_interrupt_;
};

}  // namespace mctsat
