# tests/grammar: the benchmark of a grammar's checks against its width (run by bench/inputs.bench)
# and a helper that widens a trace's grammar
GRAMMAR_BENCH := $(BUILD)/tests/grammar/bench_grammar

$(GRAMMAR_BENCH): $(BUILD)/obj/tests/grammar/bench_grammar.o $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

TEST_HELPERS += $(GRAMMAR_BENCH)
BENCH_TARGETS += $(GRAMMAR_BENCH)

# the helper that widens a trace's grammar (tests/bats/hostile.bats)
GRAMMAR_HELPERS := $(BUILD)/tests/grammar/mkwide
$(GRAMMAR_HELPERS): $(BUILD)/obj/tests/grammar/mkwide.o $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)
TEST_HELPERS += $(GRAMMAR_HELPERS)
