/* SPDX-License-Identifier: MIT */
/*
 * Test helper for cloakfs-fsck: make damage that cannot be made with
 * file tools alone, through the volume library.
 *   fsck_forge name CIPHERDIR PASSFILE RELDIR HEX
 *       print the encoding of the bytes HEX under the name key of the
 *       ciphertext directory CIPHERDIR/RELDIR, NUL-padded to 32 bytes
 *       without the codec's checks (so "/", "..", NUL can be encoded)
 *   fsck_forge symlink CIPHERDIR PASSFILE RELDIR TARGET
 *       print TARGET encrypted as a symlink target for RELDIR (version 1),
 *       or as a version-2 target (RELDIR unused)
 *   fsck_forge target CIPHERDIR PASSFILE - HEX
 *       print the bytes HEX, NUL-padded to a multiple of 32, as a version-2
 *       symlink target (volume symlink key, random IV) without the
 *       codec's checks (so over-padding can be encoded)
 *   fsck_forge keyid CIPHERDIR PASSFILE
 *       give the config a random key_id and seal keyslot 0 again with it
 *       (the slot opens, its key does not match key_id)
 * The passphrase is PASSFILE's first line.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crypto/crypto.h"
#include "volume/base64.h"
#include "volume/cipher.h"
#include "volume/names/dirnonce.h"
#include "volume/names/namemode.h"
#include "volume/keys/keys.h"
#include "volume/names/vname.h"
#include "volume/random.h"
#include "volume/volume.h"

static int die(const char *what, int rc)
{
	fprintf(stderr, "fsck_forge: %s: %s\n", what, strerror(rc < 0 ? -rc : rc));
	return 1;
}

static size_t unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;

	while (s[0] && s[1] && n < max) {
		unsigned int b;

		if (sscanf(s, "%2x", &b) != 1)
			break;
		out[n++] = (uint8_t)b;
		s += 2;
	}
	return n;
}

/* the keyed name transform of CIPHERDIR/RELDIR */
static struct crypto_tfm *dir_names(struct volume_keys *keys, const char *root,
				    const char *rel)
{
	char path[PATH_MAX];
	uint8_t nonce[DIRNONCE_SIZE];
	int fd, rc;
	struct crypto_tfm *t;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || dirnonce_read(fd, nonce) != 0) {
		fprintf(stderr, "fsck_forge: %s: no directory nonce\n", path);
		exit(1);
	}
	close(fd);
	t = keys_names_tfm(keys, nonce, &rc);
	if (!t)
		exit(die("names key", rc));
	return t;
}

/* the volume's version-2 symlink key (docs/format.md 7.4), in its names
 * mode */
static struct crypto_tfm *symlink_tfm(struct volume_keys *keys)
{
	uint8_t key[64];
	int rc;
	struct crypto_tfm *t = crypto_alloc(keys_names_alg(keys), NULL, &rc);

	if (t)
		rc = keys_derive(keys, "symlinks", NULL, 0, key,
				 keys_names_keysize(keys));

	if (!rc)
		rc = crypto_setkey(t, key, keys_names_keysize(keys));
	explicit_bzero(key, sizeof(key));
	if (rc)
		exit(die("symlink key", rc));
	return t;
}

