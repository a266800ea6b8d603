/* SPDX-License-Identifier: MIT */
/*
 * keyslot.h and volume.h: calibration, seal/open, slot management, the
 * byte-exact AAD, and tampering: changing any field of cloakfs.conf must
 * make unlock fail (never open with a silently different meaning).
 * Argon2id runs at 8 MiB, opslimit 1-2, so the test stays fast.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/volume/voltest.h"
#include "volume/keys/volconf.h"
#include "volume/keys/keyslot.h"
#include "volume/volume.h"

static const struct keyslot_cost fast = { 1, 8u << 20 };

static void test_calibrate(void)
{
	struct keyslot_cost c;
	struct volume_config cfg;
	uint8_t vmk[64] = { 1 };
	struct timespec t0, t1;
	double took;

	CHECK(keyslot_calibrate(0.05, 8u << 20, &c) == 0, "calibrate");
	CHECK(c.opslimit >= 1 && c.memlimit == 8u << 20, "cost %llu",
	      (unsigned long long)c.opslimit);
	CHECK(volconf_new(&cfg, VOLUME_CIPHER_SPECK128_XTS, 4096, 255) == 0, "cfg");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(keyslot_add(&cfg, "pw", 2, &c, vmk) == 0, "seal at that cost");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	fprintf(stderr, "calibrated 0.05 s at 8 MiB: opslimit %llu, took %.3f s\n",
		(unsigned long long)c.opslimit, took);
	/*
	 * loose: shared CI machines are noisy. At the least cost (opslimit 1)
	 * there is nothing to calibrate: valgrind alone makes that take 1 s.
	 */
	CHECK(took < 1.0 || c.opslimit == 1, "calibrated cost far too slow: %.3f s",
	      took);
	CHECK(keyslot_calibrate(0, 8u << 20, &c) == -EINVAL, "0 s");
	CHECK(keyslot_calibrate(-1, 8u << 20, &c) == -EINVAL, "negative");
	CHECK(keyslot_calibrate(NAN, 8u << 20, &c) == -EINVAL, "NaN");
	CHECK(keyslot_calibrate(0.05, (8u << 20) + 1, &c) == -EINVAL,
	      "memlimit not a multiple of 1024");
	CHECK(keyslot_calibrate(0.05, 4096, &c) == -EINVAL, "memlimit too small");
}

/* the ceiling's arithmetic, and nothing above it is ever written */
static void test_ceiling(void)
{
	struct keyslot_cost ok8 = { 1024, 8u << 20 }, over8 = { 1025, 8u << 20 },
			    ok1g = { 8, 1u << 30 }, over1g = { 1, (1u << 30) + 1024 },
			    bad = { 0, 8u << 20 };
	struct volume_config c;
	uint8_t vmk[VOLCONF_VMK_SIZE] = { 7 };
	char why[192];

	CHECK(keyslot_cost_check(&ok8, why, sizeof(why)) == 0, "1024 x 8 MiB: %s", why);
	CHECK(keyslot_cost_check(&ok1g, why, sizeof(why)) == 0, "8 x 1 GiB: %s", why);
	CHECK(keyslot_cost_check(&over8, why, sizeof(why)) == -E2BIG &&
		      strstr(why, "opslimit 1025 is above the ceiling of 1024"),
	      "1025 x 8 MiB: %s", why);
	CHECK(keyslot_cost_check(&over1g, why, sizeof(why)) == -E2BIG &&
		      strstr(why, "memlimit 1073742848 is above"),
	      "1 GiB + 1 KiB: %s", why);
	CHECK(keyslot_cost_check(&bad, why, sizeof(why)) == -EINVAL, "opslimit 0");
	CHECK(volconf_new(&c, VOLUME_CIPHER_SPECK128_XTS, 4096, 255) == 0, "config");
	CHECK(keyslot_add(&c, "pw", 2, &over8, vmk) == -EINVAL,
	      "a slot above the ceiling is never sealed");
	CHECK(keyslot_calibrate(1, (1u << 30) + 1024, &ok8) == -EINVAL,
	      "no calibration above 1 GiB");
}

