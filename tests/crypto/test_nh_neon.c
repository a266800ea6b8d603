/* SPDX-License-Identifier: MIT */
/*
 * The NEON NH core (crypto/arch/arm/nh-neon.h) against nh_generic: every
 * message length NH takes (16 to 1024 bytes, every 16), at every key
 * offset NHPoly1305 passes for it (the unit where a piece of a chunk
 * starts: the rest of the chunk's key, so offset + length <= 1024),
 * with the message at every alignment 0..15, random keys and messages;
 * the sums' wrap modulo 2^64 with all-ones words; and no read past the
 * message or past the key words NH needs (4 per unit and 12 more: the
 * key and the message end where a PROT_NONE page begins, so a read past
 * them faults). Built on ARM with the NEON cores only; skips (77) on
 * CPUs without NEON.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* each length with its key and message just before an inaccessible page */
static void check_reach(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	/* key, guard, message, guard */
	uint8_t *map = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(map != MAP_FAILED, "mmap");
	if (map == MAP_FAILED)
		return;
	CHECK(mprotect(map + page, page, PROT_NONE) == 0 &&
	      mprotect(map + 3 * page, page, PROT_NONE) == 0, "mprotect");
	for (size_t len = NH_MESSAGE_UNIT; len <= NH_MESSAGE_BYTES;
	     len += NH_MESSAGE_UNIT) {
		size_t words = 4 * (len / NH_MESSAGE_UNIT) + 12;
		uint32_t *k = (uint32_t *)(map + page) - words;
		uint8_t *m = map + 3 * page - len;
		uint8_t want[NH_HASH_BYTES], got[NH_HASH_BYTES];

		test_random_bytes(k, words * 4);
		test_random_bytes(m, len);
		memcpy(key, k, words * 4);
		nh_generic(key, m, len, want);
		nh_neon(k, m, len, got); /* a fault here is a read too far */
		CHECK(!memcmp(want, got, sizeof(want)),
		      "nh_neon: %zu bytes before the guard page differ", len);
	}
	CHECK(munmap(map, 4 * page) == 0, "munmap");
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
	check_reach();
	/* every term at its largest: the 64-bit sums wrap */
	memset(key, 0xff, sizeof(key));
	memset(msg, 0xff, sizeof(msg));
	for (size_t len = NH_MESSAGE_UNIT; len <= NH_MESSAGE_BYTES;
	     len += NH_MESSAGE_UNIT)
		check(0, len, 0);
	return test_finish("test_nh_neon");
}
