/* SPDX-License-Identifier: MIT */
/*
 * Driver self-tests, run once per driver before its first use (kernel
 * testmgr style): every known-answer vector registered for the driver's
 * algorithm, encrypt out of place and decrypt in place; drivers with a
 * SIMD core are also compared with the plain C instance of the same mode
 * (over the generic cipher when a fused driver has that instance's name)
 * on a message long enough to reach the core, and hash drivers with
 * their "-generic" driver the same way. A driver with no vectors fails:
 * an untested driver is never used.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/hex.h"
#include "crypto/internal/core.h"
#include "crypto/internal/ct.h"
#include "crypto/kat.h"
#include "crypto/templates/template.h"

#define MAX_SETS 8

/* malloc'ed bytes of a hex string (NULL hex = empty); NULL on bad hex */
static uint8_t *unhex(const char *hex, size_t *len)
{
	size_t n = hex ? strlen(hex) / 2 : 0;
	uint8_t *out = malloc(n + 1);
	long r;

	if (!out)
		return NULL;
	r = hex ? hex_decode_str(hex, out, n, NULL) : 0;
	if (r < 0) {
		free(out);
		return NULL;
	}
	*len = (size_t)r;
	return out;
}

static int fail(struct crypto_driver *drv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(drv->selftest_reason, sizeof(drv->selftest_reason), fmt, ap);
	va_end(ap);
	drv->selftest = CRYPTO_SELFTEST_FAILED;
	return -1;
}

static struct crypto_tfm *tfm_new(const struct crypto_driver *drv)
{
	struct crypto_tfm *tfm = calloc(1, sizeof(*tfm));

	if (!tfm)
		return NULL;
	tfm->drv = drv;
	tfm->ctxsize = ctx_align(drv->ctxsize ? drv->ctxsize : 1);
	tfm->ctx = aligned_alloc(CRYPTO_CTX_ALIGN, tfm->ctxsize);
	if (!tfm->ctx) {
		free(tfm);
		return NULL;
	}
	memset(tfm->ctx, 0, tfm->ctxsize);
	tfm->keyed = 1; /* selftests call setkey themselves */
	return tfm;
}

static void tfm_del(struct crypto_tfm *tfm)
{
	if (!tfm)
		return;
	explicit_bzero(tfm->ctx, tfm->ctxsize);
	free(tfm->ctx);
	free(tfm);
}

struct tv_bytes {
	uint8_t *key, *iv, *pt, *ct, *aad, *tag;
	size_t klen, ivlen, ptlen, ctlen, aadlen, taglen;
};

static void tv_free(struct tv_bytes *b)
{
	free(b->key);
	free(b->iv);
	free(b->pt);
	free(b->ct);
	free(b->aad);
	free(b->tag);
	memset(b, 0, sizeof(*b));
}

/* 1 when klen is one of the driver's key sizes (0-terminated list) */
static int lists_keylen(const uint16_t *sizes, size_t klen)
{
	for (int i = 0; i < CRYPTO_MAX_KEYSIZES && sizes[i]; i++)
		if (sizes[i] == klen)
			return 1;
	return 0;
}

/*
 * 1 = ran, 0 = skipped (key size not listed by this driver), -1 = failed;
 * a setkey that refuses a size the driver lists fails it, so no vector of
 * a listed size (AES-192 under an AES mode) is skipped unnoticed
 */
