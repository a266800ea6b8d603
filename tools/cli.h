/* SPDX-License-Identifier: MIT */
/* Pieces the cloakfs command-line tools share. */
#ifndef CLOAKFS_TOOLS_CLI_H
#define CLOAKFS_TOOLS_CLI_H

#include <stdio.h>

/*
 * --list: run the self-test of every driver this CPU can run, then print
 * one line per driver (crypto_format_driver_line) to out. Returns an exit
 * code.
 */
int cli_list_drivers(FILE *out);

#endif
