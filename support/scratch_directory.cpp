// A private scratch directory (see scratch_directory.hpp).
#include "support/scratch_directory.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "support/error.hpp"
#include "support/interrupt.hpp"

namespace mctsat {

ScratchDirectory::ScratchDirectory(std::string_view prefix) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/" +
                        std::string(prefix) + "-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr)
    throw Error("cannot make a scratch directory '" + pattern + "': " + std::strerror(errno));
  path_ = buffer.data();
  on_interrupt_ = std::make_unique<InterruptRemovesDirectory>(path_);
}

ScratchDirectory::~ScratchDirectory() {
  on_interrupt_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace mctsat
