/* SPDX-License-Identifier: MIT */
/*
 * Known-answer vectors for "aes" and the AES modes, as hex strings copied
 * from their sources (each set names its source). The self-test runs every
 * driver of an algorithm against these before first use.
 *
 *  - FIPS-197 Appendix C.1-C.3: the single-block cipher.
 *  - NIST SP 800-38A Appendix F: ECB (F.1), CBC (F.2), CFB128 (F.3.13-
 *    F.3.18) and CTR (F.5) for AES-128/192/256. Encrypt and decrypt
 *    examples share their data, so one vector covers both.
 *  - IEEE 1619-2007 Annex B: XTS-AES vectors 1-4 (AES-128; 4 is a 512-byte
 *    data unit), 10 and 11 (AES-256, 512 bytes) and 15-18 (ciphertext
 *    stealing, 17-20 bytes). Key = Key1 || Key2; iv = the data unit
 *    sequence number as 16 little-endian bytes.
 *  - RFC 3962 Appendix B: AES-128 CBC with ciphertext stealing, IV 0; the
 *    last two blocks swapped (CBC-CS3, as the kernel's cts(cbc(aes))).
 */
#include "crypto/aes/aes-internal.h"
#include "crypto/internal/registry.h"
#include "crypto/internal/testvec-data.h"

/* IEEE 1619 vectors 4, 10, 11: bytes 00..ff, twice */
#define XTS_PTEXT_512 TV_HEX_SEQ_256 TV_HEX_SEQ_256

static const struct cipher_testvec aes_tv[] = {
	/* C.1 AES-128 */
	{
		.key = "000102030405060708090a0b0c0d0e0f",
		.iv = NULL,
		.ptext = "00112233445566778899aabbccddeeff",
		.ctext = "69c4e0d86a7b0430d8cdb78070b4c55a",
	},
	/* C.2 AES-192 */
	{
		.key = "000102030405060708090a0b0c0d0e0f1011121314151617",
		.iv = NULL,
		.ptext = "00112233445566778899aabbccddeeff",
		.ctext = "dda97ca4864cdfe06eaf70a0ec0d7191",
	},
	/* C.3 AES-256 */
	{
		.key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		.iv = NULL,
		.ptext = "00112233445566778899aabbccddeeff",
		.ctext = "8ea2b7ca516745bfeafc49904b496089",
	},
};

static const struct cipher_testvec ecb_aes_tv[] = {
	/* F.1.1/F.1.2 ECB-AES128 */
	{
		.key = "2b7e151628aed2a6abf7158809cf4f3c",
		.iv = NULL,
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
		  "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",
	},
	/* F.1.3/F.1.4 ECB-AES192 */
	{
		.key = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		.iv = NULL,
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef"
		  "ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e",
	},
	/* F.1.5/F.1.6 ECB-AES256 */
	{
		.key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
		.iv = NULL,
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"
		  "b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",
	},
};

static const struct cipher_testvec cbc_aes_tv[] = {
	/* F.2.1/F.2.2 CBC-AES128 */
	{
		.key = "2b7e151628aed2a6abf7158809cf4f3c",
		.iv = "000102030405060708090a0b0c0d0e0f",
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
		  "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
	},
	/* F.2.3/F.2.4 CBC-AES192 */
	{
		.key = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		.iv = "000102030405060708090a0b0c0d0e0f",
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4e5e738763f69145a"
		  "571b242012fb7ae07fa9baac3df102e008b0e27988598881d920a9e64f5615cd",
	},
	/* F.2.5/F.2.6 CBC-AES256 */
	{
		.key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
		.iv = "000102030405060708090a0b0c0d0e0f",
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
		  "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
	},
};

static const struct cipher_testvec cfb_aes_tv[] = {
	/* F.3.13/F.3.14 CFB128-AES128 */
	{
		.key = "2b7e151628aed2a6abf7158809cf4f3c",
		.iv = "000102030405060708090a0b0c0d0e0f",
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "3b3fd92eb72dad20333449f8e83cfb4ac8a64537a0b3a93fcde3cdad9f1ce58b"
		  "26751f67a3cbb140b1808cf187a4f4dfc04b05357c5d1c0eeac4c66f9ff7f2e6",
	},
	/* F.3.15/F.3.16 CFB128-AES192 */
	{
		.key = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		.iv = "000102030405060708090a0b0c0d0e0f",
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "cdc80d6fddf18cab34c25909c99a417467ce7f7f81173621961a2b70171d3d7a"
		  "2e1e8a1dd59b88b1c8e60fed1efac4c9c05f9f9ca9834fa042ae8fba584b09ff",
	},
	/* F.3.17/F.3.18 CFB128-AES256 */
	{
		.key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
		.iv = "000102030405060708090a0b0c0d0e0f",
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "dc7e84bfda79164b7ecd8486985d386039ffed143b28b1c832113c6331e5407b"
		  "df10132415e54b92a13ed0a8267ae2f975a385741ab9cef82031623d55b1e471",
	},
};

static const struct cipher_testvec ctr_aes_tv[] = {
	/* F.5.1/F.5.2 CTR-AES128 */
	{
		.key = "2b7e151628aed2a6abf7158809cf4f3c",
		.iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
		  "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
	},
	/* F.5.3/F.5.4 CTR-AES192 */
	{
		.key = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		.iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
		  "1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050",
	},
	/* F.5.5/F.5.6 CTR-AES256 */
	{
		.key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
		.iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
		.ptext = TV_SP800_38A_PTEXT,
		.ctext = "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
		  "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",
	},
};

