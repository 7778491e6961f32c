# Helpers shared by the folders' CMakeLists: one library per folder, one doctest executable per test
# folder.

# mctsat_library(NAME SOURCES... DEPS...): a library whose public headers sit beside its sources and
# are included as <folder/file.hpp> from the repository root. Compiled as a unity build (up to 8
# sources per translation unit: the headers they share are parsed and their inline code compiled
# once per batch; bench/results/2026-12-01-build-time.md), so names local to a source file
# (anonymous namespaces, file-level using-declarations) must not collide within a folder: helpers
# used by several files are declared once in a header.
function(mctsat_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

# mctsat_test_folder(FOLDER SOURCES... DEPS... SLOW...): one doctest executable `FOLDER_tests` for
# all of a test folder's files, compiled as a unity build (a few test files per translation unit:
# parsing doctest and the project's headers once per batch instead of once per file is most of
# the saving), and one CTest entry `FOLDER_STEM` per file, running only that file's test cases
# (doctest's --source-file filter). Entries are labelled `integration` in tests/cli and `unit`
# elsewhere, plus `slow` when named in SLOW.
function(mctsat_test_folder folder)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;SLOW" ${ARGN})
  set(executable ${folder}_tests)
  add_executable(${executable} ${ARG_SOURCES})
  target_link_libraries(${executable} PRIVATE mctsat_test_main ${ARG_DEPS})
  # Test code is compiled at -O1 in Release builds: it is a large share of the build, and what it
  # tests (the libraries) keeps the build type's optimization.
  target_compile_options(${executable} PRIVATE $<$<CONFIG:Release>:-O1>)
  set_target_properties(${executable} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  foreach(source ${ARG_SOURCES})
    get_filename_component(stem ${source} NAME_WE)
    set(name ${folder}_${stem})
    set(labels unit)
    if(folder STREQUAL "cli")
      set(labels integration)
    endif()
    if(name IN_LIST ARG_SLOW)
      list(APPEND labels slow)
    endif()
    add_test(NAME ${name} COMMAND ${executable} --source-file=*/${folder}/${stem}.cpp
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(${name} PROPERTIES LABELS "${labels}")
  endforeach()
endfunction()
