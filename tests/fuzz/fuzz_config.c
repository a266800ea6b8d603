/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: cloakfs.conf (volume/keys/volconf.c) and the keyslot opener
 * (volume/keys/keyslot.c). Input: the config text.
 *
 * Argon2id would make every run cost what an unlock costs, so a slot
 * whose parsed cost is above a small cap (2 passes, 64 KiB) is tried at
 * libsodium's minimum instead (1 pass, 8 KiB): the AEAD, AAD and error
 * paths still run, it just cannot open. Half the seeds are configs made
 * by cloakfs-keytool init (its lowest cost, 1 MiB, is above the cap);
 * the others are written by this target (CLOAKFS_FUZZ_WRITE_SEEDS=DIR:
 * volconf_new and keyslot_add, as init does, at the minimum cost, with
 * the passphrase FUZZ_PASS), so they and their mutations open.
 *
 * Checked beyond "no crash": a refused config gets one line naming the
 * file; an accepted one validates and survives format -> parse
 * unchanged; a slot that opens gives the VMK whose key id the config
 * names, and a slot added with it opens with the same VMK.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "volume/keys/volconf.h"
#include "volume/keys/keys.h"
#include "volume/keys/keyslot.h"
#include "volume/random.h"

#define FUZZ_NAME "fuzz/cloakfs.conf"
#define FUZZ_PASS "fuzz passphrase"
#define FUZZ_MAX_OPSLIMIT 2
#define FUZZ_MAX_MEMLIMIT (64 * 1024)

static const struct keyslot_cost min_cost = { VOLCONF_MIN_OPSLIMIT,
					       VOLCONF_MIN_MEMLIMIT };

static void fuzz_fail(const char *what, const char *detail) __attribute__((noreturn));

static void fuzz_fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_config: invariant broken: %s%s%s\n", what,
		detail ? ": " : "", detail ? detail : "");
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a volume's config as init makes it, at the minimum cost */
static void write_seed(const char *dir, enum volume_cipher cipher,
		       uint32_t sector, uint32_t name_max, unsigned int nslots)
{
	static char text[VOLCONF_MAX_FILE];
	static const char *const pass[] = { FUZZ_PASS, "second", "third" };
	struct volume_config c;
	struct volume_keys *k;
	uint8_t vmk[VOLCONF_VMK_SIZE];
	char path[4096];
	FILE *f;
	int len;

	if (volconf_new(&c, cipher, sector, name_max) ||
	    random_bytes(vmk, sizeof(vmk)) || keys_new(vmk, cipher, &k) ||
	    keys_key_id(k, c.key_id))
		fuzz_fail("making a seed config", NULL);
	keys_free(k);
	for (unsigned int i = 0; i < nslots; i++)
		if (keyslot_add(&c, pass[i], strlen(pass[i]), &min_cost, vmk) < 0)
			fuzz_fail("keyslot_add", NULL);
	len = volconf_format(&c, text, sizeof(text));
	snprintf(path, sizeof(path), "%s/%s-%u-%u-%u.conf", dir,
		 volume_cipher_info(cipher)->name, sector, name_max, nslots);
	f = fopen(path, "w");
	if (len < 0 || !f || fwrite(text, 1, (size_t)len, f) != (size_t)len ||
	    fclose(f))
		fuzz_fail("writing a seed", path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *seeds = getenv("CLOAKFS_FUZZ_WRITE_SEEDS");

	(void)argc;
	(void)argv;
	if (crypto_init())
		fuzz_fail("crypto_init", crypto_init_error());
	if (seeds && *seeds) {
		write_seed(seeds, VOLUME_CIPHER_SPECK128_XTS, 4096, 255, 1);
		write_seed(seeds, VOLUME_CIPHER_SPECK64_XTS, 512, 64, 2);
		write_seed(seeds, VOLUME_CIPHER_AES256_XTS, 65536, 143, 1);
		write_seed(seeds, VOLUME_CIPHER_SM4_XTS, 1024, 200, 3);
		exit(0);
	}
	return 0;
}

/* a refusal must be one line that names the file */
static void check_message(int rc, const char *err)
{
	if (rc == -ENOMEM)
		return;
	if (!err[0] || strchr(err, '\n') || !strstr(err, FUZZ_NAME))
		fuzz_fail("error message is not one line naming the file", err);
}

/* format, parse again: the same struct */
static void check_roundtrip(const struct volume_config *c)
{
	static char text[VOLCONF_MAX_FILE];
	static struct volume_config again;
	char err[512] = "";
	int len;

	if (volconf_validate(c, err, sizeof(err)) != 0)
		fuzz_fail("parsed config does not validate", err);
	len = volconf_format(c, text, sizeof(text));
	if (len < 0)
		fuzz_fail("parsed config does not format", NULL);
	if (volconf_parse(text, (size_t)len, FUZZ_NAME, &again, err, sizeof(err)))
		fuzz_fail("formatted config does not parse", err);
	if (memcmp(c, &again, sizeof(again)))
		fuzz_fail("config does not round-trip", NULL);
}

/* an opened VMK: its key id, then a new slot opens to the same VMK */
static void check_opened(struct volume_config *c, const uint8_t *vmk)
{
	uint8_t id[KEYS_KEY_ID_SIZE], vmk2[VOLCONF_VMK_SIZE];
	struct volume_keys *k;
	int slot;

	if (keys_new(vmk, c->cipher, &k) || keys_key_id(k, id))
		fuzz_fail("keys_new", NULL);
	keys_free(k);
	if (memcmp(id, c->key_id, sizeof(id)))
		fuzz_fail("opened VMK does not match key_id", NULL);
	slot = keyslot_add(c, "second", 6, &min_cost, vmk);
	if (slot == -ENOSPC)
		return;
	if (slot < 0)
		fuzz_fail("keyslot_add", strerror(-slot));
	if (keyslot_open_slot(c, (unsigned int)slot, "second", 6, vmk2) ||
	    memcmp(vmk, vmk2, sizeof(vmk2)))
		fuzz_fail("added slot does not open to the same VMK", NULL);
	explicit_bzero(vmk2, sizeof(vmk2));
	check_roundtrip(c);
	if (keyslot_remove(c, (unsigned int)slot))
		fuzz_fail("keyslot_remove", NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct volume_config c;
	uint8_t vmk[VOLCONF_VMK_SIZE];
	char err[512] = "";
	int rc;

	if (size > VOLCONF_MAX_FILE)
		return 0;
	rc = volconf_parse((const char *)data, size, FUZZ_NAME, &c, err, sizeof(err));
	if (rc) {
		check_message(rc, err);
		return 0;
	}
	check_roundtrip(&c);

	for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++) {
		struct volconf_keyslot *s = &c.slots[i];

		if (s->used && (s->opslimit > FUZZ_MAX_OPSLIMIT ||
				s->memlimit > FUZZ_MAX_MEMLIMIT)) {
			s->opslimit = min_cost.opslimit;
			s->memlimit = min_cost.memlimit;
		}
	}
	err[0] = '\0';
	rc = keyslot_open(&c, FUZZ_PASS, strlen(FUZZ_PASS), vmk, err, sizeof(err));
	if (rc >= 0)
		check_opened(&c, vmk);
	else if (rc == -EACCES && !err[0])
		fuzz_fail("wrong passphrase without a message", NULL);
	explicit_bzero(vmk, sizeof(vmk));
	return 0;
}
