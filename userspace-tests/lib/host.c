// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host.h"

int host_request(const char *command, const char *json_fmt, ...)
{
	char line[512];
	int fd, len, ret = 0;
	va_list ap;

	len = snprintf(line, sizeof(line), "host-request: %s ", command);
	va_start(ap, json_fmt);
	len += vsnprintf(line + len, sizeof(line) - len, json_fmt, ap);
	va_end(ap);
	if (len >= (int)sizeof(line) - 1)
		return -EINVAL;
	line[len++] = '\n';
	/* Through printk, so the line reaches the console even while the
	 * console's own tty is being hung up by another test.
	 */
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, line, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

bool wait_for_path(const char *path, bool present, int timeout_ms)
{
	const struct timespec step = { .tv_nsec = 50 * 1000 * 1000 };
	int waited;

	for (waited = 0; waited <= timeout_ms; waited += 50) {
		if ((access(path, F_OK) == 0) == present)
			return true;
		nanosleep(&step, NULL);
	}
	return false;
}
