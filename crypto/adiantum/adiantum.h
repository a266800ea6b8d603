/* SPDX-License-Identifier: MIT */
/*
 * Adiantum's vectors. The construction is the adiantum template
 * (crypto/templates/adiantum.c) over an xchacha12/xchacha20 driver, an
 * aes driver and an nhpoly1305 driver; the registry instantiates it over
 * every fitting triple because these vectors exist.
 */
#ifndef CLOAKFS_CRYPTO_ADIANTUM_H
#define CLOAKFS_CRYPTO_ADIANTUM_H

#include "crypto/internal/registry.h"

#define ADIANTUM_XCHACHA12_ALG_NAME "adiantum(xchacha12,aes)"
#define ADIANTUM_XCHACHA20_ALG_NAME "adiantum(xchacha20,aes)"

int adiantum_register_testvecs(struct crypto_registry *reg);

#endif
