/* SPDX-License-Identifier: MIT */
/*
 * Driver policy: which drivers may be chosen. Sources, later ones adding
 * to or overriding earlier ones:
 *   /etc/cloakfs/crypto.conf, then ~/.config/cloakfs/crypto.conf (or
 *   $XDG_CONFIG_HOME/cloakfs/crypto.conf), or instead of both the file
 *   named by $CLOAKFS_CRYPTO_CONFIG ("" for none);
 *   then $CLOAKFS_CRYPTO, a comma-separated list of
 *     allow-variable-time | generic-only | pin:DRIVER | disable:PATTERN |
 *     priority:PATTERN=N | nocpu:FEATURE
 * Config file (libconfig syntax), every setting optional:
 *   allow_variable_time = false;
 *   generic_only = false;
 *   pin = [ "xts-aes-aesni" ];
 *   disable = [ "*-avx512" ];
 *   priority = ( { driver = "xts-speck128-avx2"; priority = 900; } );
 *   hide_cpu_features = [ "avx512f" ];
 */
#include <errno.h>
#include <fnmatch.h>
#ifdef HAVE_LIBCONFIG
#include <libconfig.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crypto/internal/core.h"

static struct crypto_policy policy;

const struct crypto_policy *policy_get(void)
{
	return &policy;
}

