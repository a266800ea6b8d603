/* SPDX-License-Identifier: MIT */
/*
 * Known-answer vectors for sm4 and its modes, as hex copied from their
 * sources (named per set). Every vector here was also checked against
 * libgcrypt 1.10.1; the few that libgcrypt produced are labelled so.
 */
#include "crypto/internal/registry.h"
#include "crypto/internal/testvec-data.h"
#include "crypto/sm4/sm4-internal.h"

#define K0123 "0123456789abcdeffedcba9876543210"
#define KFEDC "fedcba98765432100123456789abcdef"
#define IV00 "000102030405060708090a0b0c0d0e0f"
#define Z16 "00000000000000000000000000000000"
/* draft-ribose-cfrg-sm4-10 A.2 plaintexts */
#define PT_ABCD "aaaaaaaabbbbbbbbccccccccdddddddd" \
		"eeeeeeeeffffffffaaaaaaaabbbbbbbb"
#define PT_AB64 "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb" \
		"ccccccccccccccccdddddddddddddddd" \
		"eeeeeeeeeeeeeeeeffffffffffffffff" \
		"aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb"

/*
 * 33 blocks, so the self-test reaches the 64-lane layout of sm4-generic
 * (and its 16-block one when decrypting the last 32): generated with
 * libgcrypt 1.10.1 (ECB), plaintext bytes 0x00, 0x01, ... mod 256.
 */
#define PT_528 TV_HEX_SEQ_256 TV_HEX_SEQ_256 TV_HEX_SEQ_16
#define CT_528 \
	"06989c613da668ad2a8df782e1a8f96a" \
	"4b910651754b5553f10cfa0c8a09e9e5" \
	"f42952cf94ac83688437c9b671d6c7fa" \
	"d55bfd68e7901219f41fab48427ab58d" \
	"718e2043bac7ec8bfd57a90711865015" \
	"0c2c0fab0b4e22ee8de3028b161a7c37" \
	"1cd7855afd87ef606bcfedad65c86b5b" \
	"596849dc7c7a6d63ca3a767538d15ef6" \
	"274ce8f040d663da6e6dab9c5638b0f0" \
	"3ae7764fd21a7e3fd8a0a01b5ea5ee7d" \
	"7b394a3279148396bc321ece57ad1c7d" \
	"0834b5b1b574d0eca777704293b3d706" \
	"6c6db629d0dbb08939d0feaa80a0b037" \
	"6625d79c1f4dfb4ecaef50a90afd3d46" \
	"6b72b123f62c39c6ab8271bb1d2be38b" \
	"5e22e6c782c5b0bdf160158ac77978b7" \
	"06989c613da668ad2a8df782e1a8f96a" \
	"4b910651754b5553f10cfa0c8a09e9e5" \
	"f42952cf94ac83688437c9b671d6c7fa" \
	"d55bfd68e7901219f41fab48427ab58d" \
	"718e2043bac7ec8bfd57a90711865015" \
	"0c2c0fab0b4e22ee8de3028b161a7c37" \
	"1cd7855afd87ef606bcfedad65c86b5b" \
	"596849dc7c7a6d63ca3a767538d15ef6" \
	"274ce8f040d663da6e6dab9c5638b0f0" \
	"3ae7764fd21a7e3fd8a0a01b5ea5ee7d" \
	"7b394a3279148396bc321ece57ad1c7d" \
	"0834b5b1b574d0eca777704293b3d706" \
	"6c6db629d0dbb08939d0feaa80a0b037" \
	"6625d79c1f4dfb4ecaef50a90afd3d46" \
	"6b72b123f62c39c6ab8271bb1d2be38b" \
	"5e22e6c782c5b0bdf160158ac77978b7" \
	"06989c613da668ad2a8df782e1a8f96a"

/* ---- sm4 --------------------------------------------------------------- */
static const struct cipher_testvec sm4_tv[] = {
	/* GB/T 32907-2016 Appendix A, example 1 */
	{ K0123, NULL, K0123, "681edf34d206965e86b3e94f536e4246" },
	/* first block of draft-ribose-cfrg-sm4-10 A.2.1.2 */
	{ KFEDC, NULL, "aaaaaaaabbbbbbbbccccccccdddddddd",
	  "c5876897e4a59bbba72a10c83872245b" },
	/* libgcrypt-generated, see PT_528 */
	{ K0123, NULL, PT_528, CT_528 },
};

