# test programs for the tracer: robustness cases, many call sites, the per-call benchmark and the
# smallest run (MPI_Init and MPI_Finalize)
TRACE_TEST_PROGS := abort callsites crash funneled initfinalize multiple onesided ownhdf5 pingpong poll rankloop spawn
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

# the mpi_f08 bindings
TEST_HELPERS += $(BUILD)/tests/trace/f08
$(BUILD)/tests/trace/f08: tests/trace/f08.f90
	@mkdir -p $(@D) $(BUILD)/fmod
	$(call say,MPIFC,$@)
	$(Q)$(MPIFC) -O2 -g -Wall -Werror -fimplicit-none -J$(BUILD)/fmod -o $@ $<
