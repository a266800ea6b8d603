/* SPDX-License-Identifier: MIT */
/*
 * Every driver's registration, in order: generic C drivers first (SIMD
 * drivers are template instances over them), then the SIMD glue, which
 * registers nothing when the build or the CPU lacks its features.
 */
#include "crypto/internal/core.h"

#include "crypto/adiantum/adiantum.h"
#include "crypto/arch/arm/aes-ce-glue.h"
#include "crypto/arch/arm/aes-gcm-ce-glue.h"
#include "crypto/aes/aes-generic.h"
#include "crypto/arch/arm/aes-neon-glue.h"
#include "crypto/arch/arm/aes-neonbs-glue.h"
#include "crypto/arch/x86/aes-gcm-x86-glue.h"
#include "crypto/arch/x86/aes-x86-glue.h"
#include "crypto/arch/arm/camellia-ce-glue.h"
#include "crypto/camellia/camellia-generic.h"
#include "crypto/arch/x86/camellia-x86-glue.h"
#include "crypto/arch/arm/chacha-neon-glue.h"
#include "crypto/chacha20poly1305/chacha20poly1305.h"
#include "crypto/arch/x86/chacha20poly1305-x86-glue.h"
#include "crypto/arch/arm/poly1305-neon-glue.h"
#include "crypto/arch/x86/poly1305-x86-glue.h"
#include "crypto/nhpoly1305/nhpoly1305.h"
#include "crypto/arch/arm/nhpoly1305-neon-glue.h"
#include "crypto/arch/x86/nhpoly1305-x86-glue.h"
#include "crypto/polyval/polyval.h"
#include "crypto/sha512/sha512.h"
#include "crypto/arch/arm/sm4-ce-glue.h"
#include "crypto/sm4/sm4-generic.h"
#include "crypto/arch/arm/sm4-neon-glue.h"
#include "crypto/arch/x86/sm4-x86-glue.h"
#include "crypto/speck/speck-generic.h"
#include "crypto/arch/x86/speck-x86-glue.h"
#include "crypto/arch/arm/speck-xts-neon-glue.h"

static int (*const registrars[])(struct crypto_registry *) = {
	adiantum_register_testvecs,
	aes_generic_register,
	camellia_generic_register,
	chacha20poly1305_generic_register,
	nhpoly1305_generic_register,
	polyval_generic_register,
	sha512_generic_register,
	sm4_generic_register,
	speck_generic_register,
	speck_x86_register,
	aes_x86_register,
	aes_neonbs_register,
	aes_neon_register,
	sm4_x86_register,
	camellia_x86_register,
	chacha20_x86_register,
	poly1305_x86_register,
	chacha20poly1305_x86_register,
	poly1305_neon_register,
	nhpoly1305_neon_register,
	nhpoly1305_x86_register,
	chacha_neon_register,
	speck_neon_register,
	aes_ce_register,
	sm4_neon_register,
	sm4_ce_register,
	camellia_ce_register,
	sha512_x86_register,
	sha512_arm_register,
	polyval_x86_register,
	polyval_arm_register,
	aes_gcm_x86_register,
	aes_gcm_ce_register,
};

int crypto_register_all(struct crypto_registry *reg)
{
	for (size_t i = 0; i < ARRAY_SIZE(registrars); i++) {
		int err = registrars[i](reg);

		if (err)
			return err;
	}
	return 0;
}
