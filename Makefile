# idseq: identifier generators for PostgreSQL (C++17, PGXS).
#
#   make demo   install what is missing, build, install, and run the feature tour on a
#               throwaway cluster (as root on Debian 12, or as a user with the packages)
#   make test   the same set-up, then the whole suite: unit tests, pg_regress, isolation,
#               TAP; ends with "N passed, N failed"
#   make bench  the benchmark (prints a table; never fails on timing)
#   make deb    build the Debian package in a scratch copy and test what it ships
#   make test-citus / bench-citus   the same on a real Citus cluster (docs/citus.md)
#   make test-versions  `make demo` and `make test` on Debian 13 (PostgreSQL 17) and unstable
#               (18), each in a throwaway root file system (as root; tools/idseq-versions)
#   make bench-versions  `make bench` on 15 (host), 17 and 18, ratios side by side

EXTENSION   = idseq
EXTVERSION  = 1.3
MODULE_big  = idseq
CORE_SRCS   = $(sort $(wildcard src/core/*.cpp))
PG_SRCS     = $(sort $(wildcard src/pg/*.cpp))
OBJS        = $(CORE_SRCS:.cpp=.o) $(PG_SRCS:.cpp=.o)
# The install script of the version in development and its upgrade script from the last
# release are assembled from src/sql/; released versions' scripts are frozen files that are
# never edited (idseq--1.0.sql, idseq--1.1.sql, idseq--1.2.sql and the upgrades between them).
DATA_built  = idseq--$(EXTVERSION).sql idseq--1.2--$(EXTVERSION).sql
DATA        = idseq--1.0.sql idseq--1.1.sql idseq--1.2.sql idseq--1.0--1.1.sql idseq--1.1--1.2.sql
REGRESS     = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
ISOLATION   = $(patsubst specs/%.spec,%,$(sort $(wildcard specs/*.spec)))
# TAP files run through PGXS's prove_installcheck (target below), not as part of
# `make installcheck`, which stays pg_regress and isolation against a running server.
EXTRA_CLEAN = build tmp_check tmp_check_iso results output_iso log sql/include/label_exceptions.sql

# Warnings are errors only in our own builds and CI (tools/idseq-run sets WERROR=1): a
# packager's plain `make` with a newer compiler must not fail on a new warning.
WERROR     ?= 0
WARN        = -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
PG_CXXFLAGS = -std=c++17 $(WARN) -Wno-register -Wno-missing-field-initializers -Wno-unused-parameter -fPIC
PG_CPPFLAGS = -Isrc/core -Isrc/pg -DIDSEQ_VERSION='"$(EXTVERSION)"'
SHLIB_LINK  = -lstdc++

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
# No LLVM bitcode for JIT inlining: it would need clang++ to match g++ exactly.
override with_llvm = no
include $(PGXS)
# Link with the C++ compiler (PostgreSQL's src/test/modules/test_cplusplusext does the same).
override COMPILER = $(CXX) $(CXXFLAGS)

# TAP tests through PGXS, against the installed extension (each file starts clusters of its
# own with PostgreSQL::Test::Cluster): make prove_installcheck PROVE_TESTS=t/020_sequences.pl
.PHONY: prove_installcheck
prove_installcheck:
	$(prove_installcheck)

# PGXS tracks no header dependencies: rebuild every object when any header changes.
$(OBJS): $(wildcard src/core/*.h src/pg/*.h)

# The install script is assembled from one fragment per SQL area, and the descriptions that
# their "--@ comment:" declarations give (tools/sqlgen); the upgrade runs the same descriptions
# after its own fragments. The directories are prerequisites too, so that removing a fragment
# rebuilds the script.
SQL_FRAGMENTS = $(sort $(wildcard src/sql/*.sql))
idseq--$(EXTVERSION).sql: $(SQL_FRAGMENTS) src/sql tools/sqlgen
	tools/sqlgen script $(SQL_FRAGMENTS) > $@.tmp && mv $@.tmp $@

# The label exceptions sql/90_labels.sql holds the installed functions to, from the same
# declarations; built with the extension and again by installcheck (a packager's build may
# clean the tree between the two).
all installcheck: sql/include/label_exceptions.sql
sql/include/label_exceptions.sql: $(SQL_FRAGMENTS) src/sql tools/sqlgen
	tools/sqlgen labels $(SQL_FRAGMENTS) > $@.tmp && mv $@.tmp $@

idseq--1.2--$(EXTVERSION).sql: $(sort $(wildcard src/sql/upgrade/1.2--$(EXTVERSION)/*.sql)) src/sql/upgrade/1.2--$(EXTVERSION) $(SQL_FRAGMENTS) tools/sqlgen
	{ cat $(filter src/sql/upgrade/%.sql,$^) && tools/sqlgen comments $(SQL_FRAGMENTS); } > $@.tmp && mv $@.tmp $@

# ---- PostgreSQL-free core: unit tests, sanitizers, fuzzing, micro-benchmarks ----
CORE_CXX     ?= g++
CORE_FLAGS    = -std=c++17 $(WARN) -Isrc/core -g
UNIT_SRCS     = $(sort $(wildcard core_tests/unit/*.cpp))
UNIT_HDRS     = $(wildcard core_tests/unit/*.h)

CORE_HDRS      = $(wildcard src/core/*.h)
SAN_FLAGS      = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The core is compiled once per flavour and linked into each test binary.
build/opt/%.o: src/core/%.cpp $(CORE_HDRS)
	@mkdir -p build/opt
	$(CORE_CXX) $(CORE_FLAGS) -O2 -c $< -o $@
build/san/%.o: src/core/%.cpp $(CORE_HDRS)
	@mkdir -p build/san
	clang++ $(CORE_FLAGS) -O1 $(SAN_FLAGS) -c $< -o $@
# ThreadSanitizer: the tests with threads (the slot protocol). TSAN_EXTRA, e.g.
# -DIDSEQ_SLOT_MUTATION_2, builds a mutation of the protocol
# (core_tests/unit/test_slot_protocol.cpp).
TSAN_FLAGS     = -fsanitize=thread -fno-omit-frame-pointer $(TSAN_EXTRA)
TSAN_UNIT_SRCS = core_tests/unit/test_slot_protocol.cpp
build/tsan/%.o: src/core/%.cpp $(CORE_HDRS)
	@mkdir -p build/tsan
	clang++ $(CORE_FLAGS) -O1 $(TSAN_FLAGS) -c $< -o $@
build/fuzz/%.o: src/core/%.cpp $(CORE_HDRS)
	@mkdir -p build/fuzz
	clang++ $(CORE_FLAGS) -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -c $< -o $@

CORE_OPT  = $(patsubst src/core/%.cpp,build/opt/%.o,$(CORE_SRCS))
CORE_SAN  = $(patsubst src/core/%.cpp,build/san/%.o,$(CORE_SRCS))
CORE_FUZZ = $(patsubst src/core/%.cpp,build/fuzz/%.o,$(CORE_SRCS))
CORE_TSAN = $(patsubst src/core/%.cpp,build/tsan/%.o,$(CORE_SRCS))

# Each test file is its own object, so that `make -j` compiles them side by side.
UNIT_OPT = $(patsubst core_tests/unit/%.cpp,build/unit-opt/%.o,$(UNIT_SRCS))
UNIT_SAN = $(patsubst core_tests/unit/%.cpp,build/unit-san/%.o,$(UNIT_SRCS))
# The core's objects are built -O2, as in the extension; the test files (with the core's
# inline code they include) -O1 with line tables only (a backtrace still gives file and
# line): the unit test binary then takes 61 s of CPU to build instead of 94, and runs as fast.
build/unit-opt/%.o: core_tests/unit/%.cpp $(CORE_HDRS) $(UNIT_HDRS)
	@mkdir -p build/unit-opt
	$(CORE_CXX) $(filter-out -g,$(CORE_FLAGS)) -O1 -g1 -c $< -o $@
build/unit-san/%.o: core_tests/unit/%.cpp $(CORE_HDRS) $(UNIT_HDRS)
	@mkdir -p build/unit-san
	clang++ $(CORE_FLAGS) -O1 $(SAN_FLAGS) -c $< -o $@

build/unit_tests: $(CORE_OPT) $(UNIT_OPT)
	$(CORE_CXX) $(CORE_FLAGS) -O2 $^ -lgtest -lgtest_main -pthread -o $@

build/unit_tests_san: $(CORE_SAN) $(UNIT_SAN)
	clang++ $(CORE_FLAGS) -O1 $(SAN_FLAGS) $^ -lgtest -lgtest_main -pthread -o $@

build/unit_tests_tsan: $(CORE_TSAN) $(TSAN_UNIT_SRCS) $(CORE_HDRS) $(UNIT_HDRS)
	clang++ $(CORE_FLAGS) -O1 $(TSAN_FLAGS) $(CORE_TSAN) $(TSAN_UNIT_SRCS) -lgtest -lgtest_main -pthread -o $@

unit: build/unit_tests
	build/unit_tests

unit-san: build/unit_tests_san
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build/unit_tests_san

# The unit tests that run threads, under ThreadSanitizer; a race fails the run at once.
# Without address-space randomisation where the system allows it: clang 14's runtime stops
# at start on kernels that randomise more bits (vm.mmap_rnd_bits above 28).
unit-tsan: build/unit_tests_tsan
	@norand=; if setarch "$$(uname -m)" -R true 2>/dev/null; then norand="setarch $$(uname -m) -R"; fi; \
	  echo "TSAN_OPTIONS=... $$norand build/unit_tests_tsan"; \
	  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" $$norand build/unit_tests_tsan

# Mutations of the slot protocol: every IDSEQ_SLOT_MUTATION_n that src/core/slot_protocol.h
# tests for breaks the protocol one way (core_tests/unit/test_slot_protocol.cpp says how, and which
# test catches it). `make mutation` builds the protocol's tests once per mutation (as
# unit-tsan does, the core's objects shared) and fails unless each build fails one of them or
# ThreadSanitizer reports a data race.
# The tests race threads, so a mutation survives only MUTATION_TRIES runs without a failure;
# each has been caught on its first run (10 runs of 10).
SLOT_MUTATIONS = $(sort $(shell grep -oE 'IDSEQ_SLOT_MUTATION_[0-9]+' src/core/slot_protocol.h | sed 's/.*_//'))
MUTATION_TRIES ?= 3
# ThreadSanitizer's runtime without address-space randomisation, where the system allows it
TSAN_NORAND = $(shell setarch "$$(uname -m)" -R true 2>/dev/null && echo setarch "$$(uname -m)" -R)
build/mutation_%: $(CORE_TSAN) $(TSAN_UNIT_SRCS) $(CORE_HDRS) $(UNIT_HDRS)
	clang++ $(CORE_FLAGS) -O1 $(TSAN_FLAGS) -DIDSEQ_SLOT_MUTATION_$* $(CORE_TSAN) $(TSAN_UNIT_SRCS) -lgtest -lgtest_main -pthread -o $@

mutation: $(patsubst %,mutation-run-%,$(SLOT_MUTATIONS))
.SECONDARY: $(patsubst %,build/mutation_%,$(SLOT_MUTATIONS))
mutation-run-%: build/mutation_%
	@for try in $$(seq $(MUTATION_TRIES)); do \
	  out=$$(TSAN_OPTIONS="halt_on_error=1" $(TSAN_NORAND) build/mutation_$* 2>&1); rc=$$?; \
	  caught=$$(echo "$$out" | sed -n 's/^\[  FAILED  \] \(SlotProtocol\.[A-Za-z]*\).*/\1/p' | sort -u | tr '\n' ' '); \
	  if echo "$$out" | grep -q '^WARNING: ThreadSanitizer: data race'; then caught="$${caught}ThreadSanitizer (a data race) "; fi; \
	  if [ -n "$$caught" ]; then echo "mutation $*: caught by $$caught(run $$try)"; exit 0; fi; \
	  if [ $$rc -ne 0 ]; then echo "$$out" | tail -20; echo "mutation $*: exit $$rc without a failed test (run $$try)"; fi; \
	done; \
	echo "mutation $*: SURVIVED $(MUTATION_TRIES) runs"; exit 1

FUZZ_TARGETS = $(patsubst core_tests/fuzz/%.cpp,build/%,$(sort $(wildcard core_tests/fuzz/fuzz_*.cpp)))
FUZZ_SECONDS ?= 10
build/fuzz_%: core_tests/fuzz/fuzz_%.cpp $(CORE_FUZZ) $(CORE_HDRS) $(wildcard core_tests/fuzz/*.h)
	clang++ $(CORE_FLAGS) -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(CORE_FUZZ) $< -o $@

# Each target fuzzes FUZZ_SECONDS on one core; `make -j` runs them side by side, each one's
# output kept together.
fuzz: $(patsubst build/fuzz_%,fuzz-run-%,$(FUZZ_TARGETS))
.SECONDARY: $(FUZZ_TARGETS)
fuzz-run-%: build/fuzz_%
	@mkdir -p build/corpus/$*
	@{ echo "fuzzing $* for $(FUZZ_SECONDS)s"; \
	  build/fuzz_$* -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 -artifact_prefix=build/fuzz-$*- \
	    build/corpus/$* core_tests/fuzz/corpus/$* 2>&1; }

# ---- the two commands ----
demo:
	tools/idseq-run demo

test:
	tools/idseq-run test

bench:
	tools/idseq-run bench

# Builds the Debian package (debian/, pg_buildext) in a scratch copy of the tree and tests
# what it ships without installing it on this machine: see tools/deb-check.
deb:
	tools/deb-check

# PGXN's META.json against the PGXN Meta Spec 1.0.0.
meta-check:
	tools/validate-meta META.json

# ---- idseq on a real Citus cluster (not part of `make test`) ----
# Builds Citus from its source tarball if needed (CITUS_SRC, default ../shared/vendor;
# cached), installs it and idseq, runs t/citus/*.pl; prints SKIPPED without the tarball.
test-citus:
	tools/citus-test test

bench-citus:
	tools/citus-test bench

# `make demo` and `make test` on Debian 13 and unstable, each in a throwaway root file system.
test-versions:
	tools/idseq-versions

# make bench on the host's PostgreSQL, then in each release's root (make test-versions), and
# the ratios side by side; logs in log/bench-{host,trixie,sid}.log
bench-versions:
	mkdir -p log
	tools/idseq-run bench 2>&1 | tee log/bench-host.log
	tools/idseq-versions bench $(BENCH_RELEASES)
	tools/bench-compare 15=log/bench-host.log 17=log/bench-trixie.log 18=log/bench-sid.log

.PHONY: unit unit-san unit-tsan mutation fuzz demo test bench deb meta-check test-citus bench-citus test-versions bench-versions
