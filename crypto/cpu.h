/* SPDX-License-Identifier: MIT */
/*
 * CPU feature detection: the only place that asks the CPU (CPUID + XGETBV
 * on x86, getauxval(AT_HWCAP/AT_HWCAP2) on ARM). Runs once at init; hot
 * paths never check. CLOAKFS_CRYPTO=nocpu:FEATURE hides a feature so the
 * fallbacks can be tested on a machine that has it.
 */
#ifndef CLOAKFS_CRYPTO_CPU_H
#define CLOAKFS_CRYPTO_CPU_H

#include <stdint.h>

/* x86-64 */
#define CPU_FEAT_SSE2        (1ull << 0)
#define CPU_FEAT_SSSE3       (1ull << 1)
#define CPU_FEAT_SSE41       (1ull << 2)
#define CPU_FEAT_AVX         (1ull << 3)
#define CPU_FEAT_AVX2        (1ull << 4)
#define CPU_FEAT_BMI2        (1ull << 5)
#define CPU_FEAT_AESNI       (1ull << 6)
#define CPU_FEAT_PCLMUL      (1ull << 7)
#define CPU_FEAT_VAES        (1ull << 8)
#define CPU_FEAT_VPCLMULQDQ  (1ull << 9)
#define CPU_FEAT_GFNI        (1ull << 10)
#define CPU_FEAT_AVX512F     (1ull << 11)
#define CPU_FEAT_AVX512BW    (1ull << 12)
#define CPU_FEAT_AVX512VL    (1ull << 13)
#define CPU_FEAT_AVX512VBMI  (1ull << 14)
#define CPU_FEAT_AVX512IFMA  (1ull << 15)
#define CPU_FEAT_X86_SHA512  (1ull << 16) /* VSHA512RNDS2, VSHA512MSG1/2 */
/* ARM (AArch64 and AArch32) */
#define CPU_FEAT_NEON        (1ull << 32)
#define CPU_FEAT_ARM_AES     (1ull << 33)
#define CPU_FEAT_ARM_PMULL   (1ull << 34)
#define CPU_FEAT_ARM_SM4     (1ull << 35)
#define CPU_FEAT_ARM_SHA512  (1ull << 36)
#define CPU_FEAT_ARM_SHA2    (1ull << 37)

/* detect once (idempotent); mask hides features (test override) */
void cpu_init(uint64_t mask);
uint64_t cpu_features(void);
static inline int cpu_has(uint64_t need)
{
	return (cpu_features() & need) == need;
}
/*
 * 1 on CPUs that lower their clock while zmm registers are in use (some
 * Intel AVX-512 models), where 256-bit code beats 512-bit code on real
 * workloads: crypto_init() then demotes drivers that need AVX-512F to
 * priority 1 (kept, not dropped; a policy priority can raise them again).
 */
int cpu_prefers_ymm(void);
/* the same decision from CPUID leaf 0's vendor and leaf 1's EAX (tests) */
int cpu_id_prefers_ymm(int intel, uint32_t leaf1_eax);
/* "avx2" -> CPU_FEAT_AVX2, 0 if unknown */
uint64_t cpu_feature_from_name(const char *name);
/* space-separated names of the bits in f, into buf */
const char *cpu_feature_names(uint64_t f, char *buf, unsigned long len);

#endif
