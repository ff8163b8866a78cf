# sketch: PGXS build of the PostgreSQL module, plus the project's entry points.
#
#   make demo      hll rollup demo on a throwaway cluster (or PGHOST/PGDATABASE)
#   make check     the inner loop: module, core unit tests, pg_regress
#   make test      everything (test/make_test.sh, docs/testing.md): deps and
#                  their package mapping, the source layout, core unit +
#                  accuracy tests against the module's objects, the same
#                  under ASan + UBSan, every fuzz target briefly, pg_regress,
#                  the hardening checks (dump/restore, concurrency, upgrade,
#                  ...), Parquet interop, the docs' SQL, the Citus suite
#                  where Citus is installed, and the PostgreSQL layer under
#                  UBSan (pg_regress, hostile role); ends with a stage table
#   make bench     SQL benchmarks side by side, as ratios to count(v)
#   make dist      the PGXN release archive of HEAD (dist/sketch-<version>.zip)
#   make deb       Debian packages postgresql-NN-sketch from that archive (dist/)
#   make sanitize  core unit + accuracy tests under ASan + UBSan (build-san)
#   make fuzz      every libFuzzer target for FUZZ_SECONDS (default 60) each
#   make hardening the server-side hardening checks (after make install)
#   make memory    measures peak backend memory of 1,000,000 sketch groups
#
# `make test` installs missing build dependencies when run as root, so the
# PGXS part below is only included once pg_config can point at it.

EXTENSION   = sketch
# The version is written once, in sketch.control; META.json (make dist) and
# the Debian changelog (make deb) read it from there too.
EXTVERSION := $(shell sed -n "s/^default_version = '\(.*\)'$$/\1/p" $(dir $(lastword $(MAKEFILE_LIST)))sketch.control)
# The last released version (tag v$(LAST_RELEASE); docs/upgrades.md).
LAST_RELEASE = 0.2.0
PG_CONFIG  ?= $(firstword $(wildcard /usr/lib/postgresql/15/bin/pg_config) pg_config)
PGXS       := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)

MODULE_big  = sketch
OBJS        = $(patsubst %.cpp,%.o,$(sort $(wildcard src/core/*/*.cpp src/pg/*/*.cpp)))
# The install script, and the upgrade scripts from released versions
# (docs/upgrades.md). An upgrade script between two released versions is
# frozen in releases/ once the later one is released, and shipped from
# there byte for byte (the pieces it was made of keep changing); the frozen
# install scripts there (releases/sketch--<version>.sql) are not shipped,
# only the upgrade test installs them (releases/README.md).
RELEASED_UPGRADES = $(notdir $(wildcard releases/sketch--*--*.sql))
# One script from each release older than the last one straight to this
# version (PostgreSQL takes the path of fewest scripts): the frozen upgrade
# to the last release, then this version's, under this version's opening
# lines, so the frozen script's catalog-driven blocks (written before
# src/sql/common.sql pinned search_path) run with pg_catalog alone on the
# path even when the update is run by a superuser in a schema others can
# write to. Today: sketch--0.1.0--0.3.0.sql.
EARLIER_RELEASES = $(patsubst releases/sketch--%--$(LAST_RELEASE).sql,%,\
                     $(wildcard releases/sketch--*--$(LAST_RELEASE).sql))
DIRECT_UPGRADES = $(foreach r,$(EARLIER_RELEASES),sketch--$(r)--$(EXTVERSION).sql)
UPGRADES    = $(RELEASED_UPGRADES) sketch--$(LAST_RELEASE)--$(EXTVERSION).sql $(DIRECT_UPGRADES)
DATA_built  = sketch--$(EXTVERSION).sql $(UPGRADES)
# The extension script: shared objects first, then one part per family,
# then the shared tail. A family's part, $(call family,<type>), is the SQL
# every sketch type has (src/sql/templates/sketch_type.sql.in, expanded for
# the type's line of src/sql/templates/sketch_types.txt into
# $(SQL_BUILD)/<type>.type.sql) followed by its own piece src/sql/<type>.sql.
# A new family adds its line there and its $(call family,...) here.
SQL_BUILD   = build/sql
SQL_TEMPLATE = src/sql/templates/sketch_type.sql.in src/sql/templates/sketch_types.txt \
               src/sql/templates/expand_type.sh
family      = $(SQL_BUILD)/$(1).type.sql src/sql/$(1).sql
SQL_PIECES  = src/sql/common.sql $(call family,hll) src/sql/hll_postgresql_hll.sql src/sql/hll_datasketches.sql $(call family,cms) $(call family,bloom) \
              src/sql/bloom_split_block.sql $(call family,ddsketch) src/sql/ddsketch_otel.sql \
              src/sql/ddsketch_proto.sql \
              src/sql/ddsketch_dashboard.sql \
              $(call family,topk) src/sql/topk_datasketches.sql $(call family,theta) src/sql/theta_datasketches.sql $(call family,counting_bloom) \
              $(call family,cuckoo) $(call family,kll) src/sql/kll_datasketches.sql $(call family,ell) \
              src/sql/sizing.sql src/sql/aging.sql src/sql/one_step.sql \
              src/sql/literal_overloads.sql src/sql/typed_aggregates.sql src/sql/privileges.sql

