# C unit tests: tests/unit/test_*.c, one cmocka program each, linked against libladder.a
UNIT_TEST_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_TESTS += $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_TEST_SRCS))
TEST_HELPERS += $(UNIT_TESTS)

$(BUILD)/tests/unit/%: tests/unit/%.c $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -MF $@.d $(LDFLAGS) -o $@ $< $(LIBLADDER) $(PKG_LIBS) -lcmocka
