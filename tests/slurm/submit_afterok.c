/* submit_afterok — submit two batch jobs through libslurm, B depending on A with afterok:A,
 * and watch them until both have finished (test program for tests/bats/slurm.bats).
 *
 *   submit_afterok [--sleep S] [--dir DIR]
 *
 * Job A runs `sleep S` (default 2), job B runs `true` and carries the dependency string
 * "afterok:<A>". Both get this process's environment and write their output to DIR (default:
 * the current directory). The program polls both jobs with slurm_load_job every 50 ms and
 * prints, once both are final, what Slurm reports:
 *
 *   A <id> state=COMPLETED exit=0 start=<epoch> end=<epoch>
 *   B <id> state=COMPLETED exit=0 start=<epoch> end=<epoch> dependency=afterok:<A>
 *   B pending on dependency while A running: yes|no
 *   B started while A unfinished: yes|no
 *
 * Exit status 0 when both completed, B started no earlier than A ended and B was never seen
 * out of PENDING while A was still pending or running; 1 otherwise; 2 on usage errors.
 */
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct job {
	const char *label;
	uint32_t id;
	uint32_t state;        /* base state, JOB_STATE_BASE bits */
	uint32_t flags;        /* state flags, e.g. JOB_COMPLETING */
	uint32_t reason;       /* enum job_state_reason */
	uint32_t exit_code;    /* a wait status */
	time_t start, end;
	char dependency[128];  /* as submitted */
};

static const char *state_name(uint32_t s)
{
	static const char *names[] = {
		"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED", "FAILED",
		"TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY",
	};
	return s < sizeof names / sizeof names[0] ? names[s] : "UNKNOWN";
}

/* not yet ended: pending, running or suspended */
static int unfinished(const struct job *j)
{
	return j->state <= JOB_SUSPENDED;
}

/* ended and cleaned up on the nodes */
static int settled(const struct job *j)
{
	return !unfinished(j) && !(j->flags & JOB_COMPLETING);
}

static void die_slurm(const char *what)
{
	fprintf(stderr, "submit_afterok: %s: %s\n", what, slurm_strerror(slurm_get_errno()));
	slurm_fini();
	exit(1);
}

static uint32_t submit(const char *name, const char *script, const char *dependency,
		       const char *dir)
{
	job_desc_msg_t desc;
	submit_response_msg_t *resp = NULL;
	char out[4096];
	uint32_t id;
	uint32_t n = 0;

	while (environ[n])
		n++;
	snprintf(out, sizeof out, "%s/%s-%%j.out", dir, name);

	slurm_init_job_desc_msg(&desc);
	desc.name = (char *)name;
	desc.script = (char *)script;
	desc.work_dir = (char *)dir;
	desc.std_out = out;
	desc.std_err = out;
	desc.environment = environ;     /* without it: "I/O error writing script/environment" */
	desc.env_size = n;
	desc.user_id = getuid();
	desc.group_id = getgid();
	desc.min_nodes = 1;
	desc.num_tasks = 1;
	desc.time_limit = 5;            /* minutes */
	desc.dependency = (char *)dependency;

	if (slurm_submit_batch_job(&desc, &resp) != SLURM_SUCCESS || !resp)
		die_slurm("slurm_submit_batch_job");
	id = resp->job_id;
	slurm_free_submit_response_response_msg(resp);
	return id;
}

/* refresh j from the controller; 0 on success */
static int load(struct job *j)
{
	job_info_msg_t *msg = NULL;
	slurm_job_info_t *info;

	if (slurm_load_job(&msg, j->id, SHOW_ALL) != SLURM_SUCCESS || !msg)
		return -1;
	if (msg->record_count < 1) {
		slurm_free_job_info_msg(msg);
		return -1;
	}
	info = &msg->job_array[0];
	j->state = info->job_state & JOB_STATE_BASE;
	j->flags = info->job_state & JOB_STATE_FLAGS;
	j->reason = info->state_reason;
	j->exit_code = info->exit_code;
	j->start = info->start_time;
	j->end = info->end_time;
	slurm_free_job_info_msg(msg);
	return 0;
}

static void print_job(const struct job *j)
{
	printf("%s %u state=%s exit=%d start=%lld end=%lld", j->label, j->id, state_name(j->state),
	       WIFEXITED(j->exit_code) ? WEXITSTATUS(j->exit_code) : 128 + WTERMSIG(j->exit_code),
	       (long long)j->start, (long long)j->end);
	if (j->dependency[0])
		printf(" dependency=%s", j->dependency);
	printf("\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sleep", required_argument, NULL, 's' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL;
	char cwd[4096], script_a[128];
	int sleep_s = 2, c, pending_on_dep = 0, overlap = 0, ok;
	struct job a = { .label = "A" }, b = { .label = "B" };
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	time_t deadline;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's': sleep_s = atoi(optarg); break;
		case 'd': dir = optarg; break;
		case 'h':
			printf("usage: submit_afterok [--sleep S] [--dir DIR]\n");
			return 0;
		default:
			fprintf(stderr, "usage: submit_afterok [--sleep S] [--dir DIR]\n");
			return 2;
		}
	}
	if (optind != argc || sleep_s < 0 || sleep_s > 600) {
		fprintf(stderr, "usage: submit_afterok [--sleep S] [--dir DIR]\n");
		return 2;
	}
	if (!dir) {
		if (!getcwd(cwd, sizeof cwd)) {
			perror("submit_afterok: getcwd");
			return 1;
		}
		dir = cwd;
	}

	slurm_init(NULL);
	snprintf(script_a, sizeof script_a, "#!/bin/sh\nsleep %d\n", sleep_s);
	a.id = submit("afterok-A", script_a, NULL, dir);
	snprintf(b.dependency, sizeof b.dependency, "afterok:%u", a.id);
	b.id = submit("afterok-B", "#!/bin/sh\ntrue\n", b.dependency, dir);

	deadline = time(NULL) + 60 + sleep_s;
	for (;;) {
		if (load(&a) != 0)
			die_slurm("slurm_load_job A");
		if (load(&b) != 0)
			die_slurm("slurm_load_job B");
		if (unfinished(&a)) {
			if (b.state == JOB_PENDING && b.reason == WAIT_DEPENDENCY && a.state == JOB_RUNNING)
				pending_on_dep = 1;
			if (b.state != JOB_PENDING)
				overlap = 1;
		}
		if (settled(&a) && settled(&b))
			break;
		if (time(NULL) > deadline) {
			fprintf(stderr, "submit_afterok: jobs did not finish in time\n");
			print_job(&a);
			print_job(&b);
			slurm_fini();
			return 1;
		}
		nanosleep(&tick, NULL);
	}
	slurm_fini();

	print_job(&a);
	print_job(&b);
	printf("B pending on dependency while A running: %s\n", pending_on_dep ? "yes" : "no");
	printf("B started while A unfinished: %s\n", overlap ? "yes" : "no");
	ok = a.state == JOB_COMPLETE && b.state == JOB_COMPLETE && b.start >= a.end && !overlap;
	return ok ? 0 : 1;
}
