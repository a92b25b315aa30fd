// SPDX-License-Identifier: GPL-2.0
/*
 * revoke-bench [PATH:OP...]: what a file method call costs, in nanoseconds
 * per operation, measured single-threaded and with one thread per CPU,
 * each thread on a file of its own.
 *
 * Always measured: one-byte read() of /dev/zero and write() of /dev/null,
 * and a one-byte write() then read() through a pipe ("pipe:write+read"),
 * files that cannot be revoked. Each PATH:OP argument adds a file; OP is
 * "read", "write", "write+read" (a one-byte write then a one-byte read,
 * for a pipe-like device), "tcgets" (ioctl(TCGETS) on a tty),
 * "roundtrip" (PATH is /dev/ptmx: a byte written to the slave of a new
 * pty and read from its master), "pcm-status" or "pcm-hwsync" (PATH is
 * an ALSA PCM playback device, set up with raw ioctls as alsa-lib would
 * and prepared: ioctl(SNDRV_PCM_IOCTL_STATUS), on 64-bit the kernel's
 * SNDRV_PCM_IOCTL_STATUS64, or ioctl(SNDRV_PCM_IOCTL_HWSYNC) on it).
 * A PATH that does not exist is reported missing.
 *
 * Prints "bench: NAME NS" lines, NAME being PATH:OP/THREADS; the host
 * compares two kernels' lines. The figure is the median of several runs.
 * A call that fails prints "bench: NAME error ..." instead and makes the
 * exit status 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sound/asound.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define RUNS		5
#define RUN_NSEC	400000000LL	/* each run lasts this long */
#define BATCH		256		/* operations between clock reads */

enum bench_op { OP_READ, OP_WRITE, OP_WRITE_READ, OP_TCGETS, OP_ROUNDTRIP,
		OP_PCM_STATUS, OP_PCM_HWSYNC, NR_OPS };

static const char *const op_names[NR_OPS] = {
	"read", "write", "write+read", "tcgets", "roundtrip",
	"pcm-status", "pcm-hwsync",
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
	const char *failed_call;	/* NULL, or what failed, with error */
	int error;
};

static long long now_nsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The pipe has no path: its "path" is this name. */
#define PIPE_NAME	"pipe"

static bool is_pipe(const struct bench *b)
{
	return !strcmp(b->path, PIPE_NAME);
}

static bool is_pcm_op(enum bench_op op)
{
	return op == OP_PCM_STATUS || op == OP_PCM_HWSYNC;
}

static struct snd_interval *pcm_interval(struct snd_pcm_hw_params *params,
					 int param)
{
	return &params->intervals[param - SNDRV_PCM_HW_PARAM_FIRST_INTERVAL];
}

static void pcm_interval_only(struct snd_pcm_hw_params *params, int param,
			      unsigned int value)
{
	pcm_interval(params, param)->min = value;
	pcm_interval(params, param)->max = value;
}

static void pcm_mask_only(struct snd_pcm_hw_params *params, int param,
			  unsigned int value)
{
	struct snd_mask *mask =
		&params->masks[param - SNDRV_PCM_HW_PARAM_FIRST_MASK];

	memset(mask, 0, sizeof(*mask));
	mask->bits[value / 32] = 1U << (value % 32);
}

/*
 * Set up a PCM without alsa-lib: every parameter open, then S16_LE,
 * 2 channels, 48000 Hz and read/write access; HW_PARAMS chooses the
 * rest. Then prepare it: HWSYNC fails in any earlier state, and STATUS
 * of a stream not set up returns before it reads the pointers. Returns
 * NULL or the name of the ioctl that failed, with errno set.
 */
static const char *pcm_prepare(int fd)
{
	struct snd_pcm_hw_params params;
	int param;

	memset(&params, 0, sizeof(params));
	memset(params.masks, 0xff, sizeof(params.masks));
	for (param = SNDRV_PCM_HW_PARAM_FIRST_INTERVAL;
	     param <= SNDRV_PCM_HW_PARAM_LAST_INTERVAL; param++)
		pcm_interval(&params, param)->max = UINT_MAX;
	params.rmask = ~0U;
	params.info = ~0U;
	pcm_mask_only(&params, SNDRV_PCM_HW_PARAM_ACCESS,
		      (unsigned int)SNDRV_PCM_ACCESS_RW_INTERLEAVED);
	pcm_mask_only(&params, SNDRV_PCM_HW_PARAM_FORMAT,
		      (unsigned int)SNDRV_PCM_FORMAT_S16_LE);
	pcm_interval_only(&params, SNDRV_PCM_HW_PARAM_CHANNELS, 2);
	pcm_interval_only(&params, SNDRV_PCM_HW_PARAM_RATE, 48000);
	if (ioctl(fd, SNDRV_PCM_IOCTL_HW_PARAMS, &params))
		return "ioctl(HW_PARAMS)";
	if (ioctl(fd, SNDRV_PCM_IOCTL_PREPARE))
		return "ioctl(PREPARE)";
	return NULL;
}

/*
 * The files an operation works on: fd, and for a pty round trip the
 * slave as *peer. Returns NULL or the name of the call that failed, with
 * errno set.
 */
