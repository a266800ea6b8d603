/* SPDX-License-Identifier: MIT */
/*
 * The crypto API: init, lookup, transforms and dispatch by driver type.
 * See crypto.h.
 */
#include "crypto/crypto.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "crypto/internal/core.h"
#include "crypto/secmem.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t selftest_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_result;
static char init_error[512];

static int (*extra_registrar)(struct crypto_registry *);
static int init_started;

int crypto_add_registrar(int (*fn)(struct crypto_registry *reg))
{
	if (init_started || extra_registrar)
		return -EBUSY;
	extra_registrar = fn;
	return 0;
}

/* listing order: by algorithm name, then best priority first */
static unsigned int listing[512]; /* MAX_DRIVERS of registry.c */

static int listing_cmp(const void *a, const void *b)
{
	const struct crypto_driver *x = registry_driver(*(const unsigned int *)a);
	const struct crypto_driver *y = registry_driver(*(const unsigned int *)b);
	int c = strcmp(x->alg_name, y->alg_name);

	if (c)
		return c;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return strcmp(x->driver_name, y->driver_name);
}

static void sort_listing(void)
{
	unsigned int n = registry_count();

	for (unsigned int i = 0; i < n && i < ARRAY_SIZE(listing); i++)
		listing[i] = i;
	qsort(listing, n, sizeof(listing[0]), listing_cmp);
}

static struct crypto_driver *listed_driver(unsigned int i)
{
	return i < registry_count() ? registry_driver(listing[i]) : NULL;
}

/* see cpu_prefers_ymm() in cpu.h; before the policy, which may override */
static void demote_zmm_drivers(void)
{
	if (!cpu_prefers_ymm())
		return;
	for (unsigned int i = 0; i < registry_count(); i++) {
		struct crypto_driver *d = registry_driver(i);

		if (d->features & CPU_FEAT_AVX512F)
			d->priority = 1;
	}
}

static void do_init(void)
{
	struct crypto_registry *reg = crypto_registry_get();
	int err;

	err = policy_init_global(init_error, sizeof(init_error));
	if (err) {
		init_result = err;
		return;
	}
	init_started = 1;
	err = crypto_register_all(reg);
	if (!err && extra_registrar)
		err = extra_registrar(reg);
	if (!err)
		err = crypto_instantiate_templates(reg);
	if (err) {
		snprintf(init_error, sizeof(init_error),
			 "crypto: registering drivers failed: %s", strerror(-err));
		init_result = err;
		return;
	}
	demote_zmm_drivers();
	init_result = policy_apply(policy_get(), init_error, sizeof(init_error));
	sort_listing();
}

int crypto_init(void)
{
	pthread_once(&init_once, do_init);
	return init_result;
}

const char *crypto_init_error(void)
{
	return init_error[0] ? init_error : "no error";
}

static int driver_available(const struct crypto_driver *d)
{
	return cpu_has(d->features);
}

/* run the self-test once; returns 1 if passed */
static int driver_selftest(struct crypto_driver *d)
{
	int ok;

	pthread_mutex_lock(&selftest_lock);
	if (d->selftest == CRYPTO_SELFTEST_UNTESTED) {
		/* a template's children are tested first: they bound ours */
		for (int i = 0; i < CRYPTO_MAX_CHILDREN && d->children[i]; i++) {
			if (d->children[i]->selftest != CRYPTO_SELFTEST_UNTESTED)
				continue;
			pthread_mutex_unlock(&selftest_lock);
			driver_selftest((struct crypto_driver *)d->children[i]);
			pthread_mutex_lock(&selftest_lock);
		}
		if (d->selftest == CRYPTO_SELFTEST_UNTESTED) {
			crypto_selftest_run(d);
			if (d->selftest == CRYPTO_SELFTEST_FAILED)
				log_warn("crypto: driver %s disabled: self-test failed: %s",
					 d->driver_name, d->selftest_reason);
		}
	}
	ok = d->selftest == CRYPTO_SELFTEST_PASSED;
	pthread_mutex_unlock(&selftest_lock);
	return ok;
}

/* d implements alg: its name, or a multi-child instance's kernel-style
 * base name ("hctr2_base(xctr(aes),polyval)" for "hctr2(aes)") */
