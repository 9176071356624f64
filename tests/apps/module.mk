# test helpers for the reference apps: dims-check compares the apps' process-grid factorisation
# (used by --expect, without MPI) with MPI_Dims_create
APPS_DIMS_CHECK := $(BUILD)/tests/apps-dims-check
TEST_HELPERS += $(APPS_DIMS_CHECK)

$(APPS_DIMS_CHECK): tests/apps/dims-check.c $(BUILD)/mpiobj/workflows/apps/common.o $(BUILD)/mpiobj/workflows/apps/expect.o
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) $(CFLAGS) -MF $@.d -o $@ $^ -lm