static int test_cipher_vec(struct crypto_driver *drv, struct crypto_tfm *tfm,
			   const struct cipher_testvec *v, unsigned int idx)
{
	struct tv_bytes b = { 0 };
	uint8_t *out = NULL, iv[CRYPTO_MAX_BLOCKSIZE * 2];
	int ret = -1;

	b.key = unhex(v->key, &b.klen);
	b.iv = unhex(v->iv, &b.ivlen);
	b.pt = unhex(v->ptext, &b.ptlen);
	b.ct = unhex(v->ctext, &b.ctlen);
	if (!b.key || !b.iv || !b.pt || !b.ct || b.ptlen != b.ctlen ||
	    b.ivlen > sizeof(iv)) {
		fail(drv, "vector %u is malformed", idx);
		goto out;
	}
	out = malloc(b.ptlen + 1);
	if (!out) {
		fail(drv, "out of memory");
		goto out;
	}
	if (drv->type == CRYPTO_TYPE_CIPHER) {
		const struct cipher_alg *c = drv->u.cipher;
		size_t nb = b.ptlen / c->blocksize;

		if (!lists_keylen(c->keysizes, b.klen)) {
			ret = 0;
			goto out;
		}
		if (c->setkey(tfm->ctx, b.key, b.klen)) {
			fail(drv, "vector %u: setkey refused its %zu-byte key", idx, b.klen);
			goto out;
		}
		if (b.ptlen % c->blocksize) {
			fail(drv, "vector %u: not whole blocks", idx);
			goto out;
		}
		tmpl_blocks(c, tfm->ctx, 1, out, b.pt, nb);
		if (memcmp(out, b.ct, b.ptlen)) {
			fail(drv, "vector %u: encryption mismatch", idx);
			goto out;
		}
		c->decrypt(tfm->ctx, out, out); /* single-block path too */
		tmpl_blocks(c, tfm->ctx, 0, out + c->blocksize,
				   out + c->blocksize, nb - 1);
		if (memcmp(out, b.pt, b.ptlen)) {
			fail(drv, "vector %u: decryption mismatch", idx);
			goto out;
		}
		ret = 1;
		goto out;
	}
	/* skcipher */
	{
		const struct skcipher_alg *a = drv->u.skcipher;

		if (b.ivlen != a->ivsize) {
			fail(drv, "vector %u: IV length %zu, want %u", idx, b.ivlen,
			     a->ivsize);
			goto out;
		}
		if (!lists_keylen(a->keysizes, b.klen)) {
			ret = 0;
			goto out;
		}
		if (a->setkey(tfm, b.key, b.klen)) {
			fail(drv, "vector %u: setkey refused its %zu-byte key", idx, b.klen);
			goto out;
		}
		memcpy(iv, b.iv, b.ivlen);
		if (a->encrypt(tfm, iv, out, b.pt, b.ptlen) ||
		    memcmp(out, b.ct, b.ptlen)) {
			fail(drv, "vector %u: encryption mismatch", idx);
			goto out;
		}
		memcpy(iv, b.iv, b.ivlen);
		if (a->decrypt(tfm, iv, out, out, b.ptlen) ||
		    memcmp(out, b.pt, b.ptlen)) {
			fail(drv, "vector %u: decryption mismatch", idx);
			goto out;
		}
		ret = 1;
	}
out:
	free(out);
	tv_free(&b);
	return ret;
}

static int test_hash_vec(struct crypto_driver *drv, struct crypto_tfm *tfm,
			 const struct hash_testvec *v, unsigned int idx)
{
	struct tv_bytes b = { 0 };
	uint8_t out[128];
	int ret = -1;
	unsigned long reps = v->repeat ? v->repeat : 1;

	b.key = unhex(v->key, &b.klen);
	b.pt = unhex(v->msg, &b.ptlen);
	b.ct = unhex(v->digest, &b.ctlen);
	if (!b.key || !b.pt || !b.ct || b.ctlen > sizeof(out)) {
		fail(drv, "vector %u is malformed", idx);
		goto out;
	}
	if (drv->u.hash && drv->u.hash->setkey) {
		/* keyed hash (ghash, polyval): setkey starts the message */
		if (!v->key || drv->u.hash->setkey(tfm->ctx, b.key, b.klen)) {
			fail(drv, "vector %u: setkey failed", idx);
			goto out;
		}
		for (unsigned long r = 0; r < reps; r++)
			drv->u.hash->update(tfm->ctx, b.pt, b.ptlen);
		drv->u.hash->final(tfm->ctx, out);
	} else if (drv->u.hash) {
		if (v->key) {
			ret = 0; /* keyed vector, unkeyed driver */
			goto out;
		}
		drv->u.hash->init(tfm->ctx);
		for (unsigned long r = 0; r < reps; r++)
			drv->u.hash->update(tfm->ctx, b.pt, b.ptlen);
		drv->u.hash->final(tfm->ctx, out);
	} else {
		if (!v->key || hmac_setkey(tfm, b.key, b.klen)) {
			fail(drv, "vector %u: setkey failed", idx);
			goto out;
		}
		hmac_init(tfm);
		for (unsigned long r = 0; r < reps; r++)
			hmac_update(tfm, b.pt, b.ptlen);
		hmac_final(tfm, out);
	}
	/* a vector may give a truncated digest (RFC 4231 case 5) */
	if (memcmp(out, b.ct, b.ctlen)) {
		fail(drv, "vector %u: digest mismatch", idx);
		goto out;
	}
	ret = 1;
out:
	tv_free(&b);
	return ret;
}

