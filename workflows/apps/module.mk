# reference MPI mini-apps: one binary per app in $(BUILD)/apps, built with $(MPICC); every app links
# the shared option/driver code (common.c) and the --expect table (expect.c)
APP_DIR   := workflows/apps
APP_NAMES := stencil1d stencil2d stencil3d sweep cg ft is mw phases halo27 halo3d_count mpart
# a halo on a grid the code factors and numbers itself (extrapolation of hand-made decompositions)
APP_NAMES += ownhalo
# partner laws, uneven decompositions and loop counts that grow with P (issue 30)
APP_NAMES += butterfly mgcoarse uneven cannon
APP_OBJ   := $(BUILD)/mpiobj/$(APP_DIR)
APP_SHARED_OBJS := $(APP_OBJ)/common.o $(APP_OBJ)/expect.o
APPS += $(addprefix $(BUILD)/apps/,$(APP_NAMES))

$(APP_OBJ)/%.o: $(APP_DIR)/%.c
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) $(CFLAGS) -c $< -o $@

# the three stencils share one implementation
$(addprefix $(BUILD)/apps/,stencil1d stencil2d stencil3d): $(APP_OBJ)/stencil.o
# the issue-30 apps share their process grid
$(addprefix $(BUILD)/apps/,butterfly mgcoarse uneven cannon): $(APP_OBJ)/procgrid.o
# ft and phases share the distributed transpose
$(BUILD)/apps/ft $(BUILD)/apps/phases: $(APP_OBJ)/transpose.o

$(BUILD)/apps/%: $(APP_OBJ)/%.o $(APP_SHARED_OBJS)
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)$(MPICC) $(LDFLAGS) -o $@ $^ -lm

# keep the objects (they are intermediate files of the pattern rules above)
.SECONDARY: $(patsubst %,$(APP_OBJ)/%.o,$(APP_NAMES) stencil transpose procgrid common expect)

# the Fortran stencil (use mpi, and mpif.h for its halo exchange), built with $(MPIFC)
MPIFC ?= mpifort
FFLAGS_APPS := -O2 -g -Wall -Werror -fimplicit-none
APPS += $(BUILD)/apps/stencil2d_f
$(BUILD)/apps/stencil2d_f: $(APP_DIR)/stencil2d_f.f90 $(APP_DIR)/halo_mpif.f90
	@mkdir -p $(@D) $(BUILD)/fmod
	$(call say,MPIFC,$@)
	$(Q)$(MPIFC) $(FFLAGS_APPS) -J$(BUILD)/fmod -o $@ $^
