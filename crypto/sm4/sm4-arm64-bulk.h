/* SPDX-License-Identifier: MIT */
/*
 * What the two AArch64 SM4 glues (sm4-ce-glue.c, sm4-neon-glue.c) share.
 * Their cores have the same bulk entry points over plain round keys, so
 * one context layout, one set of bulk hooks (ecb, cbc, cfb, ctr, xts) and
 * one registration serve both; the context names the core whose entry
 * points the hooks call. Each glue keeps its own key schedule and
 * single-block cipher functions (direct calls: the serial CBC/CFB
 * encryption runs one block at a time through them). Compiled only with
 * the cores (crypto/sm4/meson.build).
 */
#ifndef CLOAKFS_CRYPTO_SM4_SM4_ARM64_BULK_H
#define CLOAKFS_CRYPTO_SM4_SM4_ARM64_BULK_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/sm4/sm4-internal.h"

/* the bulk entry points of one core (contracts in the core's header) */
struct sm4_arm64_core {
	/* here nblocks is a nonzero multiple of 8 */
	void (*crypt_blocks)(const uint32_t *rk, uint8_t *dst,
			     const uint8_t *src, size_t nblocks);
	void (*xts_crypt)(const uint32_t *rk, uint8_t *dst, const uint8_t *src,
			  size_t nbytes, uint8_t *tweak);
	void (*cbc_decrypt)(const uint32_t *rk_dec, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *iv);
	void (*cfb_decrypt)(const uint32_t *rk_enc, uint8_t *dst,
			    const uint8_t *src, size_t nbytes, uint8_t *iv);
	void (*ctr_crypt)(const uint32_t *rk_enc, uint8_t *dst,
			  const uint8_t *src, size_t nbytes, uint8_t *ctr);
};

/* the cipher context of both drivers; their setkey fills all of it */
struct sm4_arm64_ctx {
	uint32_t rk_enc[SM4_ROUNDS];
	uint32_t rk_dec[SM4_ROUNDS]; /* rk_enc reversed */
	const struct sm4_arm64_core *core;
};

/* one AArch64 SM4 driver: its cipher, and where and how high it ranks */
struct sm4_arm64_driver {
	const char *driver_name; /* "sm4-ce": instances "ecb-sm4-ce", ... */
	int priority;
	uint64_t features;
	const struct cipher_alg *cipher; /* ctxsize: sizeof(sm4_arm64_ctx) */
};

/*
 * Register the cipher driver, then over it the bulk instances ecb-, cbc-,
 * cfb-, ctr- and xts-<driver_name> (before the registry's automatic
 * instances, which would take the same names without the bulk hooks), all
 * at the driver's priority and features and constant-time. 0 or -errno.
 */
int sm4_arm64_register(struct crypto_registry *reg,
		       const struct sm4_arm64_driver *drv);

#endif
