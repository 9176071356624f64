/* stencil1d — 1-D 3-point Jacobi stencil mini-app (see stencil.c and README.md). */
#include "stencil.h"

int main(int argc, char **argv)
{
	return stencil_main(1, argc, argv);
}
