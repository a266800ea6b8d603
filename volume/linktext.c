/* SPDX-License-Identifier: MIT */
/* see linktext.h */
#include "volume/linktext.h"

#include <errno.h>
#include <string.h>

#include "volume/direntry.h"

int vlinktext_encode(const struct vlinktext_volume *v,
		     const uint8_t dirnonce[NAMES_DIRNONCE_SIZE],
		     const char *target, char text[VSYMLINK_MAX_STORED + 1])
{
	size_t len = strnlen(target, VSYMLINK_MAX_PLAIN + 1);
	int n;

	if (v->version < 2)
		return vdir_target_encrypt(v->kr, dirnonce, target, text);
	if (len > VSYMLINK_MAX_PLAIN)
		return -ENAMETOOLONG;
	n = vsymlink_encode(v->kr, v->rootfd, target, len, text);
	return n < 0 ? n : 0;
}

int vlinktext_needs_dir(const struct vlinktext_volume *v, const char *text,
			size_t len)
{
	/* a version-2 volume holds version-2 texts only; a version-1 volume
	 * may hold both while an upgrade is unfinished (docs/format.md 10) */
	return v->version < 2 &&
	       vsymlink_form(text, len, v->blocksize) == VSYMLINK_V1;
}

int vlinktext_decode(const struct vlinktext_volume *v,
		     const uint8_t *dirnonce, const char *text, size_t len,
		     char out[VSYMLINK_MAX_PLAIN + 1])
{
	if (vlinktext_needs_dir(v, text, len))
		return dirnonce ? vdir_target_decrypt(v->kr, dirnonce, text,
						      len, out)
				: -EINVAL;
	return vsymlink_decode(v->kr, v->rootfd, text, len, out);
}
