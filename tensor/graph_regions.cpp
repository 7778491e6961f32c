// Cutting a graph into regions at narrow points and joining optimized regions back.
#include "tensor/graph_regions.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "support/stable_hash.hpp"

namespace mctsat::tensor {
namespace {

bool is_leaf(const Node& node) {
  return node.op == Op::kInput || node.op == Op::kWeight;
}

// The operators in an order where each follows its inputs: the node order when it is one.
std::vector<NodeId> operator_order(const Graph& graph) {
  bool node_order = true;
  for (NodeId id = 0; id < graph.size() && node_order; ++id)
    for (const TensorRef& in : graph.node(id).inputs) node_order = node_order && in.node < id;
  std::vector<NodeId> order;
  if (node_order) {
    for (NodeId id = 0; id < graph.size(); ++id) order.push_back(id);
  } else {
    order = graph.topological_order();
  }
  std::erase_if(order, [&](NodeId id) { return is_leaf(graph.node(id)); });
  return order;
}

// A name not in `taken` (and then taken): `name`, else with a suffix.
std::string unique_name(std::set<std::string>& taken, const std::string& name,
                        const std::string& suffix) {
  if (taken.insert(name).second) return name;
  for (std::size_t k = 0;; ++k) {
    std::string candidate =
        k == 0 ? fmt::format("{}_{}", name, suffix) : fmt::format("{}_{}_{}", name, suffix, k);
    if (taken.insert(candidate).second) return candidate;
  }
}

std::string structure_key(const Graph& region) {
  std::string key;
  for (const Node& node : region.nodes()) {
    key += fmt::format("{}|", static_cast<int>(node.op));
    for (const Attr& attr : node.attrs) key += attr_string(attr) + ",";
    key += "|";
    for (const TensorType& type : node.outputs) key += type_string(type) + ",";
    key += fmt::format("|{}|", static_cast<int>(node.leaf_dtype));
    for (const TensorRef& in : node.inputs) key += fmt::format("{}:{},", in.node, in.output);
    if (node.value) {
      std::uint64_t hash = fnv1a(shape_string(node.value->shape));
      for (const double v : node.value->data) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        hash = hash_combine(hash, bits);
      }
      key += fmt::format("|v{:016x}", hash);
    }
    if (node.opaque)
      key += fmt::format("|o{}:{:016x}", node.opaque->type, fnv1a(node.opaque->payload));
    key += ";";
  }
  for (const GraphOutput& out : region.outputs())
    key += fmt::format("{}:{},", out.tensor.node, out.tensor.output);
  return key;
}

}  // namespace

std::size_t operator_count(const Graph& graph) {
  return static_cast<std::size_t>(std::count_if(graph.nodes().begin(), graph.nodes().end(),
                                                [](const Node& n) { return !is_leaf(n); }));
}

