// SPDX-License-Identifier: GPL-2.0
/*
 * revoke-bench [PATH:OP...]: what a file method call costs, in nanoseconds
 * per operation, measured single-threaded and with one thread per CPU,
 * each thread on a file of its own.
 *
 * Always measured: one-byte read() of /dev/zero and write() of /dev/null,
 * files that cannot be revoked. Each PATH:OP argument adds a file; OP is
 * "read", "write", "write+read" (a one-byte write then a one-byte read,
 * for a pipe-like device), "tcgets" (ioctl(TCGETS) on a tty) or
 * "roundtrip" (PATH is /dev/ptmx: a byte written to the slave of a new
 * pty and read from its master). A PATH that does not exist is reported
 * missing.
 *
 * Prints "bench: NAME NS" lines, NAME being PATH:OP/THREADS; the host
 * compares two kernels' lines. The figure is the median of several runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define RUNS		5
#define RUN_NSEC	400000000LL	/* each run lasts this long */
#define BATCH		256		/* operations between clock reads */

enum bench_op { OP_READ, OP_WRITE, OP_WRITE_READ, OP_TCGETS, OP_ROUNDTRIP,
		NR_OPS };

static const char *const op_names[NR_OPS] = {
	"read", "write", "write+read", "tcgets", "roundtrip",
};

struct bench {
	const char *path;
	const char *op_name;
	enum bench_op op;
};

struct worker {
	const struct bench *bench;
	int cpu;
	pthread_barrier_t *start;
	long long ops;
	long long nsec;
	int error;
};

static long long now_nsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * The files an operation works on: fd, and for a pty round trip the
 * slave as *peer. Returns 0 or -1 with errno set.
 */
static int open_files(const struct bench *b, int *fd, int *peer)
{
	struct termios t;

	*peer = -1;
	*fd = open(b->path, O_RDWR | O_NOCTTY);
	if (*fd < 0 || b->op != OP_ROUNDTRIP)
		return *fd < 0 ? -1 : 0;
	if (grantpt(*fd) || unlockpt(*fd))
		return -1;
	*peer = open(ptsname(*fd), O_RDWR | O_NOCTTY);
	if (*peer < 0 || tcgetattr(*peer, &t))
		return -1;
	cfmakeraw(&t);
	return tcsetattr(*peer, TCSANOW, &t);
}

static int do_op(int fd, int peer, enum bench_op op)
{
	struct termios t;
	char byte = 0;

	switch (op) {
	case OP_READ:
		return read(fd, &byte, 1) == 1 ? 0 : -1;
	case OP_WRITE:
		return write(fd, &byte, 1) == 1 ? 0 : -1;
	case OP_WRITE_READ:
		if (write(fd, &byte, 1) != 1)
			return -1;
		return read(fd, &byte, 1) == 1 ? 0 : -1;
	case OP_TCGETS:
		return ioctl(fd, TCGETS, &t);
	case OP_ROUNDTRIP:
		if (write(peer, &byte, 1) != 1)
			return -1;
		return read(fd, &byte, 1) == 1 ? 0 : -1;
	case NR_OPS:
		break;
	}
	return -1;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	long long start, end;
	cpu_set_t cpus;
	int fd, peer, i, ret;

	CPU_ZERO(&cpus);
	CPU_SET(w->cpu, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	ret = open_files(w->bench, &fd, &peer);
	pthread_barrier_wait(w->start);
	if (ret) {
		w->error = errno;
		goto out;
	}
	start = now_nsec();
	end = start + RUN_NSEC;
	do {
		for (i = 0; i < BATCH; i++) {
			if (do_op(fd, peer, w->bench->op)) {
				w->error = errno;
				goto out;
			}
		}
		w->ops += BATCH;
	} while (now_nsec() < end);
	w->nsec = now_nsec() - start;
out:
	if (peer >= 0)
		close(peer);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* One run with @threads threads: nanoseconds per operation per thread. */
static double run_once(const struct bench *b, int threads)
{
	pthread_t tid[threads];
	struct worker w[threads];
	pthread_barrier_t start;
	double sum = 0;
	int i;

	pthread_barrier_init(&start, NULL, threads);
	for (i = 0; i < threads; i++) {
		w[i] = (struct worker){ .bench = b, .cpu = i, .start = &start };
		pthread_create(&tid[i], NULL, worker_run, &w[i]);
	}
	for (i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&start);
	for (i = 0; i < threads; i++) {
		if (w[i].error) {
			errno = w[i].error;
			return -1;
		}
		sum += (double)w[i].nsec / w[i].ops;
	}
	return sum / threads;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void measure(const struct bench *b, int threads)
{
	double runs[RUNS];
	int i;

	if (access(b->path, F_OK)) {
		printf("bench: %s:%s/%d missing\n", b->path, b->op_name, threads);
		return;
	}
	for (i = 0; i < RUNS; i++) {
		runs[i] = run_once(b, threads);
		if (runs[i] < 0) {
			printf("bench: %s:%s/%d error %s\n", b->path, b->op_name,
			       threads, strerror(errno));
			return;
		}
	}
	qsort(runs, RUNS, sizeof(runs[0]), cmp_double);
	printf("bench: %s:%s/%d %.1f\n", b->path, b->op_name, threads,
	       runs[RUNS / 2]);
	fflush(stdout);
}

static int parse(const char *arg, struct bench *b)
{
	char *colon = strrchr(arg, ':');
	unsigned int op;

	if (!colon)
		return -1;
	for (op = 0; op < NR_OPS; op++) {
		if (!strcmp(colon + 1, op_names[op])) {
			b->path = strndup(arg, colon - arg);
			b->op_name = op_names[op];
			b->op = op;
			return 0;
		}
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct bench benches[2 + argc];
	int cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = 0, i;

	benches[n++] = (struct bench){ "/dev/zero", "read", OP_READ };
	benches[n++] = (struct bench){ "/dev/null", "write", OP_WRITE };
	for (i = 1; i < argc; i++) {
		if (parse(argv[i], &benches[n++])) {
			fprintf(stderr, "usage: %s [PATH:OP...], OP one of "
				"read write write+read tcgets roundtrip\n",
				argv[0]);
			return 2;
		}
	}
	printf("bench: cpus %d\n", cpus);
	for (i = 0; i < n; i++) {
		measure(&benches[i], 1);
		if (cpus > 1)
			measure(&benches[i], cpus);
	}
	return 0;
}
