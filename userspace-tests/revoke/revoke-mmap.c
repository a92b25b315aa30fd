// SPDX-License-Identifier: GPL-2.0
/*
 * Mappings of /dev/test_revoke's page when its files are revoked through
 * debugfs.
 *
 * The device maps one shared page per generation, on demand, from a
 * ->fault() that runs inside start_using(). The revoke zaps every mapping
 * of every file it revokes, in this process and in others, so the next
 * access faults, the fault finds the file revoked and the access gets
 * SIGBUS, whether the page was touched before or not. mmap() of a
 * revoked file fails with ENODEV. The mapping keeps the file open, and
 * the file is still released once: by the revoke, not by the munmap.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "revoke-helpers.h"

FIXTURE(mapping)
{
	int fd;
	long page;
	char *map;
};

FIXTURE_SETUP(mapping)
{
	self->map = MAP_FAILED;
	self->page = sysconf(_SC_PAGESIZE);
	ASSERT_REVOKED();
	self->fd = revoke_dev_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(-self->fd));
}

FIXTURE_TEARDOWN(mapping)
{
	if (self->map != MAP_FAILED)
		munmap(self->map, self->page);
	close(self->fd);
}

static char *map_page(int fd, long page)
{
	return mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
}

static sigjmp_buf fault_env;

static void on_fault(int sig)
{
	siglongjmp(fault_env, sig);
}

/* Reads or writes *p; returns 0, or the signal the access raised. */
static int touch(volatile char *p, bool write)
{
	struct sigaction sa = { .sa_handler = on_fault }, old_bus, old_segv;
	int sig;

	sigaction(SIGBUS, &sa, &old_bus);
	sigaction(SIGSEGV, &sa, &old_segv);
	sig = sigsetjmp(fault_env, 1);
	if (!sig) {
		if (write)
			*p = 'w';
		else
			(void)*p;
	}
	sigaction(SIGBUS, &old_bus, NULL);
	sigaction(SIGSEGV, &old_segv, NULL);
	return sig;
}

#define EXPECT_SIGBUS(p, write)						\
	do {								\
		int _sig = touch(p, write);				\
									\
		EXPECT_EQ(SIGBUS, _sig)					\
			TH_LOG("%s gave %s", (write) ? "write" : "read",\
			       _sig ? strsignal(_sig) : "no signal");	\
	} while (0)

TEST_F(mapping, live_mappings_share_one_page)
{
	char *map2;
	int fd2 = revoke_dev_open(0);

	ASSERT_LE(0, fd2);
	self->map = map_page(self->fd, self->page);
	ASSERT_NE(MAP_FAILED, self->map) TH_LOG("mmap: %s", strerror(errno));
	map2 = map_page(fd2, self->page);
	ASSERT_NE(MAP_FAILED, map2) TH_LOG("mmap: %s", strerror(errno));
	EXPECT_EQ(0, touch(self->map, true));
	EXPECT_EQ('w', map2[0]);
	/* One page, shared only. */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, self->page, PROT_READ, MAP_PRIVATE,
				   self->fd, 0));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * self->page, PROT_READ,
				   MAP_SHARED, self->fd, 0));
	munmap(map2, self->page);
	close(fd2);
}

TEST_F(mapping, touching_a_mapped_page_after_revoke_raises_sigbus)
{
	self->map = map_page(self->fd, self->page);
	ASSERT_NE(MAP_FAILED, self->map) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(0, touch(self->map, true));
	ASSERT_EQ(0, touch(self->map, false));
	ASSERT_REVOKED();
	EXPECT_SIGBUS(self->map, false);
	EXPECT_SIGBUS(self->map, true);
}

TEST_F(mapping, first_touch_after_revoke_raises_sigbus)
{
	self->map = map_page(self->fd, self->page);
	ASSERT_NE(MAP_FAILED, self->map) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_REVOKED();
	EXPECT_SIGBUS(self->map, true);
}

TEST_F(mapping, mapping_in_another_process_is_cut_off_too)
{
	int to_child[2], from_child[2];
	char c = 0;
	pid_t pid;
	int status;

	self->map = map_page(self->fd, self->page);
	ASSERT_NE(MAP_FAILED, self->map) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(from_child));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* Map it in, wait for the revoke, then touch it again. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (touch(self->map, true))
			_exit(2);
		if (write(from_child[1], "m", 1) != 1 ||
		    read(to_child[0], &c, 1) != 1)
			_exit(3);
		_exit(touch(self->map, false) == SIGBUS ? 0 : 1);
	}
	ASSERT_EQ(1, read(from_child[0], &c, 1));
	ASSERT_REVOKED();
	ASSERT_EQ(1, write(to_child[1], "r", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("child: 1 no SIGBUS, 2 first touch failed, 3 pipe");
}

TEST_F(mapping, mmap_after_revoke_fails_with_enodev)
{
	ASSERT_REVOKED();
	errno = 0;
	EXPECT_EQ(MAP_FAILED, map_page(self->fd, self->page));
	EXPECT_EQ(ENODEV, errno) TH_LOG("mmap: %s", strerror(errno));
}

TEST_F(mapping, mapping_holds_the_file_and_revoke_releases_it_once)
{
	long rel0, rel;

	self->map = map_page(self->fd, self->page);
	ASSERT_NE(MAP_FAILED, self->map) TH_LOG("mmap: %s", strerror(errno));
	ASSERT_EQ(0, touch(self->map, true));
	ASSERT_COUNTER(rel0, "releases");
	ASSERT_EQ(0, close(self->fd));
	self->fd = -1;
	ASSERT_COUNTER(rel, "releases");
	EXPECT_EQ(rel0, rel) TH_LOG("released while still mapped");
	ASSERT_REVOKED();
	ASSERT_COUNTER(rel, "releases");
	EXPECT_EQ(rel0 + 1, rel);
	EXPECT_EQ(0, munmap(self->map, self->page));
	self->map = MAP_FAILED;
	ASSERT_COUNTER(rel, "releases");
	EXPECT_EQ(rel0 + 1, rel);
}

TEST_HARNESS_MAIN