static int test_aead_vec(struct crypto_driver *drv, struct crypto_tfm *tfm,
			 const struct aead_testvec *v, unsigned int idx)
{
	const struct aead_alg *a = drv->u.aead;
	struct tv_bytes b = { 0 };
	uint8_t *out = NULL, tag[64];
	int ret = -1;

	b.key = unhex(v->key, &b.klen);
	b.iv = unhex(v->nonce, &b.ivlen);
	b.aad = unhex(v->aad, &b.aadlen);
	b.pt = unhex(v->ptext, &b.ptlen);
	b.ct = unhex(v->ctext, &b.ctlen);
	b.tag = unhex(v->tag, &b.taglen);
	if (!b.key || !b.iv || !b.aad || !b.pt || !b.ct || !b.tag ||
	    (v->invalid ? v->ptext != NULL : b.ptlen != b.ctlen) ||
	    b.taglen != a->tagsize || b.ivlen != a->noncesize) {
		fail(drv, "vector %u is malformed", idx);
		goto out;
	}
	if (!lists_keylen(a->keysizes, b.klen)) {
		ret = 0;
		goto out;
	}
	out = malloc(b.ctlen + 1);
	if (!out || a->setkey(tfm, b.key, b.klen)) {
		fail(drv, "vector %u: setkey failed", idx);
		goto out;
	}
	if (v->invalid) {
		/* a published forgery: refused, nothing released */
		memset(out, 0xa5, b.ctlen);
		if (a->decrypt(tfm, b.iv, b.aad, b.aadlen, out, b.ct, b.ctlen,
			       b.tag) != -EBADMSG || !ct_is_zero(out, b.ctlen)) {
			fail(drv, "vector %u: forgery accepted", idx);
			goto out;
		}
		ret = 1;
		goto out;
	}
	if (a->encrypt(tfm, b.iv, b.aad, b.aadlen, out, b.pt, b.ptlen, tag) ||
	    memcmp(out, b.ct, b.ptlen) || memcmp(tag, b.tag, b.taglen)) {
		fail(drv, "vector %u: encryption mismatch", idx);
		goto out;
	}
	if (a->decrypt(tfm, b.iv, b.aad, b.aadlen, out, out, b.ptlen, b.tag) ||
	    memcmp(out, b.pt, b.ptlen)) {
		fail(drv, "vector %u: decryption mismatch", idx);
		goto out;
	}
	memcpy(tag, b.tag, b.taglen);
	tag[0] ^= 1;
	if (a->decrypt(tfm, b.iv, b.aad, b.aadlen, out, b.ct, b.ptlen, tag) !=
	    -EBADMSG) {
		fail(drv, "vector %u: forged tag accepted", idx);
		goto out;
	}
	ret = 1;
out:
	free(out);
	tv_free(&b);
	return ret;
}

/*
 * SIMD instance vs the C instance of the same mode over the same child,
 * or over the generic cipher when the SIMD instance holds that name
 */
