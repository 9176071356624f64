# the ladder command line tool: one binary, one cmd_*.c per subcommand
LADDER_CLI_SRCS := $(wildcard bin/ladder/*.c)
LADDER_CLI_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(LADDER_CLI_SRCS))
BINS += $(BUILD)/bin/ladder

$(BUILD)/obj/bin/ladder/%.o: CFLAGS += -Ibin/ladder

$(BUILD)/bin/ladder: $(LADDER_CLI_OBJS) $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(LADDER_CLI_OBJS) $(LIBLADDER) $(PKG_LIBS)

# `ladder --version` names the commit it was built from: main.o is rebuilt whenever that changes
GIT_REV_STAMP := $(BUILD)/gen/git-rev
$(GIT_REV_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(GIT_REV)' | cmp -s - $@ 2>/dev/null || echo '$(GIT_REV)' > $@
$(BUILD)/obj/bin/ladder/main.o: $(GIT_REV_STAMP)
$(BUILD)/obj/bin/ladder/main.o: CFLAGS += -DLADDER_GIT_REV='"$(GIT_REV)"'
.PHONY: FORCE
FORCE:
