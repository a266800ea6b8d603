/* SPDX-License-Identifier: MIT */
/*
 * Known-answer vectors for cbc, cfb, ctr and cts(cbc) over speck128 and
 * speck64, which the registry instantiates over the Speck drivers like
 * over every block cipher.
 *
 * No published vectors exist for these (the kernel only tested Speck in
 * ECB and XTS), so these were computed for cloakfs: the modes written out
 * from their definitions (CBC, full-block CFB, CTR with a big-endian
 * counter over the whole block: NIST SP 800-38A; cts = CBC-CS3, SP 800-38A
 * Addendum, as the kernel's cts(cbc(X))) over Crypto++ 8.7's SPECK64 and
 * SPECK128 as the block cipher (both agree with the kernel vectors in
 * speck-testvec.c). Cross-checks: every Speck64 vector equals the output
 * of Crypto++'s own CBC_Mode, CFB_Mode, CTR_Mode and CBC_CTS_Mode; the
 * Speck128 CBC and CTS vectors decrypt, and the CTR ones encrypt, to the
 * same under Crypto++'s modes. So they test our templates against an
 * independent implementation, not against themselves.
 *
 * Inputs: keys, IVs and plaintext of NIST SP 800-38A Appendix F (Speck64
 * keys are the first 12 or 16 bytes of its AES-128 key), and for cts the
 * key, zero IV and plaintext prefixes of RFC 3962 Appendix B.
 */
#include "crypto/speck/speck-testvec.h"

static const struct cipher_testvec speck128_cbc_tv[] = {
	{ /* Speck128/128 */
		.key = "2b7e151628aed2a6" "abf7158809cf4f3c",
		.iv = "0001020304050607" "08090a0b0c0d0e0f",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "86d9b2afff4a95c0" "8bb142cd837c8b9c"
			 "a5a1c8f8dceadba6" "68a7acf496a49ee4"
			 "9003b53196f5b2a4" "90c0a179db2fa7cc"
			 "160cb2773a8c5a1d" "d012d4ec98b56742",
	}, { /* Speck128/192 */
		.key = "8e73b0f7da0e6452" "c810f32b809079e5"
		       "62f8ead2522c6b7b",
		.iv = "0001020304050607" "08090a0b0c0d0e0f",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "c0262783e43d4fff" "b5d708f91cec2bc1"
			 "1e5546d0501457fe" "0a5a9d234b07a8bb"
			 "97c381bf80df439f" "16d22c3df203a1a9"
			 "2db195acf0e884da" "10b3075bedaaba41",
	}, { /* Speck128/256 */
		.key = "603deb1015ca71be" "2b73aef0857d7781"
		       "1f352c073b6108d7" "2d9810a30914dff4",
		.iv = "0001020304050607" "08090a0b0c0d0e0f",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "4a54fa56c604d566" "eaddec3d09492bcf"
			 "6ef705ecf8f0a421" "9cb4045c48621cdf"
			 "7a6203a7005c4828" "32e35151712496d0"
			 "b288f37e6062333f" "f6cf5aae23e8a494",
	},
};

static const struct cipher_testvec speck128_cfb_tv[] = {
	{ /* Speck128/128 */
		.key = "2b7e151628aed2a6" "abf7158809cf4f3c",
		.iv = "0001020304050607" "08090a0b0c0d0e0f",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "11e835db0bd7dffc" "bf000b76cd2fff06"
			 "34e9438aea59f7a2" "e8ec0276b807230b"
			 "57f4c5a60d2c7fbb" "9e1f0129768940d8"
			 "ed7bd6dc752479de" "895b0c0843ec1d1a",
	}, { /* Speck128/192 */
		.key = "8e73b0f7da0e6452" "c810f32b809079e5"
		       "62f8ead2522c6b7b",
		.iv = "0001020304050607" "08090a0b0c0d0e0f",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "9a59fffe8017912f" "d71aabcfb7b0b85e"
			 "ea47cb85b05a92e9" "c1d26e9c713b9f52"
			 "a0a5195d83b9f3cc" "95e54d955d727a9e"
			 "cbbf7383d160ed8e" "e14639a93917d065",
	}, { /* Speck128/256, partial last block */
		.key = "603deb1015ca71be" "2b73aef0857d7781"
		       "1f352c073b6108d7" "2d9810a30914dff4",
		.iv = "0001020304050607" "08090a0b0c0d0e0f",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be6",
		.ctext = "62ff663a5e69938e" "39408a679d2bfced"
			 "556e358b2f86b121" "b3914882b5f8f215"
			 "6dc358c5afa1b9db" "76eb87030feddb58"
			 "7d1c62cacdc82876" "772d5d1f75",
	},
};

