# fuzz targets (libFuzzer, clang): `make fuzz` builds and runs them, FUZZ_SECONDS each
FUZZ_CC      := clang
FUZZ_FLAGS   := -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -Ilib -I$(BUILD)/gen \
                -DLADDER_VERSION='"$(VERSION)"'
FUZZ_PURE    := $(wildcard lib/grammar/*.c lib/run/*.c) lib/mpi/kinds.c lib/mpi/volume.c lib/util/log.c lib/util/xalloc.c lib/util/buf.c \
                lib/util/idpool.c $(BUILD)/gen/mpi/functions.c $(BUILD)/gen/mpi/fninfo.c
FUZZ_TARGETS := $(BUILD)/fuzz/fuzz_raw $(BUILD)/fuzz/fuzz_container

$(BUILD)/fuzz/fuzz_raw: tests/fuzz/fuzz_raw.c $(FUZZ_PURE) | $(TRACE_GENERATED) $(REPLAY_GEN)
	@mkdir -p $(@D)
	$(call say,FUZZ,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^

$(BUILD)/fuzz/fuzz_container: tests/fuzz/fuzz_container.c $(FUZZ_PURE) $(wildcard lib/store/*.c) | $(TRACE_GENERATED) $(REPLAY_GEN)
	@mkdir -p $(@D)
	$(call say,FUZZ,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) $(shell pkg-config --cflags hdf5-serial yaml-0.1) -o $@ $^ \
		$(shell pkg-config --libs hdf5-serial yaml-0.1)
