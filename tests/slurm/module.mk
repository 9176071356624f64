# tests/slurm: programs the local Slurm cluster tests run (see tests/slurm/README.md)
#   $(BUILD)/tests/mpi_hello        MPI hello, one line per rank, launched with srun --mpi=pmix
#   $(BUILD)/tests/submit_afterok   submits two jobs through libslurm with an afterok dependency
TEST_HELPERS += $(BUILD)/tests/mpi_hello $(BUILD)/tests/submit_afterok

$(BUILD)/tests/mpi_hello: tests/slurm/mpi_hello.c
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) $(CFLAGS) -MF $@.d $(LDFLAGS) -o $@ $<

$(BUILD)/tests/submit_afterok: tests/slurm/submit_afterok.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MF $@.d $(LDFLAGS) -o $@ $< -lslurm
