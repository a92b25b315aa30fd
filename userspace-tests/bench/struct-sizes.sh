#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# struct-sizes.sh: the size of struct file, which revoke must not grow
# (f_revoke shares the place of f_pos_lock): the object size of the filp
# slab cache, which nothing merges with. Prints "size: struct-file BYTES".
f=/sys/kernel/slab/filp/object_size
if [ -r "$f" ]; then
	echo "size: struct-file $(cat "$f")"
else
	echo "size: struct-file missing ($f)"
fi
