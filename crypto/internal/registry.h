/* SPDX-License-Identifier: MIT */
/*
 * The driver registry (internal). Each glue file exposes
 *     int <x>_register(struct crypto_registry *reg);
 * which returns 0 when its CPU features are missing (it then registers
 * nothing, or registers drivers that --list shows as missing a feature) and
 * -errno on a real failure. Generic drivers always register.
 *
 * Names: alg_name is what callers ask for ("xts(aes)"); driver_name is
 * unique ("xts-aes-vaes-avx2", "aes-generic", "xts-aes-generic" for the
 * template instance over "aes-generic").
 */
#ifndef CLOAKFS_CRYPTO_INTERNAL_REGISTRY_H
#define CLOAKFS_CRYPTO_INTERNAL_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/tfm.h"
#include "crypto/internal/alg.h"
#include "crypto/cpu.h"

/* children of a template instance at most (hctr2_base has two) */
#define CRYPTO_MAX_CHILDREN 3

/* driver flags */
#define CRYPTO_F_CONST_TIME 0x1u /* no secret-dependent branches or indexes */
/* architecture-specific code that needs no CPU feature (sha512-arm64):
 * generic-only disables it like a driver with features */
#define CRYPTO_F_ARCH 0x2u

enum crypto_selftest {
	CRYPTO_SELFTEST_UNTESTED = 0,
	CRYPTO_SELFTEST_PASSED,
	CRYPTO_SELFTEST_FAILED,
};

struct crypto_driver {
	const char *alg_name;
	const char *driver_name;
	int priority;
	uint64_t features; /* CPU_FEAT_* bits all required */
	unsigned int flags;
	enum crypto_type type;
	union {
		const struct cipher_alg *cipher;
		const struct skcipher_alg *skcipher;
		const struct hash_alg *hash;
		const struct aead_alg *aead;
	} u;
	/*
	 * template instances: the children (a mode's cipher, HMAC's hash;
	 * hctr2_base's xctr(X) then polyval), child naming the first, and
	 * the SIMD hooks
	 */
	union {
		const struct crypto_driver *child;
		const struct crypto_driver *children[CRYPTO_MAX_CHILDREN];
	};
	/* multi-child instances: the kernel-style name over the children's
	 * algorithms ("hctr2_base(xctr(aes),polyval)"), also looked up */
	const char *base_name;
	const struct crypto_bulk_ops *bulk;
	/* HMAC instances: the hash driver; skcipher/hash ctx layout info */
	size_t ctxsize;
	/* owned by the registry */
	enum crypto_selftest selftest;
	char selftest_reason[96];
	int disabled;  /* by policy */
};

struct crypto_registry;

/*
 * Register a driver described by *drv (copied). Returns 0, -EEXIST for a
 * duplicate driver_name, -ENOSPC when the table is full.
 */
int crypto_register_driver(struct crypto_registry *reg,
			   const struct crypto_driver *drv);

/* crypto_register_driver for each of drv[0..n), stopping at an error */
int crypto_register_drivers(struct crypto_registry *reg,
			    const struct crypto_driver *drv, size_t n);

/*
 * Register an instance of a mode template ("xts", "ecb", "cbc", "cfb",
 * "ctr", "cts" = CBC with ciphertext stealing) over the cipher driver named
 * child_driver. driver_name NULL means "<mode>-<child_driver>" and the
 * child's priority, features and flags. bulk may be NULL.
 */
struct crypto_mode_instance {
	const char *mode;
	const char *child_driver;
	const char *driver_name;
	int priority;
	uint64_t features;
	unsigned int flags;
	const struct crypto_bulk_ops *bulk;
};
int crypto_register_mode(struct crypto_registry *reg,
			 const struct crypto_mode_instance *inst);

/* crypto_register_mode for each of inst[0..n), stopping at an error */
int crypto_register_modes(struct crypto_registry *reg,
			  const struct crypto_mode_instance *inst, size_t n);

/*
 * Register an instance of a template with several children, named in the
 * kernel's style by the children's driver names:
 * "hctr2_base(xctr-aes-aesni,polyval-pclmul)". Each child must fit its
 * slot of the template (templates/ and templates[] in registry.c);
 * -EINVAL for a malformed name or a child that does not fit, -ENOENT for
 * an unknown template or child. The instance's algorithm is the
 * template's short name ("hctr2(aes)"); its base_name the spec over the
 * children's algorithms.
 */
int crypto_register_template(struct crypto_registry *reg, const char *spec);

/*
 * The same under the driver name driver_name instead of the one built
 * from the children ("rfc7539-chacha20-poly1305-avx2"). The templates
 * the registry does not instantiate over every fitting combination
 * (rfc7539: registry.c) get their instances this way, from the folder
 * of their children's drivers.
 */
int crypto_register_template_as(struct crypto_registry *reg, const char *spec,
				const char *driver_name);

/*
 * Constant-time SIMD block-cipher drivers and their bulk hooks: for each
 * of c[0..n), register the cipher driver, then over it the instances ecb-, cbc-, cfb-, ctr-
 * and xts-<driver_name> with the hooks, all at the driver's priority and
 * features and constant-time. Registered before the registry's automatic
 * instances, which would take the same names without the hooks (they
 * then get -EEXIST; cts-<driver_name> is such a plain instance).
 */
struct crypto_simd_cipher {
	const char *alg_name;    /* "camellia" */
	const char *driver_name; /* "camellia-gfni-avx2" */
	int priority;
	uint64_t features;
	const struct cipher_alg *cipher;
	const struct crypto_bulk_ops *bulk;
};
int crypto_register_simd_ciphers(struct crypto_registry *reg,
				 const struct crypto_simd_cipher *c, size_t n);

/* ---------------------------------------------------------------------
 * Known-answer vectors, kernel testmgr style, as hex strings copied from
 * their sources. Each algorithm folder registers its own with
 * crypto_register_testvecs() from its *_register(); the self-test looks
 * them up by alg_name. A driver with no vectors fails its self-test.
 */
struct cipher_testvec {
	const char *key;
	const char *iv;    /* NULL when the alg takes no IV */
	const char *ptext;
	const char *ctext;
};

struct hash_testvec {
	const char *key;   /* hmac only, else NULL */
	const char *msg;   /* hex */
	unsigned long repeat; /* msg repeated this many times (0 = once) */
	const char *digest;
};

struct aead_testvec {
	const char *key;
	const char *nonce;
	const char *aad;
	const char *ptext;
	const char *ctext; /* without the tag */
	const char *tag;
	/* 1: ctext and tag do not verify, decryption must refuse them
	 * (-EBADMSG, dst zeroed); ptext is NULL */
	int invalid;
};

struct crypto_testvecs {
	const char *alg_name;
	const char *source; /* where the vectors come from */
	unsigned int count;
	const struct cipher_testvec *cipher; /* CIPHER and SKCIPHER */
	const struct hash_testvec *hash;
	const struct aead_testvec *aead;
};

int crypto_register_testvecs(struct crypto_registry *reg,
			     const struct crypto_testvecs *tv);

/* crypto_register_testvecs for each of tv[0..n), stopping at an error */
int crypto_register_testvec_sets(struct crypto_registry *reg,
				 const struct crypto_testvecs *tv, size_t n);

/* all registered vector sets for an algorithm (several sources may add) */
unsigned int crypto_find_testvecs(const char *alg_name,
				  const struct crypto_testvecs **out,
				  unsigned int max);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
