/* SPDX-License-Identifier: MIT */
/*
 * Known-answer vectors for speck128, speck64, ecb(speck*) and xts(speck*).
 *
 * All bytes are copied from the Linux kernel's crypto/testmgr.h as of
 * v4.17-v4.19 (speck128_tv_template, speck64_tv_template,
 * speck128_xts_tv_template, speck64_xts_tv_template; removed in v4.20),
 * each 8-byte hex group being one kernel line. They were read from an
 * Android kernel tree carrying the kernel's backport of those vectors
 * (trax85/Shadow-Trax-Edition crypto/testmgr.h: speck128_enc_tv_template,
 * speck128_xts_enc_tv_template, speck64_enc_tv_template,
 * speck64_xts_enc_tv_template; same bytes in the older enc/dec layout).
 *
 * The block-cipher vectors are those of the Speck paper (Beaulieu et al.,
 * "The SIMON and SPECK Families of Lightweight Block Ciphers", 2013,
 * Appendix C), converted by the kernel to its byte order: each paper word
 * stored little-endian, words in reverse of the paper's order. Converting
 * the paper's words ourselves gives exactly these bytes (checked when the
 * vectors were added), so one set serves as both.
 *
 * The XTS vectors are the IEEE 1619 AES-XTS vectors 1-3, 10 and 11 with
 * the results recomputed by the kernel authors for Speck. For Speck64-XTS
 * the kernel used a 16-byte iv field but an 8-byte tweak (the block size):
 * only the first 8 bytes are given here, the rest were zero.
 */
#include "crypto/speck/speck-testvec.h"

/* 00 01 .. ff 00 01 .. ff: the plaintext of the 512-byte XTS vectors */
#define PTEXT_00_FF                                                     \
	"0001020304050607" "08090a0b0c0d0e0f" "1011121314151617"        \
	"18191a1b1c1d1e1f" "2021222324252627" "28292a2b2c2d2e2f"        \
	"3031323334353637" "38393a3b3c3d3e3f" "4041424344454647"        \
	"48494a4b4c4d4e4f" "5051525354555657" "58595a5b5c5d5e5f"        \
	"6061626364656667" "68696a6b6c6d6e6f" "7071727374757677"        \
	"78797a7b7c7d7e7f" "8081828384858687" "88898a8b8c8d8e8f"        \
	"9091929394959697" "98999a9b9c9d9e9f" "a0a1a2a3a4a5a6a7"        \
	"a8a9aaabacadaeaf" "b0b1b2b3b4b5b6b7" "b8b9babbbcbdbebf"        \
	"c0c1c2c3c4c5c6c7" "c8c9cacbcccdcecf" "d0d1d2d3d4d5d6d7"        \
	"d8d9dadbdcdddedf" "e0e1e2e3e4e5e6e7" "e8e9eaebecedeeef"        \
	"f0f1f2f3f4f5f6f7" "f8f9fafbfcfdfeff"
#define PTEXT_512 PTEXT_00_FF PTEXT_00_FF

#define ZEROS_32                                                        \
	"0000000000000000" "0000000000000000" "0000000000000000"        \
	"0000000000000000"
#define FOURS_32                                                        \
	"4444444444444444" "4444444444444444" "4444444444444444"        \
	"4444444444444444"

/* ---- Speck128 (paper Appendix C, kernel byte order) ---- */

static const struct cipher_testvec speck128_tv[] = {
	{ /* Speck128/128 */
		.key = "0001020304050607" "08090a0b0c0d0e0f",
		.ptext = "206d616465206974" "206571756976616c",
		.ctext = "180d575cdffe6078" "6532787951985da6",
	}, { /* Speck128/192 */
		.key = "0001020304050607" "08090a0b0c0d0e0f"
		       "1011121314151617",
		.ptext = "656e7420746f2043" "6869656620486172",
		.ctext = "86183ce05d18bcf9" "665513133acfe41b",
	}, { /* Speck128/256 */
		.key = "0001020304050607" "08090a0b0c0d0e0f"
		       "1011121314151617" "18191a1b1c1d1e1f",
		.ptext = "706f6f6e65722e20" "496e2074686f7365",
		.ctext = "438f189c8db4ee4e" "3ef5c00504010941",
	},
};

/* ---- Speck64 (paper Appendix C, kernel byte order) ---- */

static const struct cipher_testvec speck64_tv[] = {
	{ /* Speck64/96 */
		.key = "0001020308090a0b" "10111213",
		.ptext = "65616e7320466174",
		.ctext = "6c947541ec52799f",
	}, { /* Speck64/128 */
		.key = "0001020308090a0b" "1011121318191a1b",
		.ptext = "2d4375747465723b",
		.ctext = "8b024e4548a56f8c",
	},
};

/* ---- Speck128-XTS: key = K1 || K2, iv = 16-byte tweak ---- */

