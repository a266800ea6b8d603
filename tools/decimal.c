/* SPDX-License-Identifier: MIT */
/* see decimal.h */
#include "tools/decimal.h"

#include <errno.h>
#include <stdlib.h>

int decimal_parse(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}
