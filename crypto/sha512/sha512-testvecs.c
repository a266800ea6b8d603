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

/*
 * NIST CAVP SHAVS byte-oriented vectors (shabytetestvectors.zip, CAVS
 * 11.0): SHA512ShortMsg.rsp at the padding boundaries (111 and 112
 * bytes: the length field fits or needs one more block; 127 and 128) and
 * SHA512LongMsg.rsp's 425-byte message, which reaches a core as three
 * blocks in one call (the other vectors give it one block at a time).
 * tests/crypto/test_sha512_cavp runs the whole files on every driver.
 */
static const struct hash_testvec sha512_cavp_tv[] = {
	{ /* SHA512ShortMsg.rsp, Len = 888 */
		.msg = "324533e685f1852e358eea8ea8b81c288b3f3beb1f2bc2b8d3fdbac318382e3d"
		       "7120de30c9c237aa0a34831deb1e5e060a7969cd3a9742ec1e64b354f7eb290c"
		       "ba1c681c66cc7ea994fdf5614f604d1a2718aab581c1c94931b1387e4b7dc736"
		       "35bf3a7301174075fa70a9227d85d3",
		.digest = "3b26c5170729d0814153becb95f1b65c"
			  "d42f9a6d0649d914e4f69d938b5e9dc0"
			  "41cd0f5c8da0b484d7c7bc7b1bdefb08"
			  "fe8b1bfedc81109345bc9e9a399feedf",
	},
	{ /* SHA512ShortMsg.rsp, Len = 896 */
		.msg = "518985977ee21d2bf622a20567124fcbf11c72df805365835ab3c041f4a9cd8a"
		       "0ad63c9dee1018aa21a9fa3720f47dc48006f1aa3dba544950f87e627f369bc2"
		       "793ede21223274492cceb77be7eea50e5a509059929a16d33a9f54796cde5770"
		       "c74bd3ecc25318503f1a41976407aff2",
		.digest = "c00926a374cde55b8fbd77f50da1363d"
			  "a19744d3f464e07ce31794c5a61b6f9c"
			  "85689fa1cfe136553527fd876be91673"
			  "c2cac2dd157b2defea360851b6d92cf4",
	},
	{ /* SHA512ShortMsg.rsp, Len = 1016 */
		.msg = "c13e6ca3abb893aa5f82c4a8ef754460628af6b75af02168f45b72f8f09e45ed"
		       "127c203bc7bb80ff0c7bd96f8cc6d8110868eb2cfc01037d8058992a6cf2effc"
		       "bfe498c842e53a2e68a793867968ba18efc4a78b21cdf6a11e5de821dcabab14"
		       "921ddb33625d48a13baffad6fe8272dbdf4433bd0f7b813c981269c388f001",
		.digest = "6e56f77f6883d0bd4face8b8d557f144"
			  "661989f66d51b1fe4b8fc7124d66d9d2"
			  "0218616fea1bcf86c08d63bf8f2f2184"
			  "5a3e519083b937e70aa7c358310b5a7c",
	},
	{ /* SHA512ShortMsg.rsp, Len = 1024 */
		.msg = "fd2203e467574e834ab07c9097ae164532f24be1eb5d88f1af7748ceff0d2c67"
		       "a21f4e4097f9d3bb4e9fbf97186e0db6db0100230a52b453d421f8ab9c9a6043"
		       "aa3295ea20d2f06a2f37470d8a99075f1b8a8336f6228cf08b5942fc1fb4299c"
		       "7d2480e8e82bce175540bdfad7752bc95b577f229515394f3ae5cec870a4b2f8",
		.digest = "a21b1077d52b27ac545af63b32746c6e"
			  "3c51cb0cb9f281eb9f3580a6d4996d5c"
			  "9917d2a6e484627a9d5a06fa1b25327a"
			  "9d710e027387fc3e07d7c4d14c6086cc",
	},
	{ /* SHA512LongMsg.rsp, Len = 3400 */
		.msg = "4f7a5618870945b89f194e31b1aa802c5350326dc691df58708e34b48ce666b0"
		       "21d7c92330a69f1832412d8ac224156c9679dfedb383d9f9e13c21035d3d0002"
		       "cfdf79b97ba0223cbbc833b0ad4cdd5229f2ddbbf6b650623d6cc9623da8a17d"
		       "41db8e61cfbe772b23f4872adceb81e5f403535ff5f2ed996a67535994edf12a"
		       "5f1230a494c946ed500e5280b5c8a82ddff369611afe58a85272e870cbd59a10"
		       "12ce8509338a368b2c5dbb3ba2adfb33d30c494acca43896dbd8b03048284137"
		       "4055b81812c6f00c9e2bebe2096021feb69418a272aa356cefdfd22074ae91a8"
		       "d2f1ef599a481c788dbe0afd54aac39672d401ef76d9f83175d177c9b72e2f6a"
		       "b1e7525533d761d8e3603f14ea538904ed142abb3ff929ed55f4c6b17a72c685"
		       "c3820b93463a67338756b2b033231a4f119cbb8d35d270a97791e8622340fc02"
		       "f2093f9b393ad79161eb8c5897e21f7fc4b3ddeec02b736cc3ef04641c6179e8"
		       "25c319f6769f59fa5966f5957e573f9df0a2b76548cedd3e2158433dcb9de63f"
		       "44f9be2b63319477570e14ee504b23b07cb2737a358154277912cd779abbeb10"
		       "36f459c26ab7310f43",
		.digest = "713d5c26de17e1440a36aab93f7cd811"
			  "1cd62fd8bea5099b2b6bf93e470e1eae"
			  "ab8b925c646e9e67ce01b03b33d2b500"
			  "b9400e59f0ecdfb00dd7ddcd230cc837",
	},
};

static const struct crypto_testvecs sha512_sets[] = {
	{
		.alg_name = "sha512",
		.source = "NIST CSRC SHA-512 examples (FIPS 180-4), FIPS 180-2 C.3 (10^6 'a')",
		.count = ARRAY_SIZE(sha512_nist_tv),
		.hash = sha512_nist_tv,
	},
	{
		.alg_name = "sha512",
		.source = "NIST CAVP SHAVS SHA512ShortMsg.rsp, SHA512LongMsg.rsp (CAVS 11.0)",
		.count = ARRAY_SIZE(sha512_cavp_tv),
		.hash = sha512_cavp_tv,
	},
	{
		.alg_name = "hmac(sha512)",
		.source = "RFC 4231 section 4, test cases 1-4, 6, 7 (5 is truncated)",
		.count = ARRAY_SIZE(hmac_sha512_rfc4231_tv),
		.hash = hmac_sha512_rfc4231_tv,
	},
};

int sha512_register_testvecs(struct crypto_registry *reg)
{
	return crypto_register_testvec_sets(reg, sha512_sets, ARRAY_SIZE(sha512_sets));
}
