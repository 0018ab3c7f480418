SHELL := /bin/bash
# rxbench - thin wrapper around CMake.  `make bench` and `make test` do all
# the set-up on a fresh Debian machine (missing packages, configure, build).
BUILD   ?= build
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
RESULTS ?= results
# make bench's samples: 4 per benchmark, so that `rxbench compare
# results/previous.json results/latest.json` tests every change (the U
# test needs 4 a side: STATS_ADVISED_COUNT, report/compare_stats.h), of
# 10 ms each (four of the suites' own 100 and 200 ms would take three
# times as long as make bench did with one).  Each sample also pays a warm-up pass over the op's whole
# input (payload: every packet, 14 s a sample of every benchmark) and an
# allocation run, so make bench takes about 1.5 times the CPU of one
# sample of the defaults (270 s against 185 s on 2 vCPUs).
BENCH_FLAGS ?= --count=4 --benchtime=10ms
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
# are written from the JSON either way.  The last run's results become
# previous.json, so that after two make bench
#   build/rxbench compare results/previous.json results/latest.json
bench: deps build
	@mkdir -p $(RESULTS)
	if [ -f $(RESULTS)/latest.json ]; then \
		mv -f $(RESULTS)/latest.json $(RESULTS)/previous.json; fi; \
	$(BUILD)/rxbench run $(BENCH_FLAGS) -o $(RESULTS)/latest.json; status=$$?; \
	[ -f $(RESULTS)/latest.json ] || exit $$status; \
	for ext in txt csv md html; do \
		$(BUILD)/rxbench report $(RESULTS)/latest.json \
			-o $(RESULTS)/latest.$$ext || exit 2; \
	done; \
	echo "make bench: wrote $(RESULTS)/latest.{json,txt,csv,md,html}"; \
	if [ -f $(RESULTS)/previous.json ]; then echo "make bench: against" \
		"the run before: $(BUILD)/rxbench compare" \
		"$(RESULTS)/previous.json $(RESULTS)/latest.json"; fi; \
	exit $$status

bench-quick: deps build
	@mkdir -p $(RESULTS)
	$(BUILD)/rxbench run $(QUICK) -o $(RESULTS)/quick.json

# The tests labelled long (full-size hostile inputs, longer fuzzing) are
# .ci/run's: ctest --test-dir build -L long.
test: test-deps build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE long

clean:
	rm -rf $(BUILD)
