// Reading user files with errors that name them; atomic writes.
#include <filesystem>

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