static const struct cipher_testvec xts_aes_tv[] = {
	/* vector 1: XTS-AES-128, 32 bytes */
	{
		.key = "0000000000000000000000000000000000000000000000000000000000000000",
		.iv = "00000000000000000000000000000000",
		.ptext = "0000000000000000000000000000000000000000000000000000000000000000",
		.ctext = "917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e",
	},
	/* vector 2 */
	{
		.key = "1111111111111111111111111111111122222222222222222222222222222222",
		.iv = "33333333330000000000000000000000",
		.ptext = "4444444444444444444444444444444444444444444444444444444444444444",
		.ctext = "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0",
	},
	/* vector 3 */
	{
		.key = "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f022222222222222222222222222222222",
		.iv = "33333333330000000000000000000000",
		.ptext = "4444444444444444444444444444444444444444444444444444444444444444",
		.ctext = "af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89",
	},
	/* vector 4: XTS-AES-128, 512-byte data unit */
	{
		.key = "2718281828459045235360287471352631415926535897932384626433832795",
		.iv = "00000000000000000000000000000000",
		.ptext = XTS_PTEXT_512,
		.ctext = "27a7479befa1d476489f308cd4cfa6e2a96e4bbe3208ff25287dd3819616e89c"
		  "c78cf7f5e543445f8333d8fa7f56000005279fa5d8b5e4ad40e736ddb4d35412"
		  "328063fd2aab53e5ea1e0a9f332500a5df9487d07a5c92cc512c8866c7e860ce"
		  "93fdf166a24912b422976146ae20ce846bb7dc9ba94a767aaef20c0d61ad0265"
		  "5ea92dc4c4e41a8952c651d33174be51a10c421110e6d81588ede82103a252d8"
		  "a750e8768defffed9122810aaeb99f9172af82b604dc4b8e51bcb08235a6f434"
		  "1332e4ca60482a4ba1a03b3e65008fc5da76b70bf1690db4eae29c5f1badd03c"
		  "5ccf2a55d705ddcd86d449511ceb7ec30bf12b1fa35b913f9f747a8afd1b130e"
		  "94bff94effd01a91735ca1726acd0b197c4e5b03393697e126826fb6bbde8ecc"
		  "1e08298516e2c9ed03ff3c1b7860f6de76d4cecd94c8119855ef5297ca67e9f3"
		  "e7ff72b1e99785ca0a7e7720c5b36dc6d72cac9574c8cbbc2f801e23e56fd344"
		  "b07f22154beba0f08ce8891e643ed995c94d9a69c9f1b5f499027a78572aeebd"
		  "74d20cc39881c213ee770b1010e4bea718846977ae119f7a023ab58cca0ad752"
		  "afe656bb3c17256a9f6e9bf19fdd5a38fc82bbe872c5539edb609ef4f79c203e"
		  "bb140f2e583cb2ad15b4aa5b655016a8449277dbd477ef2c8d6c017db738b18d"
		  "eb4a427d1923ce3ff262735779a418f20a282df920147beabe421ee5319d0568",
	},
	/* vector 10: XTS-AES-256, 512-byte data unit */
	{
		.key = "2718281828459045235360287471352662497757247093699959574966967627"
		  "3141592653589793238462643383279502884197169399375105820974944592",
		.iv = "ff000000000000000000000000000000",
		.ptext = XTS_PTEXT_512,
		.ctext = "1c3b3a102f770386e4836c99e370cf9bea00803f5e482357a4ae12d414a3e63b"
		  "5d31e276f8fe4a8d66b317f9ac683f44680a86ac35adfc3345befecb4bb188fd"
		  "5776926c49a3095eb108fd1098baec70aaa66999a72a82f27d848b21d4a741b0"
		  "c5cd4d5fff9dac89aeba122961d03a757123e9870f8acf1000020887891429ca"
		  "2a3e7a7d7df7b10355165c8b9a6d0a7de8b062c4500dc4cd120c0f7418dae3d0"
		  "b5781c34803fa75421c790dfe1de1834f280d7667b327f6c8cd7557e12ac3a0f"
		  "93ec05c52e0493ef31a12d3d9260f79a289d6a379bc70c50841473d1a8cc81ec"
		  "583e9645e07b8d9670655ba5bbcfecc6dc3966380ad8fecb17b6ba02469a020a"
		  "84e18e8f84252070c13e9f1f289be54fbc481457778f616015e1327a02b140f1"
		  "505eb309326d68378f8374595c849d84f4c333ec4423885143cb47bd71c5edae"
		  "9be69a2ffeceb1bec9de244fbe15992b11b77c040f12bd8f6a975a44a0f90c29"
		  "a9abc3d4d893927284c58754cce294529f8614dcd2aba991925fedc4ae74ffac"
		  "6e333b93eb4aff0479da9a410e4450e0dd7ae4c6e2910900575da401fc07059f"
		  "645e8b7e9bfdef33943054ff84011493c27b3429eaedb4ed5376441a77ed4385"
		  "1ad77f16f541dfd269d50d6a5f14fb0aab1cbb4c1550be97f7ab4066193c4caa"
		  "773dad38014bd2092fa755c824bb5e54c4f36ffda9fcea70b9c6e693e148c151",
	},
	/* vector 11: XTS-AES-256, 512-byte data unit */
	{
		.key = "2718281828459045235360287471352662497757247093699959574966967627"
		  "3141592653589793238462643383279502884197169399375105820974944592",
		.iv = "ffff0000000000000000000000000000",
		.ptext = XTS_PTEXT_512,
		.ctext = "77a31251618a15e6b92d1d66dffe7b50b50bad552305ba0217a610688eff7e11"
		  "e1d0225438e093242d6db274fde801d4cae06f2092c728b2478559df58e837c2"
		  "469ee4a4fa794e4bbc7f39bc026e3cb72c33b0888f25b4acf56a2a9804f1ce6d"
		  "3d6e1dc6ca181d4b546179d55544aa7760c40d06741539c7e3cd9d2f6650b201"
		  "3fd0eeb8c2b8e3d8d240ccae2d4c98320a7442e1c8d75a42d6e6cfa4c2eca179"
		  "8d158c7aecdf82490f24bb9b38e108bcda12c3faf9a21141c3613b58367f922a"
		  "aa26cd22f23d708dae699ad7cb40a8ad0b6e2784973dcb605684c08b8d6998c6"
		  "9aac049921871ebb65301a4619ca80ecb485a31d744223ce8ddc2394828d6a80"
		  "470c092f5ba413c3378fa6054255c6f9df4495862bbb3287681f931b687c888a"
		  "bf844dfc8fc28331e579928cd12bd2390ae123cf03818d14dedde5c0c24c8ab0"
		  "18bfca75ca096f2d531f3d1619e785f1ada437cab92e980558b3dce1474afb75"
		  "bfedbf8ff54cb2618e0244c9ac0d3c66fb51598cd2db11f9be39791abe447c63"
		  "094f7c453b7ff87cb5bb36b7c79efb0872d17058b83b15ab0866ad8a58656c5a"
		  "7e20dbdf308b2461d97c0ec0024a2715055249cf3b478ddd4740de654f75ca68"
		  "6e0d7345c69ed50cdc2a8b332b1f8824108ac937eb050585608ee734097fc090"
		  "54fbff89eeaeea791f4a7ab1f9868294a4f9e27b42af8100cb9d59cef9645803",
	},
	/* vector 15: ciphertext stealing, 17 bytes */
	{
		.key = "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
		.iv = "9a785634120000000000000000000000",
		.ptext = "000102030405060708090a0b0c0d0e0f10",
		.ctext = "6c1625db4671522d3d7599601de7ca09ed",
	},
	/* vector 16: ciphertext stealing, 18 bytes */
	{
		.key = "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
		.iv = "9a785634120000000000000000000000",
		.ptext = "000102030405060708090a0b0c0d0e0f1011",
		.ctext = "d069444b7a7e0cab09e24447d24deb1fedbf",
	},
	/* vector 17: ciphertext stealing, 19 bytes */
	{
		.key = "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
		.iv = "9a785634120000000000000000000000",
		.ptext = "000102030405060708090a0b0c0d0e0f101112",
		.ctext = "e5df1351c0544ba1350b3363cd8ef4beedbf9d",
	},
	/* vector 18: ciphertext stealing, 20 bytes */
	{
		.key = "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
		.iv = "9a785634120000000000000000000000",
		.ptext = "000102030405060708090a0b0c0d0e0f10111213",
		.ctext = "9d84c813f719aa2c7be3f66171c7c5c2edbf9dac",
	},
};

