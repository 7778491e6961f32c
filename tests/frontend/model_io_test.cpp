// Saving models by extension, atomically, and loading them back.
#include <filesystem>

#include <doctest/doctest.h>

#include "frontend/model_io.hpp"
#include "support/error.hpp"
#include "support/files.hpp"

using namespace mctsat;
namespace fs = std::filesystem;

namespace {
fs::path fresh_directory(const char* name) {
  const fs::path dir = fs::temp_directory_path() / fs::path(std::string("mctsat-test-") + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
}  // namespace

TEST_CASE("save_model writes JSON and DOT that load back or render") {
  const fs::path dir = fresh_directory("model-io");
  const tensor::Graph demo = frontend::load_model("demo");
  frontend::save_model(demo, (dir / "demo.json").string());
  frontend::save_model(demo, (dir / "demo.dot").string());
  const tensor::Graph again = frontend::load_model((dir / "demo.json").string());
  CHECK(again.size() == demo.size());
  CHECK(read_text_file((dir / "demo.dot").string()).rfind("digraph \"demo\"", 0) == 0);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) ==
        2);  // no temporaries left
}

TEST_CASE("save_model refuses unknown formats and leaves nothing behind") {
  const fs::path dir = fresh_directory("model-io-bad");
  const tensor::Graph demo = frontend::load_model("demo");
  CHECK_THROWS_WITH_AS(frontend::save_model(demo, (dir / "demo.xyz").string()),
                       doctest::Contains("cannot write format '.xyz'"), Error);
  CHECK_THROWS_AS(frontend::save_model(demo, (dir / "missing-dir" / "demo.json").string()), Error);
  CHECK(fs::is_empty(dir));
}
