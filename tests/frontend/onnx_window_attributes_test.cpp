// Window attributes ONNX's shape inference divides by (strides, dilations, kernel shapes, groups)
// are checked before it runs: zero strides used to stop the process with SIGFPE. Each bad value
// is an error naming the file, the node and the attribute.
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include "frontend/onnx_import.hpp"
#include "support/error.hpp"
#include "tests/frontend/onnx_builders.hpp"

using namespace mctsat;

namespace {

// x (1x2x8x8) -> one `op` node with the given integer-list attributes -> y.
std::string one_window_op(
    const std::string& op,
    const std::vector<std::pair<const char*, std::vector<std::int64_t>>>& attributes,
    std::int64_t group = 1) {
  onnx::ModelProto model = model_shell();
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {1, 2, 8, 8});
  std::vector<std::string> inputs = {"x"};
  if (op == "Conv") {
    add_initializer(g, "w", {2, 2, 3, 3});
    inputs.push_back("w");
  }
  auto* node = add_node(g, op, inputs, {"y"});
  for (const auto& [name, values] : attributes) set_ints(node, name, values);
  if (op == "Conv" && group != 1) set_int(node, "group", group);
  add_value_info(g.add_output(), "y", {1, 2, 4, 4});
  return bytes_of(model);
}

void check_refused(const std::string& bytes, const std::string& part) {
  try {
    frontend::graph_from_onnx(bytes, "window.onnx");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.where().file == "window.onnx");
    CHECK_FALSE(e.where().node.empty());
    CHECK(e.message().find(part) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("zero strides, dilations, kernels or groups are errors, not SIGFPE") {
  check_refused(one_window_op("Conv", {{"strides", {0, 0}}}),
                "Conv attribute 'strides' must be positive, got 0");
  check_refused(one_window_op("MaxPool", {{"kernel_shape", {2, 2}}, {"strides", {0, 0}}}),
                "MaxPool attribute 'strides' must be positive");
  check_refused(one_window_op("AveragePool", {{"kernel_shape", {2, 2}}, {"strides", {0, 0}}}),
                "AveragePool attribute 'strides' must be positive");
  check_refused(one_window_op("Conv", {{"dilations", {0, 1}}}),
                "attribute 'dilations' must be positive");
  check_refused(one_window_op("MaxPool", {{"kernel_shape", {0, 2}}}),
                "attribute 'kernel_shape' must be positive");
  check_refused(one_window_op("Conv", {{"pads", {-1, 0, 0, 0}}}),
                "attribute 'pads' must not be negative");
  check_refused(one_window_op("Conv", {}, 0), "attribute 'group' must be positive");
}
