// SPDX-License-Identifier: MIT
/*
 * Known-answer vectors for "sha512" and "hmac(sha512)" (the HMAC
 * template of crypto/templates/hmac.c over each sha512 driver).
 */
#include "crypto/internal/registry.h"
#include "crypto/sha512/sha512.h"

/*
 * NIST CSRC "Examples with Intermediate Values" for FIPS 180-4: SHA512.pdf
 * (one- and two-block messages) and SHA2_Additional.pdf (#1, the empty
 * message); one million 'a' from FIPS 180-2 appendix C.3.
 */
static const struct hash_testvec sha512_nist_tv[] = {
	{ /* FIPS 180-4 / CSRC SHA512.pdf: "abc", one block */
		.msg = "616263",
		.digest = "ddaf35a193617abacc417349ae204131"
			  "12e6fa4e89a97ea20a9eeee64b55d39a"
			  "2192992a274fc1a836ba3c23a3feebbd"
			  "454d4423643ce80e2a9ac94fa54ca49f",
	},
	{ /* CSRC SHA512.pdf: the 896-bit two-block message */
		.msg = "61626364656667686263646566676869"
		       "636465666768696a6465666768696a6b"
		       "65666768696a6b6c666768696a6b6c6d"
		       "6768696a6b6c6d6e68696a6b6c6d6e6f"
		       "696a6b6c6d6e6f706a6b6c6d6e6f7071"
		       "6b6c6d6e6f7071726c6d6e6f70717273"
		       "6d6e6f70717273746e6f707172737475",
		.digest = "8e959b75dae313da8cf4f72814fc143f"
			  "8f7779c6eb9f7fa17299aeadb6889018"
			  "501d289e4900f7e4331b99dec4b5433a"
			  "c7d329eeb6dd26545e96e55b874be909",
	},
	{ /* CSRC SHA2_Additional.pdf #1: the empty message */
		.msg = "",
		.digest = "cf83e1357eefb8bdf1542850d66d8007"
			  "d620e4050b5715dc83f4a921d36ce9ce"
			  "47d0d13c5d85f2b0ff8318d2877eec2f"
			  "63b931bd47417a81a538327af927da3e",
	},
	{ /* FIPS 180-2 C.3: one million 'a' (repeat) */
		.msg = "61",
		.repeat = 1000000,
		.digest = "e718483d0ce769644e2e42c7bc15b463"
			  "8e1f98b13b2044285632a803afa973eb"
			  "de0ff244877ea60a4cb0432ce577c31b"
			  "eb009c5c2c49aa2e4eadb217ad8cc09b",
	},
};

/*
 * RFC 4231 section 4, HMAC-SHA-512 test cases 1-4, 6 and 7. Case 5 is
 * left out: the RFC gives only the first 128 bits of its output, and
 * these vectors compare whole digests (test_oracle_openssl_chacha_sha
 * checks its prefix). Cases 3 and 4 repeat one data byte 50 times.
 */
static const struct hash_testvec hmac_sha512_rfc4231_tv[] = {
	{ /* case 1 */
		.key = "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"
		       "0b0b0b0b",
		.msg = "4869205468657265",
		.digest = "87aa7cdea5ef619d4ff0b4241a1d6cb0"
			  "2379f4e2ce4ec2787ad0b30545e17cde"
			  "daa833b7d6b8a702038b274eaea3f4e4"
			  "be9d914eeb61f1702e696c203a126854",
	},
	{ /* case 2: key shorter than the output */
		.key = "4a656665",
		.msg = "7768617420646f2079612077616e7420"
		       "666f72206e6f7468696e673f",
		.digest = "164b7a7bfcf819e2e395fbe73b56e0a3"
			  "87bd64222e831fd610270cd7ea250554"
			  "9758bf75c05a994a6d034f65f8f0e6fd"
			  "caeab1a34d4a6b4b636e070a38bce737",
	},
	{ /* case 3: 50 bytes of 0xdd */
		.key = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaa",
		.msg = "dd",
		.repeat = 50,
		.digest = "fa73b0089d56a284efb0f0756c890be9"
			  "b1b5dbdd8ee81a3655f83e33b2279d39"
			  "bf3e848279a722c806b485a47e67c807"
			  "b946a337bee8942674278859e13292fb",
	},
	{ /* case 4: 50 bytes of 0xcd */
		.key = "0102030405060708090a0b0c0d0e0f10"
		       "111213141516171819",
		.msg = "cd",
		.repeat = 50,
		.digest = "b0ba465637458c6990e5a8c5f61d4af7"
			  "e576d97ff94b872de76f8050361ee3db"
			  "a91ca5c11aa25eb4d679275cc5788063"
			  "a5f19741120c4f2de2adebeb10a298dd",
	},
	{ /* case 6: 131-byte key, hashed first */
		.key = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaa",
		.msg = "54657374205573696e67204c61726765"
		       "72205468616e20426c6f636b2d53697a"
		       "65204b6579202d2048617368204b6579"
		       "204669727374",
		.digest = "80b24263c7c1a3ebb71493c1dd7be8b4"
			  "9b46d1f41b4aeec1121b013783f8f352"
			  "6b56d037e05f2598bd0fd2215d6a1e52"
			  "95e64f73f63f0aec8b915a985d786598",
	},
	{ /* case 7: 131-byte key and 152-byte data */
		.key = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaa",
		.msg = "54686973206973206120746573742075"
		       "73696e672061206c6172676572207468"
		       "616e20626c6f636b2d73697a65206b65"
		       "7920616e642061206c61726765722074"
		       "68616e20626c6f636b2d73697a652064"
		       "6174612e20546865206b6579206e6565"
		       "647320746f2062652068617368656420"
		       "6265666f7265206265696e6720757365"
		       "642062792074686520484d414320616c"
		       "676f726974686d2e",
		.digest = "e37b6a775dc87dbaa4dfa9f96e5e3ffd"
			  "debd71f8867289865df5a32d20cdc944"
			  "b6022cac3c4982b10d5eeb55c3e4de15"
			  "134676fb6de0446065c97440fa8c6a58",
	},
};

static const struct crypto_testvecs sha512_testvecs = {
	.alg_name = "sha512",
	.source = "NIST CSRC SHA-512 examples (FIPS 180-4), FIPS 180-2 C.3 (10^6 'a')",
	.count = ARRAY_SIZE(sha512_nist_tv),
	.hash = sha512_nist_tv,
};

static const struct crypto_testvecs hmac_sha512_testvecs = {
	.alg_name = "hmac(sha512)",
	.source = "RFC 4231 section 4, test cases 1-4, 6, 7 (5 is truncated)",
	.count = ARRAY_SIZE(hmac_sha512_rfc4231_tv),
	.hash = hmac_sha512_rfc4231_tv,
};

int sha512_register_testvecs(struct crypto_registry *reg)
{
	int err = crypto_register_testvecs(reg, &sha512_testvecs);

	if (err)
		return err;
	return crypto_register_testvecs(reg, &hmac_sha512_testvecs);
}
