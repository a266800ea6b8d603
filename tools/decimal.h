/* SPDX-License-Identifier: MIT */
/*
 * Strict decimal numbers for command-line arguments and mount options:
 * digits only (no sign, space, base prefix or suffix, which strtoul would
 * let through: "-1" wraps, " 5" and "0x10" parse), within a maximum.
 */
#ifndef CLOAKFS_TOOLS_DECIMAL_H
#define CLOAKFS_TOOLS_DECIMAL_H

/* *out = s when s is 0..max in decimal digits: 0; else -EINVAL */
int decimal_parse(const char *s, unsigned long long max, unsigned long long *out);

#endif