static void test_slots(void)
{
	static const char *const pw[] = { "alpha", "bravo", "charlie", "delta",
					  "echo", "foxtrot", "golf", "hotel" };
	struct volume_config c;
	uint8_t vmk[64], got[64];
	char err[256];
	struct keyslot_cost two = { 2, 8u << 20 };

	test_random_bytes(vmk, sizeof(vmk));
	CHECK(volconf_new(&c, VOLUME_CIPHER_AES256_XTS, 4096, 255) == 0, "new");
	test_random_bytes(c.key_id, 16);
	CHECK(keyslot_add(&c, "", 0, &fast, vmk) == -EINVAL, "empty passphrase");
	CHECK(keyslot_add(&c, "x", 1, &(struct keyslot_cost){ 0, 8u << 20 }, vmk) ==
		      -EINVAL,
	      "opslimit 0");
	for (int i = 0; i < 3; i++)
		CHECK(keyslot_add(&c, pw[i], strlen(pw[i]), i == 1 ? &two : &fast,
				  vmk) == i,
		      "add %d", i);
	CHECK(c.slots[1].opslimit == 2, "cost stored");
	CHECK(memcmp(c.slots[0].salt, c.slots[1].salt, 16) != 0 &&
		      memcmp(c.slots[0].nonce, c.slots[1].nonce, 12) != 0,
	      "fresh salt and nonce");
	for (int i = 0; i < 3; i++) {
		memset(got, 0, sizeof(got));
		CHECK(keyslot_open(&c, pw[i], strlen(pw[i]), got, err, sizeof(err)) ==
				      i &&
			      memcmp(got, vmk, 64) == 0,
		      "open %s", pw[i]);
		CHECK(keyslot_open_slot(&c, (unsigned int)i, pw[i], strlen(pw[i]),
					got) == 0,
		      "open slot %d", i);
		CHECK(keyslot_open_slot(&c, (unsigned int)((i + 1) % 3), pw[i],
					strlen(pw[i]), got) == -EACCES &&
			      voltest_all_zero(got, 64),
		      "other slot refuses, output wiped");
	}
	CHECK(keyslot_open(&c, "ALPHA", 5, got, err, sizeof(err)) == -EACCES &&
		      strcmp(err, "wrong passphrase (no keyslot opened)") == 0,
	      "wrong passphrase: %s", err);
	CHECK(keyslot_open(&c, "alph", 4, got, err, sizeof(err)) == -EACCES,
	      "prefix");
	CHECK(keyslot_open_slot(&c, 5, "alpha", 5, got) == -ENOENT, "unused slot");
	/* a slot that cannot run does not hide one that opens */
	{
		struct volume_config d = c;

		d.slots[0].opslimit = 0;
		CHECK(keyslot_open(&d, "bravo", 5, got, err, sizeof(err)) == 1,
		      "skips a broken slot");
		CHECK(keyslot_open(&d, "zulu", 4, got, err, sizeof(err)) == -EINVAL &&
			      strstr(err, "keyslot 0"),
		      "reports it when nothing opens: %s", err);
	}
	/* a slot above the cost ceiling is set aside before any work: one
	 * that would run for hours (2^32-1 passes) must not delay slot 1 */
	{
		struct volume_config d = c;

		d.slots[0].opslimit = VOLCONF_MAX_OPSLIMIT;
		CHECK(keyslot_open(&d, "bravo", 5, got, err, sizeof(err)) == 1 &&
			      strstr(err, "keyslot 0 not tried: opslimit 4294967295 "
					  "is above the ceiling"),
		      "hostile slot 0 set aside, noted: %s", err);
		CHECK(keyslot_open(&d, "alpha", 5, got, err, sizeof(err)) == -E2BIG &&
			      strstr(err, "no keyslot opened; keyslot 0 not tried"),
		      "nothing else opens: %s", err);
		CHECK(keyslot_open_slot(&d, 0, "alpha", 5, got) == -E2BIG,
		      "one slot, named: not run");
		d.slots[0].opslimit = 1;
		d.slots[0].memlimit = VOLCONF_MAX_MEMLIMIT;
		CHECK(keyslot_open(&d, "bravo", 5, got, err, sizeof(err)) == 1 &&
			      strstr(err, "keyslot 0 not tried: memlimit 4294967296"),
		      "4 GiB memlimit set aside: %s", err);
		CHECK(keyslot_open(&c, "bravo", 5, got, err, sizeof(err)) == 1 &&
			      err[0] == '\0',
		      "no note when no slot is set aside: %s", err);
	}
	/* fill to 8 */
	for (int i = 3; i < 8; i++)
		CHECK(keyslot_add(&c, pw[i], strlen(pw[i]), &fast, vmk) == i, "add %d",
		      i);
	CHECK(keyslot_add(&c, "india", 5, &fast, vmk) == -ENOSPC, "ninth");
	CHECK(keyslot_open(&c, "hotel", 5, got, err, sizeof(err)) == 7, "last");
	/* remove: the other slots keep their numbers; add reuses the gap */
	CHECK(keyslot_remove(&c, 1) == 0, "remove 1");
	CHECK(volconf_slot_count(&c) == 7, "7 left");
	CHECK(!c.slots[1].used, "slot 1 free");
	CHECK(keyslot_open(&c, "bravo", 5, got, err, sizeof(err)) == -EACCES,
	      "bravo gone");
	CHECK(keyslot_open(&c, "charlie", 7, got, err, sizeof(err)) == 2,
	      "charlie still slot 2");
	CHECK(keyslot_open(&c, "hotel", 5, got, err, sizeof(err)) == 7,
	      "hotel still slot 7");
	CHECK(keyslot_remove(&c, 1) == -ENOENT, "remove a free slot");
	CHECK(keyslot_remove(&c, 8) == -ENOENT, "remove past the end");
	CHECK(keyslot_add(&c, "india", 5, &fast, vmk) == 1, "add reuses slot 1");
	CHECK(keyslot_open(&c, "india", 5, got, err, sizeof(err)) == 1,
	      "india opens slot 1");
	for (unsigned int i = 0; i < 7; i++)
		CHECK(keyslot_remove(&c, i) == 0, "remove %u", i);
	CHECK(keyslot_remove(&c, 7) == -EBUSY, "never the last slot");
	CHECK(keyslot_open(&c, "hotel", 5, got, err, sizeof(err)) == 7,
	      "hotel remains, as slot 7");
	CHECK(volconf_validate(&c, err, sizeof(err)) == 0, "valid: %s", err);
}

