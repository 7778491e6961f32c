// One shape function per operator, written once over an abstract dimension type.
//
// `infer_output_shapes(ctx, op, inputs, attrs, outputs)` computes the output shapes of `op` from
// its input shapes and integer attributes. It is a template over a context `Ctx` that supplies the
// dimension type and the few operations whose meaning differs between concrete and symbolic use:
//
//   using Dim, Bool;                        // int64_t/bool in the engine, z3::expr in the verifier
//   bool require(Bool cond, Message msg);   // concrete: false (and records msg()) when cond fails;
//                                           // symbolic: records cond as a constraint, returns true
//   bool fail(Message msg);                 // this rank combination is invalid; always false
//   Dim lit(int64_t), select(Bool, Dim, Dim), div(Dim, Dim), mod(Dim, Dim);
//   Dim add(Dim, Dim), mul(Dim, Dim);      // concrete: saturate at INT64_MAX instead of
//   overflowing Dim pick(const std::vector<Dim>&, Dim index);  // element at a (possibly symbolic)
//   index std::string show(const Dim&);
//
// Ranks and list lengths are always concrete (the verifier enumerates them); dimension values and
// integer attributes may be symbolic. Callers check the signature's arity first (see
// shape_inference.hpp). Float attributes never influence shapes and arrive as empty lists.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "tensor/op.hpp"
#include "tensor/tensor_type.hpp"

namespace mctsat::tensor {
namespace shape_detail {

template <class Ctx>
using Dim = typename Ctx::Dim;
template <class Ctx>
using ShapeOf = BasicShape<typename Ctx::Dim>;

inline std::string fmt_rank_error(const char* what, std::size_t want, std::size_t got) {
  return std::string(what) + " must have rank " + std::to_string(want) + ", got rank " +
         std::to_string(got);
}

template <class Ctx>
bool require_rank(Ctx& ctx, const ShapeOf<Ctx>& shape, std::size_t rank, const char* what) {
  if (shape.size() == rank) return true;
  return ctx.fail([&] { return fmt_rank_error(what, rank, shape.size()); });
}

template <class Ctx>
bool require_positive(Ctx& ctx, const ShapeOf<Ctx>& dims, const char* what) {
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (!ctx.require(dims[i] > 0, [&] {
          return std::string(what) + " dimension " + std::to_string(i) + " must be positive, got " +
                 ctx.show(dims[i]);
        }))
      return false;
  }
  return true;
}

// Numpy/ONNX broadcasting of two shapes.
template <class Ctx>
bool broadcast(Ctx& ctx, const ShapeOf<Ctx>& a, const ShapeOf<Ctx>& b, ShapeOf<Ctx>& out) {
  const std::size_t rank = std::max(a.size(), b.size());
  out.clear();
  for (std::size_t i = 0; i < rank; ++i) {
    const bool has_a = i + a.size() >= rank, has_b = i + b.size() >= rank;
    if (!has_a) {
      out.push_back(b[i + b.size() - rank]);
      continue;
    }
    const auto& da = a[i + a.size() - rank];
    if (!has_b) {
      out.push_back(da);
      continue;
    }
    const auto& db = b[i + b.size() - rank];
    if (!ctx.require(da == db || da == 1 || db == 1, [&] {
          return "shapes do not broadcast: dimension " + std::to_string(i) + " is " + ctx.show(da) +
                 " vs " + ctx.show(db);
        }))
      return false;
    out.push_back(ctx.select(da == 1, db, da));
  }
  return true;
}

// Spatial output size of a convolution or pooling window under the padding modes (tensor::Padding:
// 1 is VALID; SAME (0) and SAME_LOWER (2) give the same size and differ only in where they pad).
template <class Ctx>
bool window_output(Ctx& ctx, const Dim<Ctx>& in, const Dim<Ctx>& kernel, const Dim<Ctx>& stride,
                   const Dim<Ctx>& pad, const char* axis, Dim<Ctx>& out) {
  if (!ctx.require(pad != 1 || in >= kernel, [&] {
        return std::string("VALID padding needs input ") + axis + " (" + ctx.show(in) +
               ") >= kernel " + axis + " (" + ctx.show(kernel) + ")";
      }))
    return false;
  out = ctx.select(pad != 1, ctx.div(ctx.add(in, stride) - 1, stride),
                   ctx.div(in - kernel, stride) + 1);
  return true;
}

template <class Ctx>
bool check_int_attr_ranges(Ctx& ctx, const OpSignature& sig, std::span<const ShapeOf<Ctx>> attrs) {
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    const Param& param = sig.attr(i);
    if (param.kind != ParamKind::kInt) continue;
    const auto& v = attrs[i][0];
    if (!ctx.require(v >= ctx.lit(param.min) && v <= ctx.lit(param.max), [&] {
          return "attribute " + std::string(param.name) + " = " + ctx.show(v) + " is outside [" +
                 std::to_string(param.min) + ", " + std::to_string(param.max) + "]";
        }))
      return false;
  }
  return true;
}

}  // namespace shape_detail