static int test_vs_generic(struct crypto_driver *drv, struct crypto_tfm *tfm)
{
	const struct skcipher_alg *a = drv->u.skcipher;
	char mode[16], name[128];
	const char *paren = strchr(drv->alg_name, '(');
	const struct crypto_driver *ref;
	struct crypto_tfm *rt = NULL;
	size_t len = 4096 + 3 * 512 + 13, klen = a->keysizes[0];
	uint8_t *buf = malloc(3 * len), key[64], iv[32], iv2[32];
	uint32_t x = 0x9e3779b9;
	int ret = -1;

	if (!paren || (size_t)(paren - drv->alg_name) >= sizeof(mode) || !buf)
		goto out;
	memcpy(mode, drv->alg_name, (size_t)(paren - drv->alg_name));
	mode[paren - drv->alg_name] = '\0';
	snprintf(name, sizeof(name), "%s-%s", mode, drv->child->driver_name);
	ref = registry_find_driver(name);
	if (ref == drv) {
		/*
		 * a SIMD instance named like the plain instance ("xts-aes-ce"
		 * over aes-ce): compare with the one over the generic cipher
		 */
		snprintf(name, sizeof(name), "%s-%s-generic", mode,
			 drv->child->alg_name);
		ref = registry_find_driver(name);
	}
	if (!ref || ref == drv) {
		ret = 0; /* nothing to compare with */
		goto out;
	}
	rt = tfm_new(ref);
	if (!rt)
		goto out;
	if (a->blocksize > 1 && strcmp(mode, "xts"))
		len -= len % a->blocksize;
	for (size_t i = 0; i < 3 * len; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		buf[i] = (uint8_t)x;
	}
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1);
	for (size_t i = 0; i < sizeof(iv); i++)
		iv[i] = (uint8_t)(i * 3);
	if (a->setkey(tfm, key, klen) || ref->u.skcipher->setkey(rt, key, klen))
		goto out;
	for (int enc = 0; enc < 2; enc++) {
		memcpy(iv2, iv, sizeof(iv));
		(enc ? a->encrypt : a->decrypt)(tfm, iv2, buf + len, buf, len);
		memcpy(iv2, iv, sizeof(iv));
		(enc ? ref->u.skcipher->encrypt : ref->u.skcipher->decrypt)(
			rt, iv2, buf + 2 * len, buf, len);
		if (memcmp(buf + len, buf + 2 * len, len))
			goto out;
	}
	ret = 1;
out:
	if (ret < 0)
		fail(drv, "differs from %s on a %zu-byte message", name, len);
	tfm_del(rt);
	free(buf);
	return ret;
}

/*
 * A hash driver (SIMD block function) against "<alg>-generic" on a
 * message long enough for the widest core's steps, in one update: the
 * standard vectors are mostly shorter than one step (GHASH's longest is
 * 7 blocks; a POLYVAL core takes 16 at a time).
 */
static int test_hash_vs_generic(struct crypto_driver *drv)
{
	const struct hash_alg *h = drv->u.hash, *rh;
	const struct crypto_driver *ref;
	struct crypto_tfm *t = NULL, *rt = NULL;
	size_t len = 2048 + 16 * 3 + 13;
	uint8_t *buf = malloc(len), key[ALG_MAX_KEYLEN], d1[64], d2[64];
	uint32_t x = 0x2545f491;
	char name[96];
	int ret = -1;

	snprintf(name, sizeof(name), "%s-generic", drv->alg_name);
	ref = registry_find_driver(name);
	if (!ref || ref == drv || ref->type != CRYPTO_TYPE_HASH || !ref->u.hash) {
		free(buf);
		return 0; /* nothing to compare with */
	}
	rh = ref->u.hash;
	t = tfm_new(drv);
	rt = tfm_new(ref);
	if (!buf || !t || !rt || h->digestsize > sizeof(d1))
		goto out;
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		buf[i] = (uint8_t)x;
	}
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 11 + 3);
	if (h->setkey) {
		if (h->setkey(t->ctx, key, h->keysizes[0]) ||
		    rh->setkey(rt->ctx, key, h->keysizes[0]))
			goto out;
	} else {
		h->init(t->ctx);
		rh->init(rt->ctx);
	}
	h->update(t->ctx, buf, len);
	rh->update(rt->ctx, buf, len);
	h->final(t->ctx, d1);
	rh->final(rt->ctx, d2);
	ret = memcmp(d1, d2, h->digestsize) ? -1 : 1;
