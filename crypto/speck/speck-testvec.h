/* SPDX-License-Identifier: MIT */
/*
 * The known-answer vector sets of the speck drivers: published ones
 * (speck-testvec.c) and computed ones for the other modes
 * (speck-testvec-modes.c).
 */
#ifndef CLOAKFS_CRYPTO_SPECK_SPECK_TESTVEC_H
#define CLOAKFS_CRYPTO_SPECK_SPECK_TESTVEC_H

#include "crypto/internal/registry.h"

extern const struct crypto_testvecs speck_testvecs[];
extern const unsigned int speck_testvecs_count;
extern const struct crypto_testvecs speck_mode_testvecs[];
extern const unsigned int speck_mode_testvecs_count;

#endif