int main(int argc, char **argv)
{
	struct volume_config cfg;
	struct volume_keys *keys = NULL;
	char pass[4096], err[512] = "", conf[PATH_MAX];
	FILE *fp;
	size_t len;
	int rc;

	if (argc < 4) {
		fprintf(stderr, "usage: fsck_forge name|symlink|target|keyid CIPHERDIR "
			"PASSFILE ...\n");
		return 2;
	}
	fp = fopen(argv[3], "r");
	if (!fp || !fgets(pass, sizeof(pass), fp))
		return die(argv[3], errno);
	fclose(fp);
	len = strcspn(pass, "\n");
	rc = crypto_init();
	if (rc)
		return die("crypto_init", rc);
	if (!strcmp(argv[1], "keyid")) {
		struct keyslot_cost cost;
		uint8_t vmk[VOLCONF_VMK_SIZE];

		if (volume_config_path(argv[2], conf, sizeof(conf)) ||
		    volconf_read(conf, &cfg, err, sizeof(err)))
			return die(conf, EINVAL);
		rc = keyslot_open_slot(&cfg, 0, pass, len, vmk);
		if (rc)
			return die("keyslot 0", rc);
		cost.opslimit = cfg.slots[0].opslimit;
		cost.memlimit = cfg.slots[0].memlimit;
		rc = random_bytes(cfg.key_id, sizeof(cfg.key_id));
		for (unsigned int i = 0; i < VOLCONF_MAX_KEYSLOTS; i++)
			cfg.slots[i].used = 0;
		if (!rc)
			rc = keyslot_add(&cfg, pass, len, &cost, vmk);
		explicit_bzero(vmk, sizeof(vmk));
		if (rc < 0)
			return die("keyslot_add", rc);
		rc = volconf_write_atomic(conf, &cfg, err, sizeof(err));
		return rc ? die(err, rc) : 0;
	}
	if (argc != 6)
		return die("arguments", EINVAL);
	rc = volume_unlock_keys(argv[2], pass, len, &cfg, &keys, err, sizeof(err));
	explicit_bzero(pass, sizeof(pass));
	if (rc < 0)
		return die(err, rc);
	if (!strcmp(argv[1], "name")) {
		/* a wide-block mode's tweak is 32 bytes, zero for names */
		uint8_t buf[256] = { 0 }, iv[VNAME_WIDE_TWEAK] = { 0 };
		char out[VNAME_MAX_ENCODED + 1];
		struct crypto_tfm *t = dir_names(keys, argv[2], argv[4]);
		size_t n = unhex(argv[5], buf, sizeof(buf));
		size_t padded = n ? (n + 31) / 32 * 32 : 32;

		rc = crypto_encrypt(t, iv, buf, buf, padded);
		if (rc)
			return die("encrypt", rc);
		base64url_encode(out, sizeof(out), buf, padded);
		puts(out);
		crypto_free(t);
	} else if (!strcmp(argv[1], "target")) {
		const struct volume_cipher_info *ci = volume_cipher_info(cfg.cipher);
		static uint8_t buf[16 + 4128];
		static char out[2 * sizeof(buf)];
		/* the stored IV, then zeros: a wide-block mode's tweak */
		uint8_t iv[VNAME_WIDE_TWEAK] = { 0 };
		size_t n = unhex(argv[5], buf + 16, sizeof(buf) - 16);
		size_t padded = n ? (n + 31) / 32 * 32 : 32;
		size_t ivlen = namemode_is_wide(cfg.names) ? VNAME_WIDE_TARGET_IV
							   : ci->blocksize;
		struct crypto_tfm *t = symlink_tfm(keys);

		rc = random_bytes(buf + 16 - ivlen, ivlen);
		memcpy(iv, buf + 16 - ivlen, ivlen);
		if (!rc)
			rc = crypto_encrypt(t, iv, buf + 16, buf + 16, padded);
		if (rc)
			return die("encrypt", rc);
		base64url_encode(out, sizeof(out), buf + 16 - ivlen, ivlen + padded);
		puts(out);
		crypto_free(t);
	} else if (!strcmp(argv[1], "symlink") && cfg.version >= 2) {
		static char out[VNAME_TARGET_MAX_ENCODED + 1];
		struct crypto_tfm *t = symlink_tfm(keys);
		uint8_t iv[16];

		rc = random_bytes(iv, sizeof(iv));
		if (!rc)
			rc = vname_target_seal(t, iv, argv[5], strlen(argv[5]), out,
					       sizeof(out));
		if (rc < 0)
			return die("encrypt", rc);
		puts(out);
		crypto_free(t);
	} else if (!strcmp(argv[1], "symlink")) {
		char out[VNAME_MAX_SYMLINK_ENCODED + 1];
		struct crypto_tfm *t = dir_names(keys, argv[2], argv[4]);

		rc = vname_symlink_encrypt(t, argv[5], strlen(argv[5]), out,
					   sizeof(out));
		if (rc < 0)
			return die("encrypt", rc);
		puts(out);
		crypto_free(t);
	} else {
		return die(argv[1], EINVAL);
	}
	keys_free(keys);
	return 0;
}