static int driver_is_alg(const struct crypto_driver *d, const char *alg)
{
	return !strcmp(d->alg_name, alg) || (d->base_name && !strcmp(d->base_name, alg));
}

static int pinned(const struct crypto_driver *d)
{
	const struct crypto_policy *p = policy_get();

	for (unsigned int i = 0; i < p->npins; i++)
		if (!strcmp(p->pins[i], d->driver_name))
			return 1;
	return 0;
}

/* candidates for alg, best first: pinned, then priority */
static struct crypto_driver *find_best(const char *alg, int *err)
{
	const struct crypto_policy *p = policy_get();
	struct crypto_driver *tried[64];
	unsigned int ntried = 0, n = registry_count();
	int seen = 0;

	*err = -ENOENT;
	for (;;) {
		struct crypto_driver *best = NULL;
		int best_rank = INT_MIN;

		for (unsigned int i = 0; i < n; i++) {
			struct crypto_driver *d = registry_driver(i);
			int rank, skip = 0;

			if (!driver_is_alg(d, alg))
				continue;
			seen = 1;
			for (unsigned int j = 0; j < ntried; j++)
				skip |= tried[j] == d;
			if (skip || !driver_available(d) || d->disabled ||
			    d->selftest == CRYPTO_SELFTEST_FAILED)
				continue;
			if (!(d->flags & CRYPTO_F_CONST_TIME) &&
			    !p->allow_variable_time && !pinned(d))
				continue;
			rank = pinned(d) ? INT_MAX : d->priority;
			if (!best || rank > best_rank) {
				best = d;
				best_rank = rank;
			}
		}
		if (!best) {
			if (seen)
				*err = -ENODEV;
			return NULL;
		}
		if (driver_selftest(best))
			return best;
		if (pinned(best))
			log_warn("crypto: pinned driver %s failed its self-test; "
				 "using the next one for %s", best->driver_name, alg);
		if (ntried < ARRAY_SIZE(tried))
			tried[ntried++] = best;
		else
			return NULL;
	}
}

static struct crypto_driver *find_driver(const char *alg, const char *driver,
					 int *err)
{
	struct crypto_driver *d = registry_find_driver(driver);

	if (!d) {
		*err = -ENOENT;
		return NULL;
	}
	if (alg && !driver_is_alg(d, alg)) {
		*err = -ENOENT;
		return NULL;
	}
	if (!driver_available(d)) {
		*err = -ENODEV;
		return NULL;
	}
	if (d->disabled) {
		*err = -EPERM;
		return NULL;
	}
	if (!driver_selftest(d)) {
		*err = -ELIBBAD;
		return NULL;
	}
	return d;
}

const char *crypto_best_driver(const char *alg)
{
	int err;
	struct crypto_driver *d;

	if (crypto_init())
		return NULL;
	d = find_best(alg, &err);
	return d ? d->driver_name : NULL;
}

struct crypto_tfm *crypto_alloc(const char *alg, const char *driver, int *err)
{
	struct crypto_driver *d;
	struct crypto_tfm *tfm;
	int e = crypto_init();

	if (e) {
		*err = e;
		return NULL;
	}
	if (driver)
		d = find_driver(alg, driver, err);
	else if (alg)
		d = find_best(alg, err);
	else
		d = NULL, *err = -EINVAL;
	if (!d)
		return NULL;
	tfm = calloc(1, sizeof(*tfm));
	if (!tfm) {
		*err = -ENOMEM;
		return NULL;
	}
	tfm->drv = d;
	tfm->ctxsize = ctx_align(d->ctxsize ? d->ctxsize : 1);
	/* keys live in locked, undumpable memory (64-byte aligned, zeroed) */
	tfm->ctx = secmem_alloc(tfm->ctxsize);
	if (!tfm->ctx) {
		free(tfm);
		*err = -ENOMEM;
		return NULL;
	}
	/* unkeyed hashes are ready at once; keyed ones after setkey */
	if (d->type == CRYPTO_TYPE_HASH && d->u.hash && !d->u.hash->setkey) {
		d->u.hash->init(tfm->ctx);
		tfm->keyed = 1;
	}
	*err = 0;
	return tfm;
}