static const struct cipher_testvec cts_cbc_aes_tv[] = {
	/* 17 bytes */
	{
		.key = "636869636b656e207465726979616b69",
		.iv = "00000000000000000000000000000000",
		.ptext = "4920776f756c64206c696b652074686520",
		.ctext = "c6353568f2bf8cb4d8a580362da7ff7f97",
	},
	/* 31 bytes */
	{
		.key = "636869636b656e207465726979616b69",
		.iv = "00000000000000000000000000000000",
		.ptext = "4920776f756c64206c696b65207468652047656e6572616c20476175277320",
		.ctext = "fc00783e0efdb2c1d445d4c8eff7ed2297687268d6ecccc0c07b25e25ecfe5",
	},
	/* 32 bytes */
	{
		.key = "636869636b656e207465726979616b69",
		.iv = "00000000000000000000000000000000",
		.ptext = "4920776f756c64206c696b65207468652047656e6572616c2047617527732043",
		.ctext = "39312523a78662d5be7fcbcc98ebf5a897687268d6ecccc0c07b25e25ecfe584",
	},
	/* 47 bytes */
	{
		.key = "636869636b656e207465726979616b69",
		.iv = "00000000000000000000000000000000",
		.ptext = "4920776f756c64206c696b65207468652047656e6572616c2047617527732043"
		  "6869636b656e2c20706c656173652c",
		.ctext = "97687268d6ecccc0c07b25e25ecfe584b3fffd940c16a18c1b5549d2f838029e"
		  "39312523a78662d5be7fcbcc98ebf5",
	},
	/* 48 bytes */
	{
		.key = "636869636b656e207465726979616b69",
		.iv = "00000000000000000000000000000000",
		.ptext = "4920776f756c64206c696b65207468652047656e6572616c2047617527732043"
		  "6869636b656e2c20706c656173652c20",
		.ctext = "97687268d6ecccc0c07b25e25ecfe5849dad8bbb96c4cdc03bc103e1a194bbd8"
		  "39312523a78662d5be7fcbcc98ebf5a8",
	},
	/* 64 bytes */
	{
		.key = "636869636b656e207465726979616b69",
		.iv = "00000000000000000000000000000000",
		.ptext = "4920776f756c64206c696b65207468652047656e6572616c2047617527732043"
		  "6869636b656e2c20706c656173652c20616e6420776f6e746f6e20736f75702e",
		.ctext = "97687268d6ecccc0c07b25e25ecfe58439312523a78662d5be7fcbcc98ebf5a8"
		  "4807efe836ee89a526730dbc2f7bc8409dad8bbb96c4cdc03bc103e1a194bbd8",
	},
};

/*
 * xctr(aes): HCTR2's XCTR over AES-256, vectors of the HCTR2 reference
 * (google/hctr2, test_vectors/ours/XCTR/XCTR_AES256.json: 1, 15, 16 and
 * 512 bytes), checked against XCTR built on OpenSSL's AES-256-ECB.
 */
