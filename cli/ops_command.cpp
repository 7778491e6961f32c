// `mctsat ops [NAME...]`: lists the operator catalog (tensor/op.hpp) with each operator's
// positional signature, attribute ranges (and what mode codes such as `pad` and `act` mean),
// outputs and summary, as text, JSON or the Markdown
// table that docs/dsl.md embeds (a test checks that the document matches this output).
#include <iostream>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "support/error.hpp"
#include "support/suggest.hpp"
#include "tensor/op.hpp"

namespace mctsat::cli {
namespace {

// The rule DSL's sort names (dsl::sort_name) for the catalog's parameter kinds.
const char* kind_name(tensor::ParamKind kind) {
  switch (kind) {
    case tensor::ParamKind::kTensor:
      return "tensor";
    case tensor::ParamKind::kInt:
      return "integer";
    case tensor::ParamKind::kInts:
      return "integer list";
    case tensor::ParamKind::kFloat:
      return "number";
  }
  return "?";
}

// Rules may not mention graph leaves or operators mctsat cannot rewrite (dsl/checker.cpp).
bool usable_in_rules(tensor::Op op) {
  return op != tensor::Op::kInput && op != tensor::Op::kWeight && op != tensor::Op::kOpaque;
}

// "(conv2d stride_h stride_w pad act x w)"; a variadic parameter is written "inputs...".
std::string form(const tensor::OpSignature& sig) {
  std::string out = fmt::format("({}", sig.name);
  for (const tensor::Param& p : sig.params)
    out += fmt::format(" {}{}", p.name, p.variadic ? "..." : "");
  return out + ")";
}

// "1..1048576", ">= 0" (no upper bound), or "" for lists and numbers.
std::string range(const tensor::Param& p) {
  if (p.kind != tensor::ParamKind::kInt) return "";
  if (p.max == std::numeric_limits<std::int64_t>::max()) return fmt::format(">= {}", p.min);
  return fmt::format("{}..{}", p.min, p.max);
}

// What the codes of the catalog's mode attributes mean (tensor/op.hpp's Padding and
// Activation, which every operator with a `pad` or `act` attribute uses), or "" for a number.
static_assert(static_cast<int>(tensor::Padding::kSame) == 0 &&
              static_cast<int>(tensor::Padding::kValid) == 1 &&
              static_cast<int>(tensor::Padding::kSameLower) == 2);
static_assert(static_cast<int>(tensor::Activation::kNone) == 0 &&
              static_cast<int>(tensor::Activation::kSigmoid) == 1 &&
              static_cast<int>(tensor::Activation::kRelu) == 2 &&
              static_cast<int>(tensor::Activation::kTanh) == 3);
std::string_view value_meanings(const tensor::Param& p) {
  if (p.name == "pad") return "0 SAME, 1 VALID, 2 SAME_LOWER";
  if (p.name == "act") return "0 none, 1 sigmoid, 2 relu, 3 tanh";
  return "";
}

// "stride_h: integer 1..1048576; pad: integer 0..2 (0 SAME, 1 VALID, 2 SAME_LOWER); ..."
// (attributes only).
std::string attributes(const tensor::OpSignature& sig) {
  std::string out;
  for (const tensor::Param& p : sig.params) {
    if (p.kind == tensor::ParamKind::kTensor) continue;
    const std::string r = range(p);
    const std::string_view meanings = value_meanings(p);
    out += fmt::format("{}{}: {}{}{}", out.empty() ? "" : "; ", p.name, kind_name(p.kind),
                       r.empty() ? "" : " " + r,
                       meanings.empty() ? "" : fmt::format(" ({})", meanings));
  }
  return out;
}

std::string outputs(const tensor::OpSignature& sig) {
  if (sig.outputs >= 0) return std::to_string(sig.outputs);
  return sig.op == tensor::Op::kSplit ? "one per size" : "as recorded";
}

nlohmann::json to_json(const tensor::OpSignature& sig) {
  nlohmann::json params = nlohmann::json::array();
  for (const tensor::Param& p : sig.params) {
    nlohmann::json param = {{"name", p.name}, {"kind", kind_name(p.kind)}};
    if (p.kind == tensor::ParamKind::kInt) param["range"] = {p.min, p.max};
    if (const std::string_view meanings = value_meanings(p); !meanings.empty())
      param["values"] = meanings;
    if (p.variadic) param["variadic"] = true;
    params.push_back(std::move(param));
  }
  return {
      {"name", sig.name},
      {"form", form(sig)},
      {"params", std::move(params)},
      {"outputs", sig.outputs >= 0 ? nlohmann::json(sig.outputs) : nlohmann::json(outputs(sig))},
      {"view", sig.view},
      {"in_rules", usable_in_rules(sig.op)},
      {"summary", sig.summary}};
}

struct OpsOptions {
  std::vector<std::string> names;
  bool json = false, markdown = false;
};

void list_ops(const OpsOptions& o) {
  std::vector<const tensor::OpSignature*> selected;
  if (o.names.empty()) {
    for (const auto& sig : tensor::all_signatures()) selected.push_back(&sig);
  } else {
    for (const auto& name : o.names) {
      const auto op = tensor::find_op(name);
      if (!op) {
        std::vector<std::string> names;
        for (const auto& sig : tensor::all_signatures()) names.emplace_back(sig.name);
        throw Error(fmt::format("ops: no operator is named '{}'{} (see `mctsat ops`)", name,
                                did_you_mean(name, names)));
      }
      selected.push_back(&tensor::signature(*op));
    }
  }
  if (o.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto* sig : selected) list.push_back(to_json(*sig));
    std::cout << list.dump(2) << '\n';
  } else if (o.markdown) {
    std::cout << "| operator | form | attributes | outputs | summary |\n"
                 "| --- | --- | --- | --- | --- |\n";
    for (const auto* sig : selected) {
      std::string notes;
      if (sig->view) notes += "; costs nothing (view)";
      if (!usable_in_rules(sig->op)) notes += "; not in rules";
      const std::string attrs = attributes(*sig);
      std::cout << fmt::format("| `{}` | `{}` | {} | {} | {}{} |\n", sig->name, form(*sig),
                               attrs.empty() ? "none" : attrs, outputs(*sig), sig->summary, notes);
    }
  } else {
    for (const auto* sig : selected) {
      std::cout << fmt::format("{:<14} {:<48} {}\n", sig->name, form(*sig), sig->summary);
      if (const std::string attrs = attributes(*sig); !attrs.empty())
        std::cout << fmt::format("{:<14} {}\n", "", attrs);
    }
  }
}

}  // namespace

void add_ops_command(CLI::App& app) {
  auto options = std::make_shared<OpsOptions>();
  CLI::App* command = app.add_subcommand(
      "ops", "List the operators (the catalog rules and graphs use) with their signatures");
  command->add_option("names", options->names, "Only these operators");
  auto* json = command->add_flag("--json", options->json, "Print JSON");
  command->add_flag("--markdown", options->markdown, "Print a Markdown table (docs/dsl.md's)")
      ->excludes(json);
  command->callback([options] { list_ops(*options); });
}

}  // namespace mctsat::cli
