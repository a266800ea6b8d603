/* SPDX-License-Identifier: MIT */
/*
 * The zmm downclocking list (cpu_id_prefers_ymm() in crypto/cpu.c) and
 * its effect on the registry: on listed CPUs every AVX-512 driver sits at
 * priority 1, elsewhere none does.
 *
 * CPUID leaf 1 EAX signatures: Intel SDM vol. 4, table 2-1 (DisplayFamily
 * _DisplayModel), and the processors' published CPUID values.
 */
#include <string.h>

#include "crypto/cpu.h"
#include "crypto/crypto.h"
#include "testutil.h"

static const struct {
	const char *cpu;
	int intel;
	uint32_t eax;
	int prefers_ymm;
} signatures[] = {
	{ "Skylake-SP", 1, 0x00050654, 1 },
	{ "Cascade Lake", 1, 0x00050657, 1 },
	{ "Ice Lake-SP", 1, 0x000606a6, 1 },
	{ "Ice Lake-D", 1, 0x000606c1, 1 },
	{ "Ice Lake client", 1, 0x000706e5, 1 },
	{ "Tiger Lake-L", 1, 0x000806c1, 1 },
	{ "Tiger Lake-H", 1, 0x000806d1, 1 },
	{ "Rocket Lake", 1, 0x000a0671, 0 },
	{ "Sapphire Rapids", 1, 0x000806f8, 0 },
	{ "Alder Lake", 1, 0x00090672, 0 },
	{ "Pentium 4 (family 15)", 1, 0x00000f29, 0 },
	{ "Zen 4", 0, 0x00a10f11, 0 },
	{ "Zen 5", 0, 0x00b40f40, 0 },
	/* model 0x55 of a vendor that is not Intel */
	{ "not Intel, model 0x55", 0, 0x00050654, 0 },
};

int main(void)
{
	unsigned int n, avx512 = 0;
	int err;

	test_seed();
	for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++)
		CHECK(cpu_id_prefers_ymm(signatures[i].intel, signatures[i].eax) ==
			      signatures[i].prefers_ymm,
		      "%s (%08x): want prefers_ymm %d", signatures[i].cpu,
		      (unsigned int)signatures[i].eax, signatures[i].prefers_ymm);

	err = crypto_init();
	CHECK(err == 0, "crypto_init: %d %s", err, crypto_init_error());
	if (err)
		return test_finish("test_cpu_ymm");
	n = crypto_driver_count();
	for (unsigned int i = 0; i < n; i++) {
		struct crypto_driver_info info;

		if (crypto_driver_info(i, &info) || !strstr(info.driver_name, "avx512"))
			continue;
		avx512++;
		CHECK((info.priority == 1) == cpu_prefers_ymm(),
		      "%s: priority %d, this CPU prefers ymm: %d", info.driver_name,
		      info.priority, cpu_prefers_ymm());
	}
	printf("test_cpu_ymm: this CPU prefers ymm: %d; %u AVX-512 drivers\n",
	       cpu_prefers_ymm(), avx512);
	return test_finish("test_cpu_ymm");
}
