/* SPDX-License-Identifier: MIT */
/* see keyslot.h */
#include "volume/keys/keyslot.h"

#include <errno.h>
#include <math.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/errmsg.h"
#include "crypto/crypto.h"
#include "volume/names/namemode.h"
#include "volume/random.h"
#include "crypto/secmem.h"

#define AEAD_ALG "rfc7539(chacha20,poly1305)"
#define AAD_MAGIC "cloakfs keyslot" /* + its NUL: 16 bytes */

static int cost_ok(const struct keyslot_cost *c)
{
	return keyslot_cost_check(c, NULL, 0) == 0;
}

int keyslot_cost_check(const struct keyslot_cost *c, char *why, size_t len)
{
	if (c->opslimit < VOLCONF_MIN_OPSLIMIT || c->opslimit > VOLCONF_MAX_OPSLIMIT)
		return seterr(why, len, -EINVAL, "opslimit %llu is out of range",
			      (unsigned long long)c->opslimit);
	if (c->memlimit < VOLCONF_MIN_MEMLIMIT || c->memlimit > VOLCONF_MAX_MEMLIMIT ||
	    c->memlimit % 1024)
		return seterr(why, len, -EINVAL, "memlimit %llu is out of range",
			      (unsigned long long)c->memlimit);
	if (c->memlimit > KEYSLOT_MAX_MEMLIMIT)
		return seterr(why, len, -E2BIG, "memlimit %llu is above the "
			      "ceiling of %llu (1 GiB; docs/format.md, Cost "
			      "ceiling)", (unsigned long long)c->memlimit,
			      KEYSLOT_MAX_MEMLIMIT);
	/* memlimit >= 8192, so the product cannot overflow below this */
	if (c->opslimit > KEYSLOT_MAX_WORK / c->memlimit)
		return seterr(why, len, -E2BIG, "opslimit %llu is above the "
			      "ceiling of %llu at memlimit %llu (opslimit x "
			      "memlimit at most 8 GiB; docs/format.md, Cost "
			      "ceiling)", (unsigned long long)c->opslimit,
			      KEYSLOT_MAX_WORK / c->memlimit,
			      (unsigned long long)c->memlimit);
	return 0;
}

