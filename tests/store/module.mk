# test helpers: h5edit damages containers in precise ways
TEST_HELPERS += $(BUILD)/tests/h5edit

$(BUILD)/tests/h5edit: tests/store/h5edit.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) -std=c11 -O2 -g $(WARN) $(shell pkg-config --cflags hdf5-serial) -o $@ $< $(shell pkg-config --libs hdf5-serial)

# test helper writing a run container in the layout of run schema 1.0 (read, no longer written)
TEST_HELPERS += $(BUILD)/tests/runv1

$(BUILD)/tests/runv1: tests/store/runv1.c $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -MF $@.d $(LDFLAGS) -o $@ $< $(LIBLADDER) $(PKG_LIBS)

# test helper renaming a function, or a parameter, in a raw trace's function table
TEST_HELPERS += $(BUILD)/tests/rawfn

$(BUILD)/tests/rawfn: tests/store/rawfn.c $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -MF $@.d $(LDFLAGS) -o $@ $< $(LIBLADDER) $(PKG_LIBS)
