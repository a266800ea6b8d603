/* SPDX-License-Identifier: MIT */
/* see decimal.h */
#include "cli/decimal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int duration_parse(const char *s, unsigned int plain_unit,
		   unsigned long long max_ms, unsigned long long *ms)
{
	static const struct { char name; unsigned int seconds; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	size_t digits = strspn(s, "0123456789"), len = strlen(s), frac = 0;
	unsigned int unit = plain_unit;
	double v;

	if (digits == 0 && s[0] != '.')
		return -EINVAL;
	if (s[digits] == '.') {
		frac = strspn(s + digits + 1, "0123456789");
		if (digits + frac == 0)
			return -EINVAL; /* "." alone */
		digits += 1 + frac;
	}
	if (len == digits + 1) {
		unit = 0;
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (s[digits] == units[i].name)
				unit = units[i].seconds;
		if (!unit)
			return -EINVAL;
	} else if (len != digits) {
		return -EINVAL;
	}
	/* digits only (checked above), so strtod reads exactly them */
	v = strtod(s, NULL) * unit * 1000.0;
	if (!isfinite(v) || v > (double)max_ms)
		return -EINVAL;
	*ms = (unsigned long long)(v + 0.5);
	if (*ms > max_ms)
		*ms = max_ms;
	return 0;
}
