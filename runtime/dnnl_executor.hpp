// The oneDNN CPU executor: runs a validated Graph in float32 with oneDNN primitives (tensors of
// other element types, such as bool masks and int64 indices, are held exactly on the host, where
// graph inputs, outputs and opaque operators read and write them). Building it
// pre-computes the weight-only subgraphs once (with the reference kernels, as TASO folds them),
// allocates every tensor and creates every primitive; a run then only copies the inputs in,
// executes the primitives in order and copies the outputs out, so repeated runs (end-to-end
// timing, the measured cost model) reuse everything.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensor/graph.hpp"
#include "tensor/interpreter.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::runtime {

struct ExecutorOptions {
  // As InterpretOptions::random_weight_seed: weights without values get random_tensor values
  // drawn from this seed (the same values the interpreter uses); unset, such a weight is an error.
  std::optional<std::uint64_t> random_weight_seed;
  // Runs opaque operators on the host between the oneDNN primitives (a slow fallback: the values
  // are copied out, evaluated in float64 and copied back; host_step_count() reports how many).
  // When unset, an opaque operator is an error.
  tensor::OpaqueEvaluator opaque_evaluator = nullptr;
};

class DnnlExecutor {
 public:
  // Prepares `graph` (only the nodes its outputs need). Throws mctsat::Error naming the node for
  // an operator the executor cannot run (opaque without an opaque evaluator, noop, a kernel
  // transform of a run-time tensor, what oneDNN rejects), a catalog operator reading or writing a
  // run-time tensor that is not float32 and a weight without values (and no seed).
  explicit DnnlExecutor(const tensor::Graph& graph, const ExecutorOptions& options = {});
  ~DnnlExecutor();
  DnnlExecutor(DnnlExecutor&&) noexcept;
  DnnlExecutor& operator=(DnnlExecutor&&) noexcept;

  // Copies the inputs (by input node name, float32 ones rounded to float32) into the executor's
  // buffers. Throws
  // mctsat::Error at the input node for a missing input or one of the wrong shape; entries that
  // name no needed input are ignored.
  void set_inputs(const std::map<std::string, tensor::Tensor>& inputs);
  // Runs every primitive once on the current inputs and waits for the results.
  void execute();
  // The graph outputs of the last execute(), in graph.outputs() order.
  std::vector<tensor::Tensor> outputs() const;
  // set_inputs, execute, outputs.
  std::vector<tensor::Tensor> run(const std::map<std::string, tensor::Tensor>& inputs);

  std::size_t primitive_count() const;  // primitives executed per run
  std::size_t host_step_count() const;  // opaque operators run by the fallback per run
  std::size_t buffer_bytes() const;     // the tensor arena's size (buffers reused when dead)

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The number of threads oneDNN's OpenMP runtime uses for later executions (at least 1), and the
// current number.
void set_executor_threads(int threads);
int executor_threads();

}  // namespace mctsat::runtime
