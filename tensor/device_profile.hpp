// Device profiles: the few numbers the roofline cost model needs about a device (peak FLOP/s,
// memory bandwidth, per-operator launch overhead, the parallelism needed to reach peak), read
// from JSON. The profiles shipped in devices/*.json are compiled into the library, so that
// `builtin_profile("v100")` works from any directory.
//
// Profile JSON (every number positive; "format", "version", "notes" and "sources" optional):
//   {"format": "mctsat-device-profile", "version": 1, "name": "v100", "description": "...",
//    "peak_flops": 15.7e12, "memory_bandwidth": 900e9, "launch_overhead_s": 5e-6,
//    "saturation_elements": 163840,
//    "notes": {"peak_flops": "how this number was derived", ...}, "sources": ["...", ...]}
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mctsat::tensor {

// The device mctsat prices graphs for unless told otherwise (TASO and TENSAT measured on a V100).
inline constexpr std::string_view kDefaultDevice = "v100";

struct DeviceProfile {
  std::string name;  // short identifier, e.g. "v100"; a builtin profile's name is its file stem
  std::string description;  // the device this models, in words
  double peak_flops = 0;  // peak arithmetic throughput for the modelled element type (FP32), FLOP/s
  double memory_bandwidth = 0;   // peak DRAM bandwidth, bytes/s (decimal: 900 GB/s = 900e9)
  double launch_overhead_s = 0;  // fixed time every non-view operator costs (launch, dispatch), s
  // The parallelism needed to approach peak: a kernel with `work` independent elements (output
  // elements for arithmetic, elements moved for memory traffic; see roofline_cost_model.hpp) runs
  // at peak * work / (work + saturation_elements), i.e. at half of peak when work equals it. About
  // the number of threads the device keeps resident (GPU: SMs x resident threads per SM).
  double saturation_elements = 0;
  std::map<std::string, std::string> notes;  // per field: how its number was derived
  std::vector<std::string> sources;          // where the numbers come from

  friend bool operator==(const DeviceProfile&, const DeviceProfile&) = default;
};

// Parses profile JSON. `file` names the source in errors: malformed JSON raises mctsat::Error at
// file:line:col; a missing, mistyped or non-positive field, or an unknown one, raises an Error
// naming the file and the field.
DeviceProfile parse_profile(std::string_view json_text, const std::string& file);
DeviceProfile load_profile_file(const std::string& path);
// Profile JSON text (with "format" and "version", fields in the order above, 2-space indent) that
// parse_profile reads back as the same profile.
std::string format_profile(const DeviceProfile& profile);

// The profiles compiled in from devices/*.json, by name ("a100", "cpu-2core", "h100", ...).
// An unknown name raises an Error listing the known ones.
const DeviceProfile& builtin_profile(std::string_view name);
std::vector<std::string> builtin_profile_names();  // sorted

// A builtin name, else a path to a profile .json file; anything else raises an Error that lists
// the builtin names.
DeviceProfile resolve_profile(std::string_view name_or_path);

// The JSON text of one shipped profile file, as compiled in (defined in the generated
// builtin_device_profiles.cpp; see cmake/embed_device_profiles.cmake).
struct EmbeddedProfileText {
  std::string_view file;  // file name within devices/, e.g. "v100.json"
  std::string_view text;  // its contents
};
std::span<const EmbeddedProfileText> embedded_profile_texts();

}  // namespace mctsat::tensor
