# The newcomer's entry points.  `make demo` and `make check` first make sure the Debian
# packages they need are installed (with apt-get when run as root; otherwise they print the
# one apt-get line to run), then build with CMake.
#   make            build into build/
#   make demo       build and show traceglot on the example uftrace recording
#   make check      build, run the whole suite (ctest), then again under ASan + UBSan (the
#                   damage sweeps sampled), and build Release with gcc and with clang-14,
#                   builds beside suites; every build with -Werror; prints each stage's
#                   time and the total (tools/check.sh)
#   make install    install the CLI, libraries, header and pkg-config file (PREFIX=/usr/local)
#   make bench      time traceglot against the peer tools in alternating pairs (bench/run)
#   make fuzz       build the libFuzzer targets with clang-14 (ASan + UBSan) into build-fuzz and
#                   run each for FUZZ_SECONDS (FUZZ_TARGETS="fuzz_ctf_tsdl ..." for some only)
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD_DEPS := cmake make gcc g++ pkg-config libzstd-dev zlib1g-dev libelf-dev libdw-dev libiberty-dev \
              protobuf-c-compiler libprotobuf-c-dev libjson-c-dev libsqlite3-dev python3-dev \
              libedit-dev
TEST_DEPS := uftrace trace-cmd babeltrace2 lttng-tools liblttng-ust-dev clang-14 llvm-14 \
             python3 zstd protobuf-compiler chromium clang-format-14 sqlite3 python3-numpy \
             python3-pandas python3-bt2 python3-distributed python3-lttnganalyses linux-perf man-db bash-completion \
             zsh $(NODE_DEPS)
# Node.js and npm from Debian only where none is installed: a machine with another build of
# Node.js (nodesource's, which bundles npm) cannot take Debian's npm package beside it.
NODE_DEPS := $(if $(shell command -v npm 2>/dev/null),,nodejs npm)
CMAKE_FLAGS ?=
# the fuzz targets: clang-14 with libFuzzer's runtime
FUZZ_DEPS := clang-14 libclang-rt-14-dev
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=

.PHONY: all build demo check check-plain check-sanitize check-release deps-build deps-test \
        install bench fuzz clean

all: build

deps-build:
	@sh tools/ensure-packages.sh $(BUILD_DEPS)

deps-test:
	@sh tools/ensure-packages.sh $(BUILD_DEPS) $(TEST_DEPS)
	@# the browser tests' npm packages (speedscope, playwright-core), from the committed lock
	@if command -v npm >/dev/null; then cd tests && npm ci --no-audit --no-fund; fi

build/CMakeCache.txt:
	cmake -S . -B build -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

build: build/CMakeCache.txt
	cmake --build build -j $(JOBS)

demo: deps-build
	@$(MAKE) --no-print-directory build
	@echo '$$ traceglot info examples/fib.uftrace.data'
	@./build/traceglot info examples/fib.uftrace.data
	@echo
	@echo '$$ traceglot replay examples/fib.uftrace.data'
	@./build/traceglot replay examples/fib.uftrace.data
	@echo
	@echo '$$ traceglot report examples/fib.uftrace.data'
	@./build/traceglot report examples/fib.uftrace.data

check: deps-test
	@JOBS=$(JOBS) PREFIX=$(PREFIX) CMAKE_FLAGS='$(CMAKE_FLAGS)' tools/check.sh

# make check builds with -Werror (TG_WERROR); a plain `make` or a packager's cmake does not.
check-plain:
	cmake -S . -B build -DCMAKE_INSTALL_PREFIX=$(PREFIX) -DTG_WERROR=ON $(CMAKE_FLAGS)
	cmake --build build -j $(JOBS)
	cd build && ctest --output-on-failure -j $(JOBS)

check-sanitize:
	cmake -S . -B build-asan -DTG_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DTG_WERROR=ON $(CMAKE_FLAGS)
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS)

# What a packager runs: Release builds with gcc and with clang-14 compile without a warning
# (build only; the suites above run the code).
check-release:
	cmake -S . -B build-release-gcc -DCMAKE_BUILD_TYPE=Release -DTG_WERROR=ON \
	  -DCMAKE_C_COMPILER=gcc $(CMAKE_FLAGS)
	cmake --build build-release-gcc -j $(JOBS)
	cmake -S . -B build-release-clang -DCMAKE_BUILD_TYPE=Release -DTG_WERROR=ON \
	  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 $(CMAKE_FLAGS)
	cmake --build build-release-clang -j $(JOBS)

# Each target runs FUZZ_SECONDS (-timeout=1: an input over 1 s is a hang; -rss_limit_mb=2048
# and -malloc_limit_mb=512: unbounded allocations); the table says what each found, the
# inputs are in build-fuzz/fuzz/findings/ (tests/fuzz/run.sh).
fuzz:
	@sh tools/ensure-packages.sh $(BUILD_DEPS) $(FUZZ_DEPS)
	cmake -S . -B build-fuzz -DTG_FUZZ=ON -DTG_SANITIZE=ON -DCMAKE_C_COMPILER=clang-14 \
	  -DCMAKE_CXX_COMPILER=clang++-14 $(CMAKE_FLAGS)
	cmake --build build-fuzz -j $(JOBS)
	bash tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

install: build
	cmake --install build --prefix $(PREFIX)

bench: build
	bench/run

clean:
	rm -rf build build-asan build-release-gcc build-release-clang build-fuzz
