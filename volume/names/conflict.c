/* SPDX-License-Identifier: MIT */
/* see conflict.h */
#include "volume/names/conflict.h"

#include <errno.h>
#include <string.h>

#define SYNCTHING_TAG ".sync-conflict-"
#define COPY_TAG "conflicted copy "

/* n chars of s all digits? */
static int digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* does s (n chars left) begin with the n chars of lit? */
static int starts(const char *s, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n >= l && memcmp(s, lit, l) == 0;
}

/* ".sync-conflict-YYYYMMDD-HHMMSS-DEVICE": 38 chars, or 0 */
static size_t syncthing_len(const char *s, size_t n)
{
	size_t t = strlen(SYNCTHING_TAG), len = t + 8 + 1 + 6 + 1 + 7;

	if (n < len || !starts(s, n, SYNCTHING_TAG) || !digits(s + t, 8) ||
	    s[t + 8] != '-' || !digits(s + t + 9, 6) || s[t + 15] != '-')
		return 0;
	for (size_t i = t + 16; i < len; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return len;
}

/* a name a tool puts in its marker: no parenthesis, no '/' */
static int who_char(char c)
{
	return c != '(' && c != ')' && c != '/' && c != '\0';
}

/* YYYY-MM-DD */
static int is_date(const char *s, size_t n)
{
	return n >= 10 && digits(s, 4) && s[4] == '-' && digits(s + 5, 2) &&
	       s[7] == '-' && digits(s + 8, 2);
}

/*
 * After the date of a copy marker: [" " HHMMSS] [" (" N ")"] ")", its
 * length, or 0.
 */
static size_t copy_tail_len(const char *s, size_t n)
{
	size_t i = 0, k;

	if (n >= 7 && s[0] == ' ' && digits(s + 1, 6))
		i = 7;
	if (n - i >= 4 && s[i] == ' ' && s[i + 1] == '(') {
		for (k = i + 2; k < n && k < i + 7 && digits(s + k, 1); k++)
			;
		if (k > i + 2 && k < n && s[k] == ')')
			i = k + 1;
	}
	return i < n && s[i] == ')' ? i + 1 : 0;
}

/* " ([<who>'s ]conflicted copy [<who> ]YYYY-MM-DD...)", or 0 */
static size_t copy_len(const char *s, size_t n)
{
	size_t i = 2, k, tail;

	if (n > CONFLICT_MARK_MAX)
		n = CONFLICT_MARK_MAX;
	if (n < 2 || s[0] != ' ' || s[1] != '(')
		return 0;
	if (!starts(s + i, n - i, COPY_TAG)) {
		/* Dropbox's "<who>'s " */
		for (k = i; k < n && who_char(s[k]); k++)
			if (k > i && starts(s + k, n - k, "'s " COPY_TAG))
				break;
		if (k >= n || !starts(s + k, n - k, "'s " COPY_TAG))
			return 0;
		i = k + 3;
	}
	i += strlen(COPY_TAG);
	/* the date, straight away or after Nextcloud's "<who> " */
	for (k = i; k < n && who_char(s[k]); k++) {
		if ((k == i || s[k - 1] == ' ') && is_date(s + k, n - k)) {
			tail = copy_tail_len(s + k + 10, n - k - 10);
			if (tail)
				return k + 10 + tail;
		}
	}
	return 0;
}

size_t conflict_mark_len(const char *s, size_t n)
{
	if (n && s[0] == '.')
		return syncthing_len(s, n);
	return copy_len(s, n);
}

int conflict_next(const char *name, size_t len, size_t from,
		  struct conflict_cut *c)
{
	for (size_t i = from; i < len; i++) {
		size_t l;

		if (name[i] != '.' && name[i] != ' ')
			continue;
		l = conflict_mark_len(name + i, len - i);
		if (l) {
			c->at = i;
			c->len = l;
			return 1;
		}
	}
	return 0;
}

size_t conflict_insert_at(const char *name, size_t len)
{
	const char *dot = len ? memrchr(name, '.', len) : NULL;

	return dot && dot != name ? (size_t)(dot - name) : len;
}

int conflict_cut_out(const char *name, size_t len, const struct conflict_cut *c,
		     char *out, size_t outlen)
{
	size_t rest = len - c->at - c->len;

	if (c->at + c->len > len || len - c->len + 1 > outlen)
		return -ENAMETOOLONG;
	memcpy(out, name, c->at);
	memcpy(out + c->at, name + c->at + c->len, rest);
	out[c->at + rest] = '\0';
	return 0;
}

int conflict_mark(const char *base, size_t blen, const char *mark,
		  size_t mlen, char *out, size_t outlen)
{
	size_t at = conflict_insert_at(base, blen);

	if (blen + mlen + 1 > outlen)
		return -ENAMETOOLONG;
	memcpy(out, base, at);
	memcpy(out + at, mark, mlen);
	memcpy(out + at + mlen, base + at, blen - at);
	out[blen + mlen] = '\0';
	return 0;
}

/* is cut c where conflict_mark would put it in the rest of name? */
static int canonical(const char *name, size_t len, const struct conflict_cut *c)
{
	const char *tail = name + c->at + c->len;
	size_t tlen = len - c->at - c->len;
	const char *dot;

	if (c->at == 0 && tlen == 0)
		return 0; /* nothing but a marker */
	if (tlen)
		/* before the extension: the rest goes on with its only '.' */
		return tail[0] == '.' && !memchr(tail + 1, '.', tlen - 1) &&
		       c->at > 0;
	/* at the end: the rest has no extension */
	dot = c->at ? memrchr(name, '.', c->at) : NULL;
	return !dot || dot == name;
}

int conflict_next_shown(const char *name, size_t len, size_t from,
			struct conflict_cut *c)
{
	while (conflict_next(name, len, from, c)) {
		if (canonical(name, len, c))
			return 1;
		from = c->at + 1;
	}
	return 0;
}
