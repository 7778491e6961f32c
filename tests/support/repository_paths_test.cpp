// The repository is self-contained: no source, build or test file names a path outside it (the
// workplace's /work tree, a sibling checkout's shared reference data). Recorded results
// (bench/results) and vendored data keep the relative paths they recorded, but no file of the
// repository, those included, names an absolute path of the machine it was made on.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

namespace fs = std::filesystem;

TEST_CASE("no source, build or test file names a path outside the repository") {
  // Built from pieces, so that this file does not name them itself.
  const std::vector<std::string> forbidden = {std::string("/wor") + "k/",
                                              std::string("../sha") + "red/",
                                              std::string("shared/refer") + "ence"};
  const fs::path root(MCTSAT_SOURCE_DIR);
  const std::vector<std::string> extensions = {".cpp",  ".hpp",   ".txt", ".cmake", ".sh",
                                               ".json", ".rules", ".py",  ".md"};
  std::size_t scanned = 0;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::path relative = fs::relative(it->path(), root);
    const std::string first = relative.begin()->string();
    if (it->is_directory() &&
        (first == "build" || first.front() == '.' || relative == fs::path("bench/results") ||
         relative == fs::path("tests/data"))) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || relative == fs::path("README.md")) continue;
    const std::string extension = it->path().extension().string();
    if (std::find(extensions.begin(), extensions.end(), extension) == extensions.end() &&
        it->path().filename() != "Makefile")
      continue;
    std::ifstream in(it->path());
    std::stringstream text;
    text << in.rdbuf();
    ++scanned;
    for (const std::string& path : forbidden) {
      CAPTURE(relative.string());
      CHECK(text.str().find(path) == std::string::npos);
    }
  }
  CHECK(scanned > 100);
}

TEST_CASE("no file of the repository names an absolute path of the machine it was made on") {
  const std::string machine = std::string("/wor") + "k/";  // built so this file does not name it
  const fs::path root(MCTSAT_SOURCE_DIR);
  std::size_t scanned = 0;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::path relative = fs::relative(it->path(), root);
    const std::string first = relative.begin()->string();
    // The build and git's own files (.git is a file naming its folder in a worktree) are not the
    // repository's.
    if (first == "build" || first.front() == '.') {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || fs::file_size(it->path()) > (std::uintmax_t{16} << 20)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    const std::string text = bytes.str();
    if (text.find('\0') != std::string::npos) continue;  // binary: ONNX models, bundles, images
    ++scanned;
    CAPTURE(relative.string());
    CHECK(text.find(machine) == std::string::npos);
  }
  CHECK(scanned > 1000);
}
