/* SPDX-License-Identifier: MIT */
/* see pathlex.h */
#include "base/pathlex.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* append the components of p to out[0..*n), which holds an absolute path */
static int walk(const char *p, char *out, size_t len, size_t *n)
{
	while (*p) {
		const char *end = strchrnul(p, '/');
		size_t c = (size_t)(end - p);

		if (c == 2 && p[0] == '.' && p[1] == '.') {
			while (*n > 1 && out[*n - 1] != '/')
				(*n)--;
			if (*n > 1)
				(*n)--; /* the slash before the dropped component */
		} else if (c && !(c == 1 && p[0] == '.')) {
			if (*n + (*n > 1) + c >= len)
				return -ENAMETOOLONG;
			if (*n > 1)
				out[(*n)++] = '/';
			memcpy(out + *n, p, c);
			*n += c;
		}
		p = *end ? end + 1 : end;
	}
	out[*n] = '\0';
	return 0;
}

int path_lexical_abs(const char *path, char *out, size_t len)
{
	char cwd[4096];
	size_t n = 1;
	int err;

	if (!path[0])
		return -EINVAL;
	if (len < 2)
		return -ENAMETOOLONG;
	out[0] = '/';
	out[1] = '\0';
	if (path[0] != '/') {
		/* the kernel's own name of the cwd: it reads no directory */
		if (!getcwd(cwd, sizeof(cwd)))
			return errno == ERANGE ? -ENAMETOOLONG : -errno;
		err = walk(cwd, out, len, &n);
		if (err)
			return err;
	}
	return walk(path, out, len, &n);
}
