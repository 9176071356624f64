# the test-only PMPI counting library (LD_PRELOAD), compared with the apps' --expect by the tests
PMPI_COUNT_SO := $(BUILD)/tests/libpmpi-count.so
TEST_HELPERS += $(PMPI_COUNT_SO)

$(PMPI_COUNT_SO): tests/pmpi-count/count.c
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) $(CFLAGS) -fPIC -shared -MF $@.d -o $@ $<
