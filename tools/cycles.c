/* SPDX-License-Identifier: MIT */
/* Core clock measurement by a dependent-add chain; see cycles.h. */
#include "tools/cycles.h"

#include <errno.h>
#include <stdint.h>
#include <time.h>

/* adds per loop iteration: the loop counter runs in parallel, off the chain */
#define CHAIN_ADDS 128

/*
 * Many short runs rather than a few long ones: on a busy machine a long run
 * is almost always preempted, a 1 ms one often is not; a clock read
 * (~1.3 us on our VMs) is still only 0.1% of it.
 */
#define RUN_SECONDS 0.001
#define TIMED_RUNS 40
/* lets the core leave any low-power state before we time it */
#define WARMUP_SECONDS 0.005

#define ADD_X4(insn) insn insn insn insn
#define ADD_X16(insn) ADD_X4(ADD_X4(insn))
#define ADD_X128(insn) ADD_X16(insn) ADD_X16(insn) ADD_X16(insn) ADD_X16(insn) \
	ADD_X16(insn) ADD_X16(insn) ADD_X16(insn) ADD_X16(insn)

#if defined(__GNUC__) && defined(__x86_64__)
#define CHAIN_METHOD "dependent-add chain"
/*
 * Register-register adds: some cores fold add-immediate chains at rename,
 * none folds a chain through a register whose value they do not know.
 */
static uint64_t run_chain(uint64_t iterations)
{
	uint64_t acc = 0, step = 1;

	__asm__ volatile("1:\n\t"
			 ADD_X128("add %[step], %[acc]\n\t")
			 "dec %[n]\n\t"
			 "jnz 1b\n\t"
			 : [acc] "+r"(acc), [n] "+r"(iterations)
			 : [step] "r"(step)
			 : "cc");
	return acc;
}
#elif defined(__GNUC__) && defined(__aarch64__)
#define CHAIN_METHOD "dependent-add chain"
static uint64_t run_chain(uint64_t iterations)
{
	uint64_t acc = 0, step = 1;

	__asm__ volatile("1:\n\t"
			 ADD_X128("add %[acc], %[acc], %[step]\n\t")
			 "subs %[n], %[n], #1\n\t"
			 "b.ne 1b\n\t"
			 : [acc] "+r"(acc), [n] "+r"(iterations)
			 : [step] "r"(step)
			 : "cc");
	return acc;
}
#elif defined(__GNUC__)
#define CHAIN_METHOD "dependent-add chain, portable C"
/*
 * The empty asm says acc changed in a register after every add, so the
 * compiler can neither fold the adds nor break the chain apart.
 */
static uint64_t run_chain(uint64_t iterations)
{
	uint64_t acc = 0, step = 1;

	__asm__ volatile("" : "+r"(step));
	while (iterations--) {
		ADD_X128(acc += step; __asm__ volatile("" : "+r"(acc));)
	}
	return acc;
}
#else
#define CHAIN_METHOD NULL
#endif


static int monotonic_seconds(double *out)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return -errno;
	*out = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	return 0;
}

#if defined(__GNUC__)
/* seconds taken by one run of the chain */
static int time_chain(uint64_t iterations, double *seconds)
{
	double t0 = 0, t1 = 0;
	int err;

	err = monotonic_seconds(&t0);
	if (err)
		return err;
	if (run_chain(iterations) != iterations * CHAIN_ADDS)
		return -EFAULT; /* cannot happen: keeps the result live */
	err = monotonic_seconds(&t1);
	if (err)
		return err;
	*seconds = t1 - t0;
	return 0;
}

int cycles_measure_core_clock(struct core_clock *out)
{
	uint64_t iterations = 64;
	double seconds, warm = 0, best;
	int err;

	out->hz = 0;
	out->method = "measured: " CHAIN_METHOD;
	/* size a run to RUN_SECONDS, and keep going through the warm-up */
	for (;;) {
		err = time_chain(iterations, &seconds);
		if (err)
			return err;
		warm += seconds;
		if (iterations >= (UINT64_C(1) << 34))
			break;
		if (seconds < RUN_SECONDS)
			iterations *= 2;
		else if (warm >= WARMUP_SECONDS)
			break;
	}
	/* interference only ever slows a run down: keep the fastest */
	best = seconds;
	for (int run = 0; run < TIMED_RUNS; run++) {
		err = time_chain(iterations, &seconds);
		if (err)
			return err;
		if (seconds < best)
			best = seconds;
	}
	if (best <= 0)
		return -EIO;
	out->hz = (double)iterations * CHAIN_ADDS / best;
	return 0;
}
#else
int cycles_measure_core_clock(struct core_clock *out)
{
	double t;

	out->hz = 0;
	out->method = "unknown: no inline asm for an add chain; use --ghz";
	return monotonic_seconds(&t);
}
#endif