template <class Ctx>
bool infer_output_shapes(Ctx& ctx, Op op, std::span<const BasicShape<typename Ctx::Dim>> in,
                         std::span<const std::vector<typename Ctx::Dim>> attrs,
                         std::vector<BasicShape<typename Ctx::Dim>>& outputs) {
  using namespace shape_detail;
  using D = typename Ctx::Dim;
  using S = BasicShape<D>;
  outputs.clear();
  if (!check_int_attr_ranges(ctx, signature(op), attrs)) return false;
  auto emit = [&](S shape) {
    outputs.push_back(std::move(shape));
    return true;
  };
  auto same_as_input = [&] { return emit(in[0]); };

  switch (op) {
    case Op::kInput:
    case Op::kWeight:
      return require_positive(ctx, attrs[0], "shape") && emit(attrs[0]);

    case Op::kMatmul: {
      const S &a = in[0], &b = in[1];
      if (a.size() < 2 || b.size() < 2)
        return ctx.fail([&] {
          return "matmul needs operands of rank >= 2, got ranks " + std::to_string(a.size()) +
                 " and " + std::to_string(b.size());
        });
      const D &k_a = a[a.size() - 1], &k_b = b[b.size() - 2];
      if (!ctx.require(k_a == k_b, [&] {
            return "matmul inner dimensions differ: " + ctx.show(k_a) + " vs " + ctx.show(k_b);
          }))
        return false;
      S batch;
      if (!broadcast(ctx, S(a.begin(), a.end() - 2), S(b.begin(), b.end() - 2), batch))
        return false;
      batch.push_back(a[a.size() - 2]);
      batch.push_back(b[b.size() - 1]);
      return emit(std::move(batch));
    }

    case Op::kConv2d: {
      const S &x = in[0], &w = in[1];
      if (!require_rank(ctx, x, 4, "conv2d input") || !require_rank(ctx, w, 4, "conv2d weight"))
        return false;
      const D &stride_h = attrs[0][0], &stride_w = attrs[1][0], &pad = attrs[2][0];
      if (!ctx.require(ctx.mod(x[1], w[1]) == 0, [&] {
            return "conv2d input channels " + ctx.show(x[1]) +
                   " are not a multiple of the weight's " + ctx.show(w[1]) + " channels per group";
          }))
        return false;
      const D groups = ctx.div(x[1], w[1]);
      if (!ctx.require(ctx.mod(w[0], groups) == 0, [&] {
            return "conv2d output channels " + ctx.show(w[0]) + " are not a multiple of the " +
                   ctx.show(groups) + " groups";
          }))
        return false;
      D h = ctx.lit(0), wd = ctx.lit(0);
      if (!window_output(ctx, x[2], w[2], stride_h, pad, "height", h) ||
          !window_output(ctx, x[3], w[3], stride_w, pad, "width", wd))
        return false;
      return emit(S{x[0], w[0], h, wd});
    }

    case Op::kEwAdd:
    case Op::kEwMul:
    case Op::kEwSub:
    case Op::kEwDiv: {
      S out;
      return broadcast(ctx, in[0], in[1], out) && emit(std::move(out));
    }

    case Op::kSmul:
      for (const D& d : in[1]) {
        if (!ctx.require(d == 1, [&] {
              return "smul's second operand must have one element, got a dimension of " +
                     ctx.show(d);
            }))
          return false;
      }
      return same_as_input();

    case Op::kRelu:
    case Op::kTanh:
    case Op::kSigmoid:
    case Op::kDropout:
    case Op::kIdentity:
    case Op::kClip:
    case Op::kGelu:
      return same_as_input();

    case Op::kTranspose: {
      const S& x = in[0];
      const S& perm = attrs[0];
      if (perm.size() != x.size())
        return ctx.fail([&] {
          return "transpose permutation has " + std::to_string(perm.size()) +
                 " entries for a tensor of rank " + std::to_string(x.size());
        });
      const auto rank = static_cast<std::int64_t>(x.size());
      for (std::size_t i = 0; i < perm.size(); ++i) {
        if (!ctx.require(perm[i] >= 0 && perm[i] < ctx.lit(rank), [&] {
              return "transpose permutation entry " + ctx.show(perm[i]) + " is outside [0, " +
                     std::to_string(rank) + ")";
            }))
          return false;
        for (std::size_t j = 0; j < i; ++j) {
          if (!ctx.require(!(perm[i] == perm[j]),
                           [&] { return "transpose permutation repeats " + ctx.show(perm[i]); }))
            return false;
        }
      }
      S out;
      for (const D& p : perm) out.push_back(ctx.pick(x, p));
      return emit(std::move(out));
    }

    case Op::kReshape: {
      const S& target = attrs[0];
      if (!require_positive(ctx, target, "reshape target")) return false;
      D from = ctx.lit(1), to = ctx.lit(1);
      for (const D& d : in[0]) from = ctx.mul(from, d);
      for (const D& d : target) to = ctx.mul(to, d);
      if (!ctx.require(from == to, [&] {
            return "reshape changes the element count from " + ctx.show(from) + " to " +
                   ctx.show(to);
          }))
        return false;
      return emit(target);
    }

    case Op::kFlatten: {
      const D& axis = attrs[0][0];
      const S& x = in[0];
      const auto rank = static_cast<std::int64_t>(x.size());
      if (!ctx.require(axis <= ctx.lit(rank), [&] {
            return "flatten axis " + ctx.show(axis) + " exceeds the rank " + std::to_string(rank);
          }))
        return false;
      D outer = ctx.lit(1), inner = ctx.lit(1);
      for (std::int64_t i = 0; i < rank; ++i) {
        outer = ctx.mul(outer, ctx.select(axis > ctx.lit(i), x[i], ctx.lit(1)));
        inner = ctx.mul(inner, ctx.select(axis > ctx.lit(i), ctx.lit(1), x[i]));
      }
      return emit(S{outer, inner});
    }

    case Op::kEnlarge: {
      const S &w = in[0], &ref = in[1];
      if (!require_rank(ctx, w, 4, "enlarge kernel") ||
          !require_rank(ctx, ref, 4, "enlarge reference"))
        return false;
      for (std::size_t i = 2; i < 4; ++i) {
        if (!ctx.require(w[i] <= ref[i] && ctx.mod(ref[i] - w[i], ctx.lit(2)) == 0, [&] {
              return "enlarge cannot centre a kernel of size " + ctx.show(w[i]) + " in " +
                     ctx.show(ref[i]);
            }))
          return false;
      }
      return emit(S{w[0], w[1], ref[2], ref[3]});
    }

    case Op::kPoolMax:
    case Op::kPoolAvg: {
      const S& x = in[0];
      if (!require_rank(ctx, x, 4, "pooling input")) return false;
      D h = ctx.lit(0), wd = ctx.lit(0);
      if (!window_output(ctx, x[2], attrs[0][0], attrs[2][0], attrs[4][0], "height", h) ||
          !window_output(ctx, x[3], attrs[1][0], attrs[3][0], attrs[4][0], "width", wd))
        return false;
      return emit(S{x[0], x[1], h, wd});
    }

    case Op::kGlobalAvgPool: {
      S out = in[0];
      if (out.size() < 3)
        return ctx.fail([&] {
          return "globalavgpool needs rank >= 3, got rank " + std::to_string(out.size());
        });
      for (std::size_t i = 2; i < out.size(); ++i) out[i] = ctx.lit(1);
      return emit(std::move(out));
    }

    case Op::kConcat: {
      const D &axis = attrs[0][0], &ndim = attrs[1][0];
      const S& first = in[0];
      const auto rank = static_cast<std::int64_t>(first.size());
      if (!ctx.require(ndim == ctx.lit(rank) && axis < ctx.lit(rank), [&] {
            return "concat declares rank " + ctx.show(ndim) + " and axis " + ctx.show(axis) +
                   " but its first input has rank " + std::to_string(rank);
          }))
        return false;
      S out = first;
      for (std::size_t k = 1; k < in.size(); ++k) {
        if (in[k].size() != first.size())
          return ctx.fail([&] {
            return "concat input " + std::to_string(k) + " has rank " +
                   std::to_string(in[k].size()) + ", the first has rank " +
                   std::to_string(first.size());
          });
        for (std::int64_t i = 0; i < rank; ++i) {
          if (!ctx.require(axis == ctx.lit(i) || in[k][i] == first[i], [&] {
                return "concat input " + std::to_string(k) + " differs in dimension " +
                       std::to_string(i) + ": " + ctx.show(in[k][i]) + " vs " + ctx.show(first[i]);
              }))
            return false;
          out[i] = ctx.select(axis == ctx.lit(i), ctx.add(out[i], in[k][i]), out[i]);
        }
      }
      return emit(std::move(out));
    }

    case Op::kSplit: {
      const D& axis = attrs[0][0];
      const S& sizes = attrs[1];
      const S& x = in[0];
      const auto rank = static_cast<std::int64_t>(x.size());
      if (sizes.empty())
        return ctx.fail([] { return std::string("split needs at least one size"); });
      if (!ctx.require(axis < ctx.lit(rank), [&] {
            return "split axis " + ctx.show(axis) + " is not below the rank " +
                   std::to_string(rank);
          }))
        return false;
      if (!require_positive(ctx, sizes, "split size")) return false;
      D total = ctx.lit(0);
      for (const D& s : sizes) total = ctx.add(total, s);
      const D along = ctx.pick(x, axis);
      if (!ctx.require(total == along, [&] {
            return "split sizes add up to " + ctx.show(total) + " but the axis has " +
                   ctx.show(along);
          }))
        return false;
      for (const D& s : sizes) {
        S part = x;
        for (std::int64_t i = 0; i < rank; ++i) part[i] = ctx.select(axis == ctx.lit(i), s, x[i]);
        emit(std::move(part));
      }
      return true;
    }

    case Op::kMerge: {
      const S& w = in[0];
      const D& count = attrs[0][0];
      if (!require_rank(ctx, w, 4, "merge kernel")) return false;
      // The kernel is read as that of a grouped convolution with as many output as input channels
      // per group: groups = w.dim(0) / w.dim(1); count consecutive groups become one.
      if (!ctx.require(ctx.mod(w[0], w[1]) == 0 && ctx.mod(ctx.div(w[0], w[1]), count) == 0, [&] {
            return "merge cannot join " + ctx.show(count) + " groups of a kernel with " +
                   ctx.show(w[0]) + " output and " + ctx.show(w[1]) + " input channels per group";
          }))
        return false;
      return emit(S{w[0], ctx.mul(w[1], count), w[2], w[3]});
    }

    case Op::kBatchNorm: {
      const S& x = in[0];
      if (x.size() < 2)
        return ctx.fail(
            [&] { return "batchnorm needs rank >= 2, got rank " + std::to_string(x.size()); });
      for (std::size_t k = 1; k < 5; ++k) {
        if (!require_rank(ctx, in[k], 1, "batchnorm parameter")) return false;
        if (!ctx.require(in[k][0] == x[1], [&] {
              return "batchnorm parameter " + std::to_string(k) + " has " + ctx.show(in[k][0]) +
                     " entries for " + ctx.show(x[1]) + " channels";
            }))
          return false;
      }
      return same_as_input();
    }

    case Op::kSoftmax: {
      const auto rank = static_cast<std::int64_t>(in[0].size());
      if (!ctx.require(attrs[0][0] < ctx.lit(rank), [&] {
            return "softmax axis " + ctx.show(attrs[0][0]) + " is not below the rank " +
                   std::to_string(rank);
          }))
        return false;
      return same_as_input();
    }

    case Op::kLayerNorm: {
      const S& x = in[0];
      if (x.empty()) return ctx.fail([] { return std::string("layernorm needs rank >= 1"); });
      for (std::size_t k = 1; k < 3; ++k) {
        if (!require_rank(ctx, in[k], 1, k == 1 ? "layernorm scale" : "layernorm bias"))
          return false;
        if (!ctx.require(in[k][0] == x.back(), [&] {
              return std::string(k == 1 ? "layernorm scale" : "layernorm bias") + " has " +
                     ctx.show(in[k][0]) + " entries for a last axis of " + ctx.show(x.back());
            }))
          return false;
      }
      return same_as_input();
    }

    case Op::kAttention: {
      // q [B, S, D], k [B, L, D], v [B, L, E], D and E multiples of the heads, bias broadcasting
      // to the scores [B, heads, S, L] (rank 4 at most); causal attention needs S = L.
      const S &q = in[0], &k = in[1], &v = in[2], &bias = in[3];
      const D& heads = attrs[0][0];
      if (!require_rank(ctx, q, 3, "attention query") ||
          !require_rank(ctx, k, 3, "attention key") || !require_rank(ctx, v, 3, "attention value"))
        return false;
      if (bias.size() > 4)
        return ctx.fail([&] {
          return "attention bias must have rank 4 at most, got rank " + std::to_string(bias.size());
        });
      if (!ctx.require(k[0] == q[0] && v[0] == q[0] && k[2] == q[2] && v[1] == k[1], [&] {
            return "attention operands do not fit: query [" + ctx.show(q[0]) + ", " +
                   ctx.show(q[1]) + ", " + ctx.show(q[2]) + "], key [" + ctx.show(k[0]) + ", " +
                   ctx.show(k[1]) + ", " + ctx.show(k[2]) + "], value [" + ctx.show(v[0]) + ", " +
                   ctx.show(v[1]) + ", " + ctx.show(v[2]) + "]";
          }))
        return false;
      if (!ctx.require(ctx.mod(q[2], heads) == 0 && ctx.mod(v[2], heads) == 0, [&] {
            return "attention widths " + ctx.show(q[2]) + " and " + ctx.show(v[2]) +
                   " are not multiples of " + ctx.show(heads) + " heads";
          }))
        return false;
      if (!ctx.require(attrs[1][0] == 0 || q[1] == k[1], [&] {
            return "causal attention needs as many keys as queries, got " + ctx.show(k[1]) +
                   " and " + ctx.show(q[1]);
          }))
        return false;
      const S scores = {q[0], heads, q[1], k[1]};
      for (std::size_t i = 0; i < bias.size(); ++i) {
        const D& d = bias[i];
        const D& full = scores[4 - bias.size() + i];
        if (!ctx.require(d == 1 || d == full, [&] {
              return "attention bias dimension " + std::to_string(i) + " is " + ctx.show(d) +
                     ", neither 1 nor the scores' " + ctx.show(full);
            }))
          return false;
      }
      return emit(S{q[0], q[1], v[2]});
    }

    case Op::kNoop:
      return emit(S{});

    case Op::kOpaque:
      return ctx.fail([] { return std::string("opaque operators carry their output shapes"); });
  }
  return ctx.fail([] { return std::string("unknown operator"); });
}

}  // namespace mctsat::tensor
