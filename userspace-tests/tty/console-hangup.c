// SPDX-License-Identifier: GPL-2.0
/*
 * A hangup of the serial console's own tty (ttyS0) must leave the console
 * working: /dev/console files are not hung up, the UART is not shut down,
 * and kernel messages still go out on the line. That bytes went out is
 * read from the port's transmit counter in /proc/tty/driver/serial.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "kselftest_harness.h"

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

static void printk_line(const char *text)
{
	int fd = open("/dev/kmsg", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			perror("/dev/kmsg");
		close(fd);
	}
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

TEST_F(console, printk_still_reaches_the_uart)
{
	static const char msg[] = "console-hangup: printk still works\n";
	long before = uart_tx_count(0);

	ASSERT_LE(0, before);
	printk_line(msg);
	/* The console may print from another context: give it a moment. */
	for (int i = 0; i < 50 && uart_tx_count(0) < before + (long)strlen(msg); i++)
		usleep(100 * 1000);
	EXPECT_LE(before + (long)strlen(msg), uart_tx_count(0));
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

TEST_HARNESS_MAIN
