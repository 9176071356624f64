# test helpers for the replay suite: MPI programs whose traces ladder-replay must refuse
REPLAY_TEST_BINS := $(BUILD)/tests/replay/unreplayable
TEST_HELPERS += $(REPLAY_TEST_BINS)

$(BUILD)/tests/replay/%: tests/replay/%.c lib/trace/ladder-trace.h lib/mpi/pcontrol.h
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) -std=c11 -O1 -g $(WARN) -Ilib -o $@ $<
