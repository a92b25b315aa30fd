// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest FUSE server that does the job of fuse-stall.h: a root
 * directory with one read-only file, "stall", one page long, whose reads
 * it holds. It talks to /dev/fuse itself, with no libfuse.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuse-stall.h"
#include "thread-state.h"

#define STALL_INO	2
#define STALL_NAME	"stall"
#define STALL_SIZE	4096
/* The kernel wants room for a whole request, whatever it sends. */
#define REQUEST_BUF	(FUSE_MIN_READ_BUFFER + 4096)
#define MAX_HELD	64

struct server {
	int dev;
	int ctl;
	struct fuse_stall_state *state;
	bool released;
	int nheld;
	uint64_t held[MAX_HELD];
};

static void reply(struct server *sv, uint64_t unique, int error,
		  const void *arg, size_t len)
{
	struct fuse_out_header out = {
		.len = sizeof(out) + len,
		.error = error,
		.unique = unique,
	};
	char buf[sizeof(out) + 256];

	memcpy(buf, &out, sizeof(out));
	if (len)
		memcpy(buf + sizeof(out), arg, len);
	/* A request the kernel gave up on is no longer there: ENOENT. */
	if (write(sv->dev, buf, out.len) < 0 && errno != ENOENT)
		_exit(1);
}

static void fill_attr(struct fuse_attr *attr, uint64_t ino)
{
	memset(attr, 0, sizeof(*attr));
	attr->ino = ino;
	attr->nlink = 1;
	attr->blksize = STALL_SIZE;
	if (ino == FUSE_ROOT_ID) {
		attr->mode = S_IFDIR | 0555;
	} else {
		attr->mode = S_IFREG | 0444;
		attr->size = STALL_SIZE;
		attr->blocks = STALL_SIZE / 512;
	}
}

