/* SPDX-License-Identifier: MIT */
/* CPU feature detection; see cpu.h. */
#include "crypto/cpu.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__) || defined(__arm__)
#include <sys/auxv.h>
#endif

static uint64_t features;
static int detected;
static int prefer_ymm;

/*
 * Intel family 6 models that downclock with zmm registers: the Linux
 * kernel's zmm_exclusion_list (first in arch/x86/crypto/aesni-intel_glue.c,
 * now arch/x86/kernel/cpu/intel.c, X86_FEATURE_PREFER_YMM), model numbers
 * from its arch/x86/include/asm/intel-family.h. Rocket Lake, Sapphire
 * Rapids and later, and AMD's Zen 4 and Zen 5 are not on it.
 */
static const uint8_t zmm_downclock_models[] = {
	0x55, /* Skylake-X, Cascade Lake, Cooper Lake */
	0x6a, /* Ice Lake-X */
	0x6c, /* Ice Lake-D */
	0x7d, /* Ice Lake */
	0x7e, /* Ice Lake-L */
	0x9d, /* Ice Lake NNPI */
	0x8c, /* Tiger Lake-L */
	0x8d, /* Tiger Lake */
};

/* family and model as the SDM (vol. 2, CPUID leaf 1) composes them */
int cpu_id_prefers_ymm(int intel, uint32_t leaf1_eax)
{
	unsigned int family = (leaf1_eax >> 8) & 0xf;
	unsigned int model = (leaf1_eax >> 4) & 0xf;

	if (family == 0xf)
		family += (leaf1_eax >> 20) & 0xff;
	if (family == 0x6 || family == 0xf)
		model |= ((leaf1_eax >> 16) & 0xf) << 4;
	if (!intel || family != 6)
		return 0;
	for (size_t i = 0; i < sizeof(zmm_downclock_models); i++)
		if (model == zmm_downclock_models[i])
			return 1;
	return 0;
}

int cpu_prefers_ymm(void)
{
	return prefer_ymm;
}

static const struct {
	const char *name;
	uint64_t bit;
} feature_names[] = {
	{ "sse2", CPU_FEAT_SSE2 },       { "ssse3", CPU_FEAT_SSSE3 },
	{ "sse4.1", CPU_FEAT_SSE41 },    { "avx", CPU_FEAT_AVX },
	{ "avx2", CPU_FEAT_AVX2 },       { "bmi2", CPU_FEAT_BMI2 },
	{ "aesni", CPU_FEAT_AESNI },     { "pclmul", CPU_FEAT_PCLMUL },
	{ "vaes", CPU_FEAT_VAES },       { "vpclmulqdq", CPU_FEAT_VPCLMULQDQ },
	{ "gfni", CPU_FEAT_GFNI },       { "avx512f", CPU_FEAT_AVX512F },
	{ "avx512bw", CPU_FEAT_AVX512BW }, { "avx512vl", CPU_FEAT_AVX512VL },
	{ "avx512vbmi", CPU_FEAT_AVX512VBMI },
	{ "avx512ifma", CPU_FEAT_AVX512IFMA },
	{ "vsha512", CPU_FEAT_X86_SHA512 },
	{ "neon", CPU_FEAT_NEON },       { "aes", CPU_FEAT_ARM_AES },
	{ "pmull", CPU_FEAT_ARM_PMULL }, { "sm4", CPU_FEAT_ARM_SM4 },
	{ "sha512", CPU_FEAT_ARM_SHA512 }, { "sha2", CPU_FEAT_ARM_SHA2 },
};