static int add_string(char **arr, unsigned int *n, const char *s)
{
	if (*n >= 32)
		return -ENOSPC;
	arr[*n] = strdup(s);
	if (!arr[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static int add_prio(struct crypto_policy *p, const char *pattern, int prio)
{
	if (p->nprio >= 32)
		return -ENOSPC;
	p->prio[p->nprio].pattern = strdup(pattern);
	if (!p->prio[p->nprio].pattern)
		return -ENOMEM;
	p->prio[p->nprio++].priority = prio;
	return 0;
}

static int hide_feature(struct crypto_policy *p, const char *name)
{
	uint64_t bit = cpu_feature_from_name(name);

	if (!bit)
		return -EINVAL;
	p->cpu_mask |= bit;
	return 0;
}

#ifdef HAVE_LIBCONFIG
static int string_list(config_setting_t *s, const char *file, char **arr,
		       unsigned int *n, char *err, size_t errlen)
{
	int count = config_setting_length(s);

	if (config_setting_type(s) != CONFIG_TYPE_ARRAY &&
	    config_setting_type(s) != CONFIG_TYPE_LIST) {
		snprintf(err, errlen, "%s:%d: '%s' must be a list of strings",
			 file, config_setting_source_line(s), config_setting_name(s));
		return -EINVAL;
	}
	for (int i = 0; i < count; i++) {
		config_setting_t *e = config_setting_get_elem(s, (unsigned int)i);
		const char *v = config_setting_get_string(e);

		if (!v) {
			snprintf(err, errlen, "%s:%d: '%s' must hold strings", file,
				 config_setting_source_line(e), config_setting_name(s));
			return -EINVAL;
		}
		if (arr && add_string(arr, n, v)) {
			snprintf(err, errlen, "%s:%d: too many entries in '%s'",
				 file, config_setting_source_line(e),
				 config_setting_name(s));
			return -EINVAL;
		}
	}
	return 0;
}

static int load_file(struct crypto_policy *p, const char *file, char *err,
		     size_t errlen)
{
	config_t cfg;
	config_setting_t *root;
	int ret = 0;

	if (access(file, F_OK))
		return 0; /* absent is fine */
	config_init(&cfg);
	if (!config_read_file(&cfg, file)) {
		if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
			snprintf(err, errlen, "%s: cannot read: %s", file,
				 strerror(errno));
		else
			snprintf(err, errlen, "%s:%d: %s", file,
				 config_error_line(&cfg), config_error_text(&cfg));
		config_destroy(&cfg);
		return -EINVAL;
	}
	root = config_root_setting(&cfg);
	for (int i = 0; i < config_setting_length(root) && !ret; i++) {
		config_setting_t *s = config_setting_get_elem(root, (unsigned int)i);
		const char *name = config_setting_name(s);
		int line = config_setting_source_line(s);

		if (!strcmp(name, "allow_variable_time") || !strcmp(name, "generic_only")) {
			if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
				snprintf(err, errlen, "%s:%d: '%s' must be true or false",
					 file, line, name);
				ret = -EINVAL;
			} else if (name[0] == 'a') {
				p->allow_variable_time = config_setting_get_bool(s);
			} else {
				p->generic_only = config_setting_get_bool(s);
			}
		} else if (!strcmp(name, "pin")) {
			ret = string_list(s, file, p->pins, &p->npins, err, errlen);
		} else if (!strcmp(name, "disable")) {
			ret = string_list(s, file, p->disable, &p->ndisable, err, errlen);
		} else if (!strcmp(name, "hide_cpu_features")) {
			ret = string_list(s, file, NULL, NULL, err, errlen);
			for (int j = 0; !ret && j < config_setting_length(s); j++) {
				const char *f = config_setting_get_string_elem(s, (unsigned int)j);

				if (hide_feature(p, f)) {
					snprintf(err, errlen, "%s:%d: unknown CPU feature '%s'",
						 file, line, f);
					ret = -EINVAL;
				}
			}
		} else if (!strcmp(name, "priority")) {
			if (!config_setting_is_list(s)) {
				snprintf(err, errlen, "%s:%d: 'priority' must be a list of "
					 "{ driver = \"...\"; priority = N; } groups", file, line);
				ret = -EINVAL;
			}
			for (int j = 0; !ret && j < config_setting_length(s); j++) {
				config_setting_t *g = config_setting_get_elem(s, (unsigned int)j);
				const char *drv = NULL;
				int prio;

				if (!config_setting_lookup_string(g, "driver", &drv) ||
				    !config_setting_lookup_int(g, "priority", &prio)) {
					snprintf(err, errlen, "%s:%d: priority entry needs "
						 "driver (string) and priority (integer)",
						 file, config_setting_source_line(g));
					ret = -EINVAL;
				} else if (add_prio(p, drv, prio)) {
					snprintf(err, errlen, "%s:%d: too many priority entries",
						 file, config_setting_source_line(g));
					ret = -EINVAL;
				}
			}
		} else {
			snprintf(err, errlen, "%s:%d: unknown setting '%s'", file, line,
				 name);
			ret = -EINVAL;
		}
	}
	config_destroy(&cfg);
	return ret;
}
#else
static int load_file(struct crypto_policy *p, const char *file, char *err,
		     size_t errlen)
{
	(void)p;
	if (access(file, F_OK))
		return 0;
	snprintf(err, errlen, "%s: this build has no libconfig to read it; "
		 "use CLOAKFS_CRYPTO instead", file);
	return -ENOTSUP;
}
#endif

static int load_env(struct crypto_policy *p, const char *env, char *err,
		    size_t errlen)
{
	char *copy = strdup(env), *save = NULL, *item;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item && !ret;
	     item = strtok_r(NULL, ",", &save)) {
		if (!strcmp(item, "allow-variable-time")) {
			p->allow_variable_time = 1;
		} else if (!strcmp(item, "generic-only")) {
			p->generic_only = 1;
		} else if (!strncmp(item, "pin:", 4) && item[4]) {
			ret = add_string(p->pins, &p->npins, item + 4);
		} else if (!strncmp(item, "disable:", 8) && item[8]) {
			ret = add_string(p->disable, &p->ndisable, item + 8);
		} else if (!strncmp(item, "nocpu:", 6)) {
			if (hide_feature(p, item + 6)) {
				snprintf(err, errlen, "CLOAKFS_CRYPTO: unknown CPU "
					 "feature '%s'", item + 6);
				ret = -EINVAL;
			}
		} else if (!strncmp(item, "priority:", 9)) {
			char *eq = strrchr(item + 9, '='), *end;
			long v;

			if (!eq || eq == item + 9) {
				ret = -EINVAL;
			} else {
				*eq = '\0';
				v = strtol(eq + 1, &end, 10);
				ret = (*end || end == eq + 1) ? -EINVAL :
					add_prio(p, item + 9, (int)v);
			}
			if (ret)
				snprintf(err, errlen, "CLOAKFS_CRYPTO: bad item "
					 "'priority:%s' (want priority:DRIVER=N)", item + 9);
		} else {
			snprintf(err, errlen, "CLOAKFS_CRYPTO: unknown item '%s' "
				 "(known: allow-variable-time, generic-only, "
				 "pin:DRIVER, disable:PATTERN, priority:PATTERN=N, "
				 "nocpu:FEATURE)", item);
			ret = -EINVAL;
		}
	}
	if (ret && !err[0])
		snprintf(err, errlen, "CLOAKFS_CRYPTO: too many entries");
	free(copy);
	return ret;
}

int policy_load(struct crypto_policy *p, char *err, size_t errlen)
{
	const char *override = getenv("CLOAKFS_CRYPTO_CONFIG");
	const char *env = getenv("CLOAKFS_CRYPTO");
	char path[4096];
	int ret;

	err[0] = '\0';
	if (override) {
		if (override[0] && (ret = load_file(p, override, err, errlen)))
			return ret;
	} else {
		const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

		ret = load_file(p, "/etc/cloakfs/crypto.conf", err, errlen);
		if (ret)
			return ret;
		path[0] = '\0';
		if (xdg && xdg[0])
			snprintf(path, sizeof(path), "%s/cloakfs/crypto.conf", xdg);
		else if (home && home[0])
			snprintf(path, sizeof(path), "%s/.config/cloakfs/crypto.conf", home);
		if (path[0] && (ret = load_file(p, path, err, errlen)))
			return ret;
	}
	if (env && env[0] && (ret = load_env(p, env, err, errlen)))
		return ret;
	return 0;
}

int policy_apply(const struct crypto_policy *p, char *err, size_t errlen)
{
	unsigned int n = registry_count();

	for (unsigned int i = 0; i < p->npins; i++) {
		if (!registry_find_driver(p->pins[i])) {
			snprintf(err, errlen, "crypto policy: pin: unknown driver '%s'",
				 p->pins[i]);
			return -ENOENT;
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		struct crypto_driver *d = registry_driver(i);

		/* generic-only: nothing that needs a CPU feature or is asm */
		if (p->generic_only && (d->features || (d->flags & CRYPTO_F_ARCH)))
			d->disabled = 1;
		for (unsigned int j = 0; j < p->ndisable; j++)
			if (!fnmatch(p->disable[j], d->driver_name, 0))
				d->disabled = 1;
		for (unsigned int j = 0; j < p->nprio; j++)
			if (!fnmatch(p->prio[j].pattern, d->driver_name, 0))
				d->priority = p->prio[j].priority;
	}
	return 0;
}

int policy_init_global(char *err, size_t errlen)
{
	int ret = policy_load(&policy, err, errlen);

	cpu_init(policy.cpu_mask);
	return ret;
}
