/* SPDX-License-Identifier: MIT */
/*
 * keycheck CIPHERDIR: does cloakfsd hold this volume's master key the way
 * a mount will fetch it? The key under the config's key_id must be 64
 * bytes whose derived key identifier is that key_id. Prints one line;
 * exit 0 yes, 2 no key under that id, 1 anything else.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "crypto/crypto.h"
#include "daemon/client.h"
#include "volume/keys/keys.h"
#include "volume/volume.h"

int main(int argc, char **argv)
{
	char path[4096], err[512] = "";
	struct volume_config cfg;
	struct cloakfsd_client *cl;
	struct volume_keys *keys;
	uint8_t key[CLOAKFSD_KEY_MAX], id[KEYS_KEY_ID_SIZE];
	size_t len;
	uint32_t left;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: keycheck CIPHERDIR\n");
		return 1;
	}
	if (crypto_init() || volume_config_path(argv[1], path, sizeof(path)) ||
	    volconf_read(path, &cfg, err, sizeof(err))) {
		fprintf(stderr, "keycheck: %s: cannot read config %s\n", argv[1], err);
		return 1;
	}
	rc = cloakfsd_connect(NULL, 0, 0, &cl);
	if (rc) {
		fprintf(stderr, "keycheck: connect: %s\n", strerror(-rc));
		return 1;
	}
	rc = cloakfsd_get(cl, cfg.key_id, key, sizeof(key), &len, &left);
	cloakfsd_close(cl);
	if (rc == -ENOENT) {
		printf("keycheck: no key for %s\n", argv[1]);
		return 2;
	}
	if (rc) {
		fprintf(stderr, "keycheck: get: %s\n", strerror(-rc));
		return 1;
	}
	if (len != KEYS_VMK_SIZE) {
		fprintf(stderr, "keycheck: key is %zu bytes, not %d\n", len,
			KEYS_VMK_SIZE);
		return 1;
	}
	rc = keys_new(key, cfg.cipher, &keys);
	explicit_bzero(key, sizeof(key));
	if (!rc) {
		rc = keys_key_id(keys, id);
		keys_free(keys);
	}
	if (rc || memcmp(id, cfg.key_id, sizeof(id)) != 0) {
		fprintf(stderr, "keycheck: the key's identifier is not the "
			"volume's key_id\n");
		return 1;
	}
	printf("keycheck: key ok, %u s left\n", left);
	return 0;
}