#if defined(__x86_64__) || defined(__i386__)
static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t detect(void)
{
	unsigned int a, b, c, d, max;
	uint64_t f = 0, xcr0 = 0;
	int os_ymm = 0, os_zmm = 0, intel;

	max = __get_cpuid_max(0, NULL);
	if (max < 1)
		return 0;
	__cpuid(0, a, b, c, d);
	/* "GenuineIntel" in EBX, EDX, ECX */
	intel = b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e;
	__cpuid(1, a, b, c, d);
	prefer_ymm = cpu_id_prefers_ymm(intel, a);
	if (d & bit_SSE2)
		f |= CPU_FEAT_SSE2;
	if (c & bit_SSSE3)
		f |= CPU_FEAT_SSSE3;
	if (c & bit_SSE4_1)
		f |= CPU_FEAT_SSE41;
	if (c & bit_AES)
		f |= CPU_FEAT_AESNI;
	if (c & bit_PCLMUL)
		f |= CPU_FEAT_PCLMUL;
	/* the OS must save YMM/ZMM state, or using them corrupts other tasks */
	if ((c & bit_OSXSAVE) && (c & bit_AVX)) {
		xcr0 = xgetbv0();
		os_ymm = (xcr0 & 0x6) == 0x6;          /* SSE + AVX state */
		os_zmm = os_ymm && (xcr0 & 0xe0) == 0xe0; /* opmask, ZMM */
	}
	if (os_ymm)
		f |= CPU_FEAT_AVX;
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		if (os_ymm && (b & bit_AVX2))
			f |= CPU_FEAT_AVX2;
		if (b & bit_BMI2)
			f |= CPU_FEAT_BMI2;
		if (os_ymm && (c & bit_VAES))
			f |= CPU_FEAT_VAES;
		if (os_ymm && (c & bit_VPCLMULQDQ))
			f |= CPU_FEAT_VPCLMULQDQ;
		if (c & bit_GFNI)
			f |= CPU_FEAT_GFNI;
		if (os_zmm) {
			if (b & bit_AVX512F)
				f |= CPU_FEAT_AVX512F;
			if (b & bit_AVX512BW)
				f |= CPU_FEAT_AVX512BW;
			if (b & bit_AVX512VL)
				f |= CPU_FEAT_AVX512VL;
			if (c & bit_AVX512VBMI)
				f |= CPU_FEAT_AVX512VBMI;
			f |= (b & bit_AVX512IFMA) ? CPU_FEAT_AVX512IFMA : 0;
		}
		/* leaf 7 subleaf 1 EAX bit 0: SHA512 (Intel SDM vol. 2, CPUID) */
		__cpuid_count(7, 0, a, b, c, d);
		if (a >= 1) {
			__cpuid_count(7, 1, a, b, c, d);
			if (os_ymm && (a & 1))
				f |= CPU_FEAT_X86_SHA512;
		}
	}
	return f;
}
#elif defined(__aarch64__)
/* bit numbers from the Linux uapi header arch/arm64/include/uapi/asm/hwcap.h */
static uint64_t detect(void)
{
	unsigned long hw = getauxval(AT_HWCAP);
	uint64_t f = 0;

	if (hw & (1ul << 1))  /* HWCAP_ASIMD */
		f |= CPU_FEAT_NEON;
	if (hw & (1ul << 3))  /* HWCAP_AES */
		f |= CPU_FEAT_ARM_AES;
	if (hw & (1ul << 4))  /* HWCAP_PMULL */
		f |= CPU_FEAT_ARM_PMULL;
	if (hw & (1ul << 6))  /* HWCAP_SHA2 */
		f |= CPU_FEAT_ARM_SHA2;
	if (hw & (1ul << 19)) /* HWCAP_SM4 */
		f |= CPU_FEAT_ARM_SM4;
	if (hw & (1ul << 21)) /* HWCAP_SHA512 */
		f |= CPU_FEAT_ARM_SHA512;
	return f;
}
#elif defined(__arm__)
/* arch/arm/include/uapi/asm/hwcap.h */
static uint64_t detect(void)
{
	unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
	uint64_t f = 0;

	if (hw & (1ul << 12)) /* HWCAP_NEON */
		f |= CPU_FEAT_NEON;
	if (hw2 & (1ul << 0)) /* HWCAP2_AES */
		f |= CPU_FEAT_ARM_AES;
	if (hw2 & (1ul << 1)) /* HWCAP2_PMULL */
		f |= CPU_FEAT_ARM_PMULL;
	if (hw2 & (1ul << 3)) /* HWCAP2_SHA2 */
		f |= CPU_FEAT_ARM_SHA2;
	return f;
}
#else
static uint64_t detect(void)
{
	return 0;
}
#endif

void cpu_init(uint64_t mask)
{
	if (!detected) {
		features = detect();
		detected = 1;
	}
	features &= ~mask;
}

uint64_t cpu_features(void)
{
	return features;
}

uint64_t cpu_feature_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++)
		if (!strcmp(feature_names[i].name, name))
			return feature_names[i].bit;
	return 0;
}

const char *cpu_feature_names(uint64_t f, char *buf, unsigned long len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++) {
		size_t n;

		if (!(f & feature_names[i].bit))
			continue;
		n = strlen(feature_names[i].name);
		if (used + n + 2 > len)
			break;
		if (used)
			buf[used++] = ',';
		memcpy(buf + used, feature_names[i].name, n + 1);
		used += n;
	}
	return buf;
}
