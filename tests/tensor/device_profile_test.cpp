// Device profiles: the shipped profiles are compiled in, load and carry NVIDIA's published numbers;
// bad profile JSON is reported at file:line:col or by file and field.
#include "tensor/device_profile.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "support/error.hpp"

namespace mctsat::tensor {
namespace {

const std::vector<std::string> kNumericFields = {"peak_flops", "memory_bandwidth",
                                                 "launch_overhead_s", "saturation_elements"};

// A temporary directory removed at the end of the test.
struct TempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("mctsat_device_profile_test_" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    const auto file = path / name;
    std::ofstream(file) << text;
    return file.string();
  }
};

std::string valid_profile_text() {
  return R"({
  "name": "toy",
  "description": "a toy device",
  "peak_flops": 1e12,
  "memory_bandwidth": 1e11,
  "launch_overhead_s": 2e-6,
  "saturation_elements": 1000
})";
}

// The error message parse_profile raises for text.
std::string parse_error(const std::string& text, SourceLocation* where = nullptr) {
  try {
    parse_profile(text, "toy.json");
  } catch (const Error& e) {
    if (where) *where = e.where();
    return e.what();
  }
  FAIL("no error for: " << text);
  return {};
}

TEST_CASE("every shipped profile is built in, loads and has positive, documented numbers") {
  const std::vector<std::string> names = builtin_profile_names();
  CHECK(names == std::vector<std::string>{"a100", "cpu-2core", "h100", "h200", "t4", "v100"});
  CHECK(embedded_profile_texts().size() == names.size());
  for (const std::string& name : names) {
    CAPTURE(name);
    const DeviceProfile& profile = builtin_profile(name);
    CHECK(profile.name == name);
    CHECK_FALSE(profile.description.empty());
    CHECK(profile.peak_flops > 0);
    CHECK(profile.memory_bandwidth > 0);
    CHECK(profile.launch_overhead_s > 0);
    CHECK(profile.saturation_elements > 0);
    for (const std::string& field : kNumericFields) CHECK(profile.notes.count(field) == 1);
    CHECK_FALSE(profile.sources.empty());
    // The compiled-in text is the file in devices/.
    const std::string path = std::string(MCTSAT_SOURCE_DIR) + "/devices/" + name + ".json";
    CHECK(load_profile_file(path) == profile);
  }
  // Every file in devices/ is built in.
  std::size_t files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(MCTSAT_SOURCE_DIR) + "/devices")) {
    if (entry.path().extension() == ".json") ++files;
  }
  CHECK(files == names.size());
}

TEST_CASE("the shipped profiles carry the published peak numbers") {
  struct Expected {
    const char* name;
    double peak_flops, memory_bandwidth, saturation_elements, launch_overhead_s;
  };
  const Expected expected[] = {
      {"v100", 15.7e12, 900e9, 80 * 2048, 5e-6},
      {"t4", 8.1e12, 320e9, 40 * 1024, 5e-6},
      {"a100", 19.5e12, 1555e9, 108 * 2048, 5e-6},
      {"h100", 67e12, 3.35e12, 132 * 2048, 5e-6},
      {"h200", 67e12, 4.8e12, 132 * 2048, 5e-6},
      {"cpu-2core", 2 * 2.5e9 * 32, 20e9, 2 * 64, 1e-6},
  };
  for (const Expected& e : expected) {
    CAPTURE(e.name);
    const DeviceProfile& profile = builtin_profile(e.name);
    CHECK(profile.peak_flops == doctest::Approx(e.peak_flops));
    CHECK(profile.memory_bandwidth == doctest::Approx(e.memory_bandwidth));
    CHECK(profile.saturation_elements == e.saturation_elements);
    CHECK(profile.launch_overhead_s == doctest::Approx(e.launch_overhead_s));
  }
  CHECK(builtin_profile(kDefaultDevice).name == "v100");
}