out:
	if (ret < 0)
		fail(drv, "differs from %s on a %zu-byte message", name, len);
	tfm_del(t);
	tfm_del(rt);
	free(buf);
	return ret;
}

/*
 * A template instance with no vectors of its own (cbc(speck128): no
 * standard publishes one) is trusted when its child passed its vectors
 * and the same template passed standard vectors over another cipher; a
 * SIMD instance must also match that generic instance.
 */
static void template_selftest(struct crypto_driver *drv)
{
	const struct crypto_testvecs *sets[MAX_SETS];
	const char *paren = strchr(drv->alg_name, '(');
	size_t plen = paren ? (size_t)(paren - drv->alg_name) + 1 : 0;
	unsigned int n = registry_count();

	/* a multi-child instance is never trusted from another's vectors */
	if (!drv->child || drv->children[1] || drv->type != CRYPTO_TYPE_SKCIPHER ||
	    !plen) {
		fail(drv, "no test vectors for %s", drv->alg_name);
		return;
	}
	if (drv->child->selftest != CRYPTO_SELFTEST_PASSED) {
		fail(drv, "child %s has not passed its self-test",
		     drv->child->driver_name);
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct crypto_driver *o = registry_driver(i);

		if (o == drv || o->bulk || !o->child || o->type != drv->type ||
		    strncmp(o->alg_name, drv->alg_name, plen) ||
		    !(o->child->flags & CRYPTO_F_CONST_TIME) ||
		    !crypto_find_testvecs(o->alg_name, sets, MAX_SETS))
			continue;
		if (o->child->selftest == CRYPTO_SELFTEST_UNTESTED)
			crypto_selftest_run((struct crypto_driver *)o->child);
		if (o->selftest == CRYPTO_SELFTEST_UNTESTED)
			crypto_selftest_run(o);
		if (o->selftest != CRYPTO_SELFTEST_PASSED)
			continue;
		if (drv->bulk) {
			struct crypto_tfm *tfm = tfm_new(drv);
			int r = tfm ? test_vs_generic(drv, tfm) : -1;

			tfm_del(tfm);
			if (r < 0) {
				if (drv->selftest != CRYPTO_SELFTEST_FAILED)
					fail(drv, "out of memory");
				return;
			}
		}
		drv->selftest = CRYPTO_SELFTEST_PASSED;
		snprintf(drv->selftest_reason, sizeof(drv->selftest_reason),
			 "no vectors of its own; template checked on %s", o->driver_name);
		return;
	}
	fail(drv, "no test vectors for %s", drv->alg_name);
}

