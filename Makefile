# sketch: PGXS build of the PostgreSQL module, plus the project's entry points.
#
#   make demo    hll rollup demo on a throwaway cluster (or PGHOST/PGDATABASE)
#   make test    everything: deps, core unit + accuracy tests, pg_regress
#   make bench   SQL benchmarks side by side, as ratios to count(v)
#
# `make test` installs missing build dependencies when run as root, so the
# PGXS part below is only included once pg_config can point at it.

EXTENSION   = sketch
EXTVERSION  = 0.1.0
PG_CONFIG  ?= $(firstword $(wildcard /usr/lib/postgresql/15/bin/pg_config) pg_config)
PGXS       := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)

MODULE_big  = sketch
OBJS        = $(patsubst %.cpp,%.o,$(sort $(wildcard src/core/*.cpp src/pg/*.cpp)))
DATA_built  = sketch--$(EXTVERSION).sql
# The extension script: shared objects first, then one piece per type.
SQL_PIECES  = src/sql/common.sql src/sql/hll.sql $(wildcard src/sql/cms.sql src/sql/bloom.sql)

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
SHLIB_LINK += -lstdc++
# Skip LLVM bitcode: JIT inlining of sketch code buys nothing and clang's
# bitcode pass ignores PG_CXXFLAGS.
override with_llvm = no

EXTRA_CLEAN = build results regression.diffs regression.out

ifneq ($(wildcard $(PGXS)),)
include $(PGXS)
endif

$(DATA_built): $(SQL_PIECES)
	cat $^ > $@

$(OBJS): $(wildcard src/core/*.h src/pg/*.h)

CMAKE_BUILD = build

.PHONY: deps core-test regress test demo bench

deps:
	bash test/install-deps.sh

core-test:
	cmake -S . -B $(CMAKE_BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(CMAKE_BUILD) -j2
	ctest --test-dir $(CMAKE_BUILD) --output-on-failure

# Re-invokes make so that PGXS is included after deps installed it.
regress:
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run -- $(MAKE) installcheck

test: deps
	$(MAKE) core-test
	$(MAKE) regress

demo: deps
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run-or-use -- psql -v ON_ERROR_STOP=1 -X -q -f test/demo.sql

bench: deps
	$(MAKE) all
	$(MAKE) install
	bash test/cluster.sh run -- bash test/bench/run.sh
