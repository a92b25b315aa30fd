// SPDX-License-Identifier: GPL-2.0
/*
 * revokeat(2): revoke every open file of a device, named by the path of
 * one of its nodes.
 *
 * As revoke(2) on the BSDs, the caller must own the node or have
 * CAP_SYS_ADMIN. The device's driver does the revoke, asked through
 * file_operations.revoke_node: when the call returns, no file opened on
 * the device before it works any more, and the device can be opened
 * again.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/mnt_idmapping.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/syscalls.h>

#define REVOKEAT_FLAGS	(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)

/* The owner of the node, as the caller sees it, or an administrator. */
static int may_revoke(const struct path *node)
{
	struct inode *inode = d_backing_inode(node->dentry);
	vfsuid_t owner = i_uid_into_vfsuid(mnt_idmap(node->mnt), inode);

	if (vfsuid_eq_kuid(owner, current_fsuid()) || capable(CAP_SYS_ADMIN))
		return 0;
	return -EPERM;
}

static int do_revokeat(int dfd, const char __user *filename,
		       unsigned int flags)
{
	unsigned int lookup_flags = LOOKUP_FOLLOW;
	struct path node;
	int error;

	if (flags & ~REVOKEAT_FLAGS)
		return -EINVAL;
	if (flags & AT_SYMLINK_NOFOLLOW)
		lookup_flags &= ~LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH)
		lookup_flags |= LOOKUP_EMPTY;

	error = user_path_at(dfd, filename, lookup_flags, &node);
	if (error)
		return error;
	if (!S_ISCHR(d_backing_inode(node.dentry)->i_mode))
		error = -EOPNOTSUPP;
	else if (!may_open_dev(&node))
		/* a nodev mount gives no access to the device: as open() */
		error = -EACCES;
	else
		error = may_revoke(&node);
	if (!error)
		error = chrdev_revoke(&node);
	path_put(&node);
	return error;
}

SYSCALL_DEFINE3(revokeat, int, dfd, const char __user *, filename,
		unsigned int, flags)
{
	return do_revokeat(dfd, filename, flags);
}