static const struct cipher_testvec speck128_ctr_tv[] = {
	{ /* Speck128/128 */
		.key = "2b7e151628aed2a6" "abf7158809cf4f3c",
		.iv = "f0f1f2f3f4f5f6f7" "f8f9fafbfcfdfeff",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "0623491cd7d922b3" "e5208ce8a3a58252"
			 "76c36e031036d490" "f957391569bf2c54"
			 "7598a03198a43e00" "17f9d498bbafa009"
			 "46fe7181438d4f0e" "2753e3e0edf44534",
	}, { /* Speck128/192, carry across 64 bits */
		.key = "8e73b0f7da0e6452" "c810f32b809079e5"
		       "62f8ead2522c6b7b",
		.iv = "f0f1f2f3f4f5f6f7" "fffffffffffffffe",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be6",
		.ctext = "1aca6cef239fd300" "a326d529fa0ff983"
			 "2bd5b36661c467ec" "546cd747a313e711"
			 "931e6dcdc2a13e9f" "c7fb4295f624a344"
			 "bf1ec999a5d55dd5" "7445ac333e",
	}, { /* Speck128/256, counter wraps to 0 */
		.key = "603deb1015ca71be" "2b73aef0857d7781"
		       "1f352c073b6108d7" "2d9810a30914dff4",
		.iv = "ffffffffffffffff" "fffffffffffffffe",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "690c93defecd844b" "ca49463c492ebae1"
			 "7de1917df9cedd86" "ca5b39ebbc99dceb"
			 "216cd7563c93ca00" "933110340971c2bc"
			 "58d929c90f3f557e" "4d5685d3542383ee",
	},
};

static const struct cipher_testvec speck128_cts_tv[] = {
	{ /* Speck128/128, RFC 3962 inputs */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000" "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865"
			 "20",
		.ctext = "16a51f658f53a45b" "996c630adf921403"
			 "a1",
	}, { /* Speck128/128 */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000" "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865"
			 "2047656e6572616c" "20476175277320",
		.ctext = "239310ac2ec7ff71" "c2203176ee0e4f4e"
			 "a156419cecde05dd" "11e7c8b5a03939",
	}, { /* Speck128/128, whole blocks swapped */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000" "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865"
			 "2047656e6572616c" "2047617527732043",
		.ctext = "25b26049e50413b2" "dfd29691850eb9de"
			 "a156419cecde05dd" "11e7c8b5a03939e2",
	}, { /* Speck128/128 */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000" "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865"
			 "2047656e6572616c" "2047617527732043"
			 "6869636b656e2c20" "706c656173652c",
		.ctext = "a156419cecde05dd" "11e7c8b5a03939e2"
			 "fac219484fa16c47" "c9d1e7c47b1a96a0"
			 "25b26049e50413b2" "dfd29691850eb9",
	}, { /* Speck128/128 */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000" "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865"
			 "2047656e6572616c" "2047617527732043"
			 "6869636b656e2c20" "706c656173652c20",
		.ctext = "a156419cecde05dd" "11e7c8b5a03939e2"
			 "035202b529260eaa" "206a845ce4e7df83"
			 "25b26049e50413b2" "dfd29691850eb9de",
	}, { /* Speck128/128 */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000" "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865"
			 "2047656e6572616c" "2047617527732043"
			 "6869636b656e2c20" "706c656173652c20"
			 "616e6420776f6e74" "6f6e20736f75702e",
		.ctext = "a156419cecde05dd" "11e7c8b5a03939e2"
			 "25b26049e50413b2" "dfd29691850eb9de"
			 "f823f4143beb8139" "f80cf87eff05dc28"
			 "035202b529260eaa" "206a845ce4e7df83",
	}, { /* Speck128/256 */
		.key = "603deb1015ca71be" "2b73aef0857d7781"
		       "1f352c073b6108d7" "2d9810a30914dff4",
		.iv = "0001020304050607" "08090a0b0c0d0e0f",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be6",
		.ctext = "4a54fa56c604d566" "eaddec3d09492bcf"
			 "6ef705ecf8f0a421" "9cb4045c48621cdf"
			 "d88b81a23e305677" "e2600ee81bdbd948"
			 "7a6203a7005c4828" "32e3515171",
	},
};

