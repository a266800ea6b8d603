// SPDX-License-Identifier: MIT
/*
 * x86-op-throughput: how many of the instructions our x86 cores are made
 * of this CPU retires per cycle, to tell how far a core is from what the
 * hardware allows (docs/performance.md, "What Zen 4 allows").
 *
 *   gcc -O2 -o x86-op-throughput bench/x86-op-throughput.c
 *   nice -n -20 ./x86-op-throughput
 *
 * Each line times a loop of 8 independent chains of one instruction (or a
 * mix, such as one Speck round: two rotates, an add and two xors), so the
 * figure is reciprocal throughput in core cycles per instruction, not
 * latency. These VMs have no performance counters: the core clock comes
 * from a dependent chain of scalar adds (one cycle each), timed next to
 * every trial; the best of 40 trials of each counts, so short stalls
 * drop out. Run it on a quiet machine: the two vCPUs of these VMs may be
 * hyperthreads of one core, and a busy sibling slows both loops unevenly
 * (figures then come out too low as well as too high). Needs AVX-512F/VL/
 * IFMA, VAES and GFNI (it does not check).
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define OPS 4000000ull /* per trial: 8 chains x OPS / 8 iterations */
#define TRIALS 40

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* seconds per cycle of this trial: OPS dependent 1-cycle adds */
static double add_chain(void)
{
	uint64_t x = 0;
	double t = now();

	for (uint64_t i = 0; i < OPS; i++)
		__asm__ volatile("add $1, %0" : "+r"(x));
	return (now() - t) / (double)OPS;
}

#define X8(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7)
#define ROLZ(i) "vprolq $3, %%zmm" #i ", %%zmm" #i "\n\t"
#define ADDZ(i) "vpaddq %%zmm31, %%zmm" #i ", %%zmm" #i "\n\t"
#define XORZ(i) "vpxorq %%zmm30, %%zmm" #i ", %%zmm" #i "\n\t"
#define SHUFZ(i) "vpshufb %%zmm31, %%zmm" #i ", %%zmm" #i "\n\t"
#define AESZ(i) "vaesenc %%zmm31, %%zmm" #i ", %%zmm" #i "\n\t"
#define GFZ(i) "vgf2p8affineinvqb $0, %%zmm31, %%zmm" #i ", %%zmm" #i "\n\t"
#define MADZ(i) "vpmadd52luq %%zmm31, %%zmm30, %%zmm" #i "\n\t"
#define ROLY(i) "vprolq $3, %%ymm" #i ", %%ymm" #i "\n\t"
#define ADDY(i) "vpaddq %%ymm15, %%ymm" #i ", %%ymm" #i "\n\t"
#define XORY(i) "vpxor %%ymm14, %%ymm" #i ", %%ymm" #i "\n\t"
#define SHLY(i) "vpsllq $3, %%ymm" #i ", %%ymm" #i "\n\t"
#define SHUFY(i) "vpshufb %%ymm15, %%ymm" #i ", %%ymm" #i "\n\t"
#define AESY(i) "vaesenc %%ymm15, %%ymm" #i ", %%ymm" #i "\n\t"
#define AESX(i) "aesenc %%xmm15, %%xmm" #i "\n\t"

/* print cycles per instruction of body (nops instructions x 8 chains) */
#define MEASURE(name, nops, body)                                           \
	do {                                                                \
		double best = 1e9, cycle = 1e9;                             \
		for (int t = 0; t < TRIALS; t++) {                          \
			uint64_t n = OPS / 8;                               \
			double c = add_chain(), t0 = now(), d;              \
			__asm__ volatile("1:\n\t" body "dec %0\n\tjnz 1b"   \
					 : "+r"(n)::"memory");              \
			d = now() - t0;                                     \
			best = d < best ? d : best;                         \
			cycle = c < cycle ? c : cycle;                      \
		}                                                           \
		printf("%-40s %6.3f\n", name,                               \
		       best / cycle / (double)(OPS * (nops)));              \
	} while (0)

int main(void)
{
	printf("%-40s %6s\n", "instruction (8 independent chains)",
	       "cycles/instruction");
	MEASURE("vprolq zmm", 1, X8(ROLZ));
	MEASURE("vpaddq zmm", 1, X8(ADDZ));
	MEASURE("vpxorq zmm", 1, X8(XORZ));
	MEASURE("vpshufb zmm", 1, X8(SHUFZ));
	MEASURE("Speck round zmm: 2 vprolq, vpaddq, 2 vpxorq", 5,
		X8(ROLZ) X8(ROLZ) X8(ADDZ) X8(XORZ) X8(XORZ));
	MEASURE("Speck round zmm, ror 8 as vpshufb", 5,
		X8(ROLZ) X8(SHUFZ) X8(ADDZ) X8(XORZ) X8(XORZ));
	MEASURE("vaesenc zmm", 1, X8(AESZ));
	MEASURE("vgf2p8affineinvqb zmm", 1, X8(GFZ));
	MEASURE("vpmadd52luq zmm", 1, X8(MADZ));
	MEASURE("vprolq ymm", 1, X8(ROLY));
	MEASURE("vpaddq ymm", 1, X8(ADDY));
	MEASURE("vpsllq ymm", 1, X8(SHLY));
	MEASURE("vpshufb ymm", 1, X8(SHUFY));
	MEASURE("Speck round ymm (AVX-512VL)", 5,
		X8(ROLY) X8(ROLY) X8(ADDY) X8(XORY) X8(XORY));
	MEASURE("Speck round ymm, AVX2: vpshufb, add, 2 xor, sll, srl, or", 7,
		X8(SHUFY) X8(ADDY) X8(XORY) X8(SHLY) X8(SHLY) X8(XORY) X8(XORY));
	MEASURE("vaesenc ymm", 1, X8(AESY));
	MEASURE("aesenc xmm", 1, X8(AESX));
	return 0;
}
