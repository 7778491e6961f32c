// Reading user files with errors that name them; atomic writes.
#include <filesystem>

#include <sys/stat.h>

#include <doctest/doctest.h>

#include "support/error.hpp"
#include "support/files.hpp"

using namespace mctsat;
namespace fs = std::filesystem;

TEST_CASE("write_file_atomically then read_text_file round-trips, replacing old contents") {
  const fs::path dir = fs::temp_directory_path() / "mctsat-test-files";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "a.txt").string();
  write_file_atomically(path, "first version, longer\n");
  write_file_atomically(path, "second\n");
  CHECK(read_text_file(path) == "second\n");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) ==
        1);  // no temporaries left
}

TEST_CASE("reading a missing file or a directory names it") {
  try {
    read_text_file("/nonexistent/mctsat.json");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.where().file == "/nonexistent/mctsat.json");
    CHECK(e.message().rfind("cannot open", 0) == 0);
  }
  CHECK_THROWS_WITH_AS(read_text_file(fs::temp_directory_path().string()),
                       doctest::Contains("is a directory"), Error);
}

TEST_CASE("writing into a missing directory fails cleanly") {
  CHECK_THROWS_WITH_AS(write_file_atomically("/nonexistent-dir/x.json", "{}"),
                       doctest::Contains("cannot write"), Error);
}

TEST_CASE("devices, pipes and files beyond the bound are not read") {
  CHECK_THROWS_WITH_AS(read_text_file("/dev/zero"), doctest::Contains("not a regular file"), Error);
  const fs::path dir = fs::temp_directory_path() / "mctsat-test-files-bound";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "big.txt").string();
  write_file_atomically(path, std::string(100, 'x'));
  CHECK(read_text_file(path, 100).size() == 100);
  CHECK_THROWS_WITH_AS(read_text_file(path, 99), doctest::Contains("more than the 99 bytes"),
                       Error);
  fs::remove_all(dir);
}

TEST_CASE("outputs are written as a set: all or none, never onto a read-only file or a device") {
  const fs::path dir = fs::temp_directory_path() / "mctsat-test-files-set";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string a = (dir / "a.txt").string(), b = (dir / "b.txt").string();
  // The second output cannot be written: the first is not left behind either.
  CHECK_THROWS_WITH_AS(write_files_atomically({{a, "A"}, {(dir / "no/b.txt").string(), "B"}}),
                       doctest::Contains("cannot write"), Error);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 0);
  write_files_atomically({{a, "A"}, {b, "B"}});
  CHECK(read_text_file(a) == "A");
  CHECK(read_text_file(b) == "B");
  // A read-only target is refused (also for root, who could write it) and kept.
  fs::permissions(b, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  CHECK_THROWS_WITH_AS(write_files_atomically({{a, "A2"}, {b, "B2"}}),
                       doctest::Contains("read-only"), Error);
  CHECK(read_text_file(a) == "A");
  CHECK(read_text_file(b) == "B");
  CHECK_THROWS_WITH_AS(check_output_paths({{"-o", a}, {"--report", b}}),
                       doctest::Contains("--report names a read-only file"), Error);
  CHECK_THROWS_WITH_AS(
      check_output_paths({{"-o", a}, {"--report", (dir / "." / "a.txt").string()}}),
      doctest::Contains("-o and --report name the same file"), Error);
  CHECK_NOTHROW(check_output_paths({{"-o", a}, {"--report", (dir / "c.txt").string()}}));
  // Nor is anything but a regular file replaced: renaming onto /dev/full replaced the device.
  const std::string fifo = (dir / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0666) == 0);
  CHECK_THROWS_WITH_AS(write_file_atomically(fifo, "X"),
                       doctest::Contains("a device, pipe or socket, not a regular file"), Error);
  CHECK_THROWS_WITH_AS(check_output_paths({{"--export-egraph", fifo}}),
                       doctest::Contains("--export-egraph names a device, pipe or socket"), Error);
  CHECK(fs::is_fifo(fifo));
  fs::remove_all(dir);
}

TEST_CASE("path_for_record: paths inside the working directory become relative, others stay") {
  const std::string cwd = std::filesystem::current_path().string();
  CHECK(mctsat::path_for_record(cwd + "/rules/taso") == "rules/taso");
  CHECK(mctsat::path_for_record(cwd + "/rules/../rules/taso") == "rules/taso");
  CHECK(mctsat::path_for_record("rules/taso") == "rules/taso");
  CHECK(mctsat::path_for_record("/nonexistent-root/rules") == "/nonexistent-root/rules");
  CHECK(mctsat::path_for_record(cwd) == ".");
  CHECK(mctsat::path_for_record("bert") == "bert");
}
