/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-enc: drive any crypto driver from the command line (in the
 * spirit of libkcapi's kcapi-enc). Reads stdin, writes stdout; the work
 * is in enc.c.
 */
#include <stdio.h>
#include <unistd.h>

#include "tools/enc.h"

int main(int argc, char **argv)
{
	return cloakfs_enc_main(argc, argv, STDIN_FILENO, STDOUT_FILENO, stderr);
}
