/* SPDX-License-Identifier: MIT */
/*
 * The NEON NH core (crypto/arch/arm/nh-neon.h) against nh_generic: every
 * message length NH takes (16 to 1024 bytes, every 16), at every key
 * offset NHPoly1305 passes for it (the unit where a piece of a chunk
 * starts: the rest of the chunk's key, so offset + length <= 1024),
 * with the message at every alignment 0..15, random keys and messages;
 * and the sums' wrap modulo 2^64 with all-ones words. Built on ARM with
 * the NEON cores only; skips (77) on CPUs without NEON.
 */
#include <string.h>

#include "crypto/arch/arm/nh-neon.h"
#include "crypto/cpu.h"
#include "crypto/nhpoly1305/nh.h"
#include "testutil.h"

static uint32_t key[NH_KEY_WORDS];
static uint8_t msg[NH_MESSAGE_BYTES + 16];

static void check(size_t off, size_t len, size_t align)
{
	uint8_t want[NH_HASH_BYTES], got[NH_HASH_BYTES];

	nh_generic(key + off / 4, msg + align, len, want);
	nh_neon(key + off / 4, msg + align, len, got);
	CHECK(!memcmp(want, got, sizeof(want)),
	      "nh_neon: %zu bytes at key offset %zu, message +%zu differ",
	      len, off, align);
}

int main(void)
{
	test_seed();
	cpu_init(0);
	if (!cpu_has(CPU_FEAT_NEON)) {
		printf("skip: CPU lacks neon\n");
		return 77;
	}
	for (size_t len = NH_MESSAGE_UNIT; len <= NH_MESSAGE_BYTES;
	     len += NH_MESSAGE_UNIT) {
		test_random_bytes(key, sizeof(key));
		for (size_t off = 0; off + len <= NH_MESSAGE_BYTES;
		     off += NH_MESSAGE_UNIT) {
			size_t align = test_rand_below(16);

			test_random_bytes(msg, sizeof(msg));
			check(off, len, align);
		}
		for (size_t align = 0; align < 16; align++)
			check(0, len, align);
	}
	/* every term at its largest: the 64-bit sums wrap */
	memset(key, 0xff, sizeof(key));
	memset(msg, 0xff, sizeof(msg));
	for (size_t len = NH_MESSAGE_UNIT; len <= NH_MESSAGE_BYTES;
	     len += NH_MESSAGE_UNIT)
		check(0, len, 0);
	return test_finish("test_nh_neon");
}
