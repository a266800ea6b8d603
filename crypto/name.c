/* SPDX-License-Identifier: MIT */
/*
 * Kernel-style algorithm and instance names: "t(a,b)" is template t over
 * the children a and b, each of which may be such a name itself
 * ("hctr2_base(xctr(aes),polyval)"). See crypto_name_parse in core.h.
 */
#include <errno.h>
#include <string.h>

#include "crypto/internal/core.h"

/* copy n bytes of s into a buffer of size cap; -EINVAL when empty or long */
static int copy_part(char *dst, size_t cap, const char *s, size_t n)
{
	if (!n || n >= cap)
		return -EINVAL;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

int crypto_name_parse(const char *name, struct crypto_name *out)
{
	const char *open = strchr(name, '('), *arg;
	int depth = 0;

	memset(out, 0, sizeof(*out));
	if (!open)
		return strpbrk(name, "),") ? -EINVAL :
		       copy_part(out->tmpl, sizeof(out->tmpl), name, strlen(name));
	if (copy_part(out->tmpl, sizeof(out->tmpl), name, (size_t)(open - name)))
		return -EINVAL;
	arg = open + 1;
	for (const char *p = arg; *p; p++) {
		if (*p == '(') {
			depth++;
			continue;
		}
		if (*p != ')' && (*p != ',' || depth))
			continue;
		if (*p == ')' && depth) {
			depth--;
			continue;
		}
		/* a top-level ',' or the closing ')': one argument ends */
		if (out->nargs >= CRYPTO_MAX_CHILDREN ||
		    copy_part(out->args[out->nargs], sizeof(out->args[0]), arg,
			      (size_t)(p - arg)))
			return -EINVAL;
		out->nargs++;
		arg = p + 1;
		if (*p == ')')
			return p[1] ? -EINVAL : 0; /* nothing may follow */
	}
	return -EINVAL; /* no closing parenthesis */
}
