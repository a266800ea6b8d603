// SPDX-License-Identifier: MIT
/*
 * Known-answer vectors for "ghash" and "polyval" (keyed hashes, see
 * polyval.h), checked against independent bit-by-bit models of both
 * specifications before they were written here.
 */
#include "crypto/internal/registry.h"
#include "crypto/polyval/polyval.h"

/*
 * The GCM specification (McGrew & Viega, "The Galois/Counter Mode of
 * Operation", revised 2005), appendix B, test cases 1-6: GHASH(H, A, C)
 * with the message A, C each zero-padded to 16 bytes, then the 64-bit
 * big-endian bit lengths of A and C (the specification's length block).
 */
static const struct hash_testvec ghash_gcm_tv[] = {
	{ /* test case 1: |A| = 0, |C| = 0 bytes */
		.key = "66e94bd4ef8a2c3b884cfa59ca342b2e",
		.msg = "00000000000000000000000000000000",
		.digest = "00000000000000000000000000000000",
	},
	{ /* test case 2: |A| = 0, |C| = 16 bytes */
		.key = "66e94bd4ef8a2c3b884cfa59ca342b2e",
		.msg = "0388dace60b6a392f328c2b971b2fe78"
		       "00000000000000000000000000000080",
		.digest = "f38cbb1ad69223dcc3457ae5b6b0f885",
	},
	{ /* test case 3: |A| = 0, |C| = 64 bytes */
		.key = "b83b533708bf535d0aa6e52980d53b78",
		.msg = "42831ec2217774244b7221b784d0d49c"
		       "e3aa212f2c02a4e035c17e2329aca12e"
		       "21d514b25466931c7d8f6a5aac84aa05"
		       "1ba30b396a0aac973d58e091473f5985"
		       "00000000000000000000000000000200",
		.digest = "7f1b32b81b820d02614f8895ac1d4eac",
	},
	{ /* test case 4: |A| = 20, |C| = 60 bytes */
		.key = "b83b533708bf535d0aa6e52980d53b78",
		.msg = "feedfacedeadbeeffeedfacedeadbeef"
		       "abaddad2000000000000000000000000"
		       "42831ec2217774244b7221b784d0d49c"
		       "e3aa212f2c02a4e035c17e2329aca12e"
		       "21d514b25466931c7d8f6a5aac84aa05"
		       "1ba30b396a0aac973d58e09100000000"
		       "00000000000000a000000000000001e0",
		.digest = "698e57f70e6ecc7fd9463b7260a9ae5f",
	},
	{ /* test case 5: |A| = 20, |C| = 60 bytes */
		.key = "b83b533708bf535d0aa6e52980d53b78",
		.msg = "feedfacedeadbeeffeedfacedeadbeef"
		       "abaddad2000000000000000000000000"
		       "61353b4c2806934a777ff51fa22a4755"
		       "699b2a714fcdc6f83766e5f97b6c7423"
		       "73806900e49f24b22b097544d4896b42"
		       "4989b5e1ebac0f07c23f459800000000"
		       "00000000000000a000000000000001e0",
		.digest = "df586bb4c249b92cb6922877e444d37b",
	},
	{ /* test case 6: |A| = 20, |C| = 60 bytes */
		.key = "b83b533708bf535d0aa6e52980d53b78",
		.msg = "feedfacedeadbeeffeedfacedeadbeef"
		       "abaddad2000000000000000000000000"
		       "8ce24998625615b603a033aca13fb894"
		       "be9112a5c3a211a8ba262a3cca7e2ca7"
		       "01e4a9a4fba43c90ccdcb281d48c7c6f"
		       "d62875d2aca417034c34aee500000000"
		       "00000000000000a000000000000001e0",
		.digest = "1c5afe9760d3932f3c9a878aac3dc3de",
	},
};

/*
 * RFC 8452: appendix A's POLYVAL(H, X_1, X_2) example, and POLYVAL inputs
 * and results of appendix C's worked AES-GCM-SIV examples (the record
 * authentication key is POLYVAL's key; the input is the padded AAD, the
 * padded plaintext and the length block).
 */