static const struct cipher_testvec aes256_xctr_tv[] = {
	{ /* 1 byte */
		.key = "05603a7e609046186c60baeb12d7bed1"
		       "d3f610469df10cb473e39327a82c13aa",
		.iv = "f596d1b6cb44d8d03edb92800894cdd3",
		.ptext = "78",
		.ctext = "c5",
	},
	{ /* 15 bytes */
		.key = "35ca38f3d9d634efcdeea32686bafb45"
		       "01fa5267ffc59daa649a05bb8520a7f2",
		.iv = "e3daf5ff42598786ee7bd6b46a2544ff",
		.ptext = "44671e0453d24bd996330754e48e20",
		.ctext = "cc554079475c8ba6ca7b9f50e321ea",
	},
	{ /* 16 bytes */
		.key = "afd91414d5dbc9ce765c5abf43052924"
		       "c41368cce837bdb94120f55348d0a2d6",
		.iv = "a7b400087910aef502bf85b2694cc604",
		.ptext = "ac6aa80cb084bf4cae9420587e009389",
		.ctext = "d5aae2e9864c954edeb615cbdc1f1338",
	},
	{ /* 512 bytes */
		.key = "859082b3695478ea79f99a1ca25f1005"
		       "71d170ba40e9c6b79a3e8faa3e304917",
		.iv = "e962cf5977fd1343eb35a2cb0886e794",
		.ptext = "121bbf8f97515007622f71219e4e1532"
			 "4ede59de8f5132d8f2758005df2eb38a"
			 "acd6301254045a8b4915aeb8524c2e1a"
			 "8db403d2ae710e14ce65829d0a566776"
			 "bef2c938fce54a498c51485a9b507564"
			 "5fdef515949784bc153186b8afa6a271"
			 "6f24b258c00586a79383b6ec08ee723a"
			 "6038574fd3d85723d82aefdf363696bd"
			 "449459a98262ef3513b4e0b75ea03ffa"
			 "735b48955a9d463a84e4ee3bda55d971"
			 "b2b8a91c2662f80f4be260354a48c904"
			 "e90bc82b58551b7786015c304337fc3f"
			 "3ad1e8537d0504d12cf0836deae3a7d9"
			 "6cd19873fcf47d57672e87e28856a577"
			 "542d73c252e432ec1eeb2f8441ccbfe8"
			 "bfa4b54e960252ed6c47fbd7e1c504e9"
			 "bf5c6ef88fa3b83b2590424a64bde968"
			 "07144402c849a8bc7c34cf162b29772a"
			 "702c54a860d9319093d955a5a6333ac8"
			 "69b88b99463343727dfad65bf69b2cb9"
			 "691521ad8da97426c3fc8c21f7aff4e5"
			 "2d3538668f8efe6a9d2319518e96f887"
			 "80a8df85b1e7e2ff4a65d5a738f20205"
			 "05bd458b06b6ee36721db39fccd3b71a"
			 "0982d065c4a3f75c001db53d406aa283"
			 "b863f14e537e11c2c5b54b99419cfb68"
			 "4cf13e104078e9e9a124e50b06d4349f"
			 "59e04b07a74a7380c16c330aca86057f"
			 "a5e2a128f0117b43f79c0f0ea8afd1e6"
			 "b38980565f6286a8a4c3b75e6db84600"
			 "5e63c7a3e76165824f320f9e47be3609"
			 "c9319904931a159317fd7d2953ddab2c",
		.ctext = "a9b4da81423fe00d27d1cc0bf4bcd851"
			 "81dfe1a729d358ba87cf5ef083a0cc14"
			 "632323d5448742b9fa51e30cbc6a8e9a"
			 "c49516e8722780d6f7b5994d0f0bf73d"
			 "b31671075643d1c0414c8fa916894d5b"
			 "b0ea021d7dad4510082cbbf683614445"
			 "88ff190174422445f7a6d0f3fec8d8a8"
			 "a3fc1dc77dd125b5cd4a5f8289769fe0"
			 "374dd4c8c47ac9c02c660d639d90e6c6"
			 "a82e919e21b74a6b211e2741435b01eb"
			 "f4d5b595654c17dd7172d59a68c6e641"
			 "b2978dac75f0ff1f39a4ef9165ab513e"
			 "f2c309db30cd748e458d9b821f2c3a59"
			 "118c0d755e61d8ca4735106b149f6af7"
			 "c43b1b1acb355b191886c9a98d3a5594"
			 "3e0f0e7d2d9cb89c9b3377a1b3850d07"
			 "b8711ab1246c591646f232fbc6e0308c"
			 "874b263b7be926e96f4e3a7441cb95d4"
			 "0078a9dced4fa20374f3a03dbe32956c"
			 "8b302fad377616a39704907915ad7182"
			 "4eaf95cd3f22ec3680a9f24056adc46d"
			 "287276ec72e005e74fbb49695b1bf8ba"
			 "af2486a1a337c04c77e8ab3a8296b5f1"
			 "4d6945de0ba3ad9acf5e55a4069e721c"
			 "36f2644927b6a5c6f5424c2d0124e2f0"
			 "957390e1f753f39062413a0d52bc3c91"
			 "34935c6454fddb69aaf3a305d27e187f"
			 "bab81a390e5a49ff95132cc4105f857b"
			 "2e69ae17bf2bce4c5486d19ab46a0bca"
			 "3ecc5ebb4b59a2f5c5cd5b6d1d1219f4"
			 "5029cf0f6f97110ca6a6ed905009d030"
			 "3e75d6fe709d76e1fc9548967b1aa9c1",
	},
};

/*
 * xctr(aes) over AES-128 and AES-192: vectors of the same reference
 * (XCTR_AES128.json and XCTR_AES192.json, commit 1913bdda), whose lengths
 * differ by key size (AES-128: 1, 16, 31, 128, 255 bytes; AES-192: 15,
 * 17, 48, 512). As for AES-256, a partial block, one block (AES-192 has
 * none: 17) and the longest: AES-128 1, 16 and 255 bytes, AES-192 15, 17
 * and 512, each the first vector of its length ("Random ( 1)"), checked
 * against XCTR built on OpenSSL's AES-ECB (Python's cryptography).
 */
