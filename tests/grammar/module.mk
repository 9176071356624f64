# tests/grammar: the benchmark of a grammar's checks against its width (run by bench/inputs.bench)
# and mkwide, which widens a trace's grammar (tests/bats/hostile.bats)
GRAMMAR_BENCH := $(BUILD)/tests/grammar/bench_grammar
GRAMMAR_HELPERS := $(GRAMMAR_BENCH) $(BUILD)/tests/grammar/mkwide

$(GRAMMAR_HELPERS): $(BUILD)/tests/grammar/%: $(BUILD)/obj/tests/grammar/%.o $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

TEST_HELPERS += $(GRAMMAR_HELPERS)
BENCH_TARGETS += $(GRAMMAR_BENCH)