static void serve_request(struct server *sv, struct fuse_in_header *in)
{
	const char *name = (const char *)(in + 1);
	union {
		struct fuse_init_out init;
		struct fuse_entry_out entry;
		struct fuse_attr_out attr;
		struct fuse_open_out open;
	} out;

	memset(&out, 0, sizeof(out));
	switch (in->opcode) {
	case FUSE_INIT:
		out.init.major = FUSE_KERNEL_VERSION;
		out.init.minor = FUSE_KERNEL_MINOR_VERSION;
		out.init.max_write = STALL_SIZE;
		reply(sv, in->unique, 0, &out.init, sizeof(out.init));
		break;
	case FUSE_LOOKUP:
		if (in->nodeid != FUSE_ROOT_ID || strcmp(name, STALL_NAME)) {
			reply(sv, in->unique, -ENOENT, NULL, 0);
			break;
		}
		out.entry.nodeid = STALL_INO;
		out.entry.generation = 1;
		out.entry.entry_valid = 3600;
		out.entry.attr_valid = 3600;
		fill_attr(&out.entry.attr, STALL_INO);
		reply(sv, in->unique, 0, &out.entry, sizeof(out.entry));
		break;
	case FUSE_GETATTR:
		out.attr.attr_valid = 3600;
		fill_attr(&out.attr.attr, in->nodeid);
		reply(sv, in->unique, 0, &out.attr, sizeof(out.attr));
		break;
	case FUSE_OPEN:
		out.open.fh = 1;
		reply(sv, in->unique, 0, &out.open, sizeof(out.open));
		break;
	case FUSE_READ:
		/* Held until released: the page never comes. */
		__atomic_add_fetch(&sv->state->reads, 1, __ATOMIC_RELEASE);
		if (sv->released || sv->nheld == MAX_HELD)
			reply(sv, in->unique, -EIO, NULL, 0);
		else
			sv->held[sv->nheld++] = in->unique;
		break;
	case FUSE_FLUSH:
	case FUSE_RELEASE:
		reply(sv, in->unique, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		/* No answer: an interrupt changes nothing here. */
		break;
	default:
		reply(sv, in->unique, -ENOSYS, NULL, 0);
	}
}

/* Answers every held read, and every later one, with EIO. */
static void release_reads(struct server *sv)
{
	int i;

	for (i = 0; i < sv->nheld; i++)
		reply(sv, sv->held[i], -EIO, NULL, 0);
	sv->nheld = 0;
	sv->released = true;
	__atomic_store_n(&sv->state->released, 1, __ATOMIC_RELEASE);
}

/* Until the mount goes or the parent closes the control pipe. */
static void serve(struct server *sv)
{
	static char buf[REQUEST_BUF];
	struct pollfd pfd[2] = {
		{ .fd = sv->dev, .events = POLLIN },
		{ .fd = sv->ctl, .events = POLLIN },
	};
	ssize_t n;
	char c;

	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (pfd[1].revents) {
			if (read(sv->ctl, &c, 1) != 1)
				return;
			release_reads(sv);
		}
		if (!pfd[0].revents)
			continue;
		n = read(sv->dev, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;
		if (n < (ssize_t)sizeof(struct fuse_in_header))
			return;
		serve_request(sv, (struct fuse_in_header *)buf);
	}
}

/* The server process: mounts, says so through @ready, serves. */
static void server_main(struct fuse_stall *s, pid_t parent, int ready)
{
	struct server sv = { .ctl = s->ctl, .state = s->state };
	char opts[128];
	int err = 0;

	/* Dies with the test, so that its mount's requests fail. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	sv.dev = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (sv.dev < 0)
		err = errno;
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", sv.dev);
	if (!err && mount("fuse-stall", s->dir, "fuse", MS_NOSUID | MS_NODEV,
			  opts))
		err = errno;
	if (write(ready, &err, sizeof(err)) != sizeof(err) || err)
		_exit(1);
	close(ready);
	serve(&sv);
	_exit(0);
}

int fuse_stall_init(struct fuse_stall *s)
{
	int ctl[2], ready[2], err = 0, fd;
	char path[64];
	pid_t parent = getpid();

	memset(s, 0, sizeof(*s));
	s->state = mmap(NULL, sizeof(*s->state), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->state == MAP_FAILED)
		return -errno;
	strcpy(s->dir, "/tmp/fuse-stall.XXXXXX");
	if (!mkdtemp(s->dir) || pipe2(ctl, O_CLOEXEC))
		goto fail;
	if (pipe2(ready, O_CLOEXEC))
		goto fail_ctl;
	s->ctl = ctl[0];
	s->server = fork();
	if (s->server < 0)
		goto fail_ready;
	if (!s->server) {
		close(ctl[1]);
		close(ready[0]);
		server_main(s, parent, ready[1]);
	}
	close(ctl[0]);
	close(ready[1]);
	s->ctl = ctl[1];
	if (read(ready[0], &err, sizeof(err)) != sizeof(err))
		err = EIO;
	close(ready[0]);
	if (err)
		goto fail_server;

	snprintf(path, sizeof(path), "%s/" STALL_NAME, s->dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		goto fail_server;
	}
	s->size = STALL_SIZE;
	s->addr = mmap(NULL, s->size, PROT_READ, MAP_PRIVATE, fd, 0);
	err = errno;
	close(fd);
	if (s->addr == MAP_FAILED) {
		s->addr = NULL;
		goto fail_server;
	}
	return 0;

fail_server:
	umount2(s->dir, MNT_DETACH);
	close(s->ctl);
	waitpid(s->server, NULL, 0);
	goto fail_dir;
fail_ready:
	err = errno;
	close(ready[0]);
	close(ready[1]);
fail_ctl:
	if (!err)
		err = errno;
	close(ctl[0]);
	close(ctl[1]);
	goto fail_dir;
fail:
	err = errno;
fail_dir:
	rmdir(s->dir);
	munmap(s->state, sizeof(*s->state));
	memset(s, 0, sizeof(*s));
	return -err;
}

int fuse_stall_wait_read(struct fuse_stall *s, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;

	while (!__atomic_load_n(&s->state->reads, __ATOMIC_ACQUIRE)) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		sleep_ms(10);
	}
	return 0;
}

void fuse_stall_release(struct fuse_stall *s)
{
	long long end = now_ms() + 5000;

	if (!s->addr || write(s->ctl, "r", 1) != 1)
		return;
	while (!__atomic_load_n(&s->state->released, __ATOMIC_ACQUIRE) &&
	       now_ms() < end)
		sleep_ms(10);
}

void fuse_stall_fini(struct fuse_stall *s)
{
	if (!s->addr)
		return;
	fuse_stall_release(s);
	munmap(s->addr, s->size);
	umount2(s->dir, MNT_DETACH);
	/* The server leaves on the pipe's end; its device's close aborts. */
	close(s->ctl);
	waitpid(s->server, NULL, 0);
	rmdir(s->dir);
	munmap(s->state, sizeof(*s->state));
	memset(s, 0, sizeof(*s));
}
