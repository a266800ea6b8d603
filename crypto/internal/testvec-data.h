/* SPDX-License-Identifier: MIT */
/*
 * Inputs that the vector sets of several ciphers share (the standards
 * reuse them), as hex strings for struct cipher_testvec.
 */
#ifndef CLOAKFS_CRYPTO_INTERNAL_TESTVEC_DATA_H
#define CLOAKFS_CRYPTO_INTERNAL_TESTVEC_DATA_H

/* bytes 00, 01, ..., ff (IEEE 1619 vectors 4 and 10 take it twice) */
#define TV_HEX_SEQ_16 "000102030405060708090a0b0c0d0e0f"
#define TV_HEX_SEQ_256 \
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" \
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f" \
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f" \
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f" \
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f" \
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf" \
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf" \
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"

/* NIST SP 800-38A F.1-F.5: the same four plaintext blocks everywhere */
#define TV_SP800_38A_P1 "6bc1bee22e409f96e93d7e117393172a"
#define TV_SP800_38A_P2 "ae2d8a571e03ac9c9eb76fac45af8e51"
#define TV_SP800_38A_P3 "30c81c46a35ce411e5fbc1191a0a52ef"
#define TV_SP800_38A_P4 "f69f2445df4f9b17ad2b417be66c3710"
#define TV_SP800_38A_PTEXT \
	TV_SP800_38A_P1 TV_SP800_38A_P2 TV_SP800_38A_P3 TV_SP800_38A_P4

#endif
