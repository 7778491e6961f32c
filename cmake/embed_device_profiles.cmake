# Generates a C++ source that holds the shipped device profiles (devices/*.json) as raw string
# literals, so that the library knows them wherever it runs. Run at build time by
# tensor/CMakeLists.txt:
#   cmake -DINPUTS=<file>|<file>... -DOUTPUT=<generated .cpp> -P embed_device_profiles.cmake
# The result defines mctsat::tensor::embedded_profile_texts() (declared in tensor/device_profile.hpp).
if(NOT DEFINED OUTPUT)
  message(FATAL_ERROR "embed_device_profiles.cmake: OUTPUT is not set")
endif()
string(REPLACE "|" ";" inputs "${INPUTS}")
list(SORT inputs)

set(delimiter "mctsat_profile")
set(entries "")
foreach(input IN LISTS inputs)
  file(READ "${input}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${input} contains the raw-string delimiter )${delimiter}\"")
  endif()
  get_filename_component(name "${input}" NAME)
  string(APPEND entries "    {\"${name}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()

list(LENGTH inputs count)
set(source "// Generated from devices/*.json by cmake/embed_device_profiles.cmake: do not edit.
#include <array>

#include \"tensor/device_profile.hpp\"

namespace mctsat::tensor {
namespace {
const std::array<EmbeddedProfileText, ${count}> kEmbeddedProfiles = {{
${entries}}};
}  // namespace

std::span<const EmbeddedProfileText> embedded_profile_texts() { return kEmbeddedProfiles; }

}  // namespace mctsat::tensor
")

file(WRITE "${OUTPUT}" "${source}")
