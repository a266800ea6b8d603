// SPDX-License-Identifier: MIT
/*
 * AEAD_CHACHA20_POLY1305 (RFC 8439, section 2.8) in portable C:
 * "rfc7539-chacha20-poly1305-generic", the rfc7539 template
 * (crypto/templates/rfc7539.c) over chacha20-generic and
 * poly1305-generic, and the AEAD's vectors, which every instance of the
 * template passes (the SIMD ones: chacha20poly1305-x86-glue.c).
 */
#include "crypto/chacha20poly1305/chacha.h"
#include "crypto/chacha20poly1305/chacha20.h"
#include "crypto/chacha20poly1305/chacha20poly1305.h"
#include "crypto/chacha20poly1305/poly1305.h"
#include "crypto/internal/registry.h"

/* RFC 8439 2.8.2's plaintext, draft-irtf-cfrg-xchacha's too */
#define SUNSCREEN                              \
	"4c616469657320616e642047656e746c"     \
	"656d656e206f662074686520636c6173"     \
	"73206f66202739393a20496620492063"     \
	"6f756c64206f6666657220796f75206f"     \
	"6e6c79206f6e652074697020666f7220"     \
	"746865206675747572652c2073756e73"     \
	"637265656e20776f756c642062652069"     \
	"742e"

static const struct aead_testvec chacha20poly1305_rfc8439_tv[] = {
	{ /* RFC 8439 2.8.2: "sunscreen", sender id 7 */
		.key = "808182838485868788898a8b8c8d8e8f"
		       "909192939495969798999a9b9c9d9e9f",
		.nonce = "070000004041424344454647",
		.aad = "50515253c0c1c2c3c4c5c6c7",
		.ptext = SUNSCREEN,
		.ctext = "d31a8d34648e60db7b86afbc53ef7ec2"
			 "a4aded51296e08fea9e2b5a736ee62d6"
			 "3dbea45e8ca9671282fafb69da92728b"
			 "1a71de0a9e060b2905d6a5b67ecd3b36"
			 "92ddbd7f2d778b8c9803aee328091b58"
			 "fab324e4fad675945585808b4831d7bc"
			 "3ff4def08e4b7a9de576d26586cec64b"
			 "6116",
		.tag = "1ae10b594f09e26a7e902ecbd0600691",
	},
	{ /* RFC 8439 A.5: the decryption example, 265 bytes */
		.key = "1c9240a5eb55d38af333888604f6b5f0"
		       "473917c1402b80099dca5cbc207075c0",
		.nonce = "000000000102030405060708",
		.aad = "f33388860000000000004e91",
		.ptext = "496e7465726e65742d44726166747320"
			 "61726520647261667420646f63756d65"
			 "6e74732076616c696420666f72206120"
			 "6d6178696d756d206f6620736978206d"
			 "6f6e74687320616e64206d6179206265"
			 "20757064617465642c207265706c6163"
			 "65642c206f72206f62736f6c65746564"
			 "206279206f7468657220646f63756d65"
			 "6e747320617420616e792074696d652e"
			 "20497420697320696e617070726f7072"
			 "6961746520746f2075736520496e7465"
			 "726e65742d4472616674732061732072"
			 "65666572656e6365206d617465726961"
			 "6c206f7220746f206369746520746865"
			 "6d206f74686572207468616e20617320"
			 "2fe2809c776f726b20696e2070726f67"
			 "726573732e2fe2809d",
		.ctext = "64a0861575861af460f062c79be643bd"
			 "5e805cfd345cf389f108670ac76c8cb2"
			 "4c6cfc18755d43eea09ee94e382d26b0"
			 "bdb7b73c321b0100d4f03b7f355894cf"
			 "332f830e710b97ce98c8a84abd0b9481"
			 "14ad176e008d33bd60f982b1ff37c855"
			 "9797a06ef4f0ef61c186324e2b350638"
			 "3606907b6a7c02b0f9f6157b53c867e4"
			 "b9166c767b804d46a59b5216cde7a4e9"
			 "9040c5a40433225ee282a1b0a06c523e"
			 "af4534d7f83fa1155b0047718cbc546a"
			 "0d072b04b3564eea1b422273f548271a"
			 "0bb2316053fa76991955ebd63159434e"
			 "cebb4e466dae5a1073a6727627097a10"
			 "49e617d91d361094fa68f0ff77987130"
			 "305beaba2eda04df997b714d6c6f2c29"
			 "a6ad5cb4022b02709b",
		.tag = "eead9d67890cbb22392336fea1851f38",
	},
};

/* draft-irtf-cfrg-xchacha-03 A.3.1 (libsodium's output for it too) */
static const struct aead_testvec xchacha20poly1305_draft_tv[] = {
	{
		.key = "808182838485868788898a8b8c8d8e8f"
		       "909192939495969798999a9b9c9d9e9f",
		.nonce = "404142434445464748494a4b4c4d4e4f5051525354555657",
		.aad = "50515253c0c1c2c3c4c5c6c7",
		.ptext = SUNSCREEN,
		.ctext = "bd6d179d3e83d43b9576579493c0e939"
			 "572a1700252bfaccbed2902c21396cbb"
			 "731c7f1b0b4aa6440bf3a82f4eda7e39"
			 "ae64c6708c54c216cb96b72e1213b452"
			 "2f8c9ba40db5d945b11b69b982c1bb9e"
			 "3f3fac2bc369488f76b2383565d3fff9"
			 "21f9664c97637da9768812f615c68b13"
			 "b52e",
		.tag = "c0875924c1c7987947deafd8780acf49",
	},
};

static const struct crypto_testvecs chacha20poly1305_aead_testvecs[] = {
	{
		.alg_name = "rfc7539(chacha20,poly1305)",
		.source = "RFC 8439 section 2.8.2 and appendix A.5",
		.count = ARRAY_SIZE(chacha20poly1305_rfc8439_tv),
		.aead = chacha20poly1305_rfc8439_tv,
	},
	{
		.alg_name = "xchacha20poly1305",
		.source = "draft-irtf-cfrg-xchacha-03 appendix A.3.1",
		.count = ARRAY_SIZE(xchacha20poly1305_draft_tv),
		.aead = xchacha20poly1305_draft_tv,
	},
};

int chacha20poly1305_generic_register(struct crypto_registry *reg)
{
	int err = chacha20_generic_register(reg);

	if (!err)
		err = xchacha_generic_register(reg);
	if (!err)
		err = poly1305_generic_register(reg);
	if (!err)
		err = crypto_register_template_as(reg,
			"rfc7539(chacha20-generic,poly1305-generic)",
			"rfc7539-chacha20-poly1305-generic");
	if (!err)
		err = crypto_register_template_as(reg,
			"xchacha20poly1305(chacha20-generic,poly1305-generic)",
			"xchacha20poly1305-generic");
	return err ? err : crypto_register_testvec_sets(reg,
				chacha20poly1305_aead_testvecs,
				ARRAY_SIZE(chacha20poly1305_aead_testvecs));
}