static const struct cipher_testvec speck64_cbc_tv[] = {
	{ /* Speck64/96 */
		.key = "2b7e151628aed2a6" "abf71588",
		.iv = "0001020304050607",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "24380c6df39bd297" "2a9b1687890c4dbd"
			 "c976487dc982bcf5" "967da6870f469c66"
			 "082013fe839d7b8c" "a05fd75ed82eeaf2"
			 "5f5227a37f98fc56" "20f44088ca382504",
	}, { /* Speck64/128 */
		.key = "2b7e151628aed2a6" "abf7158809cf4f3c",
		.iv = "0001020304050607",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "6174282a509594c3" "2479a44bc3548d4b"
			 "cb2fda0ede5900ba" "f80d1c833aa79ed8"
			 "012344e7bb39ff65" "d25ce29745567b2a"
			 "a4086ca7504bfe54" "8062d973a3913f28",
	},
};

static const struct cipher_testvec speck64_cfb_tv[] = {
	{ /* Speck64/96 */
		.key = "2b7e151628aed2a6" "abf71588",
		.iv = "0001020304050607",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "ddf22cea1bbe51a7" "cf1ca5eddf8f4e5a"
			 "c679b88e7c73a2c4" "a572b8317203b232"
			 "a38feef47dd0031b" "fad4130c3d384028"
			 "373e03eccd3876cf" "763b06c91baab541",
	}, { /* Speck64/128, partial last block */
		.key = "2b7e151628aed2a6" "abf7158809cf4f3c",
		.iv = "0001020304050607",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be6",
		.ctext = "cf5a6c4e6eccbf04" "78b6ed499cef211c"
			 "85861a8132ee35d2" "a4626871d8cbee9e"
			 "630308338d9305fd" "110d1dfdd0391cd8"
			 "2bfa67a2b4f05dea" "8641820ce8",
	},
};

static const struct cipher_testvec speck64_ctr_tv[] = {
	{ /* Speck64/96 */
		.key = "2b7e151628aed2a6" "abf71588",
		.iv = "f8f9fafbfcfdfeff",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "93e37594e1daf785" "46cf95042a05015f"
			 "4be9ce6df1d5d82e" "356f24450d299dd4"
			 "3ef2426de4a9cd69" "5b8ea8759de5a2db"
			 "6065907c58c2e72b" "990f6fc01e68ebbb",
	}, { /* Speck64/128, carry across 32 bits */
		.key = "2b7e151628aed2a6" "abf7158809cf4f3c",
		.iv = "f8f9fafbfffffffe",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be6",
		.ctext = "74fdf456d3835aff" "0581aa3f2683a20b"
			 "dbb3927550968c1f" "41d496248fa860b3"
			 "d25d02449af04eb0" "efdcfbb62e812d02"
			 "327f564b51bc696a" "4f46a630e0",
	}, { /* Speck64/128, counter wraps to 0 */
		.key = "2b7e151628aed2a6" "abf7158809cf4f3c",
		.iv = "fffffffffffffffd",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be66c3710",
		.ctext = "7223877bfd9316df" "cdff9b294b6a4153"
			 "8f6cee4d3e3ccc4c" "02a2faab87189492"
			 "f27882c2fd2461e9" "1434f06496250d71"
			 "e9a46d70d7538c42" "791d853b9455b904",
	},
};

