/* SPDX-License-Identifier: MIT */
/* see config.h */
#include "daemon/config.h"

#include "base/confint.h"
#include "base/log.h"

#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* a settings file is a few lines; anything larger is not one */
#define DAEMON_CONFIG_MAX (64 * 1024)

void daemon_config_defaults(struct daemon_config *c)
{
	memset(c, 0, sizeof(*c));
	c->log_level = -1;
}

int daemon_config_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/') {
		n = snprintf(buf, len, "%s/cloakfs/cloakfsd.conf", xdg);
	} else {
		if (!home || home[0] != '/') {
			struct passwd *pw = getpwuid(getuid());

			home = pw ? pw->pw_dir : NULL;
		}
		if (!home)
			return -ENOENT;
		n = snprintf(buf, len, "%s/.config/cloakfs/cloakfsd.conf", home);
	}
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* seconds: an int or int64 setting in 0 .. UINT32_MAX - 1 */
static int get_seconds(const config_setting_t *s, uint32_t *out)
{
	long long v;

	if (config_setting_type(s) == CONFIG_TYPE_INT)
		v = config_setting_get_int(s);
	else if (config_setting_type(s) == CONFIG_TYPE_INT64)
		v = config_setting_get_int64(s);
	else
		return -1;
	if (v < 0 || v >= (long long)UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_level(const char *s)
{
	static const char *const names[] = { "debug", "info", "warn", "error" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i;
	return strcmp(s, "warning") ? -1 : LOG_WARN;
}

static int apply_setting(const config_setting_t *s, struct daemon_config *c,
			 const char **why)
{
	const char *name = config_setting_name(s);
	const char *str;

	if (!strcmp(name, "default_ttl") || !strcmp(name, "max_ttl")) {
		uint32_t *dst = name[0] == 'd' ? &c->default_ttl : &c->max_ttl;

		*why = "must be a whole number of seconds (0 .. 4294967294)";
		return get_seconds(s, dst);
	}
	if (!strcmp(name, "socket")) {
		str = config_setting_get_string(s);
		*why = "must be an absolute path shorter than 108 bytes";
		if (!str || str[0] != '/' || strlen(str) >= sizeof(c->socket))
			return -1;
		memcpy(c->socket, str, strlen(str) + 1);
		return 0;
	}
	if (!strcmp(name, "log_level")) {
		str = config_setting_get_string(s);
		*why = "must be \"debug\", \"info\", \"warn\" or \"error\"";
		if (!str || (c->log_level = parse_level(str)) < 0)
			return -1;
		return 0;
	}
	if (!strcmp(name, "allow_root")) {
		*why = "must be true or false";
		if (config_setting_type(s) != CONFIG_TYPE_BOOL)
			return -1;
		c->allow_root = config_setting_get_bool(s);
		return 0;
	}
	*why = "unknown setting (known: default_ttl, max_ttl, socket, log_level, allow_root)";
	return -1;
}

int daemon_config_load(const char *path, bool missing_ok, struct daemon_config *c,
		       char *err, size_t err_len)
{
	config_t cfg;
	config_setting_t *root, *s, *dflt = NULL;
	/* no blocking on a FIFO planted as the file */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), ret = 0;
	struct stat st;
	char *text;

	if (fd < 0) {
		ret = -errno;
		if (ret == -ENOENT && missing_ok)
			return 0;
		snprintf(err, err_len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, err_len, "%s: not a regular file", path);
		return -EINVAL;
	}
	/* integers at their full value, not wrapped at 32 bits (confint.h) */
	text = confint_read_fd(fd, DAEMON_CONFIG_MAX, &ret);
	close(fd);
	if (!text) {
		snprintf(err, err_len, "%s: %s", path, ret == -EFBIG
			 ? "larger than a settings file can be" : ret == -EINVAL
			 ? "not a text file (a NUL byte)" : strerror(-ret));
		return ret;
	}
	config_init(&cfg);
	if (config_read_string(&cfg, text) != CONFIG_TRUE) {
		snprintf(err, err_len, "%s:%d: %s", path, config_error_line(&cfg),
			 config_error_text(&cfg));
		ret = -EINVAL;
		goto out;
	}
	root = config_root_setting(&cfg);
	for (int i = 0; (s = config_setting_get_elem(root, (unsigned)i)); i++) {
		const char *why = "";

		if (apply_setting(s, c, &why) != 0) {
			snprintf(err, err_len, "%s:%u: %s: %s", path,
				 config_setting_source_line(s), config_setting_name(s), why);
			ret = -EINVAL;
			goto out;
		}
		if (!strcmp(config_setting_name(s), "default_ttl"))
			dflt = s;
	}
	if (c->max_ttl && c->default_ttl > c->max_ttl) {
		snprintf(err, err_len, "%s:%u: default_ttl (%u) is above max_ttl (%u)", path,
			 dflt ? config_setting_source_line(dflt) : 0, c->default_ttl, c->max_ttl);
		ret = -EINVAL;
	}
out:
	config_destroy(&cfg);
	free(text);
	return ret;
}
