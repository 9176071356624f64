# test helpers for the proxy suite: MPI programs whose traces `ladder proxy` must refuse
PROXY_TEST_BINS := $(BUILD)/tests/proxy/unproxyable
TEST_HELPERS += $(PROXY_TEST_BINS)

$(BUILD)/tests/proxy/%: tests/proxy/%.c
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) -std=c11 -O1 -g $(WARN) -o $@ $<