/* ---- ecb(sm4): Linux crypto/testmgr.h sm4_tv_template ----------------- */
static const struct cipher_testvec sm4_ecb_tv[] = {
	/* draft-ribose-cfrg-sm4-10 A.2.1.1 */
	{ K0123, NULL, PT_ABCD,
	  "5ec8143de509cff7b5179f8f474b8619"
	  "2f1d305a7fb17df985f81c8482192304" },
	/* A.2.1.2 */
	{ KFEDC, NULL, PT_ABCD,
	  "c5876897e4a59bbba72a10c83872245b"
	  "12dd90bc2d200692b529a4155ac9e600" },
	/*
	 * The last ten of the 1,000,000 iterations of GB/T 32907-2016
	 * example 2: each block encrypts to the next.
	 */
	{ K0123, NULL,
	  "994ac3e7c357896a81fca80e383eef80"
	  "b198f2de3f4baed1f0f1304c01275a8f"
	  "45e139b7aeff1f27ad5715ab315d0cef"
	  "8cc880bd1198f37ba2dd1420f9e8bb82"
	  "f732ca4ba8f7b34d27d1cde6b6655a23"
	  "c2f3548453e3b920a53700bee77b48fb"
	  "213d9e481d9ef5bf77d5b44a5371947a"
	  "88a66e0693ca43a5c4f6cd534b7b8efe"
	  "b4287c4229325d88edce00190e16026e"
	  "87ff2cace8e7e9bf3151ec47c35183c1",
	  "b198f2de3f4baed1f0f1304c01275a8f"
	  "45e139b7aeff1f27ad5715ab315d0cef"
	  "8cc880bd1198f37ba2dd1420f9e8bb82"
	  "f732ca4ba8f7b34d27d1cde6b6655a23"
	  "c2f3548453e3b920a53700bee77b48fb"
	  "213d9e481d9ef5bf77d5b44a5371947a"
	  "88a66e0693ca43a5c4f6cd534b7b8efe"
	  "b4287c4229325d88edce00190e16026e"
	  "87ff2cace8e7e9bf3151ec47c35183c1"
	  "595298c7c6fd271f0402f804c33d3f66" },
	/* libgcrypt-generated, see PT_528 */
	{ K0123, NULL, PT_528, CT_528 },
};

/* ---- cbc(sm4) ---------------------------------------------------------- */
static const struct cipher_testvec sm4_cbc_tv[] = {
	/* testmgr.h sm4_cbc_tv_template: draft-ribose-cfrg-sm4-10 A.2.2.1 */
	{ K0123, IV00, PT_ABCD,
	  "78ebb11cc40b0a48312aaeb2040244cb"
	  "4cb7016951909226979b0d15dc6a8f6d" },
	/* A.2.2.2 */
	{ KFEDC, IV00, PT_ABCD,
	  "0d3a6ddc2d21c698857215587b7bb59a"
	  "91f2c147911a4144665e1fa1d40bae38" },
	/* OpenSSL evpciph_sm4.txt (from draft-ribose-cfrg-sm4) */
	{ K0123, K0123, K0123 K0123,
	  "2677f46b09c122cc975533105bd4a22a"
	  "f6125f7275ce552c3a2bbcf533de8a3b" },
};

/* ---- cfb(sm4), full-block CFB ------------------------------------------ */
static const struct cipher_testvec sm4_cfb_tv[] = {
	/* OpenSSL evpciph_sm4.txt (from draft-ribose-cfrg-sm4) */
	{ K0123, K0123, K0123 K0123,
	  "693d9a535bad5bb1786f53d7253a7056"
	  "9ed258a85a0467cc92aab393dd978995" },
	/* generated with libgcrypt 1.10.1 (CFB mode): partial tail */
	{ K0123, IV00, "aaaaaaaabbbbbbbbccccccccdddddddd" "eeeeeeeeffffffffaa",
	  "ac3236cb861dd316e6413b4e3c7524b7" "69d4c54ed433b9a034" },
};