# pg_regress suites: every sql/*.sql, answers in expected/. The coexistence
# test needs the peer postgresql-hll (test/install-deps.sh installs it as
# root) and runs last because it reinstalls sketch into its own schema.
REGRESS     = $(filter-out hll_coexist,$(sort $(basename $(notdir $(wildcard sql/*.sql)))))
ifneq ($(wildcard $(shell $(PG_CONFIG) --sharedir 2>/dev/null)/extension/hll.control),)
REGRESS    += hll_coexist
else
$(warning postgresql-15-hll is not installed: the hll_coexist test will not run)
endif
REGRESS_OPTS = --load-extension=sketch

PG_CPPFLAGS = -I$(CURDIR)/src
PG_CXXFLAGS = -std=c++17 -fno-exceptions -Wall -Wextra -Wno-unused-parameter \
              -Wno-missing-field-initializers -Wno-register
# Calls between the module's own functions (transition function -> element
# hash -> sketch core, once per row) bind directly instead of through the PLT,
# and may be inlined: PGXS 15 builds with -fPIC and default visibility, which
# otherwise assumes every global function can be interposed. Measured on
# cms_agg over 10M rows (best of 7): 1.65x -> 1.47-1.50x count(v).
PG_CXXFLAGS += -fno-semantic-interposition
SHLIB_LINK += -lstdc++ -Wl,-Bsymbolic
# Extra flags for a build of the module that is not the shipped one, e.g.
# the sanitized PostgreSQL layer of test/pg_sanitized.sh.
PG_CXXFLAGS += $(SKETCH_EXTRA_CXXFLAGS)
SHLIB_LINK += $(SKETCH_EXTRA_LDFLAGS)
# Skip LLVM bitcode: JIT inlining of sketch code buys nothing and clang's
# bitcode pass ignores PG_CXXFLAGS.
override with_llvm = no

EXTRA_CLEAN = build build-san results regression.diffs regression.out

# Each object depends on the headers it includes (the compiler's dependency
# files in .deps/), not on every header of the tree.
override autodepend = yes

# PGXS has a `check` of its own (which says it is not supported); `make check`
# here is ours, whose steps are sub-makes that include PGXS.
ifneq ($(wildcard $(PGXS)),)
ifneq ($(MAKECMDGOALS),check)
include $(PGXS)
endif
endif

sketch--$(EXTVERSION).sql: $(SQL_PIECES)
	cat $^ > $@

$(SQL_BUILD)/%.type.sql: $(SQL_TEMPLATE)
	@mkdir -p $(dir $@)
	bash src/sql/templates/expand_type.sh $* > $@.tmp
	mv $@.tmp $@

# Pieces every upgrade ends with: they create what a fresh install's
# catalog-driven blocks create (literal twins, typed aggregate twins,
# privileges), each object only if the extension has no such member yet, so
# the tail can run on any version and twice (test/hardening/upgrade.sh runs
# it again after the update and checks that nothing changed).
UPGRADE_TAIL = src/sql/literal_overloads.sql src/sql/typed_aggregates.sql src/sql/privileges.sql

# The upgrade from the last release to this version: its own piece
# src/sql/upgrade--$(LAST_RELEASE)--$(EXTVERSION).sql (what the version adds
# or changes), then every
# src/sql/upgrade--$(LAST_RELEASE)--$(EXTVERSION).<topic>.sql in sorted order
# (a branch adds its family's changes as a piece of its own, e.g.
# upgrade--0.2.0--0.3.0.cuckoo.sql, without editing a shared file), then the
# tail. Frozen into releases/ when the version is released.
# A family new in this version is created by the upgrade as by a fresh
# install: list it in UPGRADE_FAMILIES (0.3.0: kll, ell) and its part,
# $(call family,<type>), comes after those pieces, before the tail.
# Likewise a piece of the install script new in this version that is not a
# family's whole part (a family's new piece, or shared objects): list it in
# UPGRADE_NEW_PIECES, in install-script order (0.3.0: postgresql-hll
# sketches, the one-step aggregates), and in SQL_PIECES where it belongs.
UPGRADE_FAMILIES = kll ell
UPGRADE_NEW_PIECES = src/sql/hll_postgresql_hll.sql src/sql/hll_datasketches.sql src/sql/ddsketch_otel.sql src/sql/ddsketch_proto.sql \
                     src/sql/ddsketch_dashboard.sql src/sql/topk_datasketches.sql src/sql/theta_datasketches.sql \
                     src/sql/kll_datasketches.sql \
                     src/sql/one_step.sql
UPGRADE_PIECES = src/sql/upgrade--$(LAST_RELEASE)--$(EXTVERSION).sql \
                 $(sort $(wildcard src/sql/upgrade--$(LAST_RELEASE)--$(EXTVERSION).*.sql)) \
                 $(foreach f,$(UPGRADE_FAMILIES),$(call family,$(f))) $(UPGRADE_NEW_PIECES)
sketch--$(LAST_RELEASE)--$(EXTVERSION).sql: $(UPGRADE_PIECES) $(UPGRADE_TAIL)
	cat $^ > $@

# The opening lines (up to the search_path pin) of the last release's
# upgrade, the frozen chain, then that upgrade itself (whose own opening
# lines repeat harmlessly: \echo lines are dropped by CREATE EXTENSION).
$(DIRECT_UPGRADES): sketch--%--$(EXTVERSION).sql: releases/sketch--%--$(LAST_RELEASE).sql \
                    sketch--$(LAST_RELEASE)--$(EXTVERSION).sql
	{ sed -n '1,/^SET LOCAL search_path TO pg_catalog, pg_temp;$$/p' $(word 2,$^); cat $^; } > $@

# Released upgrade scripts, as shipped (sketch--0.1.0--0.2.0.sql: 0.2.0's
# own piece, its new families' pieces and the tail as they were at v0.2.0).
$(RELEASED_UPGRADES): sketch--%.sql: releases/sketch--%.sql
	cp $< $@


CMAKE_BUILD = build/core
SANITIZE_BUILD = build-san
# ccache, when it is installed, for the CMake builds (the times in
# docs/testing.md hold without it; the PGXS build takes under 20 s).
CCACHE := $(shell command -v ccache 2>/dev/null)
CMAKE_LAUNCHER = $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))
CTEST_JOBS ?= 2
CLANGXX ?= $(firstword $(shell command -v clang++-14 clang++ 2>/dev/null))

# Seconds of fuzzing per target: `make fuzz` defaults to 60, `make test` to
# 10 (30 targets, two at a time: two and a half minutes of both cores; the
# campaigns that find things are `make fuzz` runs of minutes a target, and
# every make test replays each target's seeds and kept regressions first);
# FUZZ_SECONDS=N (environment or command line) sets both.
ifeq ($(origin FUZZ_SECONDS),undefined)
FUZZ_SECONDS      = 60
TEST_FUZZ_SECONDS = 10
else
TEST_FUZZ_SECONDS = $(FUZZ_SECONDS)
endif

.PHONY: deps core-test sanitize fuzz fuzz-replay fuzz-corpus regress hardening memory \
        citus docs-test test check demo bench dist deb print-upgrades print-version

deps:
	bash test/install-deps.sh

# The core's objects as the module links them (PGXS: PostgreSQL's CXXFLAGS,
# -O2 -fwrapv -fno-strict-aliasing -fno-exceptions), in one archive that the
# core tests link instead of compiling the core again.
CORE_OBJS    = $(filter src/core/%,$(OBJS))
CORE_ARCHIVE = build/libsketch_core_module.a
$(CORE_ARCHIVE): $(CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

# Unit and accuracy tests, and the fuzz targets' replays, against the
# module's own core objects. The test files use the module's flags too, with
# exceptions (GoogleTest and the test helpers report failures by throwing)
# and without -g (debug information for test files only costs compile time).
core-test: $(CORE_ARCHIVE)
	cmake -S . -B $(CMAKE_BUILD) -DCMAKE_BUILD_TYPE=Module \
	  -DCMAKE_CXX_COMPILER=$(CXX) '-DCMAKE_CXX_FLAGS=$(filter-out -g,$(CXXFLAGS)) -fexceptions' \
	  -DSKETCH_CORE_ARCHIVE=$(CURDIR)/$(CORE_ARCHIVE) $(CMAKE_LAUNCHER) >/dev/null
	cmake --build $(CMAKE_BUILD) -j2
	ctest --test-dir $(CMAKE_BUILD) --output-on-failure -j$(CTEST_JOBS) \
	  $(if $(CHECK_ONLY),-E '^accuracy[.]')

# The same tests built with clang, -fsanitize=address,undefined (the core
# also with libFuzzer's coverage: the fuzz targets come from this build);
# any report aborts the test.
# Under the sanitizers, all unit tests and the accuracy tests but the
# statistical ones of theta and topk (1,000 trials of 10^6 adds, Zipf
# streams) and ell's (simulated streams to 10^9, 30 s unsanitized), and
# hll's at precisions 14 and 18 (the same precision-generic code as p10's,
# 70 s under ASan): they cost minutes of CPU under ASan, their code paths
# are the unit tests' and the fuzzers', and core-shipped runs them
# unsanitized. Of kll's, the Pareto, signed and timestamp streams (the same
# adds, merges and queries as the five other streams: 9 s of ASan CPU).
SANITIZE_SKIP = ThetaAccuracy|TopkAccuracy.ZipfBoundsHoldForEveryKey|EllAccuracy|HllAccuracy.BiasAndRmsWithinTheTheoreticalBounds/p1[48]|KllAccuracy.RankErrorWithinReportedBound/(pareto|signed|timestamps)
sanitize:
	cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_CXX_COMPILER=$(CLANGXX) -DSKETCH_SANITIZE=ON \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_LAUNCHER) >/dev/null
	cmake --build $(SANITIZE_BUILD) -j2
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --test-dir $(SANITIZE_BUILD) --output-on-failure -j$(CTEST_JOBS) -E '$(SANITIZE_SKIP)'

# libFuzzer targets (clang-14), each run for FUZZ_SECONDS after replaying its
# kept regressions and seed corpus; see test/fuzz/run.sh.
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash test/fuzz/run.sh

fuzz-replay:
	bash test/fuzz/run.sh --replay

# Regenerates the committed seed corpus (test/fuzz/corpus_<type>.cpp).
fuzz-corpus:
	cmake -S . -B build/corpus -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build/corpus -j2
	for gen in build/corpus/make_corpus_*; do $$gen test/fuzz/corpus || exit 1; done

# Re-invokes make so that PGXS is included after deps installed it.
regress:
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run -- $(MAKE) installcheck

# Server-side hardening checks (test/hardening/run.sh), on a throwaway cluster.
hardening:
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run -- bash test/hardening/run.sh

memory:
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run -- bash test/hardening/memory.sh

# Citus: a coordinator and two workers on 127.0.0.1 run test/citus/suite.sql
# and the examples of docs/distributed.md (test/citus.sh; SKIPPED when Citus
# is not installed, also when CI=true).
citus:
	$(MAKE) all
	$(MAKE) install
	bash test/citus.sh

# Parquet interoperability of bloom's split-block layout with DuckDB and
# @dsnp/parquetjs from the npm registry (test/interop/parquet.sh; npm ci into
# test/interop/parquet; SKIPPED without node/npm, a failure when CI=true),
# hll's postgresql-hll sketches against the installed peer
# (test/interop/postgresql_hll.sh; SKIPPED without it, a failure when CI=true)
# ddsketch_from_otel against the OpenTelemetry JS SDK (test/interop/otel.sh)
# hll's DataSketches sketches against the libraries' own files
# (test/interop/datasketches.sh; SKIPPED without them), and
# ddsketch_from/to_ddsketch_proto against DataDog's @datadog/sketches-js
# (test/interop/ddsketch_proto.sh; the same npm rules).
interop:
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run -- bash test/interop/parquet.sh; rc=$$?; \
	bash test/cluster.sh run -- bash test/interop/postgresql_hll.sh || rc=1; \
	bash test/cluster.sh run -- bash test/interop/otel.sh || rc=1; \
	bash test/cluster.sh run -- bash test/interop/datasketches.sh || rc=1; \
	bash test/cluster.sh run -- bash test/interop/ddsketch_proto.sh || rc=1; exit $$rc

# Every ```sql block of README.md and docs/*.md runs, and the results the
# docs show are compared (test/docs/run.sh).
docs-test:
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run -- bash test/docs/run.sh

# Everything, independent stages at the same time, then a table of stage,
# seconds and passed/failed/skipped (test/make_test.sh).
test: deps
	TEST_FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) bash test/make_test.sh

# The inner loop while working: build, core unit tests (and the fuzz
# replays) against the module's objects, pg_regress on a throwaway cluster.
check: deps
	$(MAKE) -j2 all
	$(MAKE) install
	$(MAKE) core-test CHECK_ONLY=1
	bash test/cluster.sh run -- $(MAKE) installcheck

demo: deps
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run-or-use -- psql -v ON_ERROR_STOP=1 -X -q -f test/demo.sql

bench: deps
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run -- bash test/bench/run.sh

# Accuracy and size plots (docs/plots/*.png and the .tsv data behind them)
# from the installed extension on a throwaway cluster; test/report/run.sh
# installs gnuplot-nox when missing (as root).
.PHONY: report
report: deps
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run -- bash test/report/run.sh

# Release artifacts (docs/packaging.md): the PGXN archive of HEAD, and the
# Debian packages built from it by pg_buildext, one per installed major.
dist:
	bash packaging/make_dist.sh dist

deb: deps
	bash packaging/make_deb.sh dist

# The upgrade scripts this version ships (test/packaging.sh checks that the
# package holds each of them).
print-upgrades:
	@echo $(UPGRADES)

print-version:
	@echo $(EXTVERSION)