static const struct cipher_testvec aes128_xctr_tv[] = {
	{ /* 1 byte */
		.key = "9c8dc4bd7136dc827ca1caa3235adba4",
		.iv = "8de7a56a958642debaea6e690333860f",
		.ptext = "bd",
		.ctext = "b9",
	},
	{ /* 16 bytes */
		.key = "bc1b120c3f18cc1f5a1dab81a8687c63",
		.iv = "22c1dd250b18cba54ada150773d98810",
		.ptext = "246e64c615269cda2a4b5712ff7cd6b5",
		.ctext = "d6478d5892b284f9b7ee0d98a1394d8f",
	},
	{ /* 255 bytes */
		.key = "17a6013d5dd6ef2d698f4c545bae43f0",
		.iv = "a91b47602682f71c80f888ddfb44d9da",
		.ptext = "f767cda604655399905ca25674d79df2"
			 "0b037f4ea784722bf0a5bfe69a623afe"
			 "695c937923866485eb13b15ad54839a0"
			 "70fb069ad7125ab9beed2c8164f7cf80"
			 "eee628322d374c32f41f2321e9c8c9bf"
			 "54bccfb4c26539dfa5fb1411ed6238cf"
			 "9b5811dde9bd3757754c9ed5670a48c6"
			 "0d054eb106d7ec2e9e59de4fab38bbe5"
			 "87045a2c2aa28f3ce7e146a9499f24ad"
			 "2db0554064d5da7e1e77b8297273c384"
			 "cdf394905876c92c2aad56de3318b63b"
			 "10e9e98df0a97f05f7b58c137e113d1e"
			 "02bb5bea69ff85cf6a189745e396ba4d"
			 "2d7a7078152ce9dc4e09925704d80ba6"
			 "20717647769689a0d929a25a06db5639"
			 "603359049589f6181d7075853ab76e",
		.ctext = "e1e73fd36ab92f6437c5a4e9ca0aa1d6"
			 "ea7d39e5e6cc805474312a0433798c8e"
			 "4d478428279b3c585458204f7001525b"
			 "ac9561495fefbaced77456e7bbe03cd0"
			 "7fa92357332af6cbbe421495a8f97a7e"
			 "12533ae213fe2d89ebacd7a8a5f827f3"
			 "749a6563d1983a7e277bc020004df4e5"
			 "7b69a6a8065085b67fac7fda1ff53756"
			 "9b2fd3866b70bd0e559a9d4b08b55b7b"
			 "d47cb47149924a1eed6d11094772326a"
			 "975336aff306062c69f159003695282a"
			 "b6cd102184735c9686142c3d02db539a"
			 "61deea99847a27f6f7c849734bb8ebd3"
			 "4133dd0968e264b85f7574979154dac2"
			 "732c1e5a8448011a0d8b0adf072eee77"
			 "1d17417ac93363fa9fc374575f034c",
	},
};

static const struct cipher_testvec aes192_xctr_tv[] = {
	{ /* 15 bytes */
		.key = "e5f1482e88dbc728a2555d2f9002dcd3f5d39e87d558304a",
		.iv = "a64039f9636c2dd41b7105a4888611d3",
		.ptext = "b606ae151196c14444c298f9a80a0b",
		.ctext = "273b6840a95e746b746718f937eded",
	},
	{ /* 17 bytes */
		.key = "c8a02767043feda5b40c51912d277733a5fc2a9f78d81c68",
		.iv = "83991ae284caa9168dc42d1b67c88621",
		.ptext = "d62285b85d7e262ebe049d0c0391454a36",
		.ctext = "0f44a96272ec12263ac68326625eb71305",
	},
	{ /* 512 bytes */
		.key = "849be8104cb3d17ab3ab4e6f901207f8efde4209bf3495b2",
		.iv = "6662f9489d17f7df0667f46df2bca2e5",
		.ptext = "2fd6166bf94b44149093e5fd05aa0026"
			 "bdab11b8f0cb1172ddc5154f4e1bf8c9"
			 "8f4ad569f89efb058a3746fefa589b0e"
			 "72909a06a542f47c35d564707267fc8b"
			 "ab5a2f649ba1ece7e69269db62a4e744"
			 "8828d4526419a9d70c00e6e7c128c1f5"
			 "72c5fa09222ef482a3dcc168f929558d"
			 "046713a652043c0c14f2872361ab82cb"
			 "495b6bd44f0dd49582cde369471b3173"
			 "7377c1537d435e4a803aca9cc7041a31"
			 "8ee6767fe1b3d057a2b2f60951c96dbc"
			 "79ed575036d293a4405dac3a3bb62d89"
			 "78a2bd23ec3506f0a8c8c9b0e3282bba"
			 "70a0feed13c4d790b16ae0e1307115d0"
			 "e2b3a64eb001f9e759c61eed462be3a8"
			 "22eb7f1cd9cde0a672422c0675bbb76b"
			 "ca495ea1478d9efe60cc34958efa1e3e"
			 "854b0354ea341c419045a6becf584fca"
			 "2c79c03e8fd73bd45574a8e15709bfab"
			 "2cf9e4dd179957604b882a7f4386b99a"
			 "60bf4ccf9b41b89969154f914debdf6f"
			 "cc4cf96ff23323e70244aaa2fab139a5"
			 "ff88f537023324fc79114c94c231879c"
			 "53199932e4de18f48fe2e8a3fb0baa7c"
			 "db830ff6c08a9bcd7b16055be4b43403"
			 "e38fc94b56842a4c36723c844fbaa27f"
			 "f71bba4d8ab85d5136fbef23186f332d"
			 "bb06248e33986ecd6311186bcc1b66b9"
			 "388d068d981aefaa354a90fab1d3cc11"
			 "504c5418605de411fc19e153205ce7ef"
			 "8a2ba882515f5d4334e5cf7b1b6f8119"
			 "b7dfa89e81895f3369afde896888f071",
		.ctext = "ab15465bed4fa8acbf31308455a4b898"
			 "79baa015a45520ecf99471e66a6fee87"
			 "2e3aa295ae6e5609e9c00fe2c6b730a9"
			 "738e597cfde371f7ae8b91ab5e36e9a8"
			 "ff17faa294931142679699c5f0ad2a57"
			 "f9a6704adf71ffc0e2af9aae5758133b"
			 "2df1c78fdb8accce531a695539c8bec3"
			 "2db103d9a399f48dd92d27aea5e7777f"
			 "bb8884eafa193f4461218a1fbeac60b4"
			 "afe900abef3c5356cd4b53d89bfe8823"
			 "5b857608ecd16e4a87a47d294e4f3fc9"
			 "a4ab63eaddef9f7938187d9090f91257"
			 "1d89eafed44745326af6e7de227eeec1"
			 "bc2dc3bbe5d413ac63ff5bb10596d5f3"
			 "079a62b630ea7d1eee750a1bcc6e4da7"
			 "f74d74d860325ed093d719904e26dbe4"
			 "5ed4a8b976ba5691c475041ec277246f"
			 "f9e84aec7f8695b35c2c97abf0f7745b"
			 "0bc2da42403416ed06c12553170d814e"
			 "e6f20f6d943c907aae20e93ff818676a"
			 "491e41b646abc8a7cb1996f599c0663e"
			 "77cf7352832ae248276cebe7e7c4d56a"
			 "4067bcbf6b3cf3bb515e31ac0381ab61"
			 "faa5a67d8bc38a75287a719cac8f76fc"
			 "f96c5d9bd7f6362d61d561aadd01fc57"
			 "9110cdcd6d27632467467abb615639b1"
			 "d679fe77cad673596e5811900326742a"
			 "fa521247fb12eb3e88f0526cc0547a88"
			 "8ce5de9ebab9f2e1972e5cbdf4137ef3"
			 "c4e187a535fa7c711ac9f4a857e25a6b"
			 "14e073af566ba0009e5f64ac00fbc492"
			 "e5e28ab29e7549852566a51af97d1d60",
	},
};

