// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "uffd-helpers.h"

int uffd_page_init(struct uffd_page *p)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	int err;

	memset(p, 0, sizeof(*p));
	p->size = sysconf(_SC_PAGESIZE);
	/* Not UFFD_USER_MODE_ONLY: the faults that matter are the kernel's. */
	p->uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (p->uffd < 0)
		return -errno;
	if (ioctl(p->uffd, UFFDIO_API, &api))
		goto fail_uffd;
	p->addr = mmap(NULL, p->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p->addr == MAP_FAILED)
		goto fail_uffd;
	reg.range.start = (unsigned long)p->addr;
	reg.range.len = p->size;
	if (ioctl(p->uffd, UFFDIO_REGISTER, &reg))
		goto fail_map;
	return 0;

fail_map:
	err = -errno;
	munmap(p->addr, p->size);
	goto fail;
fail_uffd:
	err = -errno;
fail:
	close(p->uffd);
	memset(p, 0, sizeof(*p));
	return err;
}

void uffd_page_release(struct uffd_page *p)
{
	if (p->addr && p->uffd >= 0) {
		close(p->uffd);
		p->uffd = -1;
	}
}

void uffd_page_fini(struct uffd_page *p)
{
	if (!p->addr)
		return;
	uffd_page_release(p);
	munmap(p->addr, p->size);
	memset(p, 0, sizeof(*p));
}
