# The README's two commands. `make demo`: install what is missing, build, optimize a built-in
# model and print the report. `make test`: install what is missing, build, run every test.
PRESET := release
MCTSAT := build/$(PRESET)/cli/mctsat

.PHONY: demo test deps build

demo: build
	$(MCTSAT) optimize bert

test: build
	ctest --preset $(PRESET)

build: deps
	cmake --preset $(PRESET) > /dev/null
	cmake --build --preset $(PRESET)

deps:
	./scripts/install-deps.sh
