/* SPDX-License-Identifier: MIT */
/*
 * Registry internals shared by registry.c, crypto.c, testmgr.c, policy.c
 * and the templates. Not for use outside crypto/.
 */
#ifndef CLOAKFS_CRYPTO_INTERNAL_CORE_H
#define CLOAKFS_CRYPTO_INTERNAL_CORE_H

#include <stddef.h>

#include "crypto/tfm.h"
#include "crypto/internal/registry.h"

#define CRYPTO_CTX_ALIGN 64

/* the single process-wide registry (filled once by crypto_init) */
struct crypto_registry *crypto_registry_get(void);
unsigned int registry_count(void);
struct crypto_driver *registry_driver(unsigned int i);
struct crypto_driver *registry_find_driver(const char *driver_name);

/* drivers.c: every glue's *_register, generic first, then templates */
int crypto_register_all(struct crypto_registry *reg);
/* registry.c: hmac over every hash driver; mode instances over ciphers */
int crypto_instantiate_templates(struct crypto_registry *reg);

/*
 * name.c: split a kernel-style name "t(a,b)" into its template "t" and
 * its top-level arguments "a", "b" (each may be "x(y)" itself); a plain
 * name ("aes") has no arguments. 0, or -EINVAL when the parentheses do
 * not balance, an argument is empty, text follows the closing
 * parenthesis, there are more than CRYPTO_MAX_CHILDREN arguments or a
 * part does not fit its buffer.
 */
struct crypto_name {
	char tmpl[32];
	unsigned int nargs;
	char args[CRYPTO_MAX_CHILDREN][96];
};
int crypto_name_parse(const char *name, struct crypto_name *out);

/* testmgr.c: run the known-answer tests; sets drv->selftest and reason */
void crypto_selftest_run(struct crypto_driver *drv);
/* testmgr.c: crypto_kat_run's work, on a started registry */
struct crypto_kat_report;
int testmgr_kat_run(const char *driver,
		    void (*report)(void *arg, const struct crypto_kat_report *r),
		    void *arg);

/* templates/: fill an skcipher_alg for mode over a cipher child */
int xts_template_init(struct skcipher_alg *alg, const struct crypto_driver *child);
int ecb_template_init(struct skcipher_alg *alg, const struct crypto_driver *child);
int cbc_template_init(struct skcipher_alg *alg, const struct crypto_driver *child);
int cfb_template_init(struct skcipher_alg *alg, const struct crypto_driver *child);
int ctr_template_init(struct skcipher_alg *alg, const struct crypto_driver *child);
int xctr_template_init(struct skcipher_alg *alg, const struct crypto_driver *child);
int cts_template_init(struct skcipher_alg *alg, const struct crypto_driver *child);

/*
 * templates/hctr2.c: hctr2_base(xctr(X),polyval), HCTR2 over 16-byte
 * block ciphers. hctr2_fits(i, d): whether d fits child slot i (0: an
 * xctr instance over a 16-byte-block cipher, 1: a polyval driver);
 * hctr2_alg_name: "hctr2(X)"; init fills alg for those children.
 */
int hctr2_fits(unsigned int slot, const struct crypto_driver *d);
int hctr2_alg_name(char *out, size_t len, const struct crypto_driver *const *children);
int hctr2_template_init(struct skcipher_alg *alg,
			const struct crypto_driver *const *children);

/*
 * templates/adiantum.c: adiantum(xchacha<r>,aes,nhpoly1305), Adiantum
 * over an XChaCha12/20 skcipher (slot 0), an AES cipher taking 32-byte
 * keys (slot 1) and an nhpoly1305 driver (slot 2); "adiantum(xchacha12,aes)".
 */
int adiantum_fits(unsigned int slot, const struct crypto_driver *d);
int adiantum_alg_name(char *out, size_t len, const struct crypto_driver *const *children);
int adiantum_template_init(struct skcipher_alg *alg,
			   const struct crypto_driver *const *children);

/*
 * templates/rfc7539.c: rfc7539(chacha20,poly1305), the RFC 8439 AEAD over
 * a chacha20 skcipher driver (slot 0) and a poly1305 keyed-hash driver
 * (slot 1), through the AEAD engine of templates/aead.c; as hctr2's.
 */
int rfc7539_fits(unsigned int slot, const struct crypto_driver *d);
int rfc7539_alg_name(char *out, size_t len, const struct crypto_driver *const *children);
int rfc7539_template_init(struct aead_alg *alg,
			  const struct crypto_driver *const *children);
/* the XChaCha20-Poly1305 variant over the same children: "xchacha20poly1305" */
int xchacha_fits(unsigned int slot, const struct crypto_driver *d);
int xchacha_alg_name(char *out, size_t len, const struct crypto_driver *const *children);
int xchacha_template_init(struct aead_alg *alg,
			  const struct crypto_driver *const *children);

/*
 * templates/gcm.c: gcm_base(ctr(X),ghash), GCM with 96-bit nonces over a
 * ctr instance of a 16-byte block cipher (slot 0) and a ghash driver
 * (slot 1), through the AEAD engine of templates/aead.h: "gcm(X)"
 */
int gcm_fits(unsigned int slot, const struct crypto_driver *d);
int gcm_alg_name(char *out, size_t len, const struct crypto_driver *const *children);
int gcm_template_init(struct aead_alg *alg,
		      const struct crypto_driver *const *children);

/*
 * templates/hmac.c: the HMAC instance over drv->child (a hash driver);
 * hmac_fits: whether the template takes hash h (unkeyed, block and digest
 * within its buffers)
 */
int hmac_fits(const struct hash_alg *h);
size_t hmac_ctxsize(const struct crypto_driver *drv);
int hmac_setkey(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen);
void hmac_init(struct crypto_tfm *tfm);
void hmac_update(struct crypto_tfm *tfm, const uint8_t *data, size_t len);
void hmac_final(struct crypto_tfm *tfm, uint8_t *out);

/* round up to the context alignment */
static inline size_t ctx_align(size_t n)
{
	return (n + CRYPTO_CTX_ALIGN - 1) & ~(size_t)(CRYPTO_CTX_ALIGN - 1);
}

/* policy.c */
struct crypto_policy {
	int allow_variable_time;
	int generic_only;
	uint64_t cpu_mask;
	unsigned int npins, ndisable, nprio;
	char *pins[32];
	char *disable[32]; /* fnmatch patterns */
	struct {
		char *pattern;
		int priority;
	} prio[32];
};
/* read config files and $CLOAKFS_CRYPTO; err gets "file:line: what" */
int policy_load(struct crypto_policy *p, char *err, size_t errlen);
/* apply to the registered drivers (disable flags, priorities) */
int policy_apply(const struct crypto_policy *p, char *err, size_t errlen);
const struct crypto_policy *policy_get(void);
/* load the policy into the global one and detect the CPU under its mask */
int policy_init_global(char *err, size_t errlen);

#endif
