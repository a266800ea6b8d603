/* SPDX-License-Identifier: MIT */
/*
 * The cipher of a new volume when init is given no --cipher
 * (docs/format.md section 3, "Choosing a cipher"), or --integrity:
 *   - --integrity: aes256-gcm where a hardware, constant-time gcm(aes)
 *     driver runs (AES and carry-less multiply instructions), else
 *     xchacha20-poly1305, whose portable C is constant time and fast;
 *   - aes256-xts where a hardware, constant-time xts(aes) driver runs
 *     (AES-NI, ARMv8 CE: priority 300 and up by our convention);
 *   - else adiantum or speck128-xts, whichever encrypts a 4 KiB sector
 *     faster on this CPU, measured here: both are constant time in
 *     portable C, and which one wins depends on the core (Adiantum on the
 *     in-order ARMv7 cores it was made for, Speck where it has a SIMD
 *     driver and ChaCha does not). Each runs a few dozen sectors
 *     interleaved, the fastest run counting: a few ms at most, and a
 *     busy CPU slows both alike.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "crypto/crypto.h"
#include "tools/keytool.h"

#define RACE_SECTOR 4096
#define RACE_ROUNDS 6
#define RACE_PER_ROUND 8

/* the driver crypto_alloc(alg, NULL) would pick: true and *info set */
static bool best_driver(const char *alg, struct crypto_driver_info *info)
{
	const char *best = crypto_best_driver(alg);
	unsigned int n = crypto_driver_count();

	for (unsigned int i = 0; best && i < n; i++)
		if (crypto_driver_info(i, info) == 0 &&
		    strcmp(info->driver_name, best) == 0)
			return true;
	return false;
}

static double now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct racer {
	enum volume_cipher cipher;
	struct crypto_tfm *tfm;
	double best; /* seconds per sector, fastest round */
};

/* key it (any fixed key: nothing secret is encrypted) and warm it up */
static int racer_start(struct racer *r, uint8_t *buf)
{
	const struct volume_cipher_info *ci = volume_cipher_info(r->cipher);
	uint8_t key[64], iv[32] = { 0 };
	int err;

	memset(key, 0x5a, sizeof(key));
	r->best = -1;
	r->tfm = crypto_alloc(volume_cipher_contents_alg(ci), NULL, &err);
	if (!r->tfm)
		return err;
	err = crypto_setkey(r->tfm, key, volume_cipher_contents_keysize(ci));
	if (!err) /* the first use runs the driver's self-test: not timed */
		err = crypto_encrypt(r->tfm, iv, buf, buf, RACE_SECTOR);
	return err;
}

static int racer_round(struct racer *r, uint8_t *buf)
{
	uint8_t iv[32] = { 0 };
	double t0 = now(), t;
	int err = 0;

	for (int i = 0; !err && i < RACE_PER_ROUND; i++)
		err = crypto_encrypt(r->tfm, iv, buf, buf, RACE_SECTOR);
	t = (now() - t0) / RACE_PER_ROUND;
	if (!err && t0 >= 0 && t > 0 && (r->best < 0 || t < r->best))
		r->best = t;
	return err;
}

/* 0 and both best times set, or -errno */
static int race(struct racer *a, struct racer *b)
{
	static uint8_t buf[RACE_SECTOR];
	int err = racer_start(a, buf);

	if (!err)
		err = racer_start(b, buf);
	for (int i = 0; !err && i < RACE_ROUNDS; i++) {
		err = racer_round(a, buf);
		if (!err)
			err = racer_round(b, buf);
	}
	if (!err && (a->best < 0 || b->best < 0))
		err = -EIO; /* no clock */
	crypto_free(a->tfm);
	crypto_free(b->tfm);
	return err;
}

enum volume_cipher kt_default_cipher(char *why, size_t len)
{
	struct racer adi = { VOLUME_CIPHER_ADIANTUM, NULL, -1 };
	struct racer speck = { VOLUME_CIPHER_SPECK128_XTS, NULL, -1 };
	const char *adi_alg = volume_cipher_info(adi.cipher)->wide_alg;
	struct crypto_driver_info info;

	if (best_driver("xts(aes)", &info) && info.priority >= 300 &&
	    info.const_time) {
		snprintf(why, len, "AES instructions");
		return VOLUME_CIPHER_AES256_XTS;
	}
	if (!best_driver(adi_alg, &info) || !info.const_time ||
	    !crypto_best_driver(volume_cipher_info(adi.cipher)->cts_alg)) {
		snprintf(why, len, "no AES instructions, no constant-time %s",
			 adi_alg);
		return VOLUME_CIPHER_SPECK128_XTS;
	}
	if (!crypto_best_driver(volume_cipher_info(speck.cipher)->xts_alg)) {
		snprintf(why, len, "no AES instructions, no xts(speck128)");
		return VOLUME_CIPHER_ADIANTUM;
	}
	if (race(&adi, &speck)) {
		snprintf(why, len, "no AES instructions, could not time %s",
			 adi_alg);
		return VOLUME_CIPHER_SPECK128_XTS;
	}
	snprintf(why, len, "no AES instructions; 4 KiB sectors: adiantum "
		 "%.0f MB/s, speck128-xts %.0f MB/s",
		 RACE_SECTOR / adi.best / 1e6, RACE_SECTOR / speck.best / 1e6);
	return adi.best < speck.best ? VOLUME_CIPHER_ADIANTUM
				     : VOLUME_CIPHER_SPECK128_XTS;
}

enum volume_cipher kt_integrity_cipher(char *why, size_t len)
{
	const char *gcm = volume_cipher_info(VOLUME_CIPHER_AES256_GCM)->aead_alg;
	struct crypto_driver_info info;

	if (best_driver(gcm, &info) && info.priority >= 300 && info.const_time) {
		snprintf(why, len, "--integrity: AES instructions (%s)",
			 info.driver_name);
		return VOLUME_CIPHER_AES256_GCM;
	}
	snprintf(why, len, "--integrity: no hardware constant-time %s", gcm);
	return VOLUME_CIPHER_XCHACHA20_POLY1305;
}
