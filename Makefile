# Build, boot and test the revoke kernel. `make help` lists the targets.

SUITE ?= tests
DURATION ?= 180

help:
	@echo 'make demo     build, boot and play the scenarios, with a report'
	@echo 'make check    build and run every test; ends with "N passed, N failed"'
	@echo 'make tree     assemble build/linux from the base and patches/'
	@echo 'make import   bring commits made in build/linux back into the repo'
	@echo 'make series   export the upstream series to build/series/'
	@echo 'make guest    build the guest kernel and initramfs'
	@echo 'make boot     boot the guest and run SUITE=$(SUITE)'
	@echo 'make bench    compare the patched kernel with the unpatched base'
	@echo 'make stress   revoke under load for DURATION seconds (default 180)'

deps:
	@scripts/deps

tree: deps
	@scripts/tree

import:
	@scripts/import

series:
	@scripts/series

guest: deps
	@scripts/build-guest
	@scripts/build-initramfs

# A suite with a line "# kernel: KIND" boots the kernel of build-guest --KIND.
boot: guest
	@kind=$$(sed -n 's/^# kernel: *//p' userspace-tests/$(SUITE).suite); \
	[ -z "$$kind" ] || scripts/build-guest --$$kind
	@scripts/run-guest --suite $(SUITE)

check: deps
	@scripts/check

demo: deps
	@scripts/demo

bench: deps
	@scripts/bench

stress: deps
	@scripts/stress $(DURATION)

.PHONY: help deps tree import series guest boot check demo bench stress
