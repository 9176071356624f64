/*
 * calls — an MPI program that makes a call of nearly every function the tracer records (the MPI
 * function table, lib/mpi/mpi-functions.tbl), so that the proxy of its trace shows the generator
 * writes each of them as code that compiles and makes the same calls (tests/bats/proxy.bats):
 * point to point in every mode, persistent requests, matched probes, cancellation, every
 * completion call, every blocking and nonblocking collective (v and w variants included),
 * neighbourhood collectives on Cartesian and distributed graph topologies, communicators, groups,
 * topology queries, every datatype constructor, packing, user ops and the environment queries.
 * Run it on 4 ranks; it prints "calls ok" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 8
static int rank, size, right, left;
static double a[4 * N * 16], b[4 * N * 16];

static void point_to_point(void)
{
	MPI_Request r[4];
	MPI_Status st;
	int count;
	MPI_Sendrecv(a, N, MPI_DOUBLE, right, 1, b, N, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_DOUBLE, &count);
	MPI_Get_elements(&st, MPI_DOUBLE, &count);
	MPI_Sendrecv_replace(a, N, MPI_DOUBLE, right, 2, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	/* blocking modes around a ring: even ranks send first */
	static char attached[4096];
	MPI_Buffer_attach(attached, sizeof attached);
	for (int mode = 0; mode < 3; mode++) {
		if (rank % 2 == 0) {
			if (mode == 0)
				MPI_Send(a, N, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
			else if (mode == 1)
				MPI_Bsend(a, N, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
			else
				MPI_Ssend(a, N, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
			MPI_Recv(b, N, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &st);
		} else {
			MPI_Recv(b, N, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &st);
			MPI_Send(a, N, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
		}
	}
	/* ready mode: the receive is posted before the barrier */
	MPI_Irecv(b, N, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &r[0]);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Rsend(a, N, MPI_DOUBLE, right, 4, MPI_COMM_WORLD);
	MPI_Wait(&r[0], &st);
	MPI_Irecv(b, N, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &r[0]);
	MPI_Irecv(b + N, N, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, &r[1]);
	MPI_Irecv(b + 2 * N, N, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &r[2]);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Isend(a, N, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &r[3]);
	MPI_Wait(&r[3], MPI_STATUS_IGNORE);
	MPI_Ibsend(a, N, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, &r[3]);
	MPI_Wait(&r[3], MPI_STATUS_IGNORE);
	MPI_Irsend(a, N, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &r[3]);
	MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
	MPI_Irecv(b, N, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &r[0]);
	MPI_Issend(a, N, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	void *gone;
	int gone_size;
	MPI_Buffer_detach(&gone, &gone_size);
	/* probes: the message is there after the barrier */
	MPI_Send(a, N, MPI_DOUBLE, right, 9, MPI_COMM_WORLD);   /* small: eager */
	MPI_Probe(left, 9, MPI_COMM_WORLD, &st);
	int flag = 0;
	while (!flag)
		MPI_Iprobe(left, 9, MPI_COMM_WORLD, &flag, &st);
	MPI_Recv(b, N, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Message m;
	MPI_Send(a, N, MPI_DOUBLE, right, 10, MPI_COMM_WORLD);
	MPI_Mprobe(left, 10, MPI_COMM_WORLD, &m, &st);
	MPI_Mrecv(b, N, MPI_DOUBLE, &m, &st);
	MPI_Send(a, N, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
	for (flag = 0; !flag;)
		MPI_Improbe(left, 11, MPI_COMM_WORLD, &flag, &m, &st);
	MPI_Imrecv(b, N, MPI_DOUBLE, &m, &r[0]);
	MPI_Wait(&r[0], &st);
	/* a receive nobody matches, cancelled */
	MPI_Irecv(b, N, MPI_DOUBLE, left, 99, MPI_COMM_WORLD, &r[0]);
	MPI_Cancel(&r[0]);
	MPI_Wait(&r[0], &st);
	MPI_Test_cancelled(&st, &flag);
}

static void persistent(void)
{
	MPI_Request r[6];
	static char attached[4096];
	MPI_Buffer_attach(attached, sizeof attached);
	MPI_Recv_init(b, N, MPI_DOUBLE, left, 20, MPI_COMM_WORLD, &r[0]);
	MPI_Recv_init(b + N, N, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &r[1]);
	MPI_Recv_init(b + 2 * N, N, MPI_DOUBLE, left, 22, MPI_COMM_WORLD, &r[2]);
	MPI_Send_init(a, N, MPI_DOUBLE, right, 20, MPI_COMM_WORLD, &r[3]);
	MPI_Bsend_init(a, N, MPI_DOUBLE, right, 21, MPI_COMM_WORLD, &r[4]);
	MPI_Ssend_init(a, N, MPI_DOUBLE, right, 22, MPI_COMM_WORLD, &r[5]);
	for (int i = 0; i < 3; i++) {
		MPI_Startall(3, r);
		MPI_Barrier(MPI_COMM_WORLD);
		for (int j = 3; j < 6; j++)
			MPI_Start(&r[j]);
		MPI_Waitall(6, r, MPI_STATUSES_IGNORE);
	}
	for (int j = 0; j < 6; j++)
		MPI_Request_free(&r[j]);
	MPI_Recv_init(b, N, MPI_DOUBLE, left, 23, MPI_COMM_WORLD, &r[0]);
	MPI_Start(&r[0]);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Rsend_init(a, N, MPI_DOUBLE, right, 23, MPI_COMM_WORLD, &r[1]);
	MPI_Start(&r[1]);
	MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	MPI_Request_free(&r[0]);
	MPI_Request_free(&r[1]);
	void *gone;
	int gone_size;
	MPI_Buffer_detach(&gone, &gone_size);
}

/* every completion call, each on the receives of one ring exchange */
static void completion(void)
{
	MPI_Request r[3];
	int flag, index, outcount, indices[3];
	for (int kind = 0; kind < 8; kind++) {
		for (int i = 0; i < 3; i++)
			MPI_Irecv(b + i * N, N, MPI_DOUBLE, left, 30 + i, MPI_COMM_WORLD, &r[i]);
		for (int i = 0; i < 3; i++)
			MPI_Send(a, N, MPI_DOUBLE, right, 30 + i, MPI_COMM_WORLD);
		switch (kind) {
		case 0:
			for (int i = 0; i < 3; i++)
				MPI_Waitany(3, r, &index, MPI_STATUS_IGNORE);
			break;
		case 1:
			for (int done = 0; done < 3; done += outcount)
				MPI_Waitsome(3, r, &outcount, indices, MPI_STATUSES_IGNORE);
			break;
		case 2:
			for (int i = 0; i < 3; i++)
				for (flag = 0; !flag;)
					MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
			break;
		case 3:
			for (flag = 0; !flag;)
				MPI_Testall(3, r, &flag, MPI_STATUSES_IGNORE);
			break;
		case 4:
			for (int done = 0; done < 3;) {
				MPI_Testany(3, r, &index, &flag, MPI_STATUS_IGNORE);
				done += flag && index != MPI_UNDEFINED;
			}
			break;
		case 5:
			for (int done = 0; done < 3;) {
				MPI_Testsome(3, r, &outcount, indices, MPI_STATUSES_IGNORE);
				done += outcount > 0 ? outcount : 0;
			}
			break;
		case 6:
			for (int i = 0; i < 3; i++) {
				for (flag = 0; !flag;)
					MPI_Request_get_status(r[i], &flag, MPI_STATUS_IGNORE);
				MPI_Wait(&r[i], MPI_STATUS_IGNORE);
			}
			break;
		default:
			MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
		}
	}
}

static void collectives(MPI_Comm c)
{
	/* counts[i]: what rank i of c contributes; pair[i]: what goes between this rank and rank i */
	int n, me, counts[64], pair[64], displs[64], wdispls[64];
	MPI_Datatype types[64];
	MPI_Comm_size(c, &n);
	MPI_Comm_rank(c, &me);
	for (int i = 0; i < n; i++) {
		counts[i] = 1 + i % 3, pair[i] = 1 + (i + me) % 3, displs[i] = 4 * i;
		wdispls[i] = displs[i] * (int)sizeof(double), types[i] = MPI_DOUBLE;
	}
	MPI_Barrier(c);
	MPI_Bcast(a, N, MPI_DOUBLE, 0, c);
	MPI_Reduce(a, b, N, MPI_DOUBLE, MPI_SUM, 1 % n, c);
	MPI_Allreduce(a, b, N, MPI_DOUBLE, MPI_MAX, c);
	MPI_Allreduce(MPI_IN_PLACE, b, N, MPI_DOUBLE, MPI_MIN, c);
	MPI_Scan(a, b, N, MPI_DOUBLE, MPI_SUM, c);
	MPI_Exscan(a, b, N, MPI_DOUBLE, MPI_SUM, c);
	MPI_Reduce_scatter(a, b, counts, MPI_DOUBLE, MPI_SUM, c);
	MPI_Reduce_scatter_block(a, b, 2, MPI_DOUBLE, MPI_SUM, c);
	MPI_Gather(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, 0, c);
	MPI_Gatherv(a, counts[me], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, 0, c);
	MPI_Scatter(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, 0, c);
	MPI_Scatterv(a, counts, displs, MPI_DOUBLE, b, counts[me], MPI_DOUBLE, 0, c);
	MPI_Allgather(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, c);
	MPI_Allgatherv(a, counts[me], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, c);
	MPI_Alltoall(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, c);
	MPI_Alltoallv(a, pair, displs, MPI_DOUBLE, b, pair, displs, MPI_DOUBLE, c);
	MPI_Alltoallw(a, pair, wdispls, types, b, pair, wdispls, types, c);
}

static void nonblocking_collectives(MPI_Comm c)
{
	int n, counts[64], displs[64], wdispls[64];
	MPI_Datatype types[64];
	MPI_Comm_size(c, &n);
	for (int i = 0; i < n; i++)
		counts[i] = 2, displs[i] = 2 * i, wdispls[i] = 2 * i * (int)sizeof(double), types[i] = MPI_DOUBLE;
	MPI_Request r[18];
	static double x[18][4 * N * 16], y[18][4 * N * 16];
	MPI_Ibarrier(c, &r[0]);
	MPI_Ibcast(x[1], N, MPI_DOUBLE, 0, c, &r[1]);
	MPI_Ireduce(x[2], y[2], N, MPI_DOUBLE, MPI_SUM, 0, c, &r[2]);
	MPI_Iallreduce(x[3], y[3], N, MPI_DOUBLE, MPI_SUM, c, &r[3]);
	MPI_Iscan(x[4], y[4], N, MPI_DOUBLE, MPI_SUM, c, &r[4]);
	MPI_Iexscan(x[5], y[5], N, MPI_DOUBLE, MPI_SUM, c, &r[5]);
	MPI_Ireduce_scatter(x[6], y[6], counts, MPI_DOUBLE, MPI_SUM, c, &r[6]);
	MPI_Ireduce_scatter_block(x[7], y[7], 2, MPI_DOUBLE, MPI_SUM, c, &r[7]);
	MPI_Igather(x[8], 2, MPI_DOUBLE, y[8], 2, MPI_DOUBLE, 0, c, &r[8]);
	MPI_Igatherv(x[9], 2, MPI_DOUBLE, y[9], counts, displs, MPI_DOUBLE, 0, c, &r[9]);
	MPI_Iscatter(x[10], 2, MPI_DOUBLE, y[10], 2, MPI_DOUBLE, 0, c, &r[10]);
	MPI_Iscatterv(x[11], counts, displs, MPI_DOUBLE, y[11], 2, MPI_DOUBLE, 0, c, &r[11]);
	MPI_Iallgather(x[12], 2, MPI_DOUBLE, y[12], 2, MPI_DOUBLE, c, &r[12]);
	MPI_Iallgatherv(x[13], 2, MPI_DOUBLE, y[13], counts, displs, MPI_DOUBLE, c, &r[13]);
	MPI_Ialltoall(x[14], 2, MPI_DOUBLE, y[14], 2, MPI_DOUBLE, c, &r[14]);
	MPI_Ialltoallv(x[15], counts, displs, MPI_DOUBLE, y[15], counts, displs, MPI_DOUBLE, c, &r[15]);
	MPI_Ialltoallw(x[16], counts, wdispls, types, y[16], counts, wdispls, types, c, &r[16]);
	MPI_Comm dup;
	MPI_Comm_idup(c, &dup, &r[17]);
	MPI_Waitall(18, r, MPI_STATUSES_IGNORE);
	MPI_Comm_free(&dup);
}

static void neighbourhood(MPI_Comm c)
{
	int counts[8], displs[8];
	MPI_Aint adispls[8];
	MPI_Datatype types[8];
	for (int i = 0; i < 8; i++)
		counts[i] = 2, displs[i] = 2 * i, adispls[i] = 2 * i * (MPI_Aint)sizeof(double), types[i] = MPI_DOUBLE;
	MPI_Request r[5];
	MPI_Neighbor_allgather(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, c);
	MPI_Neighbor_allgatherv(a, 2, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, c);
	MPI_Neighbor_alltoall(a, 2, MPI_DOUBLE, b, 2, MPI_DOUBLE, c);
	MPI_Neighbor_alltoallv(a, counts, displs, MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, c);
	MPI_Neighbor_alltoallw(a, counts, adispls, types, b, counts, adispls, types, c);
	static double x[5][64], y[5][64];
	MPI_Ineighbor_allgather(x[0], 2, MPI_DOUBLE, y[0], 2, MPI_DOUBLE, c, &r[0]);
	MPI_Ineighbor_allgatherv(x[1], 2, MPI_DOUBLE, y[1], counts, displs, MPI_DOUBLE, c, &r[1]);
	MPI_Ineighbor_alltoall(x[2], 2, MPI_DOUBLE, y[2], 2, MPI_DOUBLE, c, &r[2]);
	MPI_Ineighbor_alltoallv(x[3], counts, displs, MPI_DOUBLE, y[3], counts, displs, MPI_DOUBLE, c, &r[3]);
	MPI_Ineighbor_alltoallw(x[4], counts, adispls, types, y[4], counts, adispls, types, c, &r[4]);
	MPI_Waitall(5, r, MPI_STATUSES_IGNORE);
}

/* MPI_UNWEIGHTED, which gcc would take for an empty array passed where values are read */
static __attribute__((noinline)) int *unweighted(void) { return MPI_UNWEIGHTED; }

static void topologies(void)
{
	int dims[2] = {0, 0}, periods[2] = {1, 1}, coords[2], nd, src, dst, newrank, status;
	MPI_Dims_create(size, 2, dims);
	MPI_Comm cart, row, graph, dist, adjacent;
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
	MPI_Topo_test(cart, &status);
	MPI_Cartdim_get(cart, &nd);
	MPI_Cart_coords(cart, rank, 2, coords);
	MPI_Cart_get(cart, 2, dims, periods, coords);
	MPI_Cart_rank(cart, coords, &newrank);
	MPI_Cart_shift(cart, 0, 1, &src, &dst);
	MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank);
	int remain[2] = {0, 1};
	MPI_Cart_sub(cart, remain, &row);
	neighbourhood(cart);
	collectives(row);
	MPI_Comm_free(&row);
	/* a ring as a graph */
	int index[64], edges[128];
	for (int i = 0; i < size; i++) {
		index[i] = 2 * (i + 1);
		edges[2 * i] = (i + 1) % size;
		edges[2 * i + 1] = (i + size - 1) % size;
	}
	MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph);
	int nnodes, nedges, nneighbors, neighbors[4], gindex[64], gedges[128];
	MPI_Graphdims_get(graph, &nnodes, &nedges);
	MPI_Graph_get(graph, 64, 128, gindex, gedges);
	MPI_Graph_neighbors_count(graph, rank, &nneighbors);
	MPI_Graph_neighbors(graph, rank, 4, neighbors);
	MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &newrank);
	/* the same ring as distributed graphs */
	int node = rank, degree = 2, targets[2] = {right, left}, weights[2] = {1, 1};
	MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &node, &degree, targets, weights, MPI_INFO_NULL, 0, &dist);
	int sources[2] = {left, right};
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, unweighted(), 2, targets, unweighted(),
				       MPI_INFO_NULL, 0, &adjacent);
	int s[2], sw[2], t[2], tw[2];
	MPI_Dist_graph_neighbors(dist, 2, s, sw, 2, t, tw);
	int indeg, outdeg, weighted;
	MPI_Dist_graph_neighbors_count(adjacent, &indeg, &outdeg, &weighted);
	neighbourhood(adjacent);
	MPI_Comm_free(&adjacent);
	MPI_Comm_free(&dist);
	MPI_Comm_free(&graph);
	MPI_Comm_free(&cart);
}

static void communicators(void)
{
	MPI_Comm half, node, dup, info_dup, created, grouped;
	MPI_Group world, firsts, g;
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
	MPI_Comm_dup(half, &dup);
	MPI_Info info;
	MPI_Info_create(&info);
	MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &info_dup);
	MPI_Info_free(&info);
	int result, inter, len;
	char name[MPI_MAX_OBJECT_NAME];
	MPI_Comm_compare(half, dup, &result);
	MPI_Comm_test_inter(half, &inter);
	MPI_Comm_set_name(dup, "halves");
	MPI_Comm_get_name(dup, name, &len);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	int ranks[2] = {0, 1}, range[1][3] = {{0, size - 1, 2}};
	MPI_Group_incl(world, 2, ranks, &firsts);
	MPI_Comm_create(MPI_COMM_WORLD, firsts, &created);
	if (rank < 2)
		MPI_Comm_create_group(MPI_COMM_WORLD, firsts, 40, &grouped);
	int gsize, grank, translated[2];
	MPI_Group_size(firsts, &gsize);
	MPI_Group_rank(firsts, &grank);
	MPI_Group_translate_ranks(firsts, 2, ranks, world, translated);
	MPI_Group_compare(world, firsts, &result);
	MPI_Group_excl(world, 2, ranks, &g);
	MPI_Group_free(&g);
	MPI_Group_range_incl(world, 1, range, &g);
	MPI_Group_free(&g);
	MPI_Group_range_excl(world, 1, range, &g);
	MPI_Group_free(&g);
	MPI_Group_union(world, firsts, &g);
	MPI_Group_free(&g);
	MPI_Group_intersection(world, firsts, &g);
	MPI_Group_free(&g);
	MPI_Group_difference(world, firsts, &g);
	MPI_Group_free(&g);
	collectives(half);
	nonblocking_collectives(dup);
	if (created != MPI_COMM_NULL) {
		MPI_Barrier(created);
		MPI_Comm_free(&created);
	}
	if (rank < 2) {
		MPI_Barrier(grouped);
		MPI_Comm_free(&grouped);
	}
	MPI_Group_free(&firsts);
	MPI_Group_free(&world);
	MPI_Comm_free(&info_dup);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&node);
	MPI_Comm_free(&half);
}