static const struct cipher_testvec speck128_xts_tv[] = {
	{ /* Speck128/128 x 2 */
		.key = "0000000000000000" "0000000000000000"
		       "0000000000000000" "0000000000000000",
		.iv = "0000000000000000" "0000000000000000",
		.ptext = ZEROS_32,
		.ctext = "bea0e703d7feab62" "3b994a647477aced"
			 "d8f4a6cfaeb90742" "51d9b61de05ebc54",
	}, {
		.key = "1111111111111111" "1111111111111111"
		       "2222222222222222" "2222222222222222",
		.iv = "3333333333000000" "0000000000000000",
		.ptext = FOURS_32,
		.ctext = "fb5381756f9f34ad" "7e01ed7bccda4e4a"
			 "d484a453d588731b" "fdcbae0df304eee6",
	}, {
		.key = "fffefdfcfbfaf9f8" "f7f6f5f4f3f2f1f0"
		       "2222222222222222" "2222222222222222",
		.iv = "3333333333000000" "0000000000000000",
		.ptext = FOURS_32,
		.ctext = "21528415d1f72155" "d9754ad3c5db9f7d"
			 "da63b2f182b08959" "86d4aaaaddff4f92",
	}, {
		.key = "2718281828459045" "2353602874713526"
		       "3141592653589793" "2384626433832795",
		.iv = "0000000000000000" "0000000000000000",
		.ptext = PTEXT_512,
		.ctext = "57b5f8716e6ddd82" "53d0ed2d30c120ef"
			 "70675eff0970bbc1" "3a7b4826d90bf448"
			 "beceb1c7b267c4a7" "76f83630b7b49ad9"
			 "f59dd07bc1069644" "19c5588463b91268"
			 "68c7aa1898f21f5c" "39a6d8322bc351fd"
			 "74792eb444d769c4" "fc29e6ed261ea69d"
			 "1cbe000e7f3acafb" "6d1365a0f93112e2"
			 "26d1ec2b0a8b5999" "a749a00e09338550"
			 "c323ca7add13455f" "de4ca7cb008a666f"
			 "a2b6b12ee1a018f6" "adf3bdebc7ef554f"
			 "79918d36137bd04a" "6c39fb53b86f0251"
			 "a520ac241c735973" "58613a8758b32056"
			 "39062b4dd3202b89" "3fa2f096eb7fa4cd"
			 "11aebdcb3ab4d991" "0935715065ac92e3"
			 "7b32c07addd4c392" "6feb79de6fd325c9"
			 "cd63f51e7a3b269d" "770480a9bf38b5bd"
			 "b80507bdfdab7bf8" "2a26cc49146d5501"
			 "0694d8b22d53831b" "8fd4dd57127e18ba"
			 "8ee24d80ef7e6b9d" "24a960a49785862a"
			 "010009f1cb4a241c" "d8f6e65be75df2c4"
			 "971c10c64d664f98" "8730acd5ea734910"
			 "80eae55f4d5f0333" "6602353d6006364f"
			 "141cd8071f78d0f8" "4f6c627c15a57c28"
			 "7ccceb1fd1079093" "7ec2a83a80c0f530"
			 "cc75cf1626a9263b" "e7682f15215be400"
			 "bd4850cd7570c462" "bb41fb894a883b3b"
			 "51660269049736d4" "75ae0ba342f8ca79"
			 "8f93e9cc38bdd6d2" "f9704ec36a8e25bd"
			 "ea155aa0857e810d" "03e70539f50526ee"
			 "ecaa1f3dc9987601" "2cf4fca3887738c4"
			 "5065506d041fdf5a" "aaf201a9c18deeca"
			 "4726ef39b8b4f2d1" "d6bb1b2ac13414cf",
	}, { /* Speck128/256 x 2 */
		.key = "2718281828459045" "2353602874713526"
		       "6249775724709369" "9959574966967627"
		       "3141592653589793" "2384626433832795"
		       "0288419716939937" "5105820974944592",
		.iv = "ff00000000000000" "0000000000000000",
		.ptext = PTEXT_512,
		.ctext = "c5852a4b73e4f6f1" "7ef9f6e9a37336cb"
			 "aab622b0246e3d73" "9299ded376edcd63"
			 "643a2257c14349d4" "7936311962ae107e"
			 "7dcf7ae26bce27fa" "dc3dd983d3424ce0"
			 "1bd61d1a6fd20300" "fc81998a1462f57e"
			 "0de712e8179d0bec" "e2f7c9a763d179b6"
			 "626237fe0a4c4a37" "70c75e965fbc8e9e"
			 "853c4f266485bc68" "b0e0865e2641ce11"
			 "50da9714e99ec76d" "3bdc43de2b27697d"
			 "fcb028bd8fb1c631" "144df07437fd0725"
			 "9655e5fc9e272a74" "1b834d1583ac57a0"
			 "aca5d038ef195653" "254bfcce0423e56b"
			 "f6c66c320bb312c5" "ed22341c5ded1706"
			 "36a3e677b99746b8" "e93f7ec7bc135cdc"
			 "6e3f045ed159a582" "35913d1be4979f92"
			 "1c5e5f6f41d462a1" "8d39fc42fb3880b9"
			 "0ae3cc6a93d97ab1" "e969af0a6b7538a7"
			 "a1bff7da95934b78" "19f594f9d2003337"
			 "cff59e9cf3cca6ee" "42b29e2c5f482326"
			 "152517033dfe2cfc" "ebbadae00005b6a6"
			 "07b3e8365bec5bbf" "d65b0074c697f16a"
			 "49a1c3fa1052b914" "adb773f87812c859"
			 "17804c5739f16d80" "25770f5e7df0af21"
			 "ecceb7c8028aed53" "2c25682e1f855e67"
			 "d1077a3a8908e034" "dcdb26b46b77fc40"
			 "311572a0f073d93b" "d5dbfefc8fa944a2"
			 "099fc633e5e288e8" "f3f01af4ce120fd6"
			 "f736e6a4f47a1058" "cc1f4849654775e9"
			 "28e1657bf2c4b507" "f2ec76d88f09f316"
			 "a151893beb9642ac" "65e0676329dcb47d"
			 "f241516acbde3cfb" "668d13cae0592a00"
			 "c9534ce69ee273d5" "6719b2bd9a63d75c",
	},
};

