# ladder — the only build entry point.
#
#   make            build everything into build/
#   make deps       install missing Debian packages (apt-get), a no-op when all are present
#   make test       deps + build + check-layers + every test suite; ends with "N passed, N failed[, N skipped]"
#   make check      build + check-layers + the unit tests and the smoke suites (a couple of minutes)
#   make check-layers  fail on an #include that goes up against lib/README.md's folder order
#   make demo       deps + build + the main job on the local executor
#   make asan       build with AddressSanitizer/UBSan into build/asan and run the unit tests
#   make bench      benchmarks (ratios against baselines measured in the same run)
#   make fuzz       fuzz the readers (raw traces, containers, specs, Extra-P; FUZZ_SECONDS=1800 each, FUZZ_ONLY=raw ...)
#   make install PREFIX=/usr/local
#
# Each component adds its sources and targets through a module.mk next to its sources.

# ---- Debian packages the project needs: the one list -------------------------------------------
DEB_PACKAGES := gcc make pkg-config libc6-dev hostname procps iproute2 \
	libopenmpi-dev openmpi-bin libpmix-dev gfortran \
	libhdf5-dev hdf5-tools libgsl-dev libyaml-dev libjansson-dev uthash-dev libcmocka-dev \
	slurm-wlm slurmctld slurmd slurm-client munge libslurm-dev \
	libotf2-trace-dev otf2-tools \
	bats bats-support bats-assert jq time gnuplot-nox \
	lammps hpcc chromium
# only for `make fuzz` (libFuzzer ships with clang)
DEB_PACKAGES_FUZZ := clang libclang-rt-14-dev

# ---- toolchain -----------------------------------------------------------------------------------
# `make V=1` shows full command lines
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2)
endif
BUILD   ?= build
PREFIX  ?= /usr/local
CC      := gcc
MPICC   ?= mpicc
PKGS    := hdf5-serial gsl yaml-0.1 jansson otf2
VERSION := 0.1.0
GIT_REV := $(shell git describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)

# pkg-config is only asked when building (deps must not need it)
ifeq ($(filter deps help,$(MAKECMDGOALS)),)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lslurm -lm
MPI_CFLAGS := $(shell pkg-config --cflags ompi-c 2>/dev/null)
MPI_LIBS   := $(shell pkg-config --libs ompi-c 2>/dev/null)
endif

WARN     := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
BASEFLAGS = -std=c11 -D_GNU_SOURCE -g -O2 $(WARN) -MMD -MP -Ilib -DLADDER_VERSION='"$(VERSION)"'
SANFLAGS :=
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
CFLAGS   ?=
CFLAGS   += $(BASEFLAGS) $(SANFLAGS)
LDFLAGS  += $(SANFLAGS)

# ---- what modules fill in --------------------------------------------------------------------------
CORE_SRCS :=          # -> $(BUILD)/lib/libladder.a (links HDF5, GSL, libyaml, jansson, libslurm)
PURE_SRCS :=          # dependency-free code, also compiled position-independent for the tracer
PURE_SRCS_GEN :=      # generated dependency-free sources (under $(BUILD)/gen)
BINS      :=          # executables under $(BUILD)/bin
LIBS_SO   :=          # shared libraries under $(BUILD)/lib
APPS      :=          # reference mini-apps under $(BUILD)/apps
UNIT_TESTS :=         # C unit tests under $(BUILD)/tests/unit (cmocka, TAP output)
TEST_HELPERS :=       # other things the tests need built
BENCH_TARGETS :=      # run by `make bench`
FUZZ_TARGETS :=       # built by `make fuzz`
INSTALL_DATA :=

LIBLADDER := $(BUILD)/lib/libladder.a
.DEFAULT_GOAL := all
# modules may name variables defined after them in prerequisites as $$(VAR)
.SECONDEXPANSION:
include $(sort $(wildcard lib/*/module.mk bin/*/module.mk workflows/*/module.mk tests/*/module.mk bench/module.mk))

CORE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(CORE_SRCS) $(PURE_SRCS)) \
             $(patsubst $(BUILD)/gen/%.c,$(BUILD)/obj/gen/%.o,$(PURE_SRCS_GEN))
