# tests/model: the synthetic test-set generator (ground-truth PMNF functions with controlled noise),
# linked into the model unit tests, the model benchmark driver run by bench/model.bench, and the
# study of model selection on the synthetic set (study_model: rates, oracle, failures), and the
# accuracy of predictions beyond the measured range (accuracy_model, run by bench/model.bench).
SYNTH_OBJS := $(BUILD)/obj/tests/model/synth.o
MODEL_SYNTH_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(wildcard tests/unit/test_model_*.c))
MODEL_BENCH := $(BUILD)/tests/model/bench_model
MODEL_STUDY := $(BUILD)/tests/model/study_model
MODEL_ACCURACY := $(BUILD)/tests/model/accuracy_model

$(BUILD)/obj/tests/model/%.o: CFLAGS += -Itests/model

$(MODEL_SYNTH_TESTS): $(BUILD)/tests/unit/%: tests/unit/%.c $(SYNTH_OBJS) $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS) -Itests/model $(PKG_CFLAGS) -MF $@.d $(LDFLAGS) -o $@ $< $(SYNTH_OBJS) $(LIBLADDER) $(PKG_LIBS) -lcmocka

$(MODEL_BENCH): $(BUILD)/obj/tests/model/bench_model.o $(SYNTH_OBJS) $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(MODEL_STUDY): $(BUILD)/obj/tests/model/study_model.o $(BUILD)/obj/tests/model/tell.o $(SYNTH_OBJS) $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(MODEL_ACCURACY): $(BUILD)/obj/tests/model/accuracy_model.o $(BUILD)/obj/tests/model/heldout.o $(BUILD)/obj/tests/model/fresh.o $(BUILD)/obj/tests/model/verify.o $(BUILD)/obj/tests/model/tell.o $(SYNTH_OBJS) $(LIBLADDER)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

TEST_HELPERS += $(MODEL_BENCH) $(MODEL_STUDY) $(MODEL_ACCURACY)
BENCH_TARGETS += $(MODEL_BENCH) $(MODEL_ACCURACY)
