SHELL := /bin/bash
# rxbench - thin wrapper around CMake.  `make bench` and `make test` do all
# the set-up on a fresh Debian machine (missing packages, configure, build).
BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
RESULTS ?= results
# The quick set CI compares (.github/workflows/bench.yml, README).
QUICK   ?= --benchtime=100ms --count=6

.PHONY: all deps test-deps configure build bench bench-quick test clean

all: build

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

configure:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The run's exit status (1 when an engine mismatched) is kept; the reports
# are written from the JSON either way.
bench: deps build
	@mkdir -p $(RESULTS)
	rm -f $(RESULTS)/latest.json; \
	$(BUILD)/rxbench run -o $(RESULTS)/latest.json; status=$$?; \
	[ -f $(RESULTS)/latest.json ] || exit $$status; \
	for ext in txt csv md html; do \
		$(BUILD)/rxbench report $(RESULTS)/latest.json \
			-o $(RESULTS)/latest.$$ext || exit 2; \
	done; \
	echo "make bench: wrote $(RESULTS)/latest.{json,txt,csv,md,html}"; \
	exit $$status

bench-quick: deps build
	@mkdir -p $(RESULTS)
	$(BUILD)/rxbench run $(QUICK) -o $(RESULTS)/quick.json

test: test-deps build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD)