/* KEK = Argon2id13(pass, salt, cost): 0, -ENOMEM, -EINVAL */
static int derive_kek(const char *pass, size_t passlen,
		      const uint8_t salt[VOLCONF_SALT_SIZE],
		      const struct keyslot_cost *cost, uint8_t *kek)
{
	if (sodium_init() < 0)
		return -ENOMEM;
	if (!cost_ok(cost) || cost->memlimit > SIZE_MAX ||
	    passlen > crypto_pwhash_PASSWD_MAX)
		return -EINVAL;
	if (crypto_pwhash(kek, KEYSLOT_KEK_SIZE, pass, passlen, salt,
			  cost->opslimit, (size_t)cost->memlimit,
			  crypto_pwhash_ALG_ARGON2ID13) != 0)
		return -ENOMEM; /* libsodium fails only to allocate */
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* seconds for one Argon2id run at cost; < 0 is -errno */
static double time_kdf(const struct keyslot_cost *cost)
{
	static const char pass[] = "calibration";
	uint8_t salt[VOLCONF_SALT_SIZE] = { 0 }, *kek;
	double t0, t1;
	int err;

	kek = secmem_alloc(KEYSLOT_KEK_SIZE);
	if (!kek)
		return -ENOMEM;
	t0 = now_seconds();
	err = derive_kek(pass, sizeof(pass) - 1, salt, cost, kek);
	t1 = now_seconds();
	secmem_free(kek);
	return err ? err : t1 - t0;
}

int keyslot_calibrate(double seconds, uint64_t memlimit,
		      struct keyslot_cost *out)
{
	struct keyslot_cost c1 = { 1, memlimit }, c2 = { 2, memlimit };
	double t1, t2, per_pass, fixed, ops, max_ops;

	if (!(seconds > 0 && seconds <= 3600) || !cost_ok(&c1))
		return -EINVAL;
	/* the ceiling holds for what init writes too */
	max_ops = KEYSLOT_MAX_WORK / memlimit;
	/* the first pass also allocates and fills: time 1 and 2 passes */
	t1 = time_kdf(&c1);
	if (t1 < 0)
		return (int)t1;
	t2 = time_kdf(&c2);
	if (t2 < 0)
		return (int)t2;
	per_pass = t2 - t1;
	if (per_pass <= t1 / 4) /* noise: assume passes cost the same */
		per_pass = t1;
	fixed = t1 > per_pass ? t1 - per_pass : 0;
	ops = floor((seconds - fixed) / per_pass);
	if (!(ops >= 1))
		ops = 1;
	if (ops > max_ops)
		ops = max_ops;
	out->opslimit = (uint64_t)ops;
	out->memlimit = memlimit;
	return 0;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static size_t put_str8(uint8_t *p, const char *s)
{
	size_t n = strlen(s);

	p[0] = (uint8_t)n;
	memcpy(p + 1, s, n);
	return n + 1;
}

/* the AAD with version in its version field */
static size_t aad_of(const struct volume_config *c, unsigned int version,
		     uint8_t out[KEYSLOT_AAD_MAX])
{
	size_t o = 0;

	memcpy(out, AAD_MAGIC, sizeof(AAD_MAGIC)); /* with the NUL */
	o += sizeof(AAD_MAGIC);
	put_le32(out + o, version);
	o += 4;
	if (volconf_uuid_bytes(c->uuid, out + o) != 0)
		memset(out + o, 0, 16); /* never opens: validate refuses it */
	o += 16;
	o += put_str8(out + o, volume_cipher_info(c->cipher)->name);
	o += put_str8(out + o, namemode_name(c->names));
	put_le32(out + o, c->sector_size);
	o += 4;
	put_le32(out + o, c->name_max);
	o += 4;
	memcpy(out + o, c->key_id, VOLCONF_KEY_ID_SIZE);
	o += VOLCONF_KEY_ID_SIZE;
	/* features: a count, then each name as put_str8; none defined yet */
	out[o++] = 0;
	return o;
}

size_t keyslot_aad(const struct volume_config *c, uint8_t out[KEYSLOT_AAD_MAX])
{
	return aad_of(c, c->version, out);
}

/* a slot sealed before an upgrade binds the version it was sealed under */
static size_t slot_aad(const struct volume_config *c,
		       const struct volconf_keyslot *s,
		       uint8_t out[KEYSLOT_AAD_MAX])
{
	return aad_of(c, s->aad_version ? s->aad_version : c->version, out);
}

/* the AEAD keyed with the KEK of (pass, salt, cost) */
static struct crypto_tfm *aead_for(const char *pass, size_t passlen,
				   const uint8_t *salt,
				   const struct keyslot_cost *cost, int *err)
{
	struct crypto_tfm *aead;
	uint8_t *kek = secmem_alloc(KEYSLOT_KEK_SIZE);

	if (!kek) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = derive_kek(pass, passlen, salt, cost, kek);
	aead = *err ? NULL : crypto_alloc(AEAD_ALG, NULL, err);
	if (aead) {
		*err = crypto_setkey(aead, kek, KEYSLOT_KEK_SIZE);
		if (*err) {
			crypto_free(aead);
			aead = NULL;
		}
	}
	secmem_free(kek);
	return aead;
}

int keyslot_add(struct volume_config *c, const char *pass, size_t passlen,
		const struct keyslot_cost *cost,
		const uint8_t vmk[VOLCONF_VMK_SIZE])
{
	unsigned int i = 0;

	while (i < VOLCONF_MAX_KEYSLOTS && c->slots[i].used)
		i++; /* the lowest free slot: a removed one is reused */
	if (i >= VOLCONF_MAX_KEYSLOTS)
		return -ENOSPC;
	return keyslot_seal(c, i, pass, passlen, cost, vmk);
}

int keyslot_seal(struct volume_config *c, unsigned int i, const char *pass,
		 size_t passlen, const struct keyslot_cost *cost,
		 const uint8_t vmk[VOLCONF_VMK_SIZE])
{
	struct volconf_keyslot s = { 0 };
	uint8_t aad[KEYSLOT_AAD_MAX];
	struct crypto_tfm *aead;
	size_t aadlen;
	int err;

	if (i >= VOLCONF_MAX_KEYSLOTS)
		return -ENOENT;
	if (passlen == 0 || !cost_ok(cost))
		return -EINVAL;
	err = random_bytes(s.salt, sizeof(s.salt));
	if (!err)
		err = random_bytes(s.nonce, sizeof(s.nonce));
	if (err)
		return err;
	s.opslimit = cost->opslimit;
	s.memlimit = cost->memlimit;
	aead = aead_for(pass, passlen, s.salt, cost, &err);
	if (!aead)
		return err;
	aadlen = keyslot_aad(c, aad);
	err = crypto_aead_encrypt(aead, s.nonce, aad, aadlen, s.sealed, vmk,
				  VOLCONF_VMK_SIZE, s.sealed + VOLCONF_VMK_SIZE);
	crypto_free(aead);
	if (err)
		return err;
	s.used = 1;
	c->slots[i] = s;
	return (int)i;
}

int keyslot_remove(struct volume_config *c, unsigned int slot)
{
	if (slot >= VOLCONF_MAX_KEYSLOTS || !c->slots[slot].used)
		return -ENOENT;
	if (volconf_slot_count(c) == 1)
		return -EBUSY;
	/* the slot stays free: the others keep their numbers (scripts name
	 * slots by number, as with LUKS) */
	explicit_bzero(&c->slots[slot], sizeof(c->slots[slot]));
	return 0;
}

int keyslot_open_slot(const struct volume_config *c, unsigned int slot,
		      const char *pass, size_t passlen,
		      uint8_t vmk[VOLCONF_VMK_SIZE])
{
	const struct volconf_keyslot *s;
	struct keyslot_cost cost;
	uint8_t aad[KEYSLOT_AAD_MAX];
	struct crypto_tfm *aead;
	size_t aadlen;
	int err;

	if (slot >= VOLCONF_MAX_KEYSLOTS || !c->slots[slot].used)
		return -ENOENT;
	s = &c->slots[slot];
	cost.opslimit = s->opslimit;
	cost.memlimit = s->memlimit;
	if (keyslot_cost_check(&cost, NULL, 0) == -E2BIG)
		return -E2BIG; /* before any work */
	aead = aead_for(pass, passlen, s->salt, &cost, &err);
	if (!aead)
		return err;
	aadlen = slot_aad(c, s, aad);
	err = crypto_aead_decrypt(aead, s->nonce, aad, aadlen, vmk, s->sealed,
				  VOLCONF_VMK_SIZE, s->sealed + VOLCONF_VMK_SIZE);
	crypto_free(aead);
	secmem_scrub_stack();
	if (err) {
		explicit_bzero(vmk, VOLCONF_VMK_SIZE);
		return err == -EBADMSG ? -EACCES : err;
	}
	return 0;
}

/* the cost of a slot, checked against the ceiling; why names the field */
static int slot_cost_check(const struct volconf_keyslot *s, char *why, size_t len)
{
	struct keyslot_cost cost = { s->opslimit, s->memlimit };

	return keyslot_cost_check(&cost, why, len);
}

int keyslot_open(const struct volume_config *c, const char *pass,
		 size_t passlen, uint8_t vmk[VOLCONF_VMK_SIZE], char *err,
		 size_t errlen)
{
	char note[512] = "", why[192];
	bool aside[VOLCONF_MAX_KEYSLOTS] = { false };
	int first_err = 0;
	unsigned int err_slot = 0;
	size_t n;

	/* first, without running anything: slots above the ceiling */
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		if (!c->slots[i].used ||
		    slot_cost_check(&c->slots[i], why, sizeof(why)) != -E2BIG)
			continue;
		aside[i] = true;
		n = strlen(note);
		snprintf(note + n, sizeof(note) - n, "%skeyslot %u not tried: %s",
			 n ? "; " : "", i, why);
	}
	seterr(err, errlen, 0, "%s", note);
	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		int rc;

		if (!c->slots[i].used || aside[i])
			continue;
		rc = keyslot_open_slot(c, i, pass, passlen, vmk);
		if (rc == 0)
			return (int)i;
		/* a slot this machine cannot run (memory) must not hide a
		 * later one that opens */
		if (rc != -EACCES && !first_err) {
			first_err = rc;
			err_slot = i;
		}
	}
	if (first_err)
		return seterr(err, errlen, first_err,
			      "no keyslot opened; keyslot %u failed: %s%s%s", err_slot,
			      strerror(-first_err), *note ? "; " : "", note);
	if (*note)
		return seterr(err, errlen, -E2BIG, "no keyslot opened; %s", note);
	return seterr(err, errlen, -EACCES, "wrong passphrase (no keyslot opened)");
}
