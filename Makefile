# The README's two commands. `make demo`: install what is missing, build, optimize a built-in
# model and print the report. `make test`: install what is missing, build, run every test.
# `make sanitize`: the unit tests (label `unit`, not `slow`: search_default_search_zoo_test
# hit the 20-minute timeout under the sanitizers) built with AddressSanitizer and
# UndefinedBehaviorSanitizer by the `debug` preset: a second full build, which `make test` does
# not do (it would not fit its 15 minutes on 2 cores).
PRESET := release
MCTSAT := build/$(PRESET)/cli/mctsat

.PHONY: demo test sanitize deps build

demo: build
	$(MCTSAT) optimize bert

test: build
	ctest --preset $(PRESET)

sanitize: deps
	cmake --preset debug > /dev/null
	cmake --build --preset debug
	ctest --preset debug -L unit -LE slow

build: deps
	cmake --preset $(PRESET) > /dev/null
	cmake --build --preset $(PRESET)

deps:
	./scripts/install-deps.sh
