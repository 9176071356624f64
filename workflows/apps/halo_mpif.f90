! halo_mpif — the halo exchange of stencil2d_f, through the other Fortran binding: `include
! 'mpif.h'` instead of `use mpi`. Posts the four receives (low and high neighbour of dimension 1,
! then of dimension 2), the four sends (high then low of each dimension), and one MPI_Waitall, in
! the order of the C stencil (workflows/apps/stencil.c), with MPI_DOUBLE_PRECISION faces.
subroutine halo_exchange(comm, nx, ny, u, lo, hi, sbuf1, sbuf2, rbuf1, rbuf2)
  implicit none
  include 'mpif.h'
  integer, intent(in) :: comm, nx, ny, lo(2), hi(2)
  double precision, intent(inout) :: u(0:nx + 1, 0:ny + 1)
  double precision :: sbuf1(ny, 2), sbuf2(nx, 2), rbuf1(ny, 2), rbuf2(nx, 2)
  integer :: req(8), ierr

  ! faces normal to dimension 1 hold ny cells, normal to dimension 2 nx cells
  sbuf1(:, 1) = u(1, 1:ny)
  sbuf1(:, 2) = u(nx, 1:ny)
  sbuf2(:, 1) = u(1:nx, 1)
  sbuf2(:, 2) = u(1:nx, ny)
  call MPI_Irecv(rbuf1(1, 1), ny, MPI_DOUBLE_PRECISION, lo(1), 0, comm, req(1), ierr)
  call MPI_Irecv(rbuf1(1, 2), ny, MPI_DOUBLE_PRECISION, hi(1), 1, comm, req(2), ierr)
  call MPI_Irecv(rbuf2(1, 1), nx, MPI_DOUBLE_PRECISION, lo(2), 2, comm, req(3), ierr)
  call MPI_Irecv(rbuf2(1, 2), nx, MPI_DOUBLE_PRECISION, hi(2), 3, comm, req(4), ierr)
  call MPI_Isend(sbuf1(1, 2), ny, MPI_DOUBLE_PRECISION, hi(1), 0, comm, req(5), ierr)
  call MPI_Isend(sbuf1(1, 1), ny, MPI_DOUBLE_PRECISION, lo(1), 1, comm, req(6), ierr)
  call MPI_Isend(sbuf2(1, 2), nx, MPI_DOUBLE_PRECISION, hi(2), 2, comm, req(7), ierr)
  call MPI_Isend(sbuf2(1, 1), nx, MPI_DOUBLE_PRECISION, lo(2), 3, comm, req(8), ierr)
  call MPI_Waitall(8, req, MPI_STATUSES_IGNORE, ierr)
  if (lo(1) /= MPI_PROC_NULL) u(0, 1:ny) = rbuf1(:, 1)
  if (hi(1) /= MPI_PROC_NULL) u(nx + 1, 1:ny) = rbuf1(:, 2)
  if (lo(2) /= MPI_PROC_NULL) u(1:nx, 0) = rbuf2(:, 1)
  if (hi(2) /= MPI_PROC_NULL) u(1:nx, ny + 1) = rbuf2(:, 2)
end subroutine halo_exchange
