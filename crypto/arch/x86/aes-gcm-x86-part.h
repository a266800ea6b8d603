/* SPDX-License-Identifier: MIT */
/*
 * v_load_part and v_store_part of the fused GCM core (aes-gcm-x86-core.h)
 * for the widths without byte masks (xmm, ymm): the first n bytes of a
 * vector through a zeroed buffer on the stack, wiped after. The
 * including file defines vec_t, v_loadu and v_storeu first.
 */
#ifndef CLOAKFS_CRYPTO_ARCH_X86_AES_GCM_X86_PART_H
#define CLOAKFS_CRYPTO_ARCH_X86_AES_GCM_X86_PART_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto/internal/util.h"

static inline __attribute__((always_inline)) vec_t v_load_part(const uint8_t *p,
							       size_t n)
{
	uint8_t b[sizeof(vec_t)] = { 0 };
	vec_t v;

	if (n >= sizeof(b))
		return v_loadu(p);
	memcpy(b, p, n);
	v = v_loadu(b);
	wipe(b, sizeof(b));
	return v;
}

static inline __attribute__((always_inline)) void v_store_part(uint8_t *p, vec_t v,
							       size_t n)
{
	uint8_t b[sizeof(vec_t)];

	if (n >= sizeof(b)) {
		v_storeu(p, v);
		return;
	}
	v_storeu(b, v);
	memcpy(p, b, n);
	wipe(b, sizeof(b));
}

#endif
