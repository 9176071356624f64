# test programs for the tracer: robustness cases and the per-call benchmark
TRACE_TEST_PROGS := abort crash funneled multiple onesided ownhdf5 pingpong poll
TEST_HELPERS += $(addprefix $(BUILD)/tests/trace/,$(TRACE_TEST_PROGS))

$(BUILD)/tests/trace/ownhdf5: tests/trace/ownhdf5.c
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) -std=c11 -O2 -g $(WARN) $(shell pkg-config --cflags hdf5-serial) -o $@ $< $(shell pkg-config --libs hdf5-serial)

$(BUILD)/tests/trace/funneled $(BUILD)/tests/trace/multiple: $(BUILD)/tests/trace/%: tests/trace/%.c
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) -std=c11 -O2 -g $(WARN) -pthread -o $@ $<

$(BUILD)/tests/trace/%: tests/trace/%.c
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) -std=c11 -O2 -g $(WARN) -o $@ $<