/* the AAD, restated byte by byte from docs/format.md */
static void test_aad(void)
{
	struct volume_config c;
	uint8_t aad[KEYSLOT_AAD_MAX], want[KEYSLOT_AAD_MAX];
	size_t n, w = 0;

	CHECK(volconf_new(&c, VOLUME_CIPHER_SPECK64_XTS, 512, 100) == 0, "new");
	c.version = 1; /* the vector of docs/format.md */
	strcpy(c.uuid, "0f0e0d0c-0b0a-4908-8706-050403020100");
	for (int i = 0; i < 16; i++)
		c.key_id[i] = (uint8_t)(0xa0 + i);
	n = keyslot_aad(&c, aad);
	memcpy(want, "cloakfs keyslot", 16); /* with its NUL */
	w = 16;
	memcpy(want + w, "\x01\x00\x00\x00", 4);
	w += 4;
	memcpy(want + w, "\x0f\x0e\x0d\x0c\x0b\x0a\x49\x08\x87\x06\x05\x04\x03\x02"
			 "\x01\x00", 16);
	w += 16;
	want[w++] = 11;
	memcpy(want + w, "speck64-xts", 11);
	w += 11;
	want[w++] = 3;
	memcpy(want + w, "cts", 3);
	w += 3;
	memcpy(want + w, "\x00\x02\x00\x00", 4); /* 512 */
	w += 4;
	memcpy(want + w, "\x64\x00\x00\x00", 4); /* 100 */
	w += 4;
	memcpy(want + w, c.key_id, 16);
	w += 16;
	want[w++] = 0; /* no features */
	CHECK(n == w && n == 77 && memcmp(aad, want, n) == 0, "AAD bytes (%zu)", n);
	if (n != w || memcmp(aad, want, n))
		hex_dump("aad", aad, n);
	/* version 2: only the version field differs */
	c.version = 2;
	n = keyslot_aad(&c, aad);
	want[16] = 2;
	CHECK(n == 77 && memcmp(aad, want, n) == 0, "AAD of version 2");
}

/*
 * An upgraded volume: version 2, the slot given to the upgrade resealed,
 * the other one kept with aad_version 1. Both open; the kept one stops
 * opening when its aad_version is taken away, and a resealed one when
 * one is added (each changes the AAD).
 */
