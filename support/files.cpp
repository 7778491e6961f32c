// File reading with bounds and atomic (single and set) writing with errors that name the file.
#include "support/files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "support/error.hpp"
#include "support/interrupt.hpp"

namespace mctsat {
namespace {

std::string temporary_name(const std::string& path) {
  // A name of this process's own, so that two writers of one path never share a temporary file.
  return fmt::format("{}.tmp.{}", path, ::getpid());
}

// Writes contents to `temporary`, removing it and throwing Error (about `path`) on failure.
void write_temporary(const std::string& temporary, const std::string& path,
                     std::string_view contents) {
  std::FILE* out = std::fopen(temporary.c_str(), "wb");
  if (out == nullptr)
    throw Error(fmt::format("cannot write: {}", std::strerror(errno)), SourceLocation::at(path));
  const std::size_t written = std::fwrite(contents.data(), 1, contents.size(), out);
  int error = written == contents.size() ? 0 : errno;
  if (std::fflush(out) != 0 && error == 0) error = errno;
  if (std::fclose(out) != 0 && error == 0) error = errno;
  if (written != contents.size() || error != 0) {
    std::remove(temporary.c_str());
    throw Error(fmt::format("cannot write the file: {}", std::strerror(error != 0 ? error : EIO)),
                SourceLocation::at(path));
  }
}

// Why an existing path must not be replaced by an output ("" when it may be, or does not exist):
// a directory; anything but a regular file (renaming a file onto /dev/full would replace the
// device itself); a file that is not writable or has no write permission bit (root may write
// anything, but a file marked read-only is still not replaced).
std::string why_not_replaceable(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return "";
  if (S_ISDIR(status.st_mode)) return "a directory, not a file";
  if (!S_ISREG(status.st_mode))
    return "a device, pipe or socket, not a regular file: refusing to replace it";
  if (::access(path.c_str(), W_OK) != 0 || (status.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0)
    return "a read-only file: refusing to replace it";
  return "";
}

void rename_into_place(const std::string& temporary, const std::string& path) {
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    throw Error(fmt::format("cannot move the finished file into place: {}", ec.message()),
                SourceLocation::at(path));
  }
}

}  // namespace

std::string read_text_file(const std::string& path, std::uint64_t max_bytes) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0)
    throw Error(fmt::format("cannot open: {}", std::strerror(errno)), SourceLocation::at(path));
  if (S_ISDIR(status.st_mode)) throw Error("is a directory, not a file", SourceLocation::at(path));
  if (!S_ISREG(status.st_mode))
    throw Error("is not a regular file (a device, pipe or socket): refusing to read it",
                SourceLocation::at(path));
  const auto too_large = [&](std::uint64_t size) {
    return Error(
        fmt::format("is {} bytes, more than the {} bytes an input file may have", size, max_bytes),
        SourceLocation::at(path));
  };
  if (static_cast<std::uint64_t>(status.st_size) > max_bytes) throw too_large(status.st_size);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(fmt::format("cannot open: {}", std::strerror(errno)), SourceLocation::at(path));
  std::string contents(static_cast<std::size_t>(status.st_size), '\0');
  in.read(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (in.bad()) throw Error("cannot read the file", SourceLocation::at(path));
  contents.resize(static_cast<std::size_t>(in.gcount()));
  // A file that grew since stat: read the rest, still within the bound.
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    contents.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (contents.size() > max_bytes) throw too_large(contents.size());
  }
  if (in.bad()) throw Error("cannot read the file", SourceLocation::at(path));
  return contents;
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  write_files_atomically({{path, std::string(contents)}});
}

void check_output_paths(const std::vector<std::pair<std::string, std::string>>& option_and_path,
                        const std::vector<std::string>& inputs) {
  std::map<std::string, std::string> option_of;  // weakly canonical path -> option
  for (const auto& [option, path] : option_and_path) {
    for (const std::string& input : inputs) {
      std::error_code ec;
      if (!input.empty() && std::filesystem::equivalent(input, path, ec) && !ec)
        throw Error(fmt::format("{} names the input file {}: write the output to another file",
                                option, input),
                    SourceLocation::at(path));
    }
    std::error_code ec;
    const std::string key =
        std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec).string();
    const auto [it, fresh] = option_of.emplace(ec ? path : key, option);
    if (!fresh)
      throw Error(fmt::format("{} and {} name the same file: give each output its own file",
                              it->second, option),
                  SourceLocation::at(path));
    const std::string refused = why_not_replaceable(path);
    if (!refused.empty())
      throw Error(fmt::format("{} names {}", option, refused), SourceLocation::at(path));
  }
}

void write_files_atomically(const std::vector<OutputFile>& outputs) {
  for (const OutputFile& output : outputs) {
    const std::string refused = why_not_replaceable(output.path);
    if (!refused.empty())
      throw Error(fmt::format("is {}", refused), SourceLocation::at(output.path));
  }
  std::vector<std::string> written;
  std::vector<std::unique_ptr<InterruptRemovesFile>> removed_on_interrupt;
  try {
    for (const OutputFile& output : outputs) {
      const std::string temporary = temporary_name(output.path);
      removed_on_interrupt.push_back(std::make_unique<InterruptRemovesFile>(temporary));
      write_temporary(temporary, output.path, output.contents);
      written.push_back(temporary);
    }
  } catch (const Error&) {
    for (const std::string& temporary : written) std::remove(temporary.c_str());
    throw;
  }
  // An interrupt now would leave part of the set renamed: it waits until all are in place.
  const DeferInterrupts all_or_none;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    try {
      rename_into_place(written[i], outputs[i].path);
    } catch (const Error&) {
      for (std::size_t j = i + 1; j < written.size(); ++j) std::remove(written[j].c_str());
      throw;
    }
  }
}

std::string path_for_record(const std::string& path) {
  std::error_code error;
  const std::filesystem::path cwd = std::filesystem::current_path(error);
  if (error || !std::filesystem::path(path).is_absolute()) return path;
  const std::filesystem::path relative =
      std::filesystem::path(path).lexically_normal().lexically_relative(cwd);
  if (relative.empty() || *relative.begin() == "..") return path;
  return relative.string();
}

}  // namespace mctsat
