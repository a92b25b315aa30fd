# Build, boot and test the revoke kernel. `make help` lists the targets.

SUITE ?= tests
DURATION ?= 180

help:
	@echo 'make demo     build, boot and play the scenarios, with a report'
	@echo 'make check    build and run every test; ends with "N passed, N failed"'
	@echo 'make check-base  run the tests that pin 6.12 on the unpatched base'
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
	@scripts/build-guests

# A suite with a line "# kernel: KIND" boots the kernel of build-guest --KIND.
boot: deps
	@scripts/build-guests $$(sed -n 's/^# kernel: *//p' userspace-tests/$(SUITE).suite)
	@scripts/run-guest --suite $(SUITE)

check: deps
	@scripts/check

check-base: deps
	@scripts/check-base

demo: deps
	@scripts/demo

bench: deps
	@scripts/bench

stress: deps
	@scripts/stress $(DURATION)

.PHONY: help deps tree import series guest boot check check-base demo bench stress