/*
 * hctr2(aes) = hctr2_base(xctr(aes),polyval) with the kernel's 32-byte
 * tweak: vectors of the HCTR2 reference (google/hctr2,
 * test_vectors/ours/HCTR2/HCTR2_AES256.json, the 32-byte-tweak ones: 16,
 * 17, 31, 48, 128 and 255 bytes, so whole and partial last blocks).
 */
static const struct cipher_testvec aes256_hctr2_tv[] = {
	{ /* 16 bytes */
		.key = "504ac8940113d30cd9aaf34cf83f2c399eecc6a897f28e7394b84c400328afc2",
		.iv = "9eaa0b7f122ae3df0503931bdac8d7988af9df63b1cd15aa028e41a0751d170e",
		.ptext = "e28a35a7100d656ead77ce07bb678303",
		.ctext = "81c11c0673cbc1e6ed1f5bf07d8b12f8",
	},
	{ /* 17 bytes */
		.key = "93fa7ee20e67c439e7ca4795689d5e5a7c2619abc6ca6a4c45a69642ae6cffe7",
		.iv = "ea8247953b22a13a6aca244c507e23cd0e50e541b66529d8302300d254a7d656",
		.ptext = "db1f1fecad836e5d19a5f63bb4935a576f",
		.ctext = "f1466e9db301f06bc2ac5788486d407268",
	},
	{ /* 31 bytes */
		.key = "362b5797f85dcd995f1a5a441d920f27cc16d72b856399d3ba96a1dbd26068da",
		.iv = "ef5869b12c5e9a4724c1b169e112938f433d6d00db5ed8d9129afed9ff2daac4",
		.ptext = "5ea8681985981223260accdb0a04b9df4db3487bb0e3c819435a4606942df2",
		.ctext = "dbfdc803d0ecc1febd6437b88243624e7e54a3e224a727e8a4d5b36cb226b4",
	},
	{ /* 48 bytes */
		.key = "0365036e4de6e84e8bbe22194831eed9a09121be6289de78d9b036a33cce43d5",
		.iv = "a9c34be70ffc6dbf5627211cfcd604105f43e23035296c1090f1bf61ed0f8a91",
		.ptext = "07aa0226b498115e3341215151632c7200ab32a71cc83c9c250e8b9adf85ed2d"
			 "f4f2bc55ca926d22fd223b424c0b74ec",
		.ctext = "7bb1436dd8726cf6676a00c4f1f0f5a4fc6091ab460b15fcd7c12815a1fcf768"
			 "8ecc276200645672a617d73f67801058",
	},
	{ /* 128 bytes */
		.key = "9070c9b2da8989b18a149621e396b3cec008217ac26535d36f4f25e24370dc94",
		.iv = "60f19f391bbde8469016ac048940d914a5fb76e3b7f7c3fca4f56cfb72aae72f",
		.ptext = "274d7c1ca7e5268b1fe592d8528dd9484bf6b8cdf7f78dc20d0ab1d0e41fa01c"
			 "bd33b9c43c5f46917eff943fe2c0fef57c2a30aa0922106709455bb447c1804d"
			 "0e9f5d8232188b7781ffffa3a0ca04c95c0a32769bc248d7a3ba80e3049890c8"
			 "bce9c0e2eaea34eec2ad85e21fd06975a76b7a84f53484918038c85b05275ed9",
		.ctext = "56528cd63a10139d3a1cc23e11f62a26294ac39405c19f14af08be64d872bd93"
			 "f885ab338838b2d7828a7ff368acd32f947836317871740a1fccbf4a7ed56cc3"
			 "72686d05e61946b776c3222cc658e9ebcf427aae57bac08263a1dc7d34f5c5a8"
			 "e58b004b01cd3f293d304c134c9636e2c5a1b675a5762197e9ad8eed88d54c64",
	},
	{ /* 255 bytes */
		.key = "364511a2985f967cc6b494310a6709326c6f6f00f017cbaca5a9479e2e852ffa",
		.iv = "2888aa9b593b1e9782e55c9e6d1411196e388fd5402bcaf97b4ce4a3d0d28a13",
		.ptext = "95d2f7711bcaa586d94801932f7955297113150ee612bc4d8a31e3402ac65e0d"
			 "68bb4a628dc74577d2b8c71df1d25d97cfac52e53277b6da3085cf2b98e9aa34"
			 "62b5239eb7a6d4e0b458188c4dde4d01838924cafb11d482307a8135a0b4d4b6"
			 "84ea47918c198625a6068d78e6ed87ebdaea737cbf66b872e30ab80ccb1a73f1"
			 "a7ca0ade572bbd2beb8b243822d30e1f17a084983177fd346a4e3d844c0efbed"
			 "c82a51fad873218adbb5fe1feec4e8655484dd966dfdd3317736526b804f9eb4"
			 "a255bf6641494e87a70ccae7a5c5f66f2756e24822dd5f593cf19f83e52dfb71"
			 "add1ae1b205c47b73bd314ce8142b10af049fac2e786bfcdb0959f8f794154",
		.ctext = "f65751c425612dfad6d93f9a8151dd8e3de7aa2db1dac8a69daa3cab62f280c3"
			 "2ce758721d44c5287fb4f9bc9cb2ab8efad14d72d979f5a0243e902531143845"
			 "59c8f6e2c6f6c1a7b2f8a7a92b6f123ab081a4085759b1564c8f1855335fd66a"
			 "c6a04bd66b643e9efd6616e2dbeb5fb350503ede8d727601beccc952092d8de7"
			 "d6c366db3608d177c87346262429bf682d2a99435655e493afae4de7554ac045"
			 "26eb3b12907cdcd1d56f0ad0a9d74b890b07d886ada1c4691f5e8bc49e914125"
			 "569869783a9eae91d8d9fafbff812509fced2d87bc04629735e126c2461ccfd7"
			 "14ed0209a5b2b6aa274e61b3716b4716b7e8d4af52eb6a6bdb4c65219e1c36",
	},

};

