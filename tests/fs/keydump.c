/* SPDX-License-Identifier: MIT */
/*
 * Test helper for the secret-hygiene tests: open a volume's keyslot with
 * the passphrase in PASSFILE and print the volume master key in hex, so a
 * test can derive the PRK and subkeys (docs/format.md, Keys) and search memory
 * images for them. Test-only: no product tool ever prints a key.
 *   fs_keydump DIR PASSFILE
 */
#include <stdio.h>
#include <string.h>

#include "crypto/crypto.h"
#include "volume/keys/volconf.h"
#include "volume/keys/keys.h"
#include "volume/keys/keyslot.h"
#include "volume/volume.h"

int main(int argc, char **argv)
{
	struct volume_config cfg;
	uint8_t vmk[VOLCONF_VMK_SIZE];
	char path[4096], pass[4096], err[512] = "";
	FILE *f;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DIR PASSFILE\n", argv[0]);
		return 2;
	}
	f = fopen(argv[2], "r");
	if (!f || !fgets(pass, sizeof(pass), f)) {
		perror(argv[2]);
		return 1;
	}
	fclose(f);
	rc = crypto_init();
	if (!rc)
		rc = volume_config_path(argv[1], path, sizeof(path));
	if (!rc)
		rc = volconf_read(path, &cfg, err, sizeof(err));
	if (!rc)
		rc = keyslot_open(&cfg, pass, strcspn(pass, "\n"), vmk, err, sizeof(err));
	explicit_bzero(pass, sizeof(pass));
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], *err ? err : "cannot open a keyslot");
		return 1;
	}
	for (size_t i = 0; i < sizeof(vmk); i++)
		printf("%02x", vmk[i]);
	printf("\n");
	explicit_bzero(vmk, sizeof(vmk));
	return 0;
}