/* ---- Speck64-XTS: key = K1 || K2, iv = 8-byte tweak ---- */

static const struct cipher_testvec speck64_xts_tv[] = {
	{ /* Speck64/96 x 2 */
		.key = "0000000000000000" "0000000000000000"
		       "0000000000000000",
		.iv = "0000000000000000",
		.ptext = ZEROS_32,
		.ctext = "84af540719d47ca6" "e4fedfc41f34c3c2"
			 "80f572e7cdf09922" "35a72f06efdc51aa",
	}, {
		.key = "1111111111111111" "1111111111111111"
		       "2222222222222222",
		.iv = "3333333333000000",
		.ptext = FOURS_32,
		.ctext = "125673cd1587a859" "cf84aed91c66d69f"
			 "b312697e36eb52ff" "62ddba90b3e1ee99",
	}, {
		.key = "fffefdfcfbfaf9f8" "f7f6f5f4f3f2f1f0"
		       "2222222222222222",
		.iv = "3333333333000000",
		.ptext = FOURS_32,
		.ctext = "151be42ca25a2d2c" "2736c0bf5dea3637"
			 "2d1a88bc66b5d00b" "a1bc19b20f3b7534",
	}, {
		.key = "2718281828459045" "2353602874713526"
		       "3141592653589793",
		.iv = "0000000000000000",
		.ptext = PTEXT_512,
		.ctext = "afa181a632bb158e" "f8952ed3e6ee7e09"
			 "0c1af502978be3b3" "11c73996d095f456"
			 "f4dd033801442ccf" "88ae8e3ccde7aa66"
			 "fe3dc6fb01235143" "d5d213869434e962"
			 "f989e3d17bbef8ef" "7635043fdb239d0b"
			 "8542b902d6ccdb96" "a76b27b6d4458f7d"
			 "aed204d5dac17e24" "8c73be487ecf6528"
			 "29e5be5430cb4695" "4f2e8a36c827c5be"
			 "d01aafab26cd9e69" "a109957126e9c4df"
			 "e631c346daaf0b41" "1fabb18ed6fc0bb3"
			 "82c03727fc91a705" "fbc5dc2b74964843"
			 "5d9c190f60633a1f" "6ff003be4dfdc84a"
			 "c6a4816dc3122a5c" "07fff3727448b540"
			 "50b5dd9043311815" "7bf2a6db83c84b4a"
			 "2993908bda07f035" "6d9088094e83f55b"
			 "9412bb33271d3f23" "51a87c07a2ae77a6"
			 "50fdccc04f807a9f" "66ddcd75248b33f7"
			 "20db839b4f11636e" "cf37efc911015c45"
			 "32997c3c9e4289e3" "706d159fb1e6b605"
			 "fe0cb9492d906dcc" "5d3fc1fe890a2e2d"
			 "a0a8893b7339a594" "4ca4a6bba7144689"
			 "10ffafefcadd4f80" "b3df3babd4e55ac7"
			 "33ca008b8b3feaec" "688ac26dfdd4670f"
			 "2231e10efe5a04d5" "64a3f11a7628cc35"
			 "36a70a74f71c449b" "c71b531702ead1ad"
			 "135173c0a0b20532" "a8a2372ee17a3a19"
			 "26b46c625db31a1d" "59daee1a2218da0d"
			 "880f558b7262fdc1" "6913cd0d5fc10952"
			 "eed6e3844deef688" "af83dc76f4c0933f"
			 "4a752fb00b3ec454" "7d698d0062770d14"
			 "be7ca67dc5244ff3" "50f75ff4c2ca4197"
			 "37be7574cdf0756e" "252394bdda8db0d4",
	}, { /* Speck64/128 x 2 */
		.key = "2718281828459045" "2353602874713526"
		       "6249775724709369" "9959574966967627",
		.iv = "ff00000000000000",
		.ptext = PTEXT_512,
		.ctext = "55ed71d3028e153b" "c671292d3e899f59"
			 "686acc8a5697f395" "4e5108da2af86f3c"
			 "7816ea80db337594" "f929c42b767597c7"
			 "f2982cf9ffc8d52b" "18f1afcf7cc50bee"
			 "ad3c767ce627a22a" "e466e1aba239fc7c"
			 "f5ec3274a3b80388" "52fc2e563fa1f09f"
			 "845e46ed2089b644" "8dd0ed544716be95"
			 "8ab36b72c4325213" "1bb082beacf970a6"
			 "4418dd8c6eca6e45" "8f1e10075725987b"
			 "178c78dd80a7d9d8" "63afb96757fdbcdb"
			 "44e9c565d1c73bff" "20a0801ac39aad5e"
			 "5d3bd307d9f5fd3d" "4a8ba8d26e7a5165"
			 "6c8e95e045c95f4a" "093c3d717f0c842a"
			 "c848521ac2d5d678" "921ea0902eeaf0f3"
			 "dc0fb1af0d9b062e" "351030820de7c59b"
			 "de4418bd9fd145a9" "7b7a4aad356527ca"
			 "b2c3d49b718670ee" "f1893b854b5baaaf"
			 "fc42c83159be1660" "4ff9fa12ead0a714"
			 "f07af3d58dbd81ef" "527f29519420673c"
			 "d1af779f225a4e63" "e7ff7325d1dd968a"
			 "98526df3ac3ef218" "6df60a29a6343ded"
			 "e3270d9d0a02447e" "5a7e670f0a9ed6ad"
			 "91e64d818c5c59aa" "fbeb5653d27d4c81"
			 "65530f4111bd9899" "f9c6fa512ea3dd8d"
			 "8498f934ed332a1f" "82edc17398d302dc"
			 "e6c2331da2b4ca76" "6351349d9612aece"
			 "83c9765ea41b5337" "17d5c0801d62f83d"
			 "542774bb10865746" "68e1ed14e79dfc84"
			 "47bcc2f8194b99cf" "7ae9c4b88c82724d"
			 "7b4f3855367164c1" "fc5c7552330218f8"
			 "17e12bc24339bd76" "9b6376322f197210"
			 "9f210cf166507fa5" "0d1f46e0bad32f3c",
	},
};