/*
 * hctr2(aes) over AES-128 and AES-192: the 32-byte-tweak vectors of
 * HCTR2_AES128.json and HCTR2_AES192.json of the same reference (commit
 * 379479f5), whose lengths differ by key size (AES-128: 16, 31, 128, 255
 * bytes; AES-192: 17, 48, 512). Of the lengths taken for AES-256 these
 * are all there is: AES-128 16, 31, 128 and 255 bytes, AES-192 17 and
 * 48, each the first vector of its length with that tweak length
 * ("Random ( 1)"), checked against HCTR2 built on OpenSSL's AES-ECB
 * (Python's cryptography).
 */
static const struct cipher_testvec aes128_hctr2_tv[] = {
	{ /* 16 bytes */
		.key = "e115663c8dc63affef41d747a2cc8aba",
		.iv = "c3be2acbb53986f191ad6cf4de7445635c7ad5cc8b76ef0ecf2c606937fd0796",
		.ptext = "6575aed3e2bc435cb31ad805c3d05629",
		.ctext = "1191ea7458ccd5a2d0559e3dfe7fc8fe",
	},
	{ /* 31 bytes */
		.key = "e7d17748760bcd342a2de774ca119cae",
		.iv = "711c4962d95b505e6887bcf689ffed30e4e5bdb6104f9f6628065af42735cde5",
		.ptext = "87038f06a86154da0145d401ef4a22cf78159fbd64bd2cb9401d72ae5363a5",
		.ctext = "4ea10527b845e4a1bb30b4a6127463d617c9cc2f1864e0060aa0ff72107b22",
	},
	{ /* 128 bytes */
		.key = "59653b1d435ec0aeb89d9bdd2203bfca",
		.iv = "ec95fa5acf5ed293a3b5e5bef3017b01d1ca6c0682f0bd67d96ca4dcb4380f74",
		.ptext = "45df7587bc72ce55c9facbfc9f40822bc64f4f5b8b3b6d67a69362898c19f4e3"
			 "08929cc9472c6ed0a3022bdb2cf28d46cdb09d26634c406b7943e5ce42a8ec3b"
			 "5bd0eaa4e6db66557a76ecab7d2a2bbda9ab22641aa1ae84867967e9b250be12"
			 "2fb214f0db71d8a7418a88a06a6e9d2afa11374032094c47410731853da8f764",
		.ctext = "2d4b9f93ca5a482601cc54e4315012f049ff594268bd878f9e6296cdb92457a4"
			 "0b7bf52e0ea86507ab05d5cae79c6c345d4234a462e975483d9e8ffa42e97508"
			 "4e54912bbd110f8ef082f524f1c4fcae42547fce15a8b233c086b62be844ce1f"
			 "685766946eadebf330f811bd6000c6d54c81f1202b4a5b99793bc95c7423e65d",
	},
	{ /* 255 bytes */
		.key = "3e085d646c98ecec700e0da141209982",
		.iv = "11b777910d99d98d353af7146b0937e5ad51f6c3964b6456a8bd81ccbe94afe4",
		.ptext = "ff8db9c0e369b3b28b1126b311ecfbb99cc171d6e3260ee0684060b93a63568a"
			 "9ec1f010b1643270f8cdc6c4494ce1cef3e103f835aee05eef5fbc41752613cc"
			 "3785dfc05da64798f197525804e6b501c0b8176d74bd9adfa4379486b0138328"
			 "c9a2073fb5b272400e60df5707b72c66103f8ddd300a47d5e89dfba1af53d705"
			 "c7d2bae72ca0bfb8d193e74182a3413aaf12d6f834da9246ada22ff67e4696d8"
			 "03f34964ded8068ba0bc633538b66bda5b503f13a5841b1b668995b7c2163ce9"
			 "24b08c6f49eff7286a24fdbe25e2b490774408b8dad2de2ca057455729476b89"
			 "4af6a72ac39e7bc8fd9f89abee6da3b423907ae989a0c7b317418791fc9742",
		.ctext = "fc9b9666c4822a4ab124bac7785f79c1572e47294d7bd29abdc6c1267b8e3f5d"
			 "d4b49f6a02244aad0c001bdf92c58ae17779ccd520bf83f44bad11bfdb476570"
			 "43f365dfb7dcb2b9aa3fb3df79690da0861cba480b01c188df03b1063c1d56a1"
			 "8e98c1a695a25b727659d22625cdef7cc960ea43d1128a8a631278cb2f881e88"
			 "7859deba4d2c7861753754fd80c75e98cf14628efb72ee4d9faf8b09e5210a91"
			 "8f8887d5b184ab180857ed7235a60ec6ffcbfe2c48391444ba59323a2dc45fcb"
			 "be688e7bee21a43211a099fd90de5943ebedd5876846c6de0b0717596aabca15"
			 "650201b6718c3baa183b30ae385b2c74d4ee4afcf71b09d4da8b1d5d6f216c",
	},
};

