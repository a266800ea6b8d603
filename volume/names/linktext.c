/* SPDX-License-Identifier: MIT */
/* see internal/linktext.h */
#include "volume/names/internal/linktext.h"

#include <errno.h>
#include <string.h>

#include "volume/names/direntry.h"

int linktext_encode(const struct linktext_volume *v,
		     const uint8_t dirnonce[DIRNONCE_SIZE],
		     const char *target, char text[SYMLINK_MAX_STORED + 1])
{
	size_t len = strnlen(target, SYMLINK_MAX_PLAIN + 1);
	int n;

	if (v->version < 2)
		return direntry_target_encrypt(v->kr, dirnonce, target, text);
	if (len > SYMLINK_MAX_PLAIN)
		return -ENAMETOOLONG;
	n = symlink_encode(v->kr, v->rootfd, target, len, text);
	return n < 0 ? n : 0;
}

int linktext_needs_dir(const struct linktext_volume *v, const char *text,
			size_t len)
{
	/* a version-2 volume holds version-2 texts only; a version-1 volume
	 * may hold both while an upgrade is unfinished (docs/format.md 10) */
	return v->version < 2 &&
	       symlink_form(text, len, v->blocksize) == SYMLINK_V1;
}

int linktext_decode(const struct linktext_volume *v,
		     const uint8_t *dirnonce, const char *text, size_t len,
		     char out[SYMLINK_MAX_PLAIN + 1])
{
	if (linktext_needs_dir(v, text, len))
		return dirnonce ? direntry_target_decrypt(v->kr, dirnonce, text,
						      len, out)
				: -EINVAL;
	return symlink_decode(v->kr, v->rootfd, text, len, out);
}
