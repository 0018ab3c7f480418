SHELL := /bin/bash
# rxbench - thin wrapper around CMake.  `make bench` and `make test` do all
# the set-up on a fresh Debian machine (missing packages, configure, build).
BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
RESULTS ?= results

.PHONY: all deps test-deps configure build bench test clean

all: build

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

configure:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

bench: deps build
	@mkdir -p $(RESULTS)
	$(BUILD)/rxbench run -o $(RESULTS)/latest.json | tee $(RESULTS)/latest.txt; \
		exit $${PIPESTATUS[0]}

test: test-deps build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
