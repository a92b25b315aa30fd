/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Asking the host to act on the guest during a test. The guest runner on
 * the host watches the serial console for a line
 *
 *	host-request: <QMP command> <JSON arguments>
 *
 * and sends that command to QEMU's monitor. The request carries no reply:
 * a test polls for the effect it wants (a sound card gone, say). One
 * command is the runner's own: "console-input" {"text": "..."} types the
 * text and a newline into the console (ttyS0).
 */
#ifndef USERSPACE_TESTS_HOST_H
#define USERSPACE_TESTS_HOST_H

#include <stdbool.h>

/* Sends the request, its JSON arguments made from a printf format;
 * returns 0 or -errno.
 */
int host_request(const char *command, const char *json_fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Polls every 50 ms until path exists (present) or is gone (!present);
 * returns true if that happened within timeout_ms.
 */
bool wait_for_path(const char *path, bool present, int timeout_ms);

#endif
