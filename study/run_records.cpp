// Reading, appending, deduplicating and merging run records.
#include "study/run_records.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "support/error.hpp"
#include "support/files.hpp"
#include "support/json_text.hpp"

namespace mctsat::study {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

bool is_results_file(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.rfind("runs", 0) == 0 && name.ends_with(".jsonl");
}

void read_file(const fs::path& path, std::vector<json>& out, std::vector<std::string>* warnings) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read the results file", SourceLocation::at(path.string()));
  std::string line;
  std::uint32_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json record = json_too_deep_at(line) ? json(nullptr) : json::parse(line, nullptr, false);
    if (record.is_discarded() || !record.is_object() || !record.contains("id") ||
        !record["id"].is_string() || !record.contains("index") ||
        !record["index"].is_number_unsigned() ||
        (record.contains("status") && !record["status"].is_string())) {
      if (warnings != nullptr)
        warnings->push_back(fmt::format("{}:{}: skipped a malformed record (an interrupted write?)",
                                        path.string(), number));
      continue;
    }
    out.push_back(std::move(record));
  }
}

bool is_ok(const json& record) {
  return record.value("status", "") == "ok";
}

}  // namespace

std::string results_file_name(std::size_t shard_index, std::size_t shard_count) {
  return shard_count <= 1 ? "runs.jsonl"
                          : fmt::format("runs.shard-{}-of-{}.jsonl", shard_index, shard_count);
}

void append_record(const std::string& path, const json& record) {
  const std::string line = record.dump() + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    throw Error(fmt::format("cannot open for appending: {}", std::strerror(errno)),
                SourceLocation::at(path));
  const off_t before = ::lseek(fd, 0, SEEK_END);
  std::size_t written = 0;
  int error = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : ENOSPC;  // a write of 0 bytes: no room left
      break;
    }
    written += static_cast<std::size_t>(n);
  }
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (error != 0 && before >= 0) {
    const int ignored = ::ftruncate(fd, before);  // no torn line left behind
    (void)ignored;
  }
  ::close(fd);
  if (error != 0)
    throw Error(fmt::format("cannot append a record: {}", std::strerror(error)),
                SourceLocation::at(path));
}

std::string cut_torn_tail(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return {};
  const off_t size = ::lseek(fd, 0, SEEK_END);
  // Scan back from the end for the last newline.
  off_t keep = 0;
  char buffer[4096];
  bool found = false;
  for (off_t end = size; end > 0 && !found;) {
    const off_t start = std::max<off_t>(0, end - static_cast<off_t>(sizeof buffer));
    const ssize_t n = ::pread(fd, buffer, static_cast<std::size_t>(end - start), start);
    if (n <= 0) break;
    for (ssize_t i = n - 1; i >= 0; --i) {
      if (buffer[i] == '\n') {
        keep = start + i + 1;
        found = true;
        break;
      }
    }
    end = start;
  }
  std::string message;
  if (size > 0 && keep < size) {
    if (::ftruncate(fd, keep) != 0) {
      const int error = errno;
      ::close(fd);
      throw Error(
          fmt::format("ends in a torn record and cannot be repaired: {}", std::strerror(error)),
          SourceLocation::at(path));
    }
    message = fmt::format(
        "{}: removed a torn last record ({} bytes without a line end: a write was interrupted); "
        "that run is run again",
        path, size - keep);
  }
  ::close(fd);
  return message;
}

StudyDirectoryLock::StudyDirectoryLock(const std::string& dir) {
  const std::string path = (fs::path(dir) / ".lock").string();
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw Error(fmt::format("cannot create the lock file: {}", std::strerror(errno)),
                SourceLocation::at(path));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    throw Error(error == EWOULDBLOCK
                    ? std::string("another bench process is writing to this output directory "
                                  "(wait for it, or choose another --out)")
                    : fmt::format("cannot lock the output directory: {}", std::strerror(error)),
                SourceLocation::at(dir));
  }
}

StudyDirectoryLock::~StudyDirectoryLock() {
  ::close(fd_);
}

bool is_interrupted(const json& record) {
  return record.value("status", "") == "interrupted";
}

std::vector<json> deduplicate_records(const std::vector<json>& records) {
  std::map<std::string, json> by_id;
  for (const json& record : records) {
    const std::string id = record["id"].get<std::string>();
    auto it = by_id.find(id);
    if (it == by_id.end())
      by_id.emplace(id, record);
    else if (is_ok(record) || !is_ok(it->second))
      it->second = record;
  }
  std::vector<json> out;
  for (auto& [_, record] : by_id) out.push_back(std::move(record));
  std::stable_sort(out.begin(), out.end(), [](const json& a, const json& b) {
    return a["index"].get<std::size_t>() < b["index"].get<std::size_t>();
  });
  return out;
}

std::vector<json> read_records(const std::string& dir_or_file, std::vector<std::string>* warnings) {
  const fs::path path(dir_or_file);
  std::vector<json> records;
  if (fs::is_directory(path)) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(path))
      if (entry.is_regular_file() && is_results_file(entry.path())) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) read_file(file, records, warnings);
  } else if (fs::is_regular_file(path)) {
    read_file(path, records, warnings);
  } else {
    throw Error("no such results directory or file", SourceLocation::at(dir_or_file));
  }
  return deduplicate_records(records);
}

std::size_t merge_results(const std::vector<std::string>& inputs, const std::string& out_dir,
                          std::vector<std::string>* warnings) {
  if (inputs.empty()) throw Error("bench merge needs at least one input directory");
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec)
    throw Error(fmt::format("cannot create the directory: {}", ec.message()),
                SourceLocation::at(out_dir));
  // The output directory is written as a bench run writes it: not while one runs there (its
  // records, read below when it is also an input, would be rewritten without its next ones).
  const StudyDirectoryLock lock(out_dir);
  std::vector<json> all;
  std::string config, study;
  for (const std::string& input : inputs) {
    const auto records = read_records(input, warnings);
    for (const json& record : records) {
      const std::string name = record.value("study", "");
      if (study.empty()) study = name;
      if (name != study)
        throw Error(
            fmt::format("records of two studies ('{}' and '{}') cannot be merged", study, name),
            SourceLocation::at(input));
    }
    all.insert(all.end(), records.begin(), records.end());
    const fs::path copy = fs::path(input) / kConfigCopyName;
    if (config.empty() && fs::is_directory(input) && fs::exists(copy))
      config = read_text_file(copy.string());
  }
  const auto merged = deduplicate_records(all);
  std::string text;
  for (const json& record : merged) text += record.dump() + "\n";
  const fs::path out = fs::path(out_dir);
  // Shard files already in the output directory are now part of runs.jsonl.
  write_file_atomically((out / results_file_name(0, 1)).string(), text);
  if (!config.empty()) write_file_atomically((out / kConfigCopyName).string(), config);
  return merged.size();
}

}  // namespace mctsat::study
