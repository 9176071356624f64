/* stencil2d — 2-D 5-point Jacobi stencil mini-app (see stencil.c and README.md). */
#include "stencil.h"

int main(int argc, char **argv)
{
	return stencil_main(2, argc, argv);
}
