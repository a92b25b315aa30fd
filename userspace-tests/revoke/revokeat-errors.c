// SPDX-License-Identifier: GPL-2.0
/*
 * revokeat(2) refuses what it cannot or may not do, each with its own
 * errno, and then revokes nothing: a pty slave held open stays live.
 *
 *   EINVAL      a flag other than AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH
 *   EFAULT      a path that is not in the caller's memory
 *   ENOENT      a path that does not exist, or "" without AT_EMPTY_PATH
 *   ENOTDIR     a path through a file that is not a directory
 *   EBADF       a relative path from a dirfd that is not open
 *   EOPNOTSUPP  not a character device (a file, a directory, a symlink
 *               with AT_SYMLINK_NOFOLLOW), or one whose driver cannot
 *               revoke (/dev/null, /dev/ptmx, /dev/console), or a sound
 *               device that belongs to no card (/dev/snd/timer, seq)
 *               or to the OSS emulation (/dev/dsp)
 *   ENXIO       a character device number that no driver has, or a
 *               sound device number that no card has
 *   EIO         a pty slave's node copied out of devpts (as open(2))
 *   EACCES      a node on a mount with nodev, as open(2) would say
 *   EPERM       a caller that neither owns the node nor has CAP_SYS_ADMIN
 *
 * The owner of a node may revoke through it without privilege, and
 * AT_EMPTY_PATH revokes through an O_PATH descriptor of the node.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "expect-errno.h"
#include "revokeat.h"
#include "tty-helpers.h"

#define NOBODY		65534
#define UNUSED_MAJOR	231	/* in the range left for local use */
#define SOUND_MAJOR	116
#define NO_CARD_MINOR	(7 << 5)	/* card 7's control: the guest has fewer */

FIXTURE(revokeat)
{
	struct tty_dev dev;
	int holder;		/* a file of the pty slave that must stay live */
	char dir[64];		/* scratch: nodes, a file, a symlink */
};

