// SPDX-License-Identifier: GPL-2.0
/*
 * revoke-latency: how long a revoke takes, against how many files it cuts
 * off, in nanoseconds, the median of ROUNDS:
 *
 *	tty-hangup:fds=N	ioctl(TIOCVHANGUP) on a pty slave that N
 *				files have open (N = 1, 100, 1000)
 *	tty-hangup:readers=100	the same with 100 threads asleep in read()
 *				on files of their own, until the last of
 *				them has come back
 *	card-unbind:fds=N	the unbind of snd-dummy with N files of the
 *				card open (its control device, and one PCM
 *				stream set up), until the unbind returns.
 *				A kernel whose unbind waits for the files
 *				to be closed gets them closed after
 *				CLOSE_AFTER_MS, which its figure then shows.
 *
 * Prints "bench: NAME/1 NS" lines, like revoke-bench; a failed call prints
 * "bench: NAME/1 error ..." and makes the exit status 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "alsa-helpers.h"

#define ROUNDS		5
#define READERS		100
#define CLOSE_AFTER_MS	1000

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static bool any_failed;

static void report(const char *name, long long *runs, const char *failed)
{
	if (failed) {
		printf("bench: %s/1 error in %s: %s\n", name, failed,
		       strerror(errno));
		any_failed = true;
	} else {
		qsort(runs, ROUNDS, sizeof(*runs), cmp_ll);
		printf("bench: %s/1 %lld\n", name, runs[ROUNDS / 2]);
	}
	fflush(stdout);
}

/* A revoke with n files, or n sleepers: ns, or -1 with *failed set. */
typedef long long (*revoke_once_fn)(int n, const char **failed);

/* The median of ROUNDS of once(n), as "bench: NAME=N/1 NS". */
static void measure(const char *name, revoke_once_fn once, int n)
{
	const char *failed = NULL;
	long long runs[ROUNDS];
	char full[64];
	int i;

	for (i = 0; i < ROUNDS && !failed; i++)
		runs[i] = once(n, &failed);
	snprintf(full, sizeof(full), "%s=%d", name, n);
	report(full, runs, failed);
}

/* A new pty whose slave is open nfds times: the master, or -errno. */
static int pty_with_files(int nfds, int *fds, int flags)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	int i;

	if (master < 0 || grantpt(master) || unlockpt(master))
		return -errno;
	for (i = 0; i < nfds; i++) {
		fds[i] = open(ptsname(master), O_RDWR | O_NOCTTY | flags);
		if (fds[i] < 0)
			return -errno;
	}
	return master;
}

static void close_all(int *fds, int n)
{
	while (n-- > 0)
		close(fds[n]);
}

/* One TIOCVHANGUP with nfds files open: ns, or -1 with errno set. */
static long long hangup_once(int nfds, const char **failed)
{
	int *fds = calloc(nfds, sizeof(*fds));
	long long start, ns = -1;
	int master;

	master = pty_with_files(nfds, fds, O_NONBLOCK);
	if (master < 0) {
		errno = -master;
		*failed = "open";
	} else {
		start = now_ns();
		if (ioctl(fds[0], TIOCVHANGUP))
			*failed = "TIOCVHANGUP";
		else
			ns = now_ns() - start;
		close_all(fds, nfds);
		close(master);
	}
	free(fds);
	return ns;
}


struct reader {
	int fd;
	pthread_t thread;
	pid_t tid;
	long long back_ns;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	char c;

	__atomic_store_n(&r->tid, gettid(), __ATOMIC_RELEASE);

	/* returns 0 (end of file) or -1/EIO once the tty is hung up */
	while (read(r->fd, &c, 1) > 0)
		;
	r->back_ns = now_ns();
	return NULL;
}

