/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A page whose first touch does not complete: anonymous memory registered
 * with a userfaultfd that nobody serves (missing pages, faults taken by
 * the kernel included). A system call that copies from or to it sleeps
 * in the fault until uffd_page_release() closes the userfaultfd, which
 * serves it a zeroed page, or the task is killed. Needs
 * CONFIG_USERFAULTFD, and root or vm.unprivileged_userfaultfd.
 */
#ifndef USERSPACE_TESTS_UFFD_HELPERS_H
#define USERSPACE_TESTS_UFFD_HELPERS_H

#include <stddef.h>

struct uffd_page {
	void *addr;	/* NULL until uffd_page_init() succeeds */
	size_t size;
	int uffd;	/* -1 once released */
};

/* Returns 0, or -errno with @p left empty. */
int uffd_page_init(struct uffd_page *p);
/* Lets every fault on the page go on. Again does nothing. */
void uffd_page_release(struct uffd_page *p);
/* Releases and unmaps the page; an empty @p is left alone. */
void uffd_page_fini(struct uffd_page *p);

#endif
