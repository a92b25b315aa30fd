/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A page whose first touch waits where no revoke reaches: a private
 * mapping of a file on a FUSE mount whose server holds every read. A
 * system call that copies from it sleeps in the page fault, killably
 * (an interrupt request to the server brings no answer), until
 * fuse_stall_release() answers the reads with EIO, which makes the copy
 * fail with EFAULT. The server is a process of its own, which dies with
 * its parent: a test that dies with a thread in the fault does not keep
 * waiting for a server that died with it. Needs CONFIG_FUSE_FS, root.
 */
#ifndef USERSPACE_TESTS_FUSE_STALL_H
#define USERSPACE_TESTS_FUSE_STALL_H

#include <stddef.h>
#include <sys/types.h>

/* What the server tells: shared memory, read with __atomic_load_n(). */
struct fuse_stall_state {
	int reads;		/* every read the server got */
	int released;		/* the held reads were answered */
};

struct fuse_stall {
	void *addr;		/* NULL until fuse_stall_init() succeeds */
	size_t size;
	pid_t server;
	int ctl;		/* a byte asks the server to release */
	char dir[32];		/* the mount point */
	struct fuse_stall_state *state;
};

/* Mounts, serves and maps the file: 0, or -errno with @s left empty. */
int fuse_stall_init(struct fuse_stall *s);
/* Waits until the server got a read: 0, or -ETIMEDOUT. */
int fuse_stall_wait_read(struct fuse_stall *s, int timeout_ms);
/* Answers the held reads, and every later one, with EIO; returns once done. */
void fuse_stall_release(struct fuse_stall *s);
/* Releases, unmaps, unmounts and reaps the server; an empty @s is left alone. */
void fuse_stall_fini(struct fuse_stall *s);

#endif
