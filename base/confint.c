/* SPDX-License-Identifier: MIT */
/* see confint.h */
#include "base/confint.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the end of a comment or string starting at text[i] (libconfig's
 * scanner: '#' and '//' to the line's end, C comments, quoted strings
 * with backslash escapes); i itself when none starts there */
static size_t skip_quoted(const char *t, size_t len, size_t i)
{
	if (t[i] == '#' || (t[i] == '/' && i + 1 < len && t[i + 1] == '/')) {
		while (i < len && t[i] != '\n')
			i++;
	} else if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
		for (i += 2; i < len; i++)
			if (t[i] == '*' && i + 1 < len && t[i + 1] == '/')
				return i + 2;
	} else if (t[i] == '"') {
		for (i++; i < len && t[i] != '"'; i++)
			if (t[i] == '\\' && i + 1 < len)
				i++;
		return i < len ? i + 1 : len;
	}
	return i;
}

/* libconfig's names: [A-Za-z*][-A-Za-z0-9_*]* (true and false too) */
static int name_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '*' || c == '-';
}

static int number_start(const char *t, size_t len, size_t i)
{
	unsigned char c = (unsigned char)t[i];

	if (c == '-' || c == '+')
		return i + 1 < len && (isdigit((unsigned char)t[i + 1]) ||
				       t[i + 1] == '.');
	return isdigit(c) || c == '.';
}

/* a number or float from t[i]: digits, letters (hex digits, x, e, a
 * suffix), '.', and a sign only after a decimal exponent's e */
static size_t number_end(const char *t, size_t len, size_t i)
{
	size_t from = i + (t[i] == '-' || t[i] == '+');
	int hex = from + 1 < len && t[from] == '0' && (t[from + 1] | 0x20) == 'x';

	for (i++; i < len; i++) {
		unsigned char c = (unsigned char)t[i];

		if (isalnum(c) || c == '.')
			continue;
		if ((c == '-' || c == '+') && !hex && (t[i - 1] | 0x20) == 'e')
			continue;
		break;
	}
	return i;
}

/* is t[from..to) (after an optional sign) a plain decimal or hex literal
 * whose value lies outside int's range? */
static int needs_l(const char *t, size_t from, size_t to)
{
	char buf[80];
	int neg = 0, base = 10;
	size_t i = from, n;
	unsigned long long v;
	char *end;

	if (t[i] == '-' || t[i] == '+')
		neg = t[i++] == '-';
	if (to - i > 2 && t[i] == '0' && (t[i + 1] | 0x20) == 'x') {
		if (neg)
			return 0; /* not a literal libconfig knows */
		base = 16;
		i += 2;
	}
	for (n = i; n < to; n++)
		if (base == 10 ? !isdigit((unsigned char)t[n])
			       : !isxdigit((unsigned char)t[n]))
			return 0; /* a float, a suffix, a name */
	if (i == to)
		return 0;
	if (to - i >= sizeof(buf))
		return 1; /* too long for 64 bits as well: libconfig refuses */
	memcpy(buf, t + i, to - i);
	buf[to - i] = '\0';
	errno = 0;
	v = strtoull(buf, &end, base);
	if (errno == ERANGE)
		return 1;
	return neg ? v > (unsigned long long)INT_MAX + 1 : v > INT_MAX;
}

char *confint_widen(const char *text, size_t len)
{
	/* a literal that needs an L has at least 10 digits */
	char *out = malloc(len + len / 2 + 2);
	size_t i = 0, o = 0, end;

	if (!out)
		return NULL;
	while (i < len) {
		int number = 0;

		end = skip_quoted(text, len, i);
		if (end > i) {
			/* a comment or string: as it is */
		} else if (isalpha((unsigned char)text[i]) || text[i] == '*') {
			while (end < len && name_char((unsigned char)text[end]))
				end++;
		} else if (number_start(text, len, i)) {
			end = number_end(text, len, i);
			number = 1;
		} else {
			end = i + 1;
		}
		memcpy(out + o, text + i, end - i);
		o += end - i;
		if (number && needs_l(text, i, end))
			out[o++] = 'L';
		i = end;
	}
	out[o] = '\0';
	return out;
}

char *confint_read_fd(int fd, size_t max, int *err)
{
	char *text = malloc(max + 1), *out = NULL;
	size_t len = 0;

	if (!text) {
		*err = -ENOMEM;
		return NULL;
	}
	for (;;) {
		ssize_t n = read(fd, text + len, max + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*err = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			*err = -EFBIG;
			goto out;
		}
	}
	if (memchr(text, '\0', len)) {
		*err = -EINVAL;
		goto out;
	}
	out = confint_widen(text, len);
	if (!out)
		*err = -ENOMEM;
out:
	free(text);
	return out;
}
