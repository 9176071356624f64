# fuzz targets (libFuzzer, clang): `make fuzz` builds and runs them, FUZZ_SECONDS each.
# Every source is compiled once, with coverage and the address and undefined-behaviour sanitizers,
# into $(BUILD)/fuzz/obj and linked into the targets that need it.
FUZZ_CC    := clang
FUZZ_DIR   := $(BUILD)/fuzz
FUZZ_PKGS  := hdf5-serial yaml-0.1 jansson gsl
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=undefined -Ilib -I$(BUILD)/gen -DLADDER_VERSION='"$(VERSION)"'

# what each kind of target reads with: the run model, the store, the campaign specs, the models
FUZZ_RUN    := $(wildcard lib/grammar/*.c lib/run/*.c) \
               $(filter-out lib/mpi/wrapgen.c lib/mpi/replaygen.c lib/mpi/fortrangen.c lib/mpi/mpitable.c,$(wildcard lib/mpi/*.c)) \
               lib/util/log.c lib/util/escape.c lib/util/xalloc.c lib/util/buf.c lib/util/idpool.c lib/util/path.c lib/util/file.c \
               $(BUILD)/gen/mpi/functions.c $(BUILD)/gen/mpi/fninfo.c
FUZZ_STORE  := $(FUZZ_RUN) $(wildcard lib/store/*.c)
FUZZ_SPEC   := $(addprefix lib/campaign/,workflow.c workflow_grid.c grid.c site.c yaml_spec.c template.c campaign_error.c rungs.c \
               shquote.c statefile.c jobgraph.c) lib/util/log.c lib/util/escape.c lib/util/xalloc.c lib/util/buf.c lib/util/path.c \
               lib/util/file.c lib/util/spawn.c
FUZZ_MODEL  := $(filter-out lib/model/from_campaign.c,$(wildcard lib/model/*.c)) $(wildcard lib/intlaw/*.c) lib/util/log.c lib/util/escape.c lib/util/xalloc.c lib/util/buf.c lib/util/path.c lib/util/file.c

fuzz_objs = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(filter-out $(BUILD)/%,$(1))) \
            $(patsubst $(BUILD)/gen/%.c,$(FUZZ_DIR)/obj/gen/%.o,$(filter $(BUILD)/gen/%,$(1)))

FUZZ_PROXY  := $(FUZZ_STORE) $(filter-out lib/proxy/proxygen.c,$(wildcard lib/proxy/*.c)) $(wildcard lib/extrap/*.c) \
               $(wildcard lib/model/*.c) $(wildcard lib/intlaw/*.c) $(wildcard lib/meet/*.c) \
               $(BUILD)/gen/proxy/shapes.c $(BUILD)/gen/proxy/runtime.c

FUZZ_TARGETS := $(FUZZ_DIR)/fuzz_raw $(FUZZ_DIR)/fuzz_container $(FUZZ_DIR)/fuzz_spec $(FUZZ_DIR)/fuzz_extra_p \
                $(FUZZ_DIR)/fuzz_proxy

$(FUZZ_DIR)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(@D)
	$(call say,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_DIR)/obj/%.o: %.c | $(TRACE_GENERATED) $(REPLAY_GEN)
	@mkdir -p $(@D)
	$(call say,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(shell pkg-config --cflags $(FUZZ_PKGS)) -MMD -MP -c $< -o $@

$(FUZZ_DIR)/fuzz_raw: $(call fuzz_objs,tests/fuzz/fuzz_raw.c tests/fuzz/fuzz_walk.c $(FUZZ_RUN))
$(FUZZ_DIR)/fuzz_container: $(call fuzz_objs,tests/fuzz/fuzz_container.c tests/fuzz/fuzz_walk.c tests/fuzz/fuzz_file.c $(FUZZ_STORE))
$(FUZZ_DIR)/fuzz_spec: $(call fuzz_objs,tests/fuzz/fuzz_spec.c tests/fuzz/fuzz_file.c $(FUZZ_SPEC))
$(FUZZ_DIR)/fuzz_extra_p: $(call fuzz_objs,tests/fuzz/fuzz_extra_p.c tests/fuzz/fuzz_file.c $(FUZZ_MODEL))
$(FUZZ_DIR)/fuzz_proxy: $(call fuzz_objs,tests/fuzz/fuzz_proxy.c tests/fuzz/fuzz_file.c $(FUZZ_PROXY))
$(FUZZ_TARGETS):
	$(call say,FUZZ,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(shell pkg-config --libs $(FUZZ_PKGS)) -lm
