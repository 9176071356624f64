! stencil2d_f — the Fortran version of stencil2d (workflows/apps/stencil.c, strong scaling,
! non-periodic, MPI_Cart_* topology): the same MPI calls with the same counts, peers and tags in
! the same order, so that its trace equals the C stencil's: `ladder compare` calls them equal, its
! MPI_DOUBLE_PRECISION being the C stencil's MPI_DOUBLE (both 8-byte reals); the checksum's
! MPI_UINT64_T is the C stencil's own type (Fortran names it too; its integer(8) holds the bits).
! It exercises the tracer's Fortran entry points: everything but the halo exchange goes through
! `use mpi`, the halo exchange (halo_mpif.f90) through mpif.h.
!
! Per run: MPI_Init, MPI_Comm_rank, MPI_Comm_size, MPI_Dims_create (2-D), MPI_Cart_create
! (reorder false), MPI_Cart_coords, two MPI_Cart_shift, MPI_Barrier; per iteration the halo
! exchange (4 Irecv, 4 Isend, 1 Waitall) and a Jacobi sweep, every K iterations an MPI_Allreduce
! (MAX) of the largest change; then MPI_Comm_free, two MPI_Reduce to rank 0 (time and compute: 2
! doubles, MAX; checksum: 1 integer(8) as MPI_UINT64_T, SUM) and MPI_Finalize.
!
! usage: stencil2d_f [--size N] [--iterations I] [--allreduce-every K] [--expect --ranks P]
!   --expect prints the per-rank calls and bytes of a run on P ranks (workflows/apps/README.md,
!   "--expect"), without MPI. Both grid dimensions must divide N (default 48; I 10; K 10).
program stencil2d_f
  use mpi
  implicit none
  integer :: nsize = 48, iterations = 10, every = 10, ranks = 0
  logical :: expect = .false.
  integer :: ierr, rank, nprocs, dims(2), coords(2), lo(2), hi(2), cart, it, nx, ny, i, j
  integer :: expdims(2)
  double precision, allocatable :: u(:, :), v(:, :), sb1(:, :), sb2(:, :), rb1(:, :), rb2(:, :)
  double precision :: diff, alldiff, t0, loc(2), glob(2)
  integer(kind=8) :: checksum, total
  character(len=16) :: hex

  call parse_options()
  if (expect) then
    call print_expect(ranks)
    stop
  end if

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call grid(nprocs, expdims)
  if (mod(nsize, expdims(1)) /= 0 .or. mod(nsize, expdims(2)) /= 0) then
    if (rank == 0) write (0, '(a,i0,a,i0,a,i0)') 'stencil2d_f: --size ', nsize, &
      ' is not divisible by the process grid ', expdims(1), 'x', expdims(2)
    call MPI_Finalize(ierr)
    call exit(2)
  end if
  dims = 0
  call MPI_Dims_create(nprocs, 2, dims, ierr)
  if (any(dims /= expdims)) call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, [.false., .false.], .false., cart, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_shift(cart, 0, 1, lo(1), hi(1), ierr)
  call MPI_Cart_shift(cart, 1, 1, lo(2), hi(2), ierr)

  nx = nsize / dims(1)
  ny = nsize / dims(2)
  allocate (u(0:nx + 1, 0:ny + 1), v(0:nx + 1, 0:ny + 1), sb1(ny, 2), rb1(ny, 2), sb2(nx, 2), rb2(nx, 2))
  u = 1d0
  do j = 1, ny
    do i = 1, nx
      u(i, j) = dble(mod((coords(1) * nx + i) * 7 + (coords(2) * ny + j) * 13, 101)) / 101d0
    end do
  end do
  v = u

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  do it = 1, iterations
    call halo_exchange(cart, nx, ny, u, lo, hi, sb1, sb2, rb1, rb2)
    v(1:nx, 1:ny) = (u(1:nx, 1:ny) + u(0:nx - 1, 1:ny) + u(2:nx + 1, 1:ny) + u(1:nx, 0:ny - 1) &
                     + u(1:nx, 2:ny + 1)) / 5d0
    diff = maxval(abs(v(1:nx, 1:ny) - u(1:nx, 1:ny)))
    u(1:nx, 1:ny) = v(1:nx, 1:ny)
    if (every > 0) then
      if (mod(it, every) == 0) call MPI_Allreduce(diff, alldiff, 1, MPI_DOUBLE_PRECISION, MPI_MAX, cart, ierr)
    end if
  end do
  loc = [MPI_Wtime() - t0, 0d0]
  checksum = 0
  do j = 1, ny
    do i = 1, nx
      checksum = checksum + int(u(i, j) * 1d9, kind=8)
    end do
  end do
  call MPI_Comm_free(cart, ierr)
  call MPI_Reduce(loc, glob, 2, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(checksum, total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    write (hex, '(z16.16)') total
    do i = 1, 16
      if (hex(i:i) >= 'A' .and. hex(i:i) <= 'F') hex(i:i) = achar(iachar(hex(i:i)) + 32)
    end do
    write (*, '(a,i0,a,i0,a,i0,a,f0.6,a,a)') 'RESULT app=stencil2d_f ranks=', nprocs, ' scaling=strong size=', &
      nsize, ' iterations=', iterations, ' time=', glob(1), ' compute=0.000000 checksum=', hex
  end if
  call MPI_Finalize(ierr)

contains

  subroutine parse_options()
    integer :: k, n
    character(len=64) :: arg, val
    n = command_argument_count()
    k = 1
    do while (k <= n)
      call get_command_argument(k, arg)
      select case (trim(arg))
      case ('--expect')
        expect = .true.
      case ('--size', '--iterations', '--allreduce-every', '--ranks')
        if (k == n) call usage('option ' // trim(arg) // ' needs a value')
        k = k + 1
        call get_command_argument(k, val)
        select case (trim(arg))
        case ('--size'); nsize = to_int(val, arg)
        case ('--iterations'); iterations = to_int(val, arg)
        case ('--allreduce-every'); every = to_int(val, arg)
        case ('--ranks'); ranks = to_int(val, arg)
        end select
      case ('--help')
        write (*, '(a)') 'usage: stencil2d_f [--size N] [--iterations I] [--allreduce-every K] [--expect --ranks P]'
        stop
      case default
        call usage('unknown option ' // trim(arg))
      end select
      k = k + 1
    end do
    if (nsize < 1 .or. iterations < 0 .or. every < 0) call usage('values must be positive')
    if (expect .and. ranks < 1) call usage('--expect needs --ranks P with P >= 1')
  end subroutine parse_options

  integer function to_int(val, opt)
    character(len=*), intent(in) :: val, opt
    integer :: stat
    read (val, *, iostat=stat) to_int
    if (stat /= 0) call usage(trim(opt) // ' needs an integer, got "' // trim(val) // '"')
  end function to_int

  subroutine usage(why)
    character(len=*), intent(in) :: why
    write (0, '(a)') 'stencil2d_f: ' // why
    call exit(2)
  end subroutine usage

  ! Open MPI's MPI_Dims_create in 2-D: the most square factorisation, the larger dimension first
  subroutine grid(p, d)
    integer, intent(in) :: p
    integer, intent(out) :: d(2)
    integer :: f
    d = [p, 1]
    do f = 1, p
      if (f * f > p) exit
      if (mod(p, f) == 0) d = [p / f, f]
    end do
  end subroutine grid

  ! per rank, the calls and bytes of a run on p ranks, functions in byte order
  subroutine print_expect(p)
    integer, intent(in) :: p
    integer :: r, d(2), c(2), n1, n2, nall
    integer(kind=8) :: rs, face
    call grid(p, d)
    if (mod(nsize, d(1)) /= 0 .or. mod(nsize, d(2)) /= 0) call usage('--size is not divisible by the process grid')
    n1 = nsize / d(2)            ! cells of a face normal to dimension 1
    n2 = nsize / d(1)
    nall = 0
    if (every > 0) nall = iterations / every
    write (*, '(a,i0,a,i0,a,i0,a)') '# ladder-expect 1 app=stencil2d_f ranks=', p, ' scaling=strong size=', nsize, &
      ' iterations=', iterations, ' compute=0'
    write (*, '(a)') 'rank' // achar(9) // 'function' // achar(9) // 'calls' // achar(9) // 'bytes_sent' // achar(9) &
      // 'bytes_recv'
    do r = 0, p - 1
      c = [r / d(2), mod(r, d(2))]
      face = 0
      if (c(1) > 0) face = face + n1
      if (c(1) < d(1) - 1) face = face + n1
      if (c(2) > 0) face = face + n2
      if (c(2) < d(2) - 1) face = face + n2
      face = face * 8 * iterations
      if (nall > 0) call row(r, 'MPI_Allreduce', nall, 8_8 * nall, 8_8 * nall)
      call row(r, 'MPI_Barrier', 1, 0_8, 0_8)
      call row(r, 'MPI_Cart_coords', 1, 0_8, 0_8)
      call row(r, 'MPI_Cart_create', 1, 0_8, 0_8)
      call row(r, 'MPI_Cart_shift', 2, 0_8, 0_8)
      call row(r, 'MPI_Comm_free', 1, 0_8, 0_8)
      call row(r, 'MPI_Comm_rank', 1, 0_8, 0_8)
      call row(r, 'MPI_Comm_size', 1, 0_8, 0_8)
      call row(r, 'MPI_Dims_create', 1, 0_8, 0_8)
      call row(r, 'MPI_Finalize', 1, 0_8, 0_8)
      call row(r, 'MPI_Init', 1, 0_8, 0_8)
      if (iterations > 0) then
        call row(r, 'MPI_Irecv', 4 * iterations, 0_8, face)
        call row(r, 'MPI_Isend', 4 * iterations, face, 0_8)
      end if
      rs = 0
      if (r == 0) rs = 24
      call row(r, 'MPI_Reduce', 2, 24_8, rs)
      if (iterations > 0) call row(r, 'MPI_Waitall', iterations, 0_8, 0_8)
    end do
  end subroutine print_expect

  subroutine row(r, name, calls, sent, recvd)
    integer, intent(in) :: r, calls
    character(len=*), intent(in) :: name
    integer(kind=8), intent(in) :: sent, recvd
    write (*, '(i0,a,a,a,i0,a,i0,a,i0)') r, achar(9), name, achar(9), calls, achar(9), sent, achar(9), recvd
  end subroutine row
end program stencil2d_f