static const struct hash_testvec polyval_rfc8452_tv[] = {
	{ /* appendix A */
		.key = "25629347589242761d31f826ba4b757b",
		.msg = "4f4f95668c83dfb6401762bb2d01a262"
		       "d1a24ddd2721d006bbe45f20d3c9f362",
		.digest = "f7a3b47b846119fae5b7866cf5e5b77e",
	},
	{ /* appendix C, 3-block input */
		.key = "310728d9911f1f3837b24316c3fab9a0",
		.msg = "6578616d706c65000000000000000000"
		       "48656c6c6f20776f726c640000000000"
		       "38000000000000005800000000000000",
		.digest = "ad7fcf0b5169851662672f3c5f95138f",
	},
	{ /* appendix C, 1-block input */
		.key = "d9b360279694941ac5dbc6987ada7377",
		.msg = "00000000000000000000000000000000",
		.digest = "00000000000000000000000000000000",
	},
	{ /* appendix C, 2-block input */
		.key = "d9b360279694941ac5dbc6987ada7377",
		.msg = "01000000000000000000000000000000"
		       "00000000000000004000000000000000",
		.digest = "eb93b7740962c5e49d2a90a7dc5cec74",
	},
	{ /* appendix C, 4-block input */
		.key = "d9b360279694941ac5dbc6987ada7377",
		.msg = "01000000000000000000000000000000"
		       "02000000000000000000000000000000"
		       "03000000000000000000000000000000"
		       "00000000000000008001000000000000",
		.digest = "81388746bc22d26b2abc3dcb15754222",
	},
	{ /* appendix C, 5-block input */
		.key = "d9b360279694941ac5dbc6987ada7377",
		.msg = "01000000000000000000000000000000"
		       "02000000000000000000000000000000"
		       "03000000000000000000000000000000"
		       "04000000000000000000000000000000"
		       "00000000000000000002000000000000",
		.digest = "1e39b6d3344d348f6044f89935d1cf78",
	},
	{ /* appendix C, 6-block input */
		.key = "d9b360279694941ac5dbc6987ada7377",
		.msg = "01000000000000000000000000000000"
		       "02000000000000000000000000000000"
		       "03000000000000000000000000000000"
		       "04000000000000000000000000000000"
		       "05000000000000000000000000000000"
		       "08000000000000000002000000000000",
		.digest = "ffcd05d5770f34ad9267f0a59994b15a",
	},
};

/*
 * A 16-block message (one step of the widest cores) generated with the
 * HCTR2 reference implementation (github.com/google/hctr2), as in the
 * Linux kernel's crypto/testmgr.h polyval_tv_template; checked here
 * against a bit-by-bit model of RFC 8452.
 */
static const struct hash_testvec polyval_hctr2_tv[] = {
	{
		.key = "37be681650b94eb047dee2bddee44809",
		.msg = "87fc689ffff24a1e823b738fc1b21b7a"
		       "6c4f81bc889b6ca39cc2a5bc14704c9b"
		       "0c9f5992164b913d18552268128c63b2"
		       "51cb854bd2ae0b1c5d289d1db1c8f077"
		       "e9b5074e06c8eef81bed722a557d16c9"
		       "f254e7e9e0445b33b149eeff43fb82cd"
		       "4a707881a43436e84c2854a66cc36b78"
		       "e7c05dc65d81ab700886a1fdf47755fd"
		       "a3e9e21bdf99b780f90a4f724ad3afbb"
		       "b33beb08580f79cea599051234d4f486"
		       "37231dc849c092aea6ac9b3155ed15c6"
		       "0517378d9042e487896288691c6afde3"
		       "002b471a73c151c2c062746a9eb2e521"
		       "be90b5b050ca8868e19d7adf6cb7b998"
		       "ee2862618bd147f9047a0b5dcd2b65f5"
		       "12a3fe1aaa2c7842b8be7d74eb59baba",
		.digest = "ae11d4602a5f9e428904c2348d55940a",
	},
};

static const struct crypto_testvecs polyval_sets[] = {
	{
		.alg_name = "ghash",
		.source = "GCM specification (McGrew & Viega, 2005) appendix B, test cases 1-6",
		.count = ARRAY_SIZE(ghash_gcm_tv),
		.hash = ghash_gcm_tv,
	},
	{
		.alg_name = "polyval",
		.source = "RFC 8452 appendix A and appendix C POLYVAL inputs and results",
		.count = ARRAY_SIZE(polyval_rfc8452_tv),
		.hash = polyval_rfc8452_tv,
	},
	{
		.alg_name = "polyval",
		.source = "HCTR2 reference (google/hctr2) via Linux testmgr.h, 256 bytes",
		.count = ARRAY_SIZE(polyval_hctr2_tv),
		.hash = polyval_hctr2_tv,
	},
};

int polyval_register_testvecs(struct crypto_registry *reg)
{
	return crypto_register_testvec_sets(reg, polyval_sets, ARRAY_SIZE(polyval_sets));
}