#define KERNEL_TESTMGR "Linux v4.17-v4.19 crypto/testmgr.h "
#define SPECK_PAPER "(= Speck paper, eprint 2013/404, Appendix C)"

const struct crypto_testvecs speck_testvecs[] = {
	{
		.alg_name = "speck128",
		.source = KERNEL_TESTMGR "speck128_tv_template " SPECK_PAPER,
		.count = ARRAY_SIZE(speck128_tv),
		.cipher = speck128_tv,
	}, {
		.alg_name = "speck64",
		.source = KERNEL_TESTMGR "speck64_tv_template " SPECK_PAPER,
		.count = ARRAY_SIZE(speck64_tv),
		.cipher = speck64_tv,
	}, {
		/* the kernel tested exactly these under "ecb(speck128)" */
		.alg_name = "ecb(speck128)",
		.source = KERNEL_TESTMGR "speck128_tv_template " SPECK_PAPER,
		.count = ARRAY_SIZE(speck128_tv),
		.cipher = speck128_tv,
	}, {
		.alg_name = "ecb(speck64)",
		.source = KERNEL_TESTMGR "speck64_tv_template " SPECK_PAPER,
		.count = ARRAY_SIZE(speck64_tv),
		.cipher = speck64_tv,
	}, {
		.alg_name = "xts(speck128)",
		.source = KERNEL_TESTMGR "speck128_xts_tv_template",
		.count = ARRAY_SIZE(speck128_xts_tv),
		.cipher = speck128_xts_tv,
	}, {
		.alg_name = "xts(speck64)",
		.source = KERNEL_TESTMGR "speck64_xts_tv_template "
			  "(iv cut to the 8-byte tweak)",
		.count = ARRAY_SIZE(speck64_xts_tv),
		.cipher = speck64_xts_tv,
	},
};

const unsigned int speck_testvecs_count = ARRAY_SIZE(speck_testvecs);