static const struct cipher_testvec aes192_hctr2_tv[] = {
	{ /* 17 bytes */
		.key = "24f6e162e5af99da84ec41b0a30bd5a8a03e7ba6dd6c8fa8",
		.iv = "7f80246232ddab66f2872924ecd24b9f0c3352d9e0cc6ee490854397c4621433",
		.ptext = "ef58e77fa9d9b8d7a2919707279ebae8aa",
		.ctext = "d7c38191f24017733e3b1c2a8e119c17f1",
	},
	{ /* 48 bytes */
		.key = "bfafd7678c47cf218aa5dd322547be4ff13a0ba6aa2dcf09",
		.iv = "d9e8f0924efc1df281377c8ff1590920f44651864f548b3258d1998b8c03eb5d",
		.ptext = "cd6490f97ce50e5a75e78e3986ec20438a49091547f43c8921ebcf4ecf91b540"
			 "cde54d5c6ff2d280faabb3769f7f840a",
		.ctext = "44986415b70b80a3b9ca23ff3b0b6874bb3e20199f28712a483c7ce2efb510ac"
			 "829fcd088f6b166fc3bb07fb3cb01b27",
	},
};

static const struct crypto_testvecs aes_testvecs[] = {
	{
		.alg_name = "aes",
		.source = "FIPS-197 Appendix C.1-C.3",
		.count = ARRAY_SIZE(aes_tv),
		.cipher = aes_tv,
	},
	{
		.alg_name = "ecb(aes)",
		.source = "NIST SP 800-38A Appendix F.1",
		.count = ARRAY_SIZE(ecb_aes_tv),
		.cipher = ecb_aes_tv,
	},
	{
		.alg_name = "cbc(aes)",
		.source = "NIST SP 800-38A Appendix F.2",
		.count = ARRAY_SIZE(cbc_aes_tv),
		.cipher = cbc_aes_tv,
	},
	{
		.alg_name = "cfb(aes)",
		.source = "NIST SP 800-38A Appendix F.3.13-F.3.18 (CFB128)",
		.count = ARRAY_SIZE(cfb_aes_tv),
		.cipher = cfb_aes_tv,
	},
	{
		.alg_name = "ctr(aes)",
		.source = "NIST SP 800-38A Appendix F.5",
		.count = ARRAY_SIZE(ctr_aes_tv),
		.cipher = ctr_aes_tv,
	},
	{
		.alg_name = "xctr(aes)",
		.source = "HCTR2 reference (google/hctr2) XCTR_AES128.json",
		.count = ARRAY_SIZE(aes128_xctr_tv),
		.cipher = aes128_xctr_tv,
	},
	{
		.alg_name = "xctr(aes)",
		.source = "HCTR2 reference (google/hctr2) XCTR_AES192.json",
		.count = ARRAY_SIZE(aes192_xctr_tv),
		.cipher = aes192_xctr_tv,
	},
	{
		.alg_name = "xctr(aes)",
		.source = "HCTR2 reference (google/hctr2) XCTR_AES256.json",
		.count = ARRAY_SIZE(aes256_xctr_tv),
		.cipher = aes256_xctr_tv,
	},
	{
		.alg_name = "hctr2(aes)",
		.source = "HCTR2 reference (google/hctr2) HCTR2_AES128.json, 32-byte tweaks",
		.count = ARRAY_SIZE(aes128_hctr2_tv),
		.cipher = aes128_hctr2_tv,
	},
	{
		.alg_name = "hctr2(aes)",
		.source = "HCTR2 reference (google/hctr2) HCTR2_AES192.json, 32-byte tweaks",
		.count = ARRAY_SIZE(aes192_hctr2_tv),
		.cipher = aes192_hctr2_tv,
	},
	{
		.alg_name = "hctr2(aes)",
		.source = "HCTR2 reference (google/hctr2) HCTR2_AES256.json, 32-byte tweaks",
		.count = ARRAY_SIZE(aes256_hctr2_tv),
		.cipher = aes256_hctr2_tv,
	},
	{
		.alg_name = "xts(aes)",
		.source = "IEEE 1619-2007 Annex B, XTS-AES vectors 1-4, 10, 11, 15-18",
		.count = ARRAY_SIZE(xts_aes_tv),
		.cipher = xts_aes_tv,
	},
	{
		.alg_name = "cts(cbc(aes))",
		.source = "RFC 3962 Appendix B (AES-128, IV 0; CBC-CS3)",
		.count = ARRAY_SIZE(cts_cbc_aes_tv),
		.cipher = cts_cbc_aes_tv,
	},
};

/* see aes-internal.h */
int aes_register_testvecs(struct crypto_registry *reg)
{
	int err = crypto_register_testvec_sets(reg, aes_testvecs,
					       ARRAY_SIZE(aes_testvecs));

	return err ? err : aes_gcm_register_testvecs(reg);
}
