# test helpers for the proxy suite: MPI programs whose traces `ladder proxy` must refuse or
# handle specially (unproxyable), and one that makes nearly every call the tracer records (calls)
PROXY_TEST_BINS := $(BUILD)/tests/proxy/unproxyable $(BUILD)/tests/proxy/calls
TEST_HELPERS += $(PROXY_TEST_BINS)

$(BUILD)/tests/proxy/%: tests/proxy/%.c
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) -std=c11 -O1 -g $(WARN) -o $@ $<
