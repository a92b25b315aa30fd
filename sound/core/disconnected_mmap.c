// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a mapping of a card's file shows once the card is gone.
 *
 * The card's disconnect zaps the mappings of its files and releases the
 * files, so that the card's memory can be freed while user space still
 * has the mappings. A later touch faults; rather than SIGBUS, as sound
 * servers poke at a mapped ring without any system call, it gets a page
 * that belongs to no card: one the caller chose, a private zeroed page,
 * or for device memory (VM_PFNMAP) one page shared by all, whose content
 * is garbage.
 */

#include <linux/export.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <sound/core.h>

static struct page *snd_disconnected_sink;

int __init snd_disconnected_mmap_init(void)
{
	snd_disconnected_sink = alloc_page(GFP_KERNEL | __GFP_ZERO);
	return snd_disconnected_sink ? 0 : -ENOMEM;
}

/* No mapping is left: each holds a file, and so the module that maps. */
void snd_disconnected_mmap_exit(void)
{
	__free_page(snd_disconnected_sink);
}

/**
 * snd_disconnected_fault - fault in a page of a disconnected card's mapping
 * @vmf: the fault, on a mapping whose file start_using() refused
 * @page: the page to map, read-only and shared; NULL for a private
 *	zeroed page
 *
 * For a ->fault() of a card's file mapping that may run after the card's
 * disconnect: the mapping's private data may be freed by then, and must
 * only be looked at between start_using() and stop_using() on the file.
 *
 * Return: what ->fault() returns; VM_FAULT_SIGBUS for a private mapping
 * of device memory, which has no page to copy from.
 */
vm_fault_t snd_disconnected_fault(struct vm_fault *vmf, struct page *page)
{
	struct vm_area_struct *vma = vmf->vma;

	if (vma->vm_flags & VM_PFNMAP) {
		/* Without an MMU nothing faults, and nothing inserts PFNs. */
		if (!IS_ENABLED(CONFIG_MMU) || is_cow_mapping(vma->vm_flags))
			return VM_FAULT_SIGBUS;
		return vmf_insert_pfn(vma, vmf->address,
				      page_to_pfn(snd_disconnected_sink));
	}
	if (page)
		get_page(page);
	else
		page = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
	if (!page)
		return VM_FAULT_OOM;
	vmf->page = page;
	return 0;
}
EXPORT_SYMBOL_GPL(snd_disconnected_fault);
