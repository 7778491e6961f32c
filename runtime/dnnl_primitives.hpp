// Lowering of one graph node to oneDNN primitives (internal to the executor; it exposes oneDNN
// types and only dnnl_executor.cpp includes it). Every tensor the executor holds is a plain
// row-major float32 memory; a node's outputs are either fresh memories or views of its input's
// buffer (reshape, identity, contiguous split parts).
#pragma once

#include <span>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "runtime/executor_arena.hpp"
#include "tensor/graph.hpp"

namespace mctsat::runtime::dnnl_lowering {

// One primitive execution with its arguments, run in order by the executor.
struct Step {
  dnnl::primitive primitive;
  std::unordered_map<int, dnnl::memory> args;
};

// A memory described by `desc` over a new buffer from `arena`, for data that persists across runs
// (inputs, weights, whatever is written while building).
dnnl::memory in_arena(const dnnl::memory::desc& desc, const dnnl::engine& engine,
                      ExecutorArena& arena);
// The same for data only the steps write, while the graph runs: the buffer may be a released one.
dnnl::memory in_arena_for_run(const dnnl::memory::desc& desc, const dnnl::engine& engine,
                              ExecutorArena& arena);

// The plain row-major float32 descriptor of `shape` (rank 0 becomes [1]).
dnnl::memory::desc plain_desc(const tensor::Shape& shape);

// A memory over the same buffer as `memory`, at `offset_elements` floats, described by `desc`.
dnnl::memory view_of(const dnnl::memory& memory, const dnnl::memory::desc& desc,
                     std::int64_t offset_elements = 0);

struct Operand {
  dnnl::memory memory;  // plain row-major float32
  tensor::Shape shape;
  bool constant;  // precomputed once (weights): layout changes can run at build time
};

// Builds the primitives computing `node` (an operator other than input, weight and opaque) and
// returns its output memories, whose buffers (and those of reordered weights) come from `arena`.
// Steps to run every time are appended to `steps`; one-time work on constant operands (weight
// reorders) runs on `stream` now. Throws mctsat::Error (without a location; the caller adds the
// node) for operators or attributes oneDNN cannot run here.
std::vector<dnnl::memory> lower_node(const dnnl::engine& engine, ExecutorArena& arena,
                                     dnnl::stream& stream, const tensor::Node& node,
                                     std::span<const Operand> operands, std::vector<Step>& steps);

}  // namespace mctsat::runtime::dnnl_lowering
