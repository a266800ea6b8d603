/* SPDX-License-Identifier: MIT */
/*
 * The portable C Speck drivers: "speck128-generic" and "speck64-generic"
 * (priority 100, constant time), with the known-answer vectors of
 * speck128, speck64, ecb(speck*) and xts(speck*).
 */
#ifndef CLOAKFS_CRYPTO_SPECK_SPECK_GENERIC_H
#define CLOAKFS_CRYPTO_SPECK_SPECK_GENERIC_H

struct crypto_registry;

/* 0 or -errno (see crypto/internal/registry.h) */
int speck_generic_register(struct crypto_registry *reg);

#endif