/* ---- ctr(sm4), 128-bit big-endian counter ------------------------------- */
static const struct cipher_testvec sm4_ctr_tv[] = {
	/* testmgr.h sm4_ctr_tv_template: draft-ribose-cfrg-sm4-10 A.2.5.1 */
	{ K0123, IV00, PT_AB64,
	  "ac3236cb970cc20791364c395a1342d1"
	  "a3cbc1878c6f30cd074cce385cdd70c7"
	  "f234bc0e24c11980fd1286310ce37b92"
	  "6e02fcd0faa0baf38b2933851d824514" },
	/* A.2.5.2 */
	{ KFEDC, IV00, PT_AB64,
	  "5dcccd25b95ab07417a08512ee160e2f"
	  "8f661521cbbab44cc87138445bc29e5c"
	  "0ae0297205d62704173b21239b887f6c"
	  "8cb5b800917a2488284bde9e16ea2906" },
	/* OpenSSL evpciph_sm4.txt */
	{ K0123, K0123,
	  "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb"
	  "ccccccccccccccccdddddddddddddddd"
	  "eeeeeeeeeeeeeeeeffffffffffffffff"
	  "eeeeeeeeeeeeeeeeaaaaaaaaaaaaaaaa",
	  "c2b4759e78ac3cf43d0852f4e8d5f9fd"
	  "7256e8a5fcb65a350ee00630912e4449"
	  "2a0b17e1b85b060d0fba612d8a958316"
	  "38b361fd5ffacd942f081485a83ca35d" },
	/* generated with libgcrypt 1.10.1: counter wrap, partial tail */
	{ K0123, "fffffffffffffffffffffffffffffffe", PT_ABCD "aa",
	  "ccb8be1b7293983553b0d4375e522585"
	  "86ff4190f68c9b182c51ef64e621db4b" "8c" },
};

/* ---- cts(cbc(sm4)), CBC-CS3 as the kernel -------------------------------- */
#define KCTS "636869636b656e207465726979616b69"
#define PCTS "4920776f756c64206c696b6520746865" \
	     "2047656e6572616c2047617527732043" \
	     "6869636b656e2c20706c656173652c20" \
	     "616e6420776f6e746f6e20736f75702e"
static const struct cipher_testvec sm4_cts_tv[] = {
	/* testmgr.h sm4_cts_tv_template (the kernel's, from AES-CTS inputs) */
	{ KCTS, Z16, "4920776f756c64206c696b652074686520",
	  "05fe23ee17a28998bc970a0b5467cad7d6" },
	{ KCTS, Z16,
	  "4920776f756c64206c696b6520746865"
	  "2047656e6572616c20476175277320",
	  "1546e495a4ecf0b849d66a9d89c7fd70"
	  "d671c8c04d527c6693f770bba83fa3" },
	{ KCTS, Z16,
	  "4920776f756c64206c696b6520746865"
	  "2047656e6572616c2047617527732043",
	  "89c7993f87695cd3016abfd43f7902a3"
	  "d671c8c04d527c6693f770bba83fa3cf" },
	{ KCTS, Z16,
	  "4920776f756c64206c696b6520746865"
	  "2047656e6572616c2047617527732043"
	  "6869636b656e2c20706c656173652c",
	  "d671c8c04d527c6693f770bba83fa3cf"
	  "d3e1dcebfa041199decf6f4d7b09927f"
	  "89c7993f87695cd3016abfd43f7902" },
	{ KCTS, Z16,
	  "4920776f756c64206c696b6520746865"
	  "2047656e6572616c2047617527732043"
	  "6869636b656e2c20706c656173652c20",
	  "d671c8c04d527c6693f770bba83fa3cf"
	  "9abd7bfe82abcc7fbd99210c5e4ded20"
	  "89c7993f87695cd3016abfd43f7902a3" },
	{ KCTS, Z16, PCTS,
	  "d671c8c04d527c6693f770bba83fa3cf"
	  "89c7993f87695cd3016abfd43f7902a3"
	  "5819a48fa9685e6b2c0f81601598274f"
	  "9abd7bfe82abcc7fbd99210c5e4ded20" },
	/* generated with libgcrypt 1.10.1 (CBC, CBC_CTS flag): non-zero IV */
	{ KCTS, IV00, "4920776f756c64206c696b6520746865" "2047656e6572",
	  "2563e11982858c110b863441ec54afa9" "30d7a8dd10fb" },
};

