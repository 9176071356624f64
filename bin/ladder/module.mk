# the ladder command line tool: one binary, one cmd_*.c per subcommand
LADDER_CLI_SRCS := $(wildcard bin/ladder/*.c)
LADDER_CLI_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(LADDER_CLI_SRCS))
BINS += $(BUILD)/bin/ladder

$(BUILD)/obj/bin/ladder/%.o: CFLAGS += -Ibin/ladder

$(BUILD)/bin/ladder: $(LADDER_CLI_OBJS) $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(LADDER_CLI_OBJS) $(LIBLADDER) $(PKG_LIBS)
