// Importing TASO's serialized graphs (`.model` files, written by TASO's Graph::export_to_file and
// shipped with TENSAT): four lines per operator, mapped onto the operator catalog; operator types
// the catalog does not cover become opaque nodes. The field layouts are in taso_model.cpp.
#pragma once

#include <string>
#include <string_view>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

// Parses the text of a TASO .model file; `file` names it in errors. Nodes are named
// `<type>_<guid>` (type names from TASO's op_table, e.g. `Conv_139`); the graph outputs are the
// outputs of the operators nobody consumes. Weights carry no values. Throws mctsat::Error with
// file:line:col of the offending field and the node's name.
tensor::Graph graph_from_taso_model(std::string_view text, const std::string& file);

}  // namespace mctsat::frontend