FIXTURE_SETUP(revokeat)
{
	self->holder = -1;
	TTY_DEV_SETUP(&self->dev, TTY_PTY, self->holder);
	snprintf(self->dir, sizeof(self->dir), "/tmp/revokeat-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(revokeat)
{
	char cmd[96];

	close(self->holder);
	tty_dev_fini(&self->dev);
	umount2(self->dir, MNT_DETACH);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* The pty slave still works both ways: nothing was revoked. */
static void check_live(struct __test_metadata *_metadata,
		       FIXTURE_DATA(revokeat) *self)
{
	char c = 0;

	ASSERT_EQ(1, write(self->holder, "a", 1)) TH_LOG("holder revoked");
	EXPECT_EQ(1, tty_read_for(self->dev.master, &c, 1, 5000));
	EXPECT_EQ('a', c);
}

/* Whether the holder's file was revoked: read gives end of file. */
static bool revoked(int fd)
{
	char c;

	return fcntl(fd, F_SETFL, O_NONBLOCK) == 0 && read(fd, &c, 1) == 0;
}

/* revokeat(AT_FDCWD, path, 0) in a child as uid/gid NOBODY: its errno. */
static int revokeat_as_nobody(const char *path)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(255);
		_exit(sys_revokeat(AT_FDCWD, path, 0) ? errno : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST_F(revokeat, unknown_flags)
{
	EXPECT_ERRNO(EINVAL, sys_revokeat(AT_FDCWD, self->dev.path, 0x1));
	EXPECT_ERRNO(EINVAL, sys_revokeat(AT_FDCWD, self->dev.path,
					  AT_REMOVEDIR));
	EXPECT_ERRNO(EINVAL, sys_revokeat(AT_FDCWD, self->dev.path, ~0U));
	check_live(_metadata, self);
}

TEST_F(revokeat, bad_paths)
{
	char file[128];
	int fd;

	EXPECT_ERRNO(EFAULT, sys_revokeat(AT_FDCWD, (const char *)1, 0));
	EXPECT_ERRNO(ENOENT, sys_revokeat(AT_FDCWD, "/dev/no-such-device", 0));
	EXPECT_ERRNO(ENOENT, sys_revokeat(AT_FDCWD, "", 0));
	EXPECT_ERRNO(EBADF, sys_revokeat(9999, "ptmx", 0));

	snprintf(file, sizeof(file), "%s/file", self->dir);
	fd = open(file, O_CREAT | O_WRONLY, 0600);
	ASSERT_LE(0, fd);
	close(fd);
	EXPECT_ERRNO(EOPNOTSUPP, sys_revokeat(AT_FDCWD, file, 0));
	strcat(file, "/below");
	EXPECT_ERRNO(ENOTDIR, sys_revokeat(AT_FDCWD, file, 0));
	EXPECT_ERRNO(EOPNOTSUPP, sys_revokeat(AT_FDCWD, self->dir, 0));
	check_live(_metadata, self);
}

TEST_F(revokeat, devices_that_cannot_be_revoked)
{
	char node[128];

	EXPECT_ERRNO(EOPNOTSUPP, sys_revokeat(AT_FDCWD, "/dev/null", 0));
	EXPECT_ERRNO(EOPNOTSUPP, sys_revokeat(AT_FDCWD, "/dev/ptmx", 0));
	EXPECT_ERRNO(EOPNOTSUPP, sys_revokeat(AT_FDCWD, "/dev/console", 0));
	EXPECT_ERRNO(EOPNOTSUPP, sys_revokeat(AT_FDCWD, "/dev/snd/timer", 0));
	EXPECT_ERRNO(EOPNOTSUPP, sys_revokeat(AT_FDCWD, "/dev/snd/seq", 0));
	/* OSS emulation: soundcore's major, which has no revoke_node */
	EXPECT_ERRNO(EOPNOTSUPP, sys_revokeat(AT_FDCWD, "/dev/dsp", 0));
	snprintf(node, sizeof(node), "%s/nodriver", self->dir);
	ASSERT_EQ(0, mknod(node, S_IFCHR | 0600, makedev(UNUSED_MAJOR, 0)));
	EXPECT_ERRNO(ENXIO, sys_revokeat(AT_FDCWD, node, 0));
	snprintf(node, sizeof(node), "%s/nocard", self->dir);
	ASSERT_EQ(0, mknod(node, S_IFCHR | 0600,
			   makedev(SOUND_MAJOR, NO_CARD_MINOR)));
	EXPECT_ERRNO(ENXIO, sys_revokeat(AT_FDCWD, node, 0));
	check_live(_metadata, self);
}

/* A devpts slave is found through its node in devpts only. */
TEST_F(revokeat, pty_node_outside_devpts)
{
	char node[128];
	struct stat st;

	ASSERT_EQ(0, stat(self->dev.path, &st));
	snprintf(node, sizeof(node), "%s/pty", self->dir);
	ASSERT_EQ(0, mknod(node, S_IFCHR | 0600, st.st_rdev));
	EXPECT_ERRNO(EIO, open(node, O_RDWR | O_NOCTTY));
	EXPECT_ERRNO(EIO, sys_revokeat(AT_FDCWD, node, 0));
	check_live(_metadata, self);
}

TEST_F(revokeat, symlink)
{
	char link[128];

	snprintf(link, sizeof(link), "%s/link", self->dir);
	ASSERT_EQ(0, symlink(self->dev.path, link));
	EXPECT_ERRNO(EOPNOTSUPP, sys_revokeat(AT_FDCWD, link,
					      AT_SYMLINK_NOFOLLOW));
	check_live(_metadata, self);
	EXPECT_EQ(0, sys_revokeat(AT_FDCWD, link, 0));
	EXPECT_TRUE(revoked(self->holder));
}

TEST_F(revokeat, nodev_mount)
{
	char node[128];
	struct stat st;

	ASSERT_EQ(0, mount("tmpfs", self->dir, "tmpfs", MS_NODEV, NULL));
	ASSERT_EQ(0, stat(self->dev.path, &st));
	snprintf(node, sizeof(node), "%s/pty", self->dir);
	ASSERT_EQ(0, mknod(node, S_IFCHR | 0600, st.st_rdev));
	EXPECT_ERRNO(EACCES, sys_revokeat(AT_FDCWD, node, 0));
	check_live(_metadata, self);
}

TEST_F(revokeat, not_owner_is_refused)
{
	/* grantpt() gave the slave's node to root */
	EXPECT_EQ(EPERM, revokeat_as_nobody(self->dev.path));
	check_live(_metadata, self);
}

TEST_F(revokeat, owner_may_revoke)
{
	ASSERT_EQ(0, chown(self->dev.path, NOBODY, NOBODY));
	EXPECT_EQ(0, revokeat_as_nobody(self->dev.path));
	EXPECT_TRUE(revoked(self->holder));
}

TEST_F(revokeat, empty_path)
{
	int dfd = open(self->dev.path, O_PATH | O_CLOEXEC);

	ASSERT_LE(0, dfd);
	EXPECT_ERRNO(ENOENT, sys_revokeat(dfd, "", 0));
	check_live(_metadata, self);
	EXPECT_EQ(0, sys_revokeat(dfd, "", AT_EMPTY_PATH));
	EXPECT_TRUE(revoked(self->holder));
	close(dfd);
}

TEST_F(revokeat, relative_to_dirfd)
{
	int dfd = open("/dev/pts", O_PATH | O_DIRECTORY | O_CLOEXEC);

	ASSERT_LE(0, dfd);
	/* "/dev/pts/N" */
	EXPECT_EQ(0, sys_revokeat(dfd, self->dev.path + 9, 0));
	EXPECT_TRUE(revoked(self->holder));
	close(dfd);
}

TEST_HARNESS_MAIN