static const char *open_files(const struct bench *b, int *fd, int *peer)
{
	struct termios t;
	int ends[2];

	*fd = *peer = -1;
	if (is_pipe(b)) {
		if (pipe(ends))
			return "pipe";
		*fd = ends[0];
		*peer = ends[1];
		return NULL;
	}
	if (is_pcm_op(b->op)) {
		/* another opener of the substream makes it fail, not wait */
		*fd = open(b->path, O_RDWR | O_NONBLOCK);
		if (*fd < 0)
			return "open";
		return pcm_prepare(*fd);
	}
	*fd = open(b->path, O_RDWR | O_NOCTTY);
	if (*fd < 0)
		return "open";
	if (b->op != OP_ROUNDTRIP)
		return NULL;
	if (grantpt(*fd) || unlockpt(*fd))
		return "grantpt or unlockpt";
	*peer = open(ptsname(*fd), O_RDWR | O_NOCTTY);
	if (*peer < 0)
		return "open of the pty slave";
	if (tcgetattr(*peer, &t))
		return "tcgetattr";
	cfmakeraw(&t);
	return tcsetattr(*peer, TCSANOW, &t) ? "tcsetattr" : NULL;
}

static int do_op(int fd, int peer, enum bench_op op)
{
	struct snd_pcm_status status;
	struct termios t;
	char byte = 0;

	switch (op) {
	case OP_READ:
		return read(fd, &byte, 1) == 1 ? 0 : -1;
	case OP_WRITE:
		return write(fd, &byte, 1) == 1 ? 0 : -1;
	case OP_WRITE_READ:
		/* a pipe's write end is its peer */
		if (write(peer >= 0 ? peer : fd, &byte, 1) != 1)
			return -1;
		return read(fd, &byte, 1) == 1 ? 0 : -1;
	case OP_TCGETS:
		return ioctl(fd, TCGETS, &t);
	case OP_ROUNDTRIP:
		if (write(peer, &byte, 1) != 1)
			return -1;
		return read(fd, &byte, 1) == 1 ? 0 : -1;
	case OP_PCM_STATUS:
		return ioctl(fd, SNDRV_PCM_IOCTL_STATUS, &status);
	case OP_PCM_HWSYNC:
		return ioctl(fd, SNDRV_PCM_IOCTL_HWSYNC);
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
	int fd, peer, i;

	CPU_ZERO(&cpus);
	CPU_SET(w->cpu, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	w->failed_call = open_files(w->bench, &fd, &peer);
	if (w->failed_call)
		w->error = errno;
	pthread_barrier_wait(w->start);
	if (w->failed_call)
		goto out;
	start = now_nsec();
	end = start + RUN_NSEC;
	do {
		for (i = 0; i < BATCH; i++) {
			if (do_op(fd, peer, w->bench->op)) {
				w->failed_call = w->bench->op_name;
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

/*
 * One run with @threads threads: nanoseconds per operation per thread, or
 * -1 with *failed_call and errno set.
 */
static double run_once(const struct bench *b, int threads,
		       const char **failed_call)
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
		if (w[i].failed_call) {
			*failed_call = w[i].failed_call;
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

/* Returns -1 if a call failed, 0 otherwise (a missing PATH included). */
static int measure(const struct bench *b, int threads)
{
	const char *failed_call = NULL;
	double runs[RUNS];
	int i;

	if (!is_pipe(b) && access(b->path, F_OK)) {
		printf("bench: %s:%s/%d missing\n", b->path, b->op_name, threads);
		return 0;
	}
	for (i = 0; i < RUNS; i++) {
		runs[i] = run_once(b, threads, &failed_call);
		if (failed_call) {
			printf("bench: %s:%s/%d error in %s: %s\n", b->path,
			       b->op_name, threads, failed_call, strerror(errno));
			fflush(stdout);
			return -1;
		}
	}
	qsort(runs, RUNS, sizeof(runs[0]), cmp_double);
	printf("bench: %s:%s/%d %.1f\n", b->path, b->op_name, threads,
	       runs[RUNS / 2]);
	fflush(stdout);
	return 0;
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
	struct bench benches[3 + argc];
	int cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = 0, failed = 0, i, op;

	benches[n++] = (struct bench){ "/dev/zero", "read", OP_READ };
	benches[n++] = (struct bench){ "/dev/null", "write", OP_WRITE };
	benches[n++] = (struct bench){ PIPE_NAME, "write+read", OP_WRITE_READ };
	for (i = 1; i < argc; i++) {
		if (parse(argv[i], &benches[n++])) {
			fprintf(stderr, "usage: %s [PATH:OP...], OP one of",
				argv[0]);
			for (op = 0; op < NR_OPS; op++)
				fprintf(stderr, " %s", op_names[op]);
			fprintf(stderr, "\n");
			return 2;
		}
	}
	printf("bench: cpus %d\n", cpus);
	for (i = 0; i < n; i++) {
		failed |= measure(&benches[i], 1);
		if (cpus > 1)
			failed |= measure(&benches[i], cpus);
	}
	return failed ? 1 : 0;
}
