/* SPDX-License-Identifier: MIT */
/*
 * Test helper: make a volume through the volume library with a cheap
 * Argon2id cost (1 pass, 8 MiB), so the filesystem tests need no keytool.
 *   fs_mkvol [--names=MODE] CIPHER DIR PASSFILE [SECTOR_SIZE [NAME_MAX
 *            [VERSION]]]
 * The passphrase is PASSFILE's first line; SECTOR_SIZE and NAME_MAX 0
 * mean the defaults, VERSION 1 makes a volume of format version 1 (the
 * upgrade tests); MODE is the names mode (cts, hctr2, adiantum; default:
 * the cipher's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "volume/names/namemode.h"
#include "volume/volume.h"

int main(int argc, char **argv)
{
	struct volume_create_params p = { 0 };
	char pass[4096], err[512] = "";
	FILE *f;
	size_t len;
	int rc;

	if (argc > 1 && strncmp(argv[1], "--names=", 8) == 0) {
		if (namemode_by_name(argv[1] + 8, &p.names)) {
			fprintf(stderr, "unknown names mode %s (%s)\n", argv[1] + 8,
				namemode_list());
			return 2;
		}
		p.names_set = 1;
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	if (argc < 4 || argc > 7) {
		fprintf(stderr, "usage: %s [--names=MODE] CIPHER DIR PASSFILE "
			"[SECTOR [NAME_MAX [VERSION]]]\n",
			argv[0]);
		return 2;
	}
	if (cipher_by_name(argv[1], &p.cipher)) {
		fprintf(stderr, "unknown cipher %s (%s)\n", argv[1],
			volume_cipher_list());
		return 2;
	}
	p.sector_size = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 0) : 0;
	p.name_max = argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 0) : 0;
	p.version = argc > 6 ? (unsigned int)strtoul(argv[6], NULL, 0) : 0;
	p.cost.opslimit = 1;
	p.cost.memlimit = 8u << 20;
	f = fopen(argv[3], "r");
	if (!f || !fgets(pass, sizeof(pass), f)) {
		perror(argv[3]);
		return 1;
	}
	fclose(f);
	len = strcspn(pass, "\n");
	rc = crypto_init();
	if (!rc)
		rc = volume_create(argv[2], &p, pass, len, NULL, err, sizeof(err));
	explicit_bzero(pass, sizeof(pass));
	if (rc) {
		fprintf(stderr, "%s: %s\n", argv[2], *err ? err : strerror(-rc));
		return 1;
	}
	return 0;
}