static void test_aad_version(void)
{
	struct keyslot_cost cost = { 1, 8192 };
	struct volume_config c;
	uint8_t vmk[VOLCONF_VMK_SIZE], got[VOLCONF_VMK_SIZE];
	char err[256];

	test_random_bytes(vmk, sizeof(vmk));
	CHECK(volconf_new(&c, VOLUME_CIPHER_SPECK128_XTS, 4096, 255) == 0, "new");
	c.version = 1;
	CHECK(keyslot_add(&c, "alpha", 5, &cost, vmk) == 0, "slot 0");
	CHECK(keyslot_add(&c, "bravo", 5, &cost, vmk) == 1, "slot 1");
	/* what cloakfs-keytool upgrade does, given "alpha" */
	c.version = 2;
	c.slots[0].aad_version = 1;
	c.slots[1].aad_version = 1;
	CHECK(keyslot_seal(&c, 0, "alpha", 5, &cost, vmk) == 0, "reseal slot 0");
	CHECK(c.slots[0].aad_version == 0, "resealed under version 2");
	CHECK(volconf_validate(&c, err, sizeof(err)) == 0, "valid: %s", err);
	CHECK(keyslot_open(&c, "alpha", 5, got, err, sizeof(err)) == 0 &&
		      !memcmp(got, vmk, sizeof(vmk)),
	      "resealed slot opens");
	CHECK(keyslot_open(&c, "bravo", 5, got, err, sizeof(err)) == 1 &&
		      !memcmp(got, vmk, sizeof(vmk)),
	      "kept slot opens");
	c.slots[1].aad_version = 0;
	CHECK(keyslot_open_slot(&c, 1, "bravo", 5, got) == -EACCES,
	      "kept slot without its aad_version");
	c.slots[1].aad_version = 1;
	c.slots[0].aad_version = 1;
	CHECK(keyslot_open_slot(&c, 0, "alpha", 5, got) == -EACCES,
	      "resealed slot with an aad_version");
}

static int slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

static void spill(const char *path, const char *text)
{
	int fd;

	(void)unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text),
	      "spill");
	close(fd);
}

/* replace the value of `key = ...;` (its first occurrence) */
static int set_value(const char *text, const char *key, const char *value,
		     char *out, size_t outlen)
{
	char pat[64];
	const char *p, *semi;

	snprintf(pat, sizeof(pat), "%s = ", key);
	p = strstr(text, pat);
	if (!p)
		return 0;
	semi = strchr(p, ';');
	snprintf(out, outlen, "%.*s%s%s", (int)(p + strlen(pat) - text), text, value,
		 semi);
	return 1;
}

/* flip one bit of the base64 value of key, keeping it valid base64 */
static int flip_b64(const char *text, const char *key, char *out, size_t outlen)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "%s = \"", key);
	p = strstr(text, pat);
	if (!p)
		return 0;
	snprintf(out, outlen, "%s", text);
	p = out + (p - text) + strlen(pat) + 2;
	*(char *)p = *p == 'A' ? 'B' : 'A'; /* third char: all 6 bits used */
	return 1;
}