TEST_CASE("an unknown profile name is an error listing the known names") {
  try {
    builtin_profile("p100");
    FAIL("no error");
  } catch (const Error& e) {
    const std::string message = e.what();
    CHECK(message.find("'p100'") != std::string::npos);
    for (const std::string& name : builtin_profile_names())
      CHECK(message.find(name) != std::string::npos);
  }
}

TEST_CASE("resolve_profile takes a builtin name or a path to a .json file") {
  CHECK(resolve_profile("t4") == builtin_profile("t4"));
  const TempDir dir;
  const std::string path = dir.write("toy.json", valid_profile_text());
  const DeviceProfile toy = resolve_profile(path);
  CHECK(toy.name == "toy");
  CHECK(toy.peak_flops == 1e12);
  CHECK(toy.memory_bandwidth == 1e11);
  CHECK(toy.launch_overhead_s == 2e-6);
  CHECK(toy.saturation_elements == 1000);
  CHECK(toy.notes.empty());

  // Neither: the error lists the builtin names.
  try {
    resolve_profile("tpu");
    FAIL("no error");
  } catch (const Error& e) {
    const std::string message = e.what();
    CHECK(message.find("'tpu'") != std::string::npos);
    CHECK(message.find("v100") != std::string::npos);
    CHECK(message.find("cpu-2core") != std::string::npos);
  }
  // A missing file is named.
  const std::string missing = (dir.path / "missing.json").string();
  try {
    resolve_profile(missing);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.where().file == missing);
  }
}

TEST_CASE("malformed profile JSON is reported at file:line:col") {
  // Line 3 has a second comma at column 22.
  const std::string text = "{\n  \"name\": \"toy\",\n  \"peak_flops\": 1e12,,\n}";
  SourceLocation where;
  const std::string message = parse_error(text, &where);
  CHECK(where.file == "toy.json");
  CHECK(where.line == 3);
  CHECK(where.column == 22);
  CHECK(message.rfind("toy.json:3:22: error:", 0) == 0);

  SourceLocation truncated;
  parse_error("{\n  \"name\": \"toy\"\n", &truncated);  // ends inside the object
  CHECK(truncated.line >= 2);
}

TEST_CASE("missing, non-positive, mistyped and unknown fields name the file and the field") {
  for (const std::string& field : kNumericFields) {
    CAPTURE(field);
    std::string text = valid_profile_text();
    // Remove the field's line.
    const auto at = text.find("\"" + field + "\"");
    REQUIRE(at != std::string::npos);
    const auto line_start = text.rfind('\n', at) + 1;
    std::string without = text;
    without.erase(line_start, text.find('\n', at) - line_start + 1);
    if (without.find(",\n}") != std::string::npos) without.replace(without.find(",\n}"), 3, "\n}");
    SourceLocation where;
    std::string message = parse_error(without, &where);
    CHECK(where.file == "toy.json");
    CHECK(message.find("'" + field + "'") != std::string::npos);
    CHECK(message.find("missing") != std::string::npos);

    for (const char* bad : {"0", "-1", "\"fast\"", "null"}) {
      CAPTURE(bad);
      std::string replaced = text;
      const auto colon = replaced.find(':', at);
      const auto end = replaced.find_first_of(",\n", colon);
      replaced.replace(colon + 1, end - colon - 1, std::string(" ") + bad);
      message = parse_error(replaced, &where);
      CHECK(where.file == "toy.json");
      CHECK(message.find("'" + field + "'") != std::string::npos);
    }
  }
  const std::string typo = R"({"name": "toy", "description": "", "peak_flop": 1, "peak_flops": 1,
    "memory_bandwidth": 1, "launch_overhead_s": 1, "saturation_elements": 1})";
  CHECK(parse_error(typo).find("'peak_flop' is unknown") != std::string::npos);
  CHECK(parse_error("[1, 2]").find("must be a JSON object") != std::string::npos);
  CHECK(parse_error(R"({"name": "", "description": ""})").find("'name' must not be empty") !=
        std::string::npos);
  const std::string wrong_format = R"({"format": "onnx", "name": "toy"})";
  CHECK(parse_error(wrong_format).find("'format'") != std::string::npos);
}

}  // namespace
}  // namespace mctsat::tensor
