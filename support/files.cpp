// File reading and atomic writing with errors that name the file.
#include "support/files.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat {

std::string read_text_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error("is a directory, not a file", SourceLocation::at(path));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(fmt::format("cannot open: {}", std::strerror(errno)), SourceLocation::at(path));
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) throw Error("cannot read the file", SourceLocation::at(path));
  return contents.str();
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  const std::filesystem::path target(path);
  // A name of this process's own, so that two writers of one path never share a temporary file.
  const std::filesystem::path temporary = fmt::format("{}.tmp.{}", target.string(), ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out)
      throw Error(fmt::format("cannot write: {}", std::strerror(errno)), SourceLocation::at(path));
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      throw Error("cannot write the file (disk full?)", SourceLocation::at(path));
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, target, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    throw Error(fmt::format("cannot move the finished file into place: {}", ec.message()),
                SourceLocation::at(path));
  }
}

}  // namespace mctsat
