/* SPDX-License-Identifier: MIT */
/* see namemode.h */
#include "volume/names/namemode.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mode_names[VOLUME_NAMES_COUNT] = {
	[VOLUME_NAMES_CTS] = "cts",
	[VOLUME_NAMES_HCTR2] = "hctr2",
	[VOLUME_NAMES_ADIANTUM] = "adiantum",
};

const char *namemode_name(enum volume_names_mode m)
{
	if ((unsigned int)m >= VOLUME_NAMES_COUNT) {
		fprintf(stderr, "cloakfs: namemode_name: bad mode %d\n", (int)m);
		abort();
	}
	return mode_names[m];
}

int namemode_by_name(const char *name, enum volume_names_mode *m)
{
	for (unsigned int i = 0; i < VOLUME_NAMES_COUNT; i++) {
		if (strcmp(name, mode_names[i]) == 0) {
			*m = (enum volume_names_mode)i;
			return 0;
		}
	}
	return -ENOENT;
}

const char *namemode_list(void)
{
	return "cts, hctr2, adiantum";
}

const char *namemode_alg(enum volume_cipher c, enum volume_names_mode m)
{
	const struct volume_cipher_info *ci = volume_cipher_info(c);

	switch (m) {
	case VOLUME_NAMES_CTS:
		return ci->cts_alg;
	case VOLUME_NAMES_HCTR2:
		return ci->hctr2_alg;
	case VOLUME_NAMES_ADIANTUM:
		return NAMEMODE_ADIANTUM_ALG;
	default:
		return NULL;
	}
}

int namemode_fits(enum volume_cipher c, enum volume_names_mode m)
{
	return (unsigned int)c < VOLUME_CIPHER_COUNT &&
	       namemode_alg(c, m) != NULL;
}

unsigned int namemode_keysize(enum volume_cipher c, enum volume_names_mode m)
{
	return m == VOLUME_NAMES_ADIANTUM ? NAMEMODE_ADIANTUM_KEYSIZE
					  : volume_cipher_info(c)->name_keysize;
}

int namemode_is_wide(enum volume_names_mode m)
{
	return m == VOLUME_NAMES_HCTR2 || m == VOLUME_NAMES_ADIANTUM;
}

unsigned int namemode_target_iv(enum volume_cipher c, enum volume_names_mode m)
{
	return namemode_is_wide(m) ? 16 : volume_cipher_info(c)->blocksize;
}
