// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kmemleak.h"

int kmemleak_command(const char *cmd)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(KMEMLEAK, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, cmd, strlen(cmd));
	if (n < 0)
		ret = -errno;
	close(fd);
	return ret;
}

ssize_t kmemleak_report(char *buf, size_t len)
{
	ssize_t n, got = 0;
	int fd;

	fd = open(KMEMLEAK, O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1 &&
	       (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}