static void test_tamper(void)
{
	char *dir = voltest_tmpdir("tamper");
	char path[4200], base[8192], bad[8192], err[512];
	struct volume_create_params p = { .cipher = VOLUME_CIPHER_SPECK128_XTS,
					  .cost = fast };
	struct volume_config c;
	struct volume_keys *k = NULL;
	uint8_t vmk[64];
	static const struct {
		const char *key, *value; /* value NULL: flip a base64 bit */
		int rc;
	} cases[] = {
		{ "version", "3", -ENOTSUP },
		{ "version", "1", -EACCES }, /* a known version, another AAD */
		{ "uuid", "\"0f0e0d0c-0b0a-4908-8706-050403020100\"", -EACCES },
		{ "cipher", "\"aes256-xts\"", -EACCES },
		{ "cipher", "\"speck64-xts\"", -EACCES },
		{ "names", "\"cbc\"", -EINVAL },
		{ "sector_size", "8192", -EACCES },
		{ "sector_size", "512", -EACCES },
		{ "name_max", "254", -EACCES },
		{ "key_id", "\"00000000000000000000000000000000\"", -EACCES },
		{ "features", "[ \"x\" ]", -ENOTSUP },
		{ "salt", NULL, -EACCES },
		{ "opslimit", "2", -EACCES },
		{ "memlimit", "8389632", -EACCES }, /* + 1024 */
		{ "sealed", NULL, -EACCES },
		{ "nonce", NULL, -EACCES },
	};
	int rc;

	CHECK(volume_create(dir, &p, "secret", 6, NULL, err, sizeof(err)) == 0,
	      "create: %s", err);
	snprintf(path, sizeof(path), "%s/cloakfs.conf", dir);
	CHECK(slurp(path, base, sizeof(base)) > 0, "read");
	rc = volume_unlock_keys(dir, "secret", 6, &c, &k, err, sizeof(err));
	CHECK(rc == 0 && k, "unlock: %s", err);
	keys_free(k);
	k = NULL;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ok = cases[i].value
				 ? set_value(base, cases[i].key, cases[i].value, bad,
					     sizeof(bad))
				 : flip_b64(base, cases[i].key, bad, sizeof(bad));

		CHECK(ok && strcmp(bad, base) != 0, "mutate %s", cases[i].key);
		spill(path, bad);
		err[0] = '\0';
		rc = volume_unlock_keys(dir, "secret", 6, &c, &k, err, sizeof(err));
		CHECK(rc == cases[i].rc && k == NULL,
		      "tampered %s = %s: rc %d want %d (%s)", cases[i].key,
		      cases[i].value ? cases[i].value : "<bit flip>", rc,
		      cases[i].rc, err);
		keys_free(k);
		k = NULL;
	}
	spill(path, base);
	CHECK(volume_unlock_keys(dir, "secret", 6, &c, &k, err, sizeof(err)) == 0,
	      "original opens again");
	keys_free(k);
	k = NULL;
	CHECK(volume_unlock_keys(dir, "Secret", 6, &c, &k, err, sizeof(err)) == -EACCES &&
		      strstr(err, "wrong passphrase"),
	      "wrong passphrase: %s", err);

	/* a slot sealed over a key_id that is not the VMK's */
	CHECK(volconf_read(path, &c, err, sizeof(err)) == 0 &&
		      keyslot_open(&c, "secret", 6, vmk, err, sizeof(err)) == 0,
	      "open");
	c.key_id[0] ^= 1;
	c.slots[0].used = 0;
	CHECK(keyslot_add(&c, "secret", 6, &fast, vmk) == 0, "reseal");
	CHECK(volconf_write_atomic(path, &c, err, sizeof(err)) == 0, "write");
	CHECK(volume_unlock_keys(dir, "secret", 6, &c, &k, err, sizeof(err)) == -EBADMSG &&
		      k == NULL && strstr(err, "key_id"),
	      "key_id mismatch: %s", err);
	explicit_bzero(vmk, sizeof(vmk));
	voltest_rmtree(dir);
	free(dir);
}

/* every cipher: create, unlock, derived keys work */
static void test_ciphers(void)
{
	for (int ci = 0; ci < VOLUME_CIPHER_COUNT; ci++) {
		char *dir = voltest_tmpdir("cipher");
		struct volume_create_params p = { .cipher = (enum volume_cipher)ci,
						  .sector_size = 1024, .cost = fast };
		struct volume_config c;
		struct volume_keys *k = NULL;
		struct keyslot_cost used;
		char err[256];
		uint8_t id[16];
		int rc;

		rc = volume_create(dir, &p, "pw", 2, &used, err, sizeof(err));
		CHECK(rc == 0 && used.opslimit == 1, "create %d: %s", ci, err);
		rc = volume_unlock_keys(dir, "pw", 2, &c, &k, err, sizeof(err));
		CHECK(rc == 0 && k && keys_cipher(k) == (enum volume_cipher)ci &&
			      c.sector_size == 1024 && c.name_max == 255,
		      "unlock %d: %s", ci, err);
		CHECK(k && keys_key_id(k, id) == 0 && memcmp(id, c.key_id, 16) == 0,
		      "key id");
		keys_free(k);
		voltest_rmtree(dir);
		free(dir);
	}
	{
		char *dir = voltest_tmpdir("badparams");
		struct volume_create_params p = { .cipher = VOLUME_CIPHER_SM4_XTS,
						  .sector_size = 3000, .cost = fast };
		char err[256];

		CHECK(volume_create(dir, &p, "pw", 2, NULL, err, sizeof(err)) ==
				      -EINVAL &&
			      strstr(err, "sector size"),
		      "bad sector size: %s", err);
		CHECK(volume_create("/nonexistent-dir", &p, "pw", 2, NULL, err,
				    sizeof(err)) == -ENOENT,
		      "missing dir");
		voltest_rmtree(dir);
		free(dir);
	}
}

int main(void)
{
	test_seed();
	test_aad();
	test_aad_version();
	test_calibrate();
	test_ceiling();
	test_slots();
	test_tamper();
	test_ciphers();
	return test_finish("test_keyslot");
}
