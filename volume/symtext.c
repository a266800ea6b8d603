/* SPDX-License-Identifier: MIT */
/* see symtext.h */
#include "volume/symtext.h"

#include <string.h>

#include "volume/names/internal/linktext.h"

/* the part of v a symlink text depends on */
static struct linktext_volume view(const struct volume *v)
{
	return (struct linktext_volume){ v->keyring, v->version,
					 v->cipher->blocksize, v->rootfd };
}

int symtext_encode(struct volume *v, const uint8_t dirnonce[DIRNONCE_SIZE],
		   const char *target, char text[SYMLINK_MAX_STORED + 1])
{
	struct linktext_volume lv = view(v);

	return linktext_encode(&lv, dirnonce, target, text);
}

int symtext_decode(struct volume *v, const char *text, size_t len,
		   symtext_dir_nonce dir_nonce, void *arg,
		   char out[SYMLINK_MAX_PLAIN + 1])
{
	struct linktext_volume lv = view(v);
	uint8_t nonce[DIRNONCE_SIZE];
	int n;

	if (!linktext_needs_dir(&lv, text, len))
		return linktext_decode(&lv, NULL, text, len, out);
	n = dir_nonce(arg, nonce);
	if (!n)
		n = linktext_decode(&lv, nonce, text, len, out);
	explicit_bzero(nonce, sizeof(nonce));
	return n;
}