/* ---- xts(sm4), IEEE 1619 with ciphertext stealing ---------------------- */
static const struct cipher_testvec sm4_xts_tv[] = {
	/* testmgr.h sm4_xts_tv_template (the kernel's, from AES-XTS inputs) */
	{ Z16 Z16, Z16, Z16 Z16,
	  "d9b421f731c894fdc35b77291fe4e3b0"
	  "2a1fb76698d59f0e51376c4ada5bc75d" },
	{ "11111111111111111111111111111111"
	  "22222222222222222222222222222222",
	  "33333333330000000000000000000000",
	  "44444444444444444444444444444444"
	  "44444444444444444444444444444444",
	  "a74d726c11196a32be04e001ff29d0c7"
	  "932f9f3ec29bfcb64dd17f63cbd3ea31" },
	{ "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0"
	  "22222222222222222222222222222222",
	  "33333333330000000000000000000000",
	  "44444444444444444444444444444444"
	  "44444444444444444444444444444444",
	  "7f76088effadf70c02ea9f95da0628d3"
	  "51bfcb9eac0563bcf17b710dab0a9826" },
	{ "62497757247093699959574966967627"
	  "02884197169399375105820974944592",
	  "ff000000000000000000000000000000",
	  "000102030405060708090a0b0c0d0e0f"
	  "101112131415161718191a1b1c1d1e1f"
	  "202122232425262728292a2b2c2d2e2f"
	  "303132333435363738393a3b3c3d3e3f"
	  "404142434445464748494a4b4c4d4e4f"
	  "505152535455565758595a5b5c5d5e5f"
	  "606162636465666768696a6b6c6d6e6f"
	  "707172737475767778797a7b7c7d7e7f"
	  "808182838485868788898a8b8c8d8e8f"
	  "909192939495969798999a9b9c9d9e9f"
	  "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf"
	  "b0b1b2b3b4b5b6b7f8f9fafbfc",
	  "a29f9e4e71db283c800ef6b78e571cba"
	  "90da3b6c220068301d630d9e6aad3755"
	  "bc771ec9ad8330d527b26677183ca639"
	  "9c0aaa1f02e1d5659b8dc5973dc50453"
	  "7800e3b01a434eb7c49f38c57ba47064"
	  "78e632d96544c564b8423599ff6675b0"
	  "22d39b6e8dcf6a24fd92b71b04282a61"
	  "dc962a207a2cf1f91215f04dcf2bde33"
	  "41bce7858722b716021cd8a20f1fa3e9"
	  "d84548e7be084e4e237984db4076f513"
	  "78924a2ff91bf280257451459a777897"
	  "d3e0c7c435672ae6b30d629f8b" },
	/*
	 * OpenSSL evpciph_sm4.txt, the "XTSStandard = IEEE" entry (its
	 * other SM4-XTS entries use the GB/T 17964-2021 tweak order)
	 */
	{ "2b7e151628aed2a6abf7158809cf4f3c"
	  "000102030405060708090a0b0c0d0e0f",
	  "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
	  "6bc1bee22e409f96e93d7e117393172a"
	  "ae2d8a571e03ac9c9eb76fac45af8e51"
	  "30c81c46a35ce411e5fbc1191a0a52ef"
	  "f69f2445df4f9b17",
	  "e9538251c71d7b80bbe4483fef497bd1"
	  "b3db1a3e60408c575d63ff7db39f8326"
	  "0869f9e2585fec9f0b863bf8fd784b86"
	  "27d16c0db6d2cfc7" },
};

static const struct crypto_testvecs sm4_testvecs[] = {
	{ "sm4",
	  "GB/T 32907-2016; draft-ribose-cfrg-sm4-10; libgcrypt-generated",
	  ARRAY_SIZE(sm4_tv), sm4_tv, NULL, NULL },
	{ "ecb(sm4)",
	  "Linux testmgr.h (draft-ribose-cfrg-sm4-10, GB/T 32907); libgcrypt",
	  ARRAY_SIZE(sm4_ecb_tv), sm4_ecb_tv, NULL, NULL },
	{ "cbc(sm4)", "Linux testmgr.h; OpenSSL evpciph_sm4.txt",
	  ARRAY_SIZE(sm4_cbc_tv), sm4_cbc_tv, NULL, NULL },
	{ "cfb(sm4)", "OpenSSL evpciph_sm4.txt; libgcrypt-generated",
	  ARRAY_SIZE(sm4_cfb_tv), sm4_cfb_tv, NULL, NULL },
	{ "ctr(sm4)",
	  "Linux testmgr.h; OpenSSL evpciph_sm4.txt; libgcrypt-generated",
	  ARRAY_SIZE(sm4_ctr_tv), sm4_ctr_tv, NULL, NULL },
	{ "cts(cbc(sm4))",
	  "Linux testmgr.h sm4_cts_tv_template; libgcrypt-generated",
	  ARRAY_SIZE(sm4_cts_tv), sm4_cts_tv, NULL, NULL },
	{ "xts(sm4)",
	  "Linux testmgr.h sm4_xts_tv_template; OpenSSL evpciph_sm4.txt",
	  ARRAY_SIZE(sm4_xts_tv), sm4_xts_tv, NULL, NULL },
};

int sm4_register_testvecs(struct crypto_registry *reg)
{
	return crypto_register_testvec_sets(reg, sm4_testvecs,
					    ARRAY_SIZE(sm4_testvecs));
}