void crypto_free(struct crypto_tfm *tfm)
{
	if (!tfm)
		return;
	secmem_free(tfm->ctx); /* wipes */
	free(tfm);
}

const char *crypto_tfm_alg_name(const struct crypto_tfm *tfm)
{
	return tfm->drv->alg_name;
}

const char *crypto_tfm_driver_name(const struct crypto_tfm *tfm)
{
	return tfm->drv->driver_name;
}

static void misuse(const struct crypto_tfm *tfm, const char *what)
{
	fprintf(stderr, "cloakfs: crypto API misuse: %s on %s (%s)\n", what,
		tfm->drv->driver_name, tfm->drv->alg_name);
	abort();
}

static int keysize_ok(const uint16_t *sizes, size_t keylen)
{
	for (int i = 0; i < CRYPTO_MAX_KEYSIZES && sizes[i]; i++)
		if (sizes[i] == keylen)
			return 1;
	return 0;
}

int crypto_setkey(struct crypto_tfm *tfm, const uint8_t *key, size_t keylen)
{
	const struct crypto_driver *d = tfm->drv;
	int err;

	switch (d->type) {
	case CRYPTO_TYPE_CIPHER:
		if (!keysize_ok(d->u.cipher->keysizes, keylen))
			return -EINVAL;
		err = d->u.cipher->setkey(tfm->ctx, key, keylen);
		break;
	case CRYPTO_TYPE_SKCIPHER:
		if (!keysize_ok(d->u.skcipher->keysizes, keylen))
			return -EINVAL;
		err = d->u.skcipher->setkey(tfm, key, keylen);
		break;
	case CRYPTO_TYPE_AEAD:
		if (!keysize_ok(d->u.aead->keysizes, keylen))
			return -EINVAL;
		err = d->u.aead->setkey(tfm, key, keylen);
		break;
	case CRYPTO_TYPE_HASH:
		if (d->u.hash && !d->u.hash->setkey)
			return -EINVAL; /* unkeyed */
		if (d->u.hash) {
			if (!keysize_ok(d->u.hash->keysizes, keylen))
				return -EINVAL;
			err = d->u.hash->setkey(tfm->ctx, key, keylen);
		} else {
			err = hmac_setkey(tfm, key, keylen);
		}
		break;
	default:
		err = -EINVAL;
	}
	tfm->keyed = !err;
	return err;
}

enum crypto_type crypto_tfm_type(const struct crypto_tfm *tfm)
{
	return tfm->drv->type;
}

unsigned int crypto_blocksize(const struct crypto_tfm *tfm)
{
	const struct crypto_driver *d = tfm->drv;

	switch (d->type) {
	case CRYPTO_TYPE_CIPHER:
		return d->u.cipher->blocksize;
	case CRYPTO_TYPE_SKCIPHER:
		return d->u.skcipher->blocksize;
	case CRYPTO_TYPE_HASH:
		return d->u.hash ? d->u.hash->blocksize : d->child->u.hash->blocksize;
	default:
		return 1;
	}
}

unsigned int crypto_ivsize(const struct crypto_tfm *tfm)
{
	const struct crypto_driver *d = tfm->drv;

	if (d->type == CRYPTO_TYPE_SKCIPHER)
		return d->u.skcipher->ivsize;
	if (d->type == CRYPTO_TYPE_AEAD)
		return d->u.aead->noncesize;
	return 0;
}

unsigned int crypto_min_len(const struct crypto_tfm *tfm)
{
	return tfm->drv->type == CRYPTO_TYPE_SKCIPHER ? tfm->drv->u.skcipher->min_len : 0;
}

unsigned int crypto_digestsize(const struct crypto_tfm *tfm)
{
	const struct crypto_driver *d = tfm->drv;

	if (d->type != CRYPTO_TYPE_HASH)
		return 0;
	return d->u.hash ? d->u.hash->digestsize : d->child->u.hash->digestsize;
}

unsigned int crypto_tagsize(const struct crypto_tfm *tfm)
{
	return tfm->drv->type == CRYPTO_TYPE_AEAD ? tfm->drv->u.aead->tagsize : 0;
}