void crypto_selftest_run(struct crypto_driver *drv)
{
	const struct crypto_testvecs *sets[MAX_SETS];
	unsigned int nsets = crypto_find_testvecs(drv->alg_name, sets, MAX_SETS);
	unsigned int ran = 0, idx = 0;
	struct crypto_tfm *tfm;

	for (int i = 0; i < CRYPTO_MAX_CHILDREN && drv->children[i]; i++) {
		if (drv->children[i]->selftest == CRYPTO_SELFTEST_FAILED) {
			fail(drv, "child %s failed its self-test",
			     drv->children[i]->driver_name);
			return;
		}
	}
	if (!nsets) {
		template_selftest(drv);
		return;
	}
	tfm = tfm_new(drv);
	if (!tfm) {
		fail(drv, "out of memory");
		return;
	}
	for (unsigned int s = 0; s < nsets; s++) {
		for (unsigned int i = 0; i < sets[s]->count; i++, idx++) {
			int r = -1;

			switch (drv->type) {
			case CRYPTO_TYPE_CIPHER:
			case CRYPTO_TYPE_SKCIPHER:
				r = sets[s]->cipher ?
					test_cipher_vec(drv, tfm, &sets[s]->cipher[i], idx) :
					fail(drv, "vector set of the wrong kind");
				break;
			case CRYPTO_TYPE_HASH:
				r = sets[s]->hash ?
					test_hash_vec(drv, tfm, &sets[s]->hash[i], idx) :
					fail(drv, "vector set of the wrong kind");
				break;
			case CRYPTO_TYPE_AEAD:
				r = sets[s]->aead ?
					test_aead_vec(drv, tfm, &sets[s]->aead[i], idx) :
					fail(drv, "vector set of the wrong kind");
				break;
			}
			if (r < 0)
				goto out;
			ran += (unsigned int)r;
		}
	}
	if (!ran) {
		fail(drv, "no vector has a key size this driver takes");
		goto out;
	}
	if (drv->type == CRYPTO_TYPE_SKCIPHER && drv->bulk &&
	    test_vs_generic(drv, tfm) < 0)
		goto out;
	if (drv->type == CRYPTO_TYPE_HASH && drv->u.hash &&
	    test_hash_vs_generic(drv) < 0)
		goto out;
	drv->selftest = CRYPTO_SELFTEST_PASSED;
	snprintf(drv->selftest_reason, sizeof(drv->selftest_reason), "%s", "");
out:
	tfm_del(tfm);
}

/* message bytes of vector i of set tv, as crypto_kat_report gives them */
static size_t kat_len(const struct crypto_testvecs *tv, unsigned int i)
{
	const char *hex = tv->cipher ? tv->cipher[i].ptext :
			  tv->aead ? tv->aead[i].ptext : tv->hash[i].msg;
	size_t n = hex ? strlen(hex) / 2 : 0;

	if (!tv->cipher && !tv->aead && tv->hash[i].repeat)
		n *= tv->hash[i].repeat;
	return n;
}

int testmgr_kat_run(const char *driver,
		    void (*report)(void *arg, const struct crypto_kat_report *r),
		    void *arg)
{
	const struct crypto_testvecs *sets[MAX_SETS];
	const struct crypto_driver *d;
	struct crypto_driver copy;
	unsigned int nsets;
	int ret = 0;

	d = registry_find_driver(driver);
	if (!d)
		return -ENOENT;
	if (!cpu_has(d->features))
		return -ENODEV;
	nsets = crypto_find_testvecs(d->alg_name, sets, MAX_SETS);
	if (!nsets)
		return -ENODATA;
	for (unsigned int s = 0; s < nsets; s++) {
		for (unsigned int i = 0; i < sets[s]->count; i++) {
			struct crypto_kat_report r = {
				.alg_name = d->alg_name, .source = sets[s]->source,
				.index = i, .len = kat_len(sets[s], i), .status = -1,
			};
			struct crypto_tfm *tfm;

			/* a copy, so a failure is reported and not recorded */
			copy = *d;
			copy.selftest_reason[0] = '\0';
			tfm = tfm_new(&copy);
			if (!tfm) {
				fail(&copy, "out of memory");
			} else if (d->type == CRYPTO_TYPE_HASH && sets[s]->hash) {
				r.status = test_hash_vec(&copy, tfm, &sets[s]->hash[i], i);
			} else if (d->type == CRYPTO_TYPE_AEAD && sets[s]->aead) {
				r.status = test_aead_vec(&copy, tfm, &sets[s]->aead[i], i);
			} else if ((d->type == CRYPTO_TYPE_CIPHER ||
				    d->type == CRYPTO_TYPE_SKCIPHER) && sets[s]->cipher) {
				r.status = test_cipher_vec(&copy, tfm, &sets[s]->cipher[i], i);
			} else {
				fail(&copy, "vector set of the wrong kind");
			}
			tfm_del(tfm);
			r.reason = r.status < 0 ? copy.selftest_reason : "";
			if (r.status < 0)
				ret = -EBADMSG;
			report(arg, &r);
		}
	}
	return ret;
}
