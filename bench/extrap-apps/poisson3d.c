/*
 * poisson3d — a 3-D Poisson solver written against PETSc the way its users write one: a DMDA for
 * the unit cube with a 7-point star stencil (PETSc chooses the process grid), the operator and the
 * right-hand side assembled by the DM callbacks of a KSP, and geometric multigrid (PCMG, levels by
 * DMDA refinement) chosen on the command line: -da_grid_x 9 -da_refine 2 -pc_type mg -pc_mg_levels 3.
 * Every option is PETSc's own (-ksp_monitor, -log_view, ...). Prints the iteration count and the
 * residual norm on rank 0.
 *
 * The bench bench/extrap-apps.bench builds it when PETSc (libpetsc-real-dev) is installed.
 */
#include <petscdmda.h>
#include <petscksp.h>

/* -u'' = 1 on the cube, u = 0 on its boundary; rows scaled by the cell volume */
static PetscErrorCode compute_rhs(KSP ksp, Vec b, void *ctx)
{
	DM da;
	(void)ctx;
	PetscFunctionBeginUser;
	PetscCall(KSPGetDM(ksp, &da));
	PetscInt mx, my, mz;
	PetscCall(DMDAGetInfo(da, NULL, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
	PetscScalar h = 1.0 / ((mx - 1.0) * (my - 1.0) * (mz - 1.0));
	PetscCall(VecSet(b, h));
	PetscFunctionReturn(0);
}

static PetscErrorCode compute_operator(KSP ksp, Mat J, Mat A, void *ctx)
{
	DM da;
	(void)ctx;
	(void)J;
	PetscFunctionBeginUser;
	PetscCall(KSPGetDM(ksp, &da));
	PetscInt mx, my, mz, xs, ys, zs, xm, ym, zm;
	PetscCall(DMDAGetInfo(da, NULL, &mx, &my, &mz, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
	PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
	PetscScalar hx = 1.0 / (mx - 1), hy = 1.0 / (my - 1), hz = 1.0 / (mz - 1);
	PetscScalar sx = hy * hz / hx, sy = hx * hz / hy, sz = hx * hy / hz;
	for (PetscInt k = zs; k < zs + zm; k++)
		for (PetscInt j = ys; j < ys + ym; j++)
			for (PetscInt i = xs; i < xs + xm; i++) {
				MatStencil row = {.i = i, .j = j, .k = k};
				if (i == 0 || j == 0 || k == 0 || i == mx - 1 || j == my - 1 || k == mz - 1) {
					PetscScalar d = 2.0 * (sx + sy + sz);
					PetscCall(MatSetValuesStencil(A, 1, &row, 1, &row, &d, INSERT_VALUES));
					continue;
				}
				MatStencil col[7] = {
					{.i = i, .j = j, .k = k - 1}, {.i = i, .j = j - 1, .k = k}, {.i = i - 1, .j = j, .k = k},
					{.i = i, .j = j, .k = k},     {.i = i + 1, .j = j, .k = k}, {.i = i, .j = j + 1, .k = k},
					{.i = i, .j = j, .k = k + 1},
				};
				PetscScalar v[7] = {-sz, -sy, -sx, 2.0 * (sx + sy + sz), -sx, -sy, -sz};
				PetscCall(MatSetValuesStencil(A, 1, &row, 7, col, v, INSERT_VALUES));
			}
	PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
	PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
	PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
	KSP ksp;
	DM da;
	PetscCall(PetscInitialize(&argc, &argv, NULL, "3-D Poisson on a DMDA, multigrid by DMDA refinement"));
	PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
	PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, 9,
			       9, 9, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
	PetscCall(DMSetFromOptions(da));
	PetscCall(DMSetUp(da));
	PetscCall(KSPSetDM(ksp, da));
	PetscCall(KSPSetComputeRHS(ksp, compute_rhs, NULL));
	PetscCall(KSPSetComputeOperators(ksp, compute_operator, NULL));
	PetscCall(KSPSetFromOptions(ksp));
	PetscCall(KSPSolve(ksp, NULL, NULL));

	PetscInt its, m, n, p;
	PetscReal rnorm;
	PetscCall(KSPGetIterationNumber(ksp, &its));
	PetscCall(KSPGetResidualNorm(ksp, &rnorm));
	PetscCall(DMDAGetInfo(da, NULL, NULL, NULL, NULL, &m, &n, &p, NULL, NULL, NULL, NULL, NULL, NULL));
	PetscCall(PetscPrintf(PETSC_COMM_WORLD, "poisson3d: process grid %" PetscInt_FMT "x%" PetscInt_FMT "x%" PetscInt_FMT
				 ", %" PetscInt_FMT " iterations, residual norm %g\n", m, n, p, its, (double)rnorm));
	PetscCall(KSPDestroy(&ksp));
	PetscCall(DMDestroy(&da));
	PetscCall(PetscFinalize());
	return 0;
}