const uint16_t *crypto_keysizes(const struct crypto_tfm *tfm)
{
	static const uint16_t none[CRYPTO_MAX_KEYSIZES];
	const struct crypto_driver *d = tfm->drv;

	switch (d->type) {
	case CRYPTO_TYPE_CIPHER:
		return d->u.cipher->keysizes;
	case CRYPTO_TYPE_SKCIPHER:
		return d->u.skcipher->keysizes;
	case CRYPTO_TYPE_AEAD:
		return d->u.aead->keysizes;
	case CRYPTO_TYPE_HASH:
		return d->u.hash ? d->u.hash->keysizes : none;
	default:
		return none;
	}
}

static void need(const struct crypto_tfm *tfm, enum crypto_type type)
{
	if (tfm->drv->type != type)
		misuse(tfm, "operation of another algorithm type");
	if (!tfm->keyed)
		misuse(tfm, "use before setkey");
}

int crypto_encrypt(struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		   const uint8_t *src, size_t len)
{
	need(tfm, CRYPTO_TYPE_SKCIPHER);
	if (len < tfm->drv->u.skcipher->min_len)
		return -EINVAL;
	return tfm->drv->u.skcipher->encrypt(tfm, iv, dst, src, len);
}

int crypto_decrypt(struct crypto_tfm *tfm, uint8_t *iv, uint8_t *dst,
		   const uint8_t *src, size_t len)
{
	need(tfm, CRYPTO_TYPE_SKCIPHER);
	if (len < tfm->drv->u.skcipher->min_len)
		return -EINVAL;
	return tfm->drv->u.skcipher->decrypt(tfm, iv, dst, src, len);
}

int crypto_xts_tweak(struct crypto_tfm *tfm, const uint8_t *iv, uint8_t *tweak)
{
	need(tfm, CRYPTO_TYPE_SKCIPHER);
	if (!tfm->drv->u.skcipher->xts_tweak)
		return -EINVAL;
	tfm->drv->u.skcipher->xts_tweak(tfm, iv, tweak);
	return 0;
}

int crypto_xts_crypt(struct crypto_tfm *tfm, int enc, uint8_t *tweak,
		     uint8_t *dst, const uint8_t *src, size_t len)
{
	const struct skcipher_alg *a = tfm->drv->u.skcipher;

	need(tfm, CRYPTO_TYPE_SKCIPHER);
	if (!a->xts_crypt || len % a->blocksize)
		return -EINVAL;
	a->xts_crypt(tfm, enc, tweak, dst, src, len);
	return 0;
}

static int cipher_blocks(struct crypto_tfm *tfm, int enc, uint8_t *dst,
			 const uint8_t *src, size_t nblocks)
{
	const struct cipher_alg *c;

	need(tfm, CRYPTO_TYPE_CIPHER);
	c = tfm->drv->u.cipher;
	if (enc && c->encrypt_blocks)
		c->encrypt_blocks(tfm->ctx, dst, src, nblocks);
	else if (!enc && c->decrypt_blocks)
		c->decrypt_blocks(tfm->ctx, dst, src, nblocks);
	else
		for (size_t i = 0; i < nblocks; i++) {
			size_t off = i * c->blocksize;

			(enc ? c->encrypt : c->decrypt)(tfm->ctx, dst + off, src + off);
		}
	return 0;
}

int crypto_cipher_encrypt(struct crypto_tfm *tfm, uint8_t *dst,
			  const uint8_t *src, size_t nblocks)
{
	return cipher_blocks(tfm, 1, dst, src, nblocks);
}

int crypto_cipher_decrypt(struct crypto_tfm *tfm, uint8_t *dst,
			  const uint8_t *src, size_t nblocks)
{
	return cipher_blocks(tfm, 0, dst, src, nblocks);
}

int crypto_hash_init(struct crypto_tfm *tfm)
{
	need(tfm, CRYPTO_TYPE_HASH);
	if (tfm->drv->u.hash)
		tfm->drv->u.hash->init(tfm->ctx);
	else
		hmac_init(tfm);
	return 0;
}

int crypto_hash_update(struct crypto_tfm *tfm, const uint8_t *data, size_t len)
{
	need(tfm, CRYPTO_TYPE_HASH);
	if (tfm->drv->u.hash)
		tfm->drv->u.hash->update(tfm->ctx, data, len);
	else
		hmac_update(tfm, data, len);
	return 0;
}

