/* SPDX-License-Identifier: MIT */
/*
 * The core clock, for cycles/byte figures.
 *
 * Why not rdtsc: on the VMs we run on there are no performance counters,
 * and the TSC ticks at a fixed rate (2.1 GHz, the figure /proc/cpuinfo
 * shows) that is not the core clock (~3.5 GHz), so TSC "cycles" would be
 * off by a factor of ~1.6. Instead we time a long chain of dependent
 * register-register adds, which retire one per core cycle on every core we
 * target (x86-64, AArch64), against CLOCK_MONOTONIC.
 */
#ifndef CLOAKFS_TOOLS_CYCLES_H
#define CLOAKFS_TOOLS_CYCLES_H

struct core_clock {
	double hz;          /* 0 when it could not be measured */
	const char *method; /* how hz was found, for the output header */
};

/*
 * Measure the core clock: the fastest of a few short timed runs of the add
 * chain (1 ms each, about 50 ms in all, after a warm-up).
 * Returns 0, or -errno when the monotonic clock cannot be read. On a
 * compiler without GNU inline asm the chain cannot be kept from being
 * folded: hz is then 0 and method says so.
 */
int cycles_measure_core_clock(struct core_clock *out);

#endif
