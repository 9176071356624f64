/* stencil3d — 3-D 7-point Jacobi stencil mini-app (see stencil.c and README.md). */
#include "stencil.h"

int main(int argc, char **argv)
{
	return stencil_main(3, argc, argv);
}
