// `mctsat devices`: the built-in device profiles of the roofline cost model.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "tensor/device_profile.hpp"

namespace mctsat::cli {

void add_devices_command(CLI::App& app) {
  auto as_json = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand("devices", "List the built-in device profiles");
  command->add_flag("--json", *as_json, "Print JSON");
  command->callback([as_json] {
    nlohmann::json list = nlohmann::json::array();
    if (!*as_json)
      std::cout << fmt::format("{:<10} {:>12} {:>12} {:>10} {:>12}  {}\n", "name", "TFLOP/s",
                               "GB/s", "launch us", "saturation", "description");
    for (const std::string& name : tensor::builtin_profile_names()) {
      const tensor::DeviceProfile& p = tensor::builtin_profile(name);
      if (*as_json) {
        list.push_back({{"name", p.name},
                        {"description", p.description},
                        {"peak_flops", p.peak_flops},
                        {"memory_bandwidth", p.memory_bandwidth},
                        {"launch_overhead_s", p.launch_overhead_s},
                        {"saturation_elements", p.saturation_elements}});
      } else {
        std::cout << fmt::format("{:<10} {:>12.2f} {:>12.0f} {:>10.1f} {:>12.0f}  {}\n", p.name,
                                 p.peak_flops / 1e12, p.memory_bandwidth / 1e9,
                                 p.launch_overhead_s * 1e6, p.saturation_elements, p.description);
      }
    }
    if (*as_json) std::cout << list.dump(2) << '\n';
  });
}

}  // namespace mctsat::cli