static const struct cipher_testvec speck64_cts_tv[] = {
	{ /* Speck64/128, RFC 3962 inputs */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000",
		.ptext = "4920776f756c6420" "6c",
		.ctext = "7a0cc77a03224ab9" "cb",
	}, { /* Speck64/128 */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b65207468",
		.ctext = "da799a2d9ce2a1bb" "cb3e913363d04a",
	}, { /* Speck64/128, whole blocks swapped */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865",
		.ctext = "0780d25fe288973b" "cb3e913363d04a35",
	}, { /* Speck64/128 */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865"
			 "20",
		.ctext = "cb3e913363d04a35" "c939c78616e8b34c"
			 "07",
	}, { /* Speck64/128 */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865"
			 "2047656e6572616c" "20476175277320",
		.ctext = "cb3e913363d04a35" "0780d25fe288973b"
			 "66f1c6fd3dcf7f4a" "ed7915560486ce",
	}, { /* Speck64/128 */
		.key = "636869636b656e20" "7465726979616b69",
		.iv = "0000000000000000",
		.ptext = "4920776f756c6420" "6c696b6520746865"
			 "2047656e6572616c" "2047617527732043"
			 "6869636b656e2c20" "706c656173652c20"
			 "616e6420776f6e74" "6f6e20736f75702e",
		.ctext = "cb3e913363d04a35" "0780d25fe288973b"
			 "ed7915560486ce98" "88f2a11055954d74"
			 "7a8eebf31489cec4" "092862f523908032"
			 "0a002c565e3a0d57" "326e6a0c2683215e",
	}, { /* Speck64/96 */
		.key = "2b7e151628aed2a6" "abf71588",
		.iv = "0001020304050607",
		.ptext = "6bc1bee22e409f96" "e93d7e117393172a"
			 "ae2d8a571e03ac9c" "9eb76fac45af8e51"
			 "30c81c46a35ce411" "e5fbc1191a0a52ef"
			 "f69f2445df4f9b17" "ad2b417be6",
		.ctext = "24380c6df39bd297" "2a9b1687890c4dbd"
			 "c976487dc982bcf5" "967da6870f469c66"
			 "082013fe839d7b8c" "a05fd75ed82eeaf2"
			 "de4ab56670aa1414" "5f5227a37f",
	},
};

#define COMPUTED "computed for cloakfs (see speck-testvec-modes.c), "
#define CROSS_CPP "checked against Crypto++ 8.7"

const struct crypto_testvecs speck_mode_testvecs[] = {
	{
		.alg_name = "cbc(speck128)",
		.source = COMPUTED "SP 800-38A CBC, " CROSS_CPP,
		.count = ARRAY_SIZE(speck128_cbc_tv),
		.cipher = speck128_cbc_tv,
	}, {
		.alg_name = "cfb(speck128)",
		.source = COMPUTED "SP 800-38A CFB128 (mode code checked on Speck64)",
		.count = ARRAY_SIZE(speck128_cfb_tv),
		.cipher = speck128_cfb_tv,
	}, {
		.alg_name = "ctr(speck128)",
		.source = COMPUTED "SP 800-38A CTR, " CROSS_CPP,
		.count = ARRAY_SIZE(speck128_ctr_tv),
		.cipher = speck128_ctr_tv,
	}, {
		.alg_name = "cts(cbc(speck128))",
		.source = COMPUTED "CBC-CS3 on RFC 3962 inputs, " CROSS_CPP,
		.count = ARRAY_SIZE(speck128_cts_tv),
		.cipher = speck128_cts_tv,
	}, {
		.alg_name = "cbc(speck64)",
		.source = COMPUTED "SP 800-38A CBC, " CROSS_CPP,
		.count = ARRAY_SIZE(speck64_cbc_tv),
		.cipher = speck64_cbc_tv,
	}, {
		.alg_name = "cfb(speck64)",
		.source = COMPUTED "SP 800-38A CFB64, " CROSS_CPP,
		.count = ARRAY_SIZE(speck64_cfb_tv),
		.cipher = speck64_cfb_tv,
	}, {
		.alg_name = "ctr(speck64)",
		.source = COMPUTED "SP 800-38A CTR, " CROSS_CPP,
		.count = ARRAY_SIZE(speck64_ctr_tv),
		.cipher = speck64_ctr_tv,
	}, {
		.alg_name = "cts(cbc(speck64))",
		.source = COMPUTED "CBC-CS3 on RFC 3962 inputs, " CROSS_CPP,
		.count = ARRAY_SIZE(speck64_cts_tv),
		.cipher = speck64_cts_tv,
	},
};

const unsigned int speck_mode_testvecs_count = ARRAY_SIZE(speck_mode_testvecs);
