// SPDX-License-Identifier: MIT
/*
 * NH in portable C (see nh.h for the definition). Four passes share the
 * message words: each unit loads four words and feeds eight products.
 */
#include "crypto/nhpoly1305/nh.h"
#include "crypto/internal/util.h"

void nh_generic(const uint32_t *key, const uint8_t *msg, size_t len,
		uint8_t hash[NH_HASH_BYTES])
{
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

	for (; len >= NH_MESSAGE_UNIT; len -= NH_MESSAGE_UNIT) {
		uint32_t m0 = load_le32(msg), m1 = load_le32(msg + 4);
		uint32_t m2 = load_le32(msg + 8), m3 = load_le32(msg + 12);

		/* pass p reads the key 4p words on */
		s0 += (uint64_t)(m0 + key[0]) * (m2 + key[2]);
		s1 += (uint64_t)(m0 + key[4]) * (m2 + key[6]);
		s2 += (uint64_t)(m0 + key[8]) * (m2 + key[10]);
		s3 += (uint64_t)(m0 + key[12]) * (m2 + key[14]);
		s0 += (uint64_t)(m1 + key[1]) * (m3 + key[3]);
		s1 += (uint64_t)(m1 + key[5]) * (m3 + key[7]);
		s2 += (uint64_t)(m1 + key[9]) * (m3 + key[11]);
		s3 += (uint64_t)(m1 + key[13]) * (m3 + key[15]);
		key += NH_MESSAGE_UNIT / 4;
		msg += NH_MESSAGE_UNIT;
	}
	store_le64(hash, s0);
	store_le64(hash + 8, s1);
	store_le64(hash + 16, s2);
	store_le64(hash + 24, s3);
}
