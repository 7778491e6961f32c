# Helpers shared by the folders' CMakeLists: one library per folder, one doctest binary per test file.

# mctsat_library(NAME SOURCES... DEPS...): a library whose public headers sit beside its sources and
# are included as <folder/file.hpp> from the repository root.
function(mctsat_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# mctsat_test(NAME SOURCE LABELS... DEPS...): a doctest executable registered with CTest under the
# given labels (unit, integration, slow).
function(mctsat_test name)
  cmake_parse_arguments(ARG "" "SOURCE" "LABELS;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCE})
  target_link_libraries(${name} PRIVATE mctsat_test_main ${ARG_DEPS})
  # Test code is compiled at -O1 in Release builds: it is a large share of the build, and what it
  # tests (the libraries) keeps the build type's optimization.
  target_compile_options(${name} PRIVATE $<$<CONFIG:Release>:-O1>)
  add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
endfunction()
