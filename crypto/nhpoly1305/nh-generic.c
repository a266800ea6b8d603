// SPDX-License-Identifier: MIT
/*
 * NH in portable C (see nh.h for the definition): the four passes read
 * each 16-byte unit once.
 */
#include "crypto/nhpoly1305/nh.h"
#include "crypto/internal/util.h"

void nh_generic(const uint32_t *key, const uint8_t *msg, size_t len,
		uint8_t hash[NH_HASH_BYTES])
{
	uint64_t sum[NH_NUM_PASSES] = { 0 };

	for (; len >= NH_MESSAGE_UNIT; len -= NH_MESSAGE_UNIT) {
		uint32_t w[4];

		for (unsigned int i = 0; i < 4; i++)
			w[i] = load_le32(msg + 4 * i);
		/* pass p keys the same words with the key 4p words on */
		for (unsigned int p = 0; p < NH_NUM_PASSES; p++) {
			const uint32_t *k = key + 4 * p;

			sum[p] += (uint64_t)(w[0] + k[0]) * (w[2] + k[2]) +
				  (uint64_t)(w[1] + k[1]) * (w[3] + k[3]);
		}
		key += NH_MESSAGE_UNIT / 4;
		msg += NH_MESSAGE_UNIT;
	}
	for (unsigned int p = 0; p < NH_NUM_PASSES; p++)
		store_le64(hash + 8 * p, sum[p]);
}