int crypto_hash_final(struct crypto_tfm *tfm, uint8_t *out)
{
	need(tfm, CRYPTO_TYPE_HASH);
	if (tfm->drv->u.hash) {
		tfm->drv->u.hash->final(tfm->ctx, out);
		/* ready for the next message */
		tfm->drv->u.hash->init(tfm->ctx);
	} else {
		hmac_final(tfm, out);
	}
	return 0;
}

int crypto_hash_digest(struct crypto_tfm *tfm, const uint8_t *data, size_t len,
		       uint8_t *out)
{
	crypto_hash_init(tfm);
	crypto_hash_update(tfm, data, len);
	return crypto_hash_final(tfm, out);
}

int crypto_aead_encrypt(struct crypto_tfm *tfm, const uint8_t *nonce,
			const uint8_t *aad, size_t aadlen, uint8_t *dst,
			const uint8_t *src, size_t len, uint8_t *tag)
{
	need(tfm, CRYPTO_TYPE_AEAD);
	return tfm->drv->u.aead->encrypt(tfm, nonce, aad, aadlen, dst, src, len,
					 tag);
}

int crypto_aead_decrypt(struct crypto_tfm *tfm, const uint8_t *nonce,
			const uint8_t *aad, size_t aadlen, uint8_t *dst,
			const uint8_t *src, size_t len, const uint8_t *tag)
{
	need(tfm, CRYPTO_TYPE_AEAD);
	return tfm->drv->u.aead->decrypt(tfm, nonce, aad, aadlen, dst, src,
					 len, tag);
}

unsigned int crypto_driver_count(void)
{
	return crypto_init() ? 0 : registry_count();
}

int crypto_driver_info(unsigned int i, struct crypto_driver_info *info)
{
	static const char *const st[] = { "untested", "passed", "failed" };
	const struct crypto_driver *d = listed_driver(i);

	if (!d)
		return -ENOENT;
	memset(info, 0, sizeof(*info));
	info->alg_name = d->alg_name;
	info->driver_name = d->driver_name;
	info->priority = d->priority;
	info->const_time = !!(d->flags & CRYPTO_F_CONST_TIME);
	info->available = driver_available(d);
	cpu_feature_names(d->features & ~cpu_features(), info->missing,
			  sizeof(info->missing));
	info->disabled = d->disabled;
	info->selftest = st[d->selftest];
	info->selftest_reason = d->selftest_reason;
	info->type = d->type;
	info->child_driver = d->child ? d->child->driver_name : NULL;
	return 0;
}

int crypto_driver_selftest(unsigned int i)
{
	struct crypto_driver *d = listed_driver(i);

	if (!d)
		return -ENOENT;
	if (!driver_available(d))
		return -ENODEV;
	return driver_selftest(d) ? 0 : -ELIBBAD;
}

int crypto_format_driver_line(unsigned int i, char *buf, size_t len)
{
	struct crypto_driver_info info;
	char reason[sizeof(((struct crypto_driver *)0)->selftest_reason)] = "";
	int n;

	if (crypto_driver_info(i, &info))
		return -ENOENT;
	/* one whitespace-separated token: the reason's spaces become '_' */
	if (!strcmp(info.selftest, "failed")) {
		snprintf(reason, sizeof(reason), "%s", info.selftest_reason);
		for (char *p = reason; *p; p++)
			if (*p == ' ')
				*p = '_';
	}
	n = snprintf(buf, len, "%s %s %d %s selftest=%s%s%s%s%s%s", info.alg_name,
		     info.driver_name, info.priority,
		     info.const_time ? "ct" : "variable-time", info.selftest,
		     info.available ? "" : " missing=", info.missing,
		     info.disabled ? " disabled" : "", reason[0] ? " reason=" : "",
		     reason);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

_Static_assert(CRYPTO_MAX_KEYLEN == ALG_MAX_KEYLEN, "crypto.h and alg.h disagree");

int crypto_kat_run(const char *driver,
		   void (*report)(void *arg, const struct crypto_kat_report *r),
		   void *arg)
{
	if (crypto_init())
		return -EIO;
	return testmgr_kat_run(driver, report, arg);
}