PURE_PIC  := $(patsubst %.c,$(BUILD)/pic/%.o,$(PURE_SRCS)) \
             $(patsubst $(BUILD)/gen/%.c,$(BUILD)/pic/gen/%.o,$(PURE_SRCS_GEN))

# objects may include generated headers (the function ids)
$(CORE_OBJS) $(PURE_PIC) $(TRACE_OBJS): | $(TRACE_GENERATED) $(REPLAY_GEN)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(call say,CC,$< [pic])
	$(Q)$(CC) $(CFLAGS) $(MPI_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(LIBLADDER): $(CORE_OBJS)
	@mkdir -p $(@D)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# a failed recipe leaves no half-written target behind
.DELETE_ON_ERROR:

.PHONY: all deps deps-fuzz test check check-layers unit-test demo asan bench fuzz install clean help
all: $(BINS) $(LIBS_SO) $(APPS) $(TEST_HELPERS)

deps:
	@missing=$$(dpkg-query -W -f='$${db:Status-Abbrev} $${Package}\n' $(DEB_PACKAGES) 2>/dev/null \
	   | awk '$$1=="ii" {print $$2}' | sed 's/:.*//' | sort > /tmp/.ladder-have.$$$$; \
	   for p in $(DEB_PACKAGES); do grep -qx "$$p" /tmp/.ladder-have.$$$$ || echo $$p; done; rm -f /tmp/.ladder-have.$$$$); \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing:" $$missing; \
	  if [ "$$(id -u)" != 0 ]; then echo "deps: run as root (or install these packages): $$missing" >&2; exit 1; fi; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing; \
	fi

deps-fuzz:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_PACKAGES_FUZZ)"

test: deps
	@$(MAKE) --no-print-directory all
	@tests/tools/check-layers
	@tests/run

check-layers:
	@tests/tools/check-layers

# the unit tests and the smoke subset (tests/smoke): every stage once, in a couple of minutes
check: all
	@tests/tools/check-layers > /dev/null || tests/tools/check-layers
	@SMOKE=1 BUILD=$(BUILD) tests/run

unit-test: $(UNIT_TESTS)
	@UNIT_ONLY=1 BUILD=$(BUILD) tests/run

asan: deps
	@$(MAKE) --no-print-directory BUILD=build/asan SAN=1 unit-test

demo: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) workflows/demo

bench: deps
	@$(MAKE) --no-print-directory all $(BENCH_TARGETS)
	@BUILD=$(BUILD) bench/run

FUZZ_SECONDS ?= 1800
fuzz: deps deps-fuzz
	@$(MAKE) --no-print-directory all $(FUZZ_TARGETS)
	@BUILD=$(BUILD) tests/fuzz/run $(FUZZ_SECONDS)

# The public header is the tracer's optional application interface (user regions and pausing):
# lib/trace/ladder-trace.h and the MPI_Pcontrol levels it includes by a path relative to itself,
# installed under include/ladder/ as they are in lib/. ladder-trace.pc gives its flags (and Open
# MPI's, which it includes) and the tracer to link instead of preloading it:
#   cc app.c $(pkg-config --cflags --libs ladder-trace)
INSTALL_INC := $(DESTDIR)$(PREFIX)/include/ladder
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(INSTALL_INC)/trace $(INSTALL_INC)/mpi
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	$(if $(LIBS_SO),install -m 755 $(LIBS_SO) $(DESTDIR)$(PREFIX)/lib/)
	$(foreach f,$(INSTALL_DATA),install -D -m 644 $(word 1,$(subst :, ,$(f))) $(DESTDIR)$(PREFIX)/$(word 2,$(subst :, ,$(f)));)
	install -m 644 lib/trace/ladder-trace.h $(INSTALL_INC)/trace/
	install -m 644 lib/mpi/pcontrol.h $(INSTALL_INC)/mpi/
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
	  'Name: ladder-trace' \
	  'Description: the ladder MPI tracer: user regions and pausing (ladder-trace.h), the tracer to link' \
	  'Version: $(VERSION)' 'Requires: ompi-c' \
	  'Cflags: -I$${includedir}/ladder/trace' 'Libs: -L$${libdir} -lladder-trace' \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ladder-trace.pc

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
