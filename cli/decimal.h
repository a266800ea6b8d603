/* SPDX-License-Identifier: MIT */
/*
 * Strict decimal numbers and durations for command-line arguments and
 * mount options:
 * digits only (no sign, space, base prefix or suffix, which strtoul would
 * let through: "-1" wraps, " 5" and "0x10" parse), within a maximum.
 */
#ifndef CLOAKFS_CLI_DECIMAL_H
#define CLOAKFS_CLI_DECIMAL_H

/* *out = s when s is 0..max in decimal digits: 0; else -EINVAL */
int decimal_parse(const char *s, unsigned long long max, unsigned long long *out);

/*
 * A duration: decimal digits with an optional fraction ("1.5") and an
 * optional unit s, m, h or d ("90s", "10m", "2h"); without a unit the
 * number counts plain_unit seconds (60 for the mount's --idle, which
 * took minutes; 1 for keytool's --ttl, which took seconds). *ms = the
 * duration in milliseconds when it is at most max_ms: 0; else -EINVAL.
 */
int duration_parse(const char *s, unsigned int plain_unit,
		   unsigned long long max_ms, unsigned long long *ms);

#endif
