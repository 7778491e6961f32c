// Reading device profiles from JSON, and the profiles compiled in from devices/*.json.
#include "tensor/device_profile.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "support/error.hpp"
#include "support/files.hpp"
#include "support/json_text.hpp"

namespace mctsat::tensor {
namespace {

constexpr std::string_view kFormat = "mctsat-device-profile";
constexpr std::int64_t kVersion = 1;
constexpr std::array<std::string_view, 10> kFields = {"format",
                                                      "version",
                                                      "name",
                                                      "description",
                                                      "peak_flops",
                                                      "memory_bandwidth",
                                                      "launch_overhead_s",
                                                      "saturation_elements",
                                                      "notes",
                                                      "sources"};

Error field_error(const std::string& file, std::string_view field, const std::string& message) {
  return Error(fmt::format("device profile field '{}' {}", field, message),
               SourceLocation::at(file));
}

const nlohmann::json& required(const nlohmann::json& root, std::string_view field,
                               const std::string& file) {
  const auto it = root.find(field);
  if (it == root.end()) throw field_error(file, field, "is missing");
  return *it;
}

std::string string_field(const nlohmann::json& root, std::string_view field,
                         const std::string& file) {
  const nlohmann::json& value = required(root, field, file);
  if (!value.is_string())
    throw field_error(file, field, fmt::format("must be a string, got {}", value.dump()));
  return value.get<std::string>();
}

// A number in [low, high]: the bounds keep every cost the roofline model computes finite and
// positive (a peak of 1e-300 FLOP/s would make every operator cost infinity).
double bounded_field(const nlohmann::json& root, std::string_view field, const std::string& file,
                     double low, double high) {
  const nlohmann::json& value = required(root, field, file);
  if (!value.is_number())
    throw field_error(file, field, fmt::format("must be a number, got {}", value.dump()));
  const double number = value.get<double>();
  if (!std::isfinite(number) || number < low || number > high)
    throw field_error(
        file, field, fmt::format("must be between {:g} and {:g}, got {}", low, high, value.dump()));
  return number;
}

}  // namespace

DeviceProfile parse_profile(std::string_view json_text, const std::string& file) try {
  const nlohmann::json root = parse_json_text(json_text, file);
  if (!root.is_object())
    throw Error("a device profile must be a JSON object", SourceLocation::at(file));
  for (const auto& [key, value] : root.items()) {
    if (std::find(kFields.begin(), kFields.end(), key) == kFields.end())
      throw field_error(file, key,
                        fmt::format("is unknown (known fields: {})", fmt::join(kFields, ", ")));
  }
  if (const auto format = root.find("format");
      format != root.end() && *format != std::string(kFormat))
    throw field_error(file, "format",
                      fmt::format("must be \"{}\", got {}", kFormat, format->dump()));
  if (const auto version = root.find("version"); version != root.end() && *version != kVersion)
    throw field_error(file, "version",
                      fmt::format("must be {}, got {}", kVersion, version->dump()));

  DeviceProfile profile;
  profile.name = string_field(root, "name", file);
  if (profile.name.empty()) throw field_error(file, "name", "must not be empty");
  profile.description = string_field(root, "description", file);
  profile.peak_flops = bounded_field(root, "peak_flops", file, 1e6, 1e18);
  profile.memory_bandwidth = bounded_field(root, "memory_bandwidth", file, 1e6, 1e16);
  profile.launch_overhead_s = bounded_field(root, "launch_overhead_s", file, 1e-12, 1);
  profile.saturation_elements = bounded_field(root, "saturation_elements", file, 1, 1e12);

  if (const auto notes = root.find("notes"); notes != root.end()) {
    if (!notes->is_object()) throw field_error(file, "notes", "must be an object of strings");
    for (const auto& [key, value] : notes->items()) {
      if (!value.is_string())
        throw field_error(file, "notes", fmt::format("entry '{}' must be a string", key));
      profile.notes[key] = value.get<std::string>();
    }
  }
  if (const auto sources = root.find("sources"); sources != root.end()) {
    if (!sources->is_array()) throw field_error(file, "sources", "must be an array of strings");
    for (const auto& value : *sources) {
      if (!value.is_string()) throw field_error(file, "sources", "must be an array of strings");
      profile.sources.push_back(value.get<std::string>());
    }
  }
  return profile;
} catch (const nlohmann::json::exception& e) {
  // A value of a type the reader did not expect: an Error naming the file, not a crash.
  throw json_error(e, file);
}

DeviceProfile load_profile_file(const std::string& path) {
  return parse_profile(read_text_file(path), path);
}

std::string format_profile(const DeviceProfile& profile) {
  nlohmann::ordered_json root = {{"format", kFormat},
                                 {"version", kVersion},
                                 {"name", profile.name},
                                 {"description", profile.description},
                                 {"peak_flops", profile.peak_flops},
                                 {"memory_bandwidth", profile.memory_bandwidth},
                                 {"launch_overhead_s", profile.launch_overhead_s},
                                 {"saturation_elements", profile.saturation_elements}};
  if (!profile.notes.empty()) root["notes"] = profile.notes;
  if (!profile.sources.empty()) root["sources"] = profile.sources;
  return root.dump(2) + "\n";
}

namespace {

struct BuiltinProfiles {
  std::map<std::string, DeviceProfile, std::less<>> by_name;
};

const BuiltinProfiles& builtins() {
  static const BuiltinProfiles profiles = [] {
    BuiltinProfiles result;
    for (const EmbeddedProfileText& embedded : embedded_profile_texts()) {
      const std::string file = fmt::format("devices/{}", embedded.file);
      DeviceProfile profile = parse_profile(embedded.text, file);
      const std::string stem = std::filesystem::path(embedded.file).stem().string();
      // The build embeds only valid files whose name matches their stem; see the tests.
      if (profile.name != stem)
        throw field_error(
            file, "name",
            fmt::format("must equal the file name '{}', got '{}'", stem, profile.name));
      result.by_name.emplace(stem, std::move(profile));
    }
    return result;
  }();
  return profiles;
}

}  // namespace

std::vector<std::string> builtin_profile_names() {
  std::vector<std::string> names;
  for (const auto& [name, profile] : builtins().by_name) names.push_back(name);
  return names;
}

const DeviceProfile& builtin_profile(std::string_view name) {
  const auto& by_name = builtins().by_name;
  if (const auto it = by_name.find(name); it != by_name.end()) return it->second;
  throw Error(fmt::format("unknown device profile '{}' (builtin profiles: {})", name,
                          fmt::join(builtin_profile_names(), ", ")));
}

DeviceProfile resolve_profile(std::string_view name_or_path) {
  const auto& by_name = builtins().by_name;
  if (const auto it = by_name.find(name_or_path); it != by_name.end()) return it->second;
  const std::string path(name_or_path);
  std::error_code ec;
  const bool looks_like_path = name_or_path.find('/') != std::string_view::npos ||
                               std::filesystem::path(path).extension() == ".json";
  if (looks_like_path || std::filesystem::exists(path, ec)) return load_profile_file(path);
  throw Error(
      fmt::format("unknown device '{}': neither a builtin profile ({}) nor a profile .json file",
                  name_or_path, fmt::join(builtin_profile_names(), ", ")));
}

}  // namespace mctsat::tensor