/* TIOCVHANGUP until the last of nreaders sleeping readers is back. */
static long long hangup_readers_once(int nreaders, const char **failed)
{
	struct reader readers[nreaders];
	int fds[nreaders], i, master, asleep;
	long long start, deadline, last = 0;

	master = pty_with_files(nreaders, fds, 0);
	if (master < 0) {
		errno = -master;
		*failed = "open";
		return -1;
	}
	for (i = 0; i < nreaders; i++) {
		readers[i] = (struct reader){ .fd = fds[i] };
		pthread_create(&readers[i].thread, NULL, reader_main,
			       &readers[i]);
	}
	/* every reader asleep in read() before the hangup */
	deadline = now_ms() + 30000;
	do {
		sleep_ms(50);
		for (asleep = 0, i = 0; i < nreaders; i++)
			asleep += thread_asleep_in(
				__atomic_load_n(&readers[i].tid,
						__ATOMIC_ACQUIRE),
				SYS_read, fds[i]);
	} while (asleep < nreaders && now_ms() < deadline);
	if (asleep < nreaders) {
		errno = ETIMEDOUT;
		*failed = "readers falling asleep";
	}
	start = now_ns();
	/* the hangup also ends the readers that a timeout left awake */
	if (ioctl(fds[0], TIOCVHANGUP) && !*failed)
		*failed = "TIOCVHANGUP";
	for (i = 0; i < nreaders; i++) {
		pthread_join(readers[i].thread, NULL);
		if (readers[i].back_ns > last)
			last = readers[i].back_ns;
	}
	close_all(fds, nreaders);
	close(master);
	return *failed ? -1 : last - start;
}


struct unbinder {
	pthread_t thread;
	long long start_ns, end_ns;
	int ret;
};

static void *unbinder_main(void *arg)
{
	struct unbinder *u = arg;

	u->start_ns = now_ns();
	u->ret = alsa_sysfs_write(ALSA_DUMMY_DRIVER_DIR "/unbind",
				  ALSA_DUMMY_DEVICE);
	__atomic_store_n(&u->end_ns, now_ns(), __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Opens nfds files of the card: a PCM stream set up, then control files.
 * Returns how many are open (all of them, or fewer with *err = -errno).
 */
static int open_card_files(int card, int *fds, int nfds, int *err)
{
	struct alsa_pcm_config cfg = ALSA_STD_CONFIG(false, 1024, 4096);
	int n;

	fds[0] = alsa_pcm_open(card, 0, false, 0);
	if (fds[0] < 0) {
		*err = fds[0];
		return 0;
	}
	*err = alsa_pcm_hw_params(fds[0], &cfg);
	for (n = 1; n < nfds && !*err; n++) {
		fds[n] = alsa_ctl_open(card, 0);
		if (fds[n] < 0)
			*err = fds[n];
	}
	return *err ? n - 1 : n;
}

/* One unbind of snd-dummy with nfds files of it open: ns, or -1. */
static long long unbind_once(int nfds, const char **failed)
{
	struct unbinder u = { 0 };
	int *fds = calloc(nfds, sizeof(*fds));
	int card, i, n, err = 0;
	long long ns = -1;

	card = alsa_card_wait(ALSA_DUMMY_ID, NULL, 10000);
	if (card < 0) {
		*failed = "finding the card";
		err = card;
		goto out;
	}
	n = open_card_files(card, fds, nfds, &err);
	if (err) {
		*failed = "open";
		close_all(fds, n);
		goto out;
	}
	pthread_create(&u.thread, NULL, unbinder_main, &u);
	/* a kernel that waits for the files to be closed gets them closed */
	for (i = 0; i < CLOSE_AFTER_MS / 10; i++) {
		if (__atomic_load_n(&u.end_ns, __ATOMIC_ACQUIRE))
			break;
		sleep_ms(10);
	}
	close_all(fds, n);
	pthread_join(u.thread, NULL);
	err = u.ret ? u.ret : alsa_sysfs_write(ALSA_DUMMY_DRIVER_DIR "/bind",
						 ALSA_DUMMY_DEVICE);
	if (err)
		*failed = u.ret ? "unbind" : "bind";
	else
		ns = u.end_ns - u.start_ns;
out:
	free(fds);
	errno = -err;
	return ns;
}


int main(void)
{
	struct rlimit files = { 4096, 4096 };

	setrlimit(RLIMIT_NOFILE, &files);
	measure("tty-hangup:fds", hangup_once, 1);
	measure("tty-hangup:fds", hangup_once, 100);
	measure("tty-hangup:fds", hangup_once, 1000);
	measure("tty-hangup:readers", hangup_readers_once, READERS);
	measure("card-unbind:fds", unbind_once, 1);
	measure("card-unbind:fds", unbind_once, 100);
	return any_failed;
}