static void sum_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
	(void)type;
	for (int i = 0; i < *len; i++)
		((double *)inout)[i] += ((double *)in)[i];
}

static void send_around(MPI_Datatype t)
{
	MPI_Type_commit(&t);
	MPI_Sendrecv(a, 1, t, right, 50, b, 1, t, left, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	int tsize;
	MPI_Count xsize;
	MPI_Aint lb, extent;
	MPI_Type_size(t, &tsize);
	MPI_Type_size_x(t, &xsize);
	MPI_Type_get_extent(t, &lb, &extent);
	MPI_Type_get_true_extent(t, &lb, &extent);
	MPI_Type_free(&t);
}

static void datatypes(void)
{
	MPI_Datatype t;
	int lens[3] = {1, 2, 1}, displs[3] = {0, 2, 5};
	MPI_Aint adispls[3] = {0, 16, 40}, at[2];
	MPI_Type_contiguous(4, MPI_DOUBLE, &t);
	send_around(t);
	MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &t);
	send_around(t);
	MPI_Type_create_hvector(3, 2, 32, MPI_DOUBLE, &t);
	send_around(t);
	MPI_Type_indexed(3, lens, displs, MPI_DOUBLE, &t);
	send_around(t);
	MPI_Type_create_hindexed(3, lens, adispls, MPI_DOUBLE, &t);
	send_around(t);
	MPI_Type_create_indexed_block(3, 2, displs, MPI_DOUBLE, &t);
	send_around(t);
	MPI_Type_create_hindexed_block(3, 1, adispls, MPI_DOUBLE, &t);
	send_around(t);
	MPI_Get_address(&a[0], &at[0]);
	MPI_Get_address(&a[4], &at[1]);
	MPI_Aint sdispls[2] = {0, at[1] - at[0]};
	int slens[2] = {2, 1};
	MPI_Datatype stypes[2] = {MPI_DOUBLE, MPI_INT};
	MPI_Type_create_struct(2, slens, sdispls, stypes, &t);
	send_around(t);
	int sizes[2] = {8, 8}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
	MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &t);
	send_around(t);
	int gsizes[1] = {4 * size}, distribs[1] = {MPI_DISTRIBUTE_BLOCK}, dargs[1] = {MPI_DISTRIBUTE_DFLT_DARG},
	    psizes[1] = {size};
	MPI_Type_create_darray(size, rank, 1, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_DOUBLE, &t);
	send_around(t);
	MPI_Datatype base;
	MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &base);
	MPI_Type_create_resized(base, 0, 2 * (MPI_Aint)sizeof(double), &t);
	MPI_Type_free(&base);
	send_around(t);
	MPI_Type_dup(MPI_DOUBLE, &t);
	send_around(t);
	/* packing */
	char packed[1024];
	int position = 0, packsize;
	MPI_Pack_size(N, MPI_DOUBLE, MPI_COMM_WORLD, &packsize);
	MPI_Pack(a, N, MPI_DOUBLE, packed, sizeof packed, &position, MPI_COMM_WORLD);
	position = 0;
	MPI_Unpack(packed, sizeof packed, &position, b, N, MPI_DOUBLE, MPI_COMM_WORLD);
	/* a user op */
	MPI_Op op;
	int commute;
	MPI_Op_create(sum_op, 1, &op);
	MPI_Op_commutative(op, &commute);
	MPI_Allreduce(a, b, N, MPI_DOUBLE, op, MPI_COMM_WORLD);
	MPI_Reduce_local(a, b, N, MPI_DOUBLE, op);
	MPI_Op_free(&op);
}

static void environment(void)
{
	int flag, provided, version, subversion, len;
	char name[MPI_MAX_PROCESSOR_NAME];
	MPI_Initialized(&flag);
	MPI_Query_thread(&provided);
	MPI_Is_thread_main(&flag);
	MPI_Get_processor_name(name, &len);
	MPI_Get_version(&version, &subversion);
	MPI_Pcontrol(1, "calls");
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	environment();
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
		a[i] = rank + i;
	point_to_point();
	persistent();
	completion();
	collectives(MPI_COMM_WORLD);
	nonblocking_collectives(MPI_COMM_WORLD);
	communicators();
	topologies();
	datatypes();
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("calls ok\n");
	MPI_Finalize();
	int finalized;
	MPI_Finalized(&finalized);
	return 0;
}