std::vector<GraphRegion> cut_into_regions(const Graph& graph, std::size_t max_ops) {
  max_ops = std::max<std::size_t>(max_ops, 1);
  const std::vector<NodeId> order = operator_order(graph);
  const std::size_t n = order.size();
  std::vector<std::size_t> position(graph.size(), n);
  for (std::size_t i = 0; i < n; ++i) position[order[i]] = i;

  // crossing[p]: the tensors computed at or before position p and used after it.
  std::map<TensorRef, std::size_t> last_use;
  for (std::size_t i = 0; i < n; ++i)
    for (const TensorRef& in : graph.node(order[i]).inputs)
      if (position[in.node] < n) last_use[in] = std::max(last_use[in], i);
  std::vector<std::ptrdiff_t> delta(n + 1, 0);
  for (const auto& [ref, last] : last_use) {
    ++delta[position[ref.node]];
    --delta[last];
  }
  std::vector<std::size_t> crossing(n, 0);
  std::ptrdiff_t running = 0;
  for (std::size_t p = 0; p < n; ++p) crossing[p] = static_cast<std::size_t>(running += delta[p]);

  std::vector<std::size_t> ends;  // exclusive end position of each region
  for (std::size_t start = 0; start < n;) {
    std::size_t end = n;
    if (n - start > max_ops) {
      const std::size_t lo = start + std::max<std::size_t>(max_ops / 2, 1) - 1;
      std::size_t best = lo;
      for (std::size_t p = lo; p < start + max_ops; ++p)
        if (crossing[p] <= crossing[best]) best = p;
      end = best + 1;
    }
    ends.push_back(end);
    start = end;
  }

  std::vector<std::size_t> region_of(graph.size(), ends.size());
  for (std::size_t r = 0, i = 0; r < ends.size(); ++r)
    for (; i < ends[r]; ++i) region_of[order[i]] = r;
  // The tensors each region must give: those later regions or the graph's outputs read.
  std::vector<std::set<std::pair<std::size_t, std::uint32_t>>> given(ends.size());
  const auto give = [&](const TensorRef& ref, std::size_t reader) {
    const std::size_t r = region_of[ref.node];
    if (r < ends.size() && r != reader) given[r].insert({position[ref.node], ref.output});
  };
  for (std::size_t i = 0; i < n; ++i)
    for (const TensorRef& in : graph.node(order[i]).inputs) give(in, region_of[order[i]]);
  for (const GraphOutput& out : graph.outputs()) give(out.tensor, ends.size());

  std::set<std::string> names;
  for (const Node& node : graph.nodes()) names.insert(node.name);
  const std::vector<bool> weight_only = graph.weight_only();
  std::vector<GraphRegion> regions;
  for (std::size_t r = 0, begin = 0; r < ends.size(); begin = ends[r], ++r) {
    if (given[r].empty()) continue;  // nothing of it is used: dead operators
    GraphRegion region;
    region.operators = ends[r] - begin;
    std::map<TensorRef, std::uint32_t> leaf_index;
    for (std::size_t i = begin; i < ends[r]; ++i)
      for (const TensorRef& in : graph.node(order[i]).inputs)
        if (region_of[in.node] != r && !leaf_index.contains(in)) {
          leaf_index.emplace(in, static_cast<std::uint32_t>(region.leaves.size()));
          region.leaves.push_back(in);
        }
    Graph& g = region.graph;
    for (std::size_t k = 0; k < region.leaves.size(); ++k) {
      const TensorRef ref = region.leaves[k];
      const Node& source = graph.node(ref.node);
      if (is_leaf(source)) {
        g.add_node(source);
        continue;
      }
      const TensorType& type = graph.type_of(ref);
      Node leaf;
      leaf.name = unique_name(names, fmt::format("region{}_in{}", r, k), "");
      leaf.op = weight_only[ref.node] ? Op::kWeight : Op::kInput;
      leaf.attrs = {type.shape};
      leaf.outputs = {type};
      leaf.leaf_dtype = type.dtype;
      g.add_node(std::move(leaf));
    }
    std::unordered_map<NodeId, NodeId> local;
    for (std::size_t i = begin; i < ends[r]; ++i) {
      Node node = graph.node(order[i]);
      for (TensorRef& in : node.inputs)
        in = region_of[in.node] == r ? TensorRef{local.at(in.node), in.output}
                                     : TensorRef{leaf_index.at(in), 0};
      local[order[i]] = g.add_node(std::move(node));
    }
    std::size_t k = 0;
    for (const auto& [pos, output] : given[r]) {
      const TensorRef ref{order[pos], output};
      region.outputs.push_back(ref);
      g.add_output(fmt::format("region_out{}", k++), {local.at(ref.node), output});
    }
    g.infer_and_validate();
    region.structure_key = structure_key(g);
    regions.push_back(std::move(region));
  }
  return regions;
}

Graph join_regions(const Graph& original, const std::vector<GraphRegion>& regions,
                   const std::vector<const Graph*>& optimized,
                   const std::vector<std::size_t>& representative) {
  Graph joined;
  std::set<std::string> names;
  for (const Node& node : original.nodes())
    if (is_leaf(node)) names.insert(node.name);
  std::map<TensorRef, TensorRef> mapped;  // original tensor -> joined tensor
  const auto resolve = [&](TensorRef ref) {
    if (const auto found = mapped.find(ref); found != mapped.end()) return found->second;
    const Node& node = original.node(ref.node);
    MCTSAT_ASSERT(is_leaf(node) && "a region reads a tensor no earlier region gives");
    const TensorRef copy{joined.add_node(node), 0};
    mapped.emplace(ref, copy);
    return copy;
  };
  for (std::size_t r = 0; r < regions.size(); ++r) {
    const Graph& graph = *optimized[r];
    const GraphRegion& rep = regions[representative[r]];
    std::unordered_map<std::string, std::size_t> leaf_of, output_of;
    for (std::size_t k = 0; k < rep.leaves.size(); ++k) leaf_of[rep.graph.node(k).name] = k;
    for (std::size_t k = 0; k < rep.graph.outputs().size(); ++k)
      output_of[rep.graph.outputs()[k].name] = k;
    std::vector<TensorRef> local(graph.size());  // node -> its first output in `joined`
    for (const NodeId id : graph.topological_order()) {
      const Node& node = graph.node(id);
      if (is_leaf(node)) {
        const auto leaf = leaf_of.find(node.name);
        if (leaf == leaf_of.end())
          throw node_error(node, "an optimized region has a leaf its region does not have");
        local[id] = resolve(regions[r].leaves[leaf->second]);
        continue;
      }
      Node copy = node;
      copy.name = unique_name(names, node.name, fmt::format("r{}", r));
      for (TensorRef& in : copy.inputs)
        in = {local[in.node].node, local[in.node].output + in.output};
      local[id] = {joined.add_node(std::move(copy)), 0};
    }
    for (const GraphOutput& out : graph.outputs()) {
      const auto k = output_of.find(out.name);
      if (k == output_of.end())
        throw Error(fmt::format("an optimized region has an unknown output '{}'", out.name));
      const TensorRef ref = local[out.tensor.node];
      mapped[regions[r].outputs[k->second]] = {ref.node, ref.output + out.tensor.output};
    }
  }
  for (const GraphOutput& out : original.outputs())
    joined.add_output(out.name, resolve(out.tensor));
  joined.infer_and_validate();
  return joined;
}

}  // namespace mctsat::tensor
