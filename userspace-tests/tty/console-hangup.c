// SPDX-License-Identifier: GPL-2.0
/*
 * A hangup of the serial console's own tty (ttyS0) must leave the console
 * working: /dev/console files are not hung up, the UART is not shut down,
 * and kernel messages still go out on the line. Likewise a /dev/tty0 file
 * outlives a hangup of the virtual terminal in the foreground, which it
 * stands for. That bytes written to
 * /dev/console went out is read from the port's transmit counter in
 * /proc/tty/driver/serial; printk bypasses that counter, so the host
 * answers a printk'd request to show that it saw the line.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "host.h"

/* Bytes the UART of ttyS<line> has sent, or -1. */
static long uart_tx_count(int line)
{
	char text[256];
	long tx = -1;
	FILE *f;

	f = fopen("/proc/tty/driver/serial", "r");
	if (!f)
		return -1;
	while (fgets(text, sizeof(text), f)) {
		int n;
		char *p;

		if (sscanf(text, "%d:", &n) != 1 || n != line)
			continue;
		p = strstr(text, " tx:");
		if (p)
			tx = strtol(p + 4, NULL, 10);
	}
	fclose(f);
	return tx;
}

FIXTURE(console)
{
	int console;	/* a /dev/console file, as init holds */
	int tty;	/* a /dev/ttyS0 file, which the hangup kills */
};

FIXTURE_SETUP(console)
{
	self->console = open("/dev/console", O_RDWR | O_NOCTTY);
	ASSERT_LE(0, self->console);
	self->tty = open("/dev/ttyS0", O_RDWR | O_NOCTTY | O_NONBLOCK);
	ASSERT_LE(0, self->tty);
	ASSERT_EQ(0, ioctl(self->tty, TIOCVHANGUP));
}

FIXTURE_TEARDOWN(console)
{
	close(self->tty);
	close(self->console);
}

TEST_F(console, ttyS0_file_is_hung_up)
{
	struct termios tio;

	EXPECT_EQ(-1, write(self->tty, "x", 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(-1, ioctl(self->tty, TCGETS, &tio));
	EXPECT_EQ(EIO, errno);
}

TEST_F(console, dev_console_still_writes_to_the_uart)
{
	static const char msg[] = "console-hangup: /dev/console still works\n";
	long before = uart_tx_count(0);
	struct termios tio;

	ASSERT_LE(0, before);
	ASSERT_EQ((ssize_t)strlen(msg), write(self->console, msg, strlen(msg)));
	ASSERT_EQ(0, tcdrain(self->console));
	EXPECT_LE(before + (long)strlen(msg), uart_tx_count(0));
	EXPECT_EQ(0, ioctl(self->console, TCGETS, &tio));
}

/*
 * The host types back into the console whatever a printk'd request asks
 * for: the answer arriving shows the request went out on the line.
 */
TEST_F(console, printk_still_reaches_the_line)
{
	struct termios saved, raw;
	struct pollfd pfd;
	char token[64], got[256] = "";
	size_t len = 0;
	int fd;

	fd = open("/dev/ttyS0", O_RDWR | O_NOCTTY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tcgetattr(fd, &saved));
	raw = saved;
	cfmakeraw(&raw);
	ASSERT_EQ(0, tcsetattr(fd, TCSANOW, &raw));
	tcflush(fd, TCIFLUSH);

	snprintf(token, sizeof(token), "printk-seen-%d", getpid());
	ASSERT_EQ(0, host_request("console-input", "{\"text\": \"%s\"}", token));

	pfd.fd = fd;
	pfd.events = POLLIN;
	while (!strstr(got, token) && len < sizeof(got) - 1 &&
	       poll(&pfd, 1, 30000) == 1) {
		ssize_t n = read(fd, got + len, sizeof(got) - 1 - len);

		if (n <= 0)
			break;
		len += n;
		got[len] = '\0';
	}
	tcsetattr(fd, TCSANOW, &saved);
	close(fd);
	EXPECT_NE(NULL, strstr(got, token)) TH_LOG("console input: '%s'", got);
}

TEST_F(console, ttyS0_reopens_after_the_hangup)
{
	int fd = open("/dev/ttyS0", O_RDWR | O_NOCTTY | O_NONBLOCK);
	struct termios tio;

	ASSERT_LE(0, fd);
	EXPECT_EQ(0, ioctl(fd, TCGETS, &tio));
	EXPECT_EQ(1, write(fd, "\n", 1));
	close(fd);
}

/* /dev/tty0, like /dev/console, has console_fops: it is not hung up. */
TEST(dev_tty0_outlives_a_hangup_of_the_foreground_vt)
{
	char active[32] = "", path[64];
	struct termios tio;
	int tty0, vt;
	FILE *f;

	f = fopen("/sys/class/tty/tty0/active", "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "%31s", active));
	fclose(f);
	snprintf(path, sizeof(path), "/dev/%s", active);

	tty0 = open("/dev/tty0", O_RDWR | O_NOCTTY);
	ASSERT_LE(0, tty0);
	vt = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	ASSERT_LE(0, vt) TH_LOG("%s: %s", path, strerror(errno));
	ASSERT_EQ(0, ioctl(vt, TIOCVHANGUP));

	EXPECT_EQ(-1, write(vt, "x", 1)) TH_LOG("%s not hung up", path);
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(0, ioctl(tty0, TCGETS, &tio));
	EXPECT_EQ(1, write(tty0, "\n", 1));
	close(vt);
	close(tty0);
}

TEST_HARNESS_MAIN
