// Reading and writing user files: a read names the file on failure; a write goes to a temporary
// file that is renamed into place, so a failure never leaves a half-written file behind.
#pragma once

#include <string>
#include <string_view>

namespace mctsat {

std::string read_text_file(const std::string& path);  // throws Error naming the file
void write_file_atomically(const std::string& path, std::string_view contents);  // throws Error

}  // namespace mctsat
