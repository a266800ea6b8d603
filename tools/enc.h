/* SPDX-License-Identifier: MIT */
/*
 * cloakfs-enc's whole logic as a function, so the command's main() and
 * the fuzz target tests/fuzz/fuzz_enc.c run the same code: arguments in
 * argv, input read from in_fd to its end, output written to out_fd,
 * messages (one line per error) to err. Returns the exit code
 * (cli/exitcodes.h); leaves no state behind but the crypto layer's
 * one-time init, so it can be called again (getopt is reset).
 */
#ifndef CLOAKFS_TOOLS_ENC_H
#define CLOAKFS_TOOLS_ENC_H

#include <stdio.h>

int cloakfs_enc_main(int argc, char **argv, int in_fd, int out_fd, FILE *err);

#endif
