// Reading and writing user files. A read names the file on failure, refuses anything but a regular
// file (a device such as /dev/zero or a pipe never ends) and refuses files larger than a bound, so
// an input can never grow memory without limit. A write goes to a temporary file that is renamed
// into place, so a failure never leaves a half-written file behind; several outputs of one
// command are written as a set (all temporaries first, then all renames), a read-only target or
// one that is not a regular file (a device, pipe or directory) is refused rather than replaced,
// and one path named for two outputs is an error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mctsat {

// The largest input file read_text_file accepts by default: 2 GiB, protobuf's own limit for a
// serialized model, which bounds every text and JSON input as well.
inline constexpr std::uint64_t kMaxInputFileBytes = std::uint64_t{2} << 30;

// Throws Error naming the file when it is missing, not a regular file or larger than max_bytes.
std::string read_text_file(const std::string& path, std::uint64_t max_bytes = kMaxInputFileBytes);

void write_file_atomically(const std::string& path, std::string_view contents);  // throws Error

// One output of a command: where it goes and what it holds.
struct OutputFile {
  std::string path;
  std::string contents;
};

// Checks, writing nothing, that every output can be written: distinct paths, no read-only
// target, none that is not a regular file. Each entry is {option, path}, e.g. {"--report",
// "r.json"}; the option names the output in the message. An output may not name one of `inputs`
// either (the same path, or the same file through a link): the command would replace what it
// reads. Throws Error naming the offending path.
void check_output_paths(const std::vector<std::pair<std::string, std::string>>& option_and_path,
                        const std::vector<std::string>& inputs = {});

// Writes all outputs or none: a read-only or non-regular target is refused first, then every
// temporary file is written before any is renamed into place; a failure removes the temporaries
// and throws Error naming the file.
void write_files_atomically(const std::vector<OutputFile>& outputs);

// A path as recorded in results meant to be shared: relative to the working directory when it
// lies inside it (a checkout's rules/taso rather than the machine's absolute path to it),
// unchanged otherwise.
std::string path_for_record(const std::string& path);

}  // namespace mctsat
