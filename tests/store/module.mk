# test helper that damages containers in precise ways
TEST_HELPERS += $(BUILD)/tests/h5edit

$(BUILD)/tests/h5edit: tests/store/h5edit.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) -std=c11 -O2 -g $(WARN) $(shell pkg-config --cflags hdf5-serial) -o $@ $< $(shell pkg-config --libs hdf5-serial)
