/* SPDX-License-Identifier: MIT */
/*
 * NH with SSE2 (built with -msse2): one 16-byte unit per step, the four
 * passes in two accumulators (nh-x86-core.h). See nh-x86.h.
 */
#include "crypto/arch/x86/nh-x86.h"
#include "crypto/arch/x86/nh-x86-core.h"

void nh_sse2(const uint32_t *key, const uint8_t *msg, size_t len,
	     uint8_t hash[32])
{
	Xvec acc01 = _mm_setzero_si128(), acc23 = _mm_setzero_si128();

	for (; len; len -= 16, msg += 16, key += 4) {
		Xvec m = X_LOAD(msg);

		NH_STEP(X, acc01, acc23, m, key);
	}
	nh_store(hash, acc01, acc23);
}
