/* SPDX-License-Identifier: MIT */
#include "tools/cli.h"

#include <stdio.h>

#include "cli/exitcodes.h"
#include "crypto/crypto.h"

int cli_list_drivers(FILE *out)
{
	unsigned int n = crypto_driver_count();
	char line[512];

	for (unsigned int i = 0; i < n; i++) {
		crypto_driver_selftest(i); /* show real results, not "untested" */
		if (crypto_format_driver_line(i, line, sizeof(line))) {
			fprintf(stderr, "cannot format driver %u\n", i);
			return CLOAKFS_EXIT_ERROR;
		}
		fprintf(out, "%s\n", line);
	}
	return fflush(out) ? CLOAKFS_EXIT_ERROR : CLOAKFS_EXIT_OK;
}
