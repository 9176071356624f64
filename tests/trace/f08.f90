! Test program: the mpi_f08 bindings. Each rank reduces its rank, then exchanges one integer with
! its neighbour (Irecv, Isend with tag 5, Waitall): eight calls per rank, Init to Finalize.
program f08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, total, got
  type(MPI_Request) :: req(2)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Irecv(got, 1, MPI_INTEGER, mod(rank + 1, nprocs), 5, MPI_COMM_WORLD, req(1))
  call MPI_Isend(rank, 1, MPI_INTEGER, mod(rank + nprocs - 1, nprocs), 5, MPI_COMM_WORLD, req(2))
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
  if (got /= mod(rank + 1, nprocs) .or. total /= nprocs * (nprocs - 1) / 2) error stop 1
  call MPI_Finalize()
end program f08
