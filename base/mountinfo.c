// SPDX-License-Identifier: MIT
/* see mountinfo.h */
#include "base/mountinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* undo mountinfo's \ooo escapes in place */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

int mountinfo_parse(char *line, struct mountinfo_entry *e)
{
	char *save = NULL, *field, *devnum = NULL, *mountpoint = NULL;
	char *type, *source;
	int i = 0;

	line[strcspn(line, "\n")] = '\0';
	for (field = strtok_r(line, " ", &save); field;
	     field = strtok_r(NULL, " ", &save), i++) {
		if (i == 2)
			devnum = field;
		if (i == 4)
			mountpoint = field;
		/* the optional fields end with a lone "-" */
		if (i >= 6 && strcmp(field, "-") == 0)
			break;
	}
	if (!field || !devnum || !mountpoint)
		return -EINVAL;
	type = strtok_r(NULL, " ", &save);
	source = strtok_r(NULL, " ", &save);
	if (!type || !source)
		return -EINVAL;
	unescape(mountpoint);
	unescape(source);
	e->devnum = devnum;
	e->mountpoint = mountpoint;
	e->fstype = type;
	e->source = source;
	return 0;
}

int mountinfo_each(int (*fn)(const struct mountinfo_entry *e, void *arg),
		   void *arg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!f)
		return -errno;
	while (!rc && getline(&line, &cap, f) > 0) {
		struct mountinfo_entry e;

		if (mountinfo_parse(line, &e) == 0)
			rc = fn(&e, arg);
	}
	free(line);
	fclose(f);
	return rc;
}

struct mount_search {
	const char *root;
	char *mnt;
	size_t mntlen;
};

static int match_volume(const struct mountinfo_entry *e, void *arg)
{
	struct mount_search *s = arg;

	if (strcmp(e->fstype, "fuse.cloakfs") != 0 || strcmp(e->source, s->root) != 0)
		return 0;
	snprintf(s->mnt, s->mntlen, "%s", e->mountpoint);
	return 1;
}

int mountinfo_find_volume(const char *root, char *mnt, size_t mntlen)
{
	struct mount_search s = { root, mnt, mntlen };

	return mountinfo_each(match_volume, &s);
}
