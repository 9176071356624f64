# ladder-replay: the MPI program that replays a run (engine in lib/replay)
BINS += $(BUILD)/bin/ladder-replay
LADDER_REPLAY_OBJS := $(BUILD)/obj/bin/ladder-replay/main.o

$(LADDER_REPLAY_OBJS): CFLAGS += $(MPI_CFLAGS)
$(LADDER_REPLAY_OBJS): | $$(TRACE_GENERATED)

$(BUILD)/bin/ladder-replay: $(LADDER_REPLAY_OBJS) $$(REPLAY_OBJS) $$(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(LADDER_REPLAY_OBJS) $(REPLAY_OBJS) $(LIBLADDER) $(PKG_LIBS) $(MPI_LIBS)
