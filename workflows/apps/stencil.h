/*
 * stencil — the 1-, 2- and 3-D Jacobi stencil apps (3-, 5- and 7-point) share one implementation;
 * stencil1d.c, stencil2d.c and stencil3d.c only pick the dimension.
 */
#ifndef LADDER_APPS_STENCIL_H
#define LADDER_APPS_STENCIL_H

int stencil_main(int nd, int argc, char **argv);

#endif
