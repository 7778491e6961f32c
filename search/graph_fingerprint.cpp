// Graph fingerprints: a bottom-up (Merkle) hash in topological order.
#include "search/graph_fingerprint.hpp"

#include <bit>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace mctsat::search {
namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 32);
}

std::uint64_t attr_hash(std::uint64_t h, const tensor::Attr& attr) {
  h = mix(h, attr.index());
  if (const auto* i = std::get_if<std::int64_t>(&attr))
    return mix(h, static_cast<std::uint64_t>(*i));
  if (const auto* d = std::get_if<double>(&attr)) return mix(h, std::bit_cast<std::uint64_t>(*d));
  const auto& list = std::get<std::vector<std::int64_t>>(attr);
  h = mix(h, list.size());
  for (std::int64_t v : list) h = mix(h, static_cast<std::uint64_t>(v));
  return h;
}

}  // namespace

std::uint64_t graph_fingerprint(const tensor::Graph& graph) {
  std::vector<std::uint64_t> node_hash(graph.size(), 0);
  for (const tensor::NodeId id : graph.topological_order()) {
    const tensor::Node& node = graph.node(id);
    std::uint64_t h = mix(0, static_cast<std::uint64_t>(node.op));
    if (node.op == tensor::Op::kInput || node.op == tensor::Op::kWeight ||
        node.op == tensor::Op::kOpaque)
      h = mix(h, std::hash<std::string>{}(node.name));
    for (const tensor::Attr& attr : node.attrs) h = attr_hash(h, attr);
    for (const tensor::TensorRef& input : node.inputs)
      h = mix(h, mix(node_hash[input.node], input.output));
    node_hash[id] = h;
  }
  std::uint64_t h = graph.outputs().size();
  for (const tensor::GraphOutput& output : graph.outputs())
    h = mix(h, mix(node_hash[output.tensor.node], output.tensor.output));
  return h;
}

}  // namespace mctsat::search
