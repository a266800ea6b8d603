/* SPDX-License-Identifier: MIT */
/* Pieces the cloakfs command-line tools share. */
#ifndef CLOAKFS_TOOLS_CLI_H
#define CLOAKFS_TOOLS_CLI_H

/*
 * --list: run the self-test of every driver this CPU can run, then print
 * one line per driver (crypto_format_driver_line). Returns an exit code.
 */
int cli_list_drivers(void);

#endif
