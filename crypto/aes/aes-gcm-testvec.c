/* SPDX-License-Identifier: MIT */
/*
 * Known-answer vectors for "gcm(aes)" (96-bit nonces, 16-byte tags: the
 * only ones the gcm template takes), as hex strings copied from their
 * sources:
 *
 *  - McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)",
 *    appendix B: test cases 1-4 (AES-128), 7-10 (AES-192) and 13-16
 *    (AES-256); cases 5, 6, 11, 12, 17 and 18 use other nonce lengths.
 *  - NIST CAVP, gcmtestvectors.zip as Debian's python3-cryptography-vectors
 *    ships it (cryptography_vectors/ciphers/AES/GCM/): per key size, from
 *    gcmEncryptExtIV<bits>.rsp the first case ("Count = 0") of [IVlen = 96]
 *    [Taglen = 128] with PTlen/AADlen 0/0, 0/128, 128/0, 104/160,
 *    256/384 and 408/720 bits; from gcmDecrypt<bits>.rsp the first FAIL
 *    case with PTlen/AADlen 0/0 and 408/720 (.invalid: decryption must
 *    refuse them).
 *  - one longer AES-256 vector computed with OpenSSL (aes256_gcm_long_tv
 *    says why and how).
 */
#include "crypto/aes/aes-internal.h"
#include "crypto/internal/registry.h"

static const struct aead_testvec aes_gcm_mcgrew_viega_tv[] = {
	{ /* test case 1: AES-128 */
		.key = "00000000000000000000000000000000",
		.nonce = "000000000000000000000000",
		.aad = NULL,
		.ptext = NULL,
		.ctext = NULL,
		.tag = "58e2fccefa7e3061367f1d57a4e7455a",
	},
	{ /* test case 2: AES-128 */
		.key = "00000000000000000000000000000000",
		.nonce = "000000000000000000000000",
		.aad = NULL,
		.ptext = "00000000000000000000000000000000",
		.ctext = "0388dace60b6a392f328c2b971b2fe78",
		.tag = "ab6e47d42cec13bdf53a67b21257bddf",
	},
	{ /* test case 3: AES-128 */
		.key = "feffe9928665731c6d6a8f9467308308",
		.nonce = "cafebabefacedbaddecaf888",
		.aad = NULL,
		.ptext = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
			 "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
		.ctext = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
			 "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
		.tag = "4d5c2af327cd64a62cf35abd2ba6fab4",
	},
	{ /* test case 4: AES-128 */
		.key = "feffe9928665731c6d6a8f9467308308",
		.nonce = "cafebabefacedbaddecaf888",
		.aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2",
		.ptext = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
			 "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		.ctext = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
			 "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
		.tag = "5bc94fbc3221a5db94fae95ae7121a47",
	},
	{ /* test case 7: AES-192 */
		.key = "000000000000000000000000000000000000000000000000",
		.nonce = "000000000000000000000000",
		.aad = NULL,
		.ptext = NULL,
		.ctext = NULL,
		.tag = "cd33b28ac773f74ba00ed1f312572435",
	},
	{ /* test case 8: AES-192 */
		.key = "000000000000000000000000000000000000000000000000",
		.nonce = "000000000000000000000000",
		.aad = NULL,
		.ptext = "00000000000000000000000000000000",
		.ctext = "98e7247c07f0fe411c267e4384b0f600",
		.tag = "2ff58d80033927ab8ef4d4587514f0fb",
	},
	{ /* test case 9: AES-192 */
		.key = "feffe9928665731c6d6a8f9467308308feffe9928665731c",
		.nonce = "cafebabefacedbaddecaf888",
		.aad = NULL,
		.ptext = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
			 "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
		.ctext = "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
			 "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
		.tag = "9924a7c8587336bfb118024db8674a14",
	},
	{ /* test case 10: AES-192 */
		.key = "feffe9928665731c6d6a8f9467308308feffe9928665731c",
		.nonce = "cafebabefacedbaddecaf888",
		.aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2",
		.ptext = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
			 "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		.ctext = "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
			 "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710",
		.tag = "2519498e80f1478f37ba55bd6d27618c",
	},
	{ /* test case 13: AES-256 */
		.key = "0000000000000000000000000000000000000000000000000000000000000000",
		.nonce = "000000000000000000000000",
		.aad = NULL,
		.ptext = NULL,
		.ctext = NULL,
		.tag = "530f8afbc74536b9a963b4f1c4cb738b",
	},
	{ /* test case 14: AES-256 */
		.key = "0000000000000000000000000000000000000000000000000000000000000000",
		.nonce = "000000000000000000000000",
		.aad = NULL,
		.ptext = "00000000000000000000000000000000",
		.ctext = "cea7403d4d606b6e074ec5d3baf39d18",
		.tag = "d0d1c8a799996bf0265b98b5d48ab919",
	},
	{ /* test case 15: AES-256 */
		.key = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
		.nonce = "cafebabefacedbaddecaf888",
		.aad = NULL,
		.ptext = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
			 "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
		.ctext = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
			 "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
		.tag = "b094dac5d93471bdec1a502270e3cc6c",
	},
	{ /* test case 16: AES-256 */
		.key = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
		.nonce = "cafebabefacedbaddecaf888",
		.aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2",
		.ptext = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
			 "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		.ctext = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
			 "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
		.tag = "76fc6ece0f4e1768cddf8853bb2d551b",
	},
};

/* gcmEncryptExtIV128.rsp and gcmDecrypt128.rsp */
static const struct aead_testvec aes128_gcm_nist_tv[] = {
	{ /* Count = 0, PTlen = 0, AADlen = 0 */
		.key = "11754cd72aec309bf52f7687212e8957",
		.nonce = "3c819d9a9bed087615030b65",
		.aad = NULL,
		.ptext = NULL,
		.ctext = NULL,
		.tag = "250327c674aaf477aef2675748cf6971",
	},
	{ /* Count = 0, PTlen = 0, AADlen = 128 */
		.key = "77be63708971c4e240d1cb79e8d77feb",
		.nonce = "e0e00f19fed7ba0136a797f3",
		.aad = "7a43ec1d9c0a5a78a0b16533a6213cab",
		.ptext = NULL,
		.ctext = NULL,
		.tag = "209fcc8d3675ed938e9c7166709dd946",
	},
	{ /* Count = 0, PTlen = 128, AADlen = 0 */
		.key = "7fddb57453c241d03efbed3ac44e371c",
		.nonce = "ee283a3fc75575e33efd4887",
		.aad = NULL,
		.ptext = "d5de42b461646c255c87bd2962d3b9a2",
		.ctext = "2ccda4a5415cb91e135c2a0f78c9b2fd",
		.tag = "b36d1df9b9d5e596f83e8b7f52971cb3",
	},
	{ /* Count = 0, PTlen = 104, AADlen = 160 */
		.key = "fe0121f42e599f88ff02a985403e19bb",
		.nonce = "3bb9eb7724cbe1943d43de21",
		.aad = "2662d895035b6519f3510eae0faa3900ad23cfdf",
		.ptext = "fd331ca8646091c29f21e5f0a1",
		.ctext = "59fe29b07b0de8d869efbbd9b4",
		.tag = "d24c3e9c1c73c0af1097e26061c857de",
	},
	{ /* Count = 0, PTlen = 256, AADlen = 384 */
		.key = "48b7f337cdf9252687ecc760bd8ec184",
		.nonce = "3e894ebb16ce82a53c3e05b2",
		.aad = "7d924cfd37b3d046a96eb5e132042405c8731e06509787bbeb41f25827574649"
		       "5e884d69871f77634c584bb007312234",
		.ptext = "bb2bac67a4709430c39c2eb9acfabc0d456c80d30aa1734e57997d548a8f0603",
		.ctext = "d263228b8ce051f67e9baf1ce7df97d10cd5f3bc972362055130c7d13c3ab2e7",
		.tag = "71446737ca1fa92e6d026d7d2ed1aa9c",
	},
	{ /* Count = 0, PTlen = 408, AADlen = 720 */
		.key = "2c1f21cf0f6fb3661943155c3e3d8492",
		.nonce = "23cb5ff362e22426984d1907",
		.aad = "5d3624879d35e46849953e45a32a624d6a6c536ed9857c613b572b0333e70155"
		       "7a713e3f010ecdf9a6bd6c9e3e44b065208645aff4aabee611b3915285141700"
		       "84ccf587177f4488f33cfb5e979e42b6e1cfc0a60238982a7aec",
		.ptext = "42f758836986954db44bf37c6ef5e4ac0adaf38f27252a1b82d02ea949c8a1a2"
			 "dbc0d68b5615ba7c1220ff6510e259f06655d8",
		.ctext = "81824f0e0d523db30d3da369fdc0d60894c7a0a20646dd015073ad2732bd989b"
			 "14a222b6ad57af43e1895df9dca2a5344a62cc",
		.tag = "57a3ee28136e94c74838997ae9823f3a",
	},
	{ /* Count = 1, PTlen = 0, AADlen = 0, FAIL */
		.key = "a49a5e26a2f8cb63d05546c2a62f5343",
		.nonce = "907763b19b9b4ab6bd4f0281",
		.aad = NULL,
		.ctext = NULL,
		.tag = "a2be08210d8c470a8df6e8fbd79ec5cf",
		.invalid = 1,
	},
	{ /* Count = 2, PTlen = 408, AADlen = 720, FAIL */
		.key = "1986310c725ac94ecfe6422e75fc3ee7",
		.nonce = "93ec4214fa8e6dc4e3afc775",
		.aad = "e80b88e62c49c958b5e0b8b54f532d9ff6aa84c8a40132e93e55b59fc24e8dec"
		       "f28463139f155d1e8ce4ee76aaeefcd245baa0fc519f83a5fb9ad9aa40c4b211"
		       "26013f576c4272c2cb136c8fd091cc4539877a5d1e72d607f960",
		.ctext = "b178ec72f85a311ac4168f42a4b2c23113fbea4b85f4b9dabb74e143eb1b8b0a"
			 "361e0243edfd365b90d5b325950df0ada058f9",
		.tag = "8b347853f11d75e81e8a95010be81f17",
		.invalid = 1,
	},
};

/* gcmEncryptExtIV192.rsp and gcmDecrypt192.rsp */
static const struct aead_testvec aes192_gcm_nist_tv[] = {
	{ /* Count = 0, PTlen = 0, AADlen = 0 */
		.key = "aa740abfadcda779220d3b406c5d7ec09a77fe9d94104539",
		.nonce = "ab2265b4c168955561f04315",
		.aad = NULL,
		.ptext = NULL,
		.ctext = NULL,
		.tag = "f149e2b5f0adaa9842ca5f45b768a8fc",
	},
	{ /* Count = 0, PTlen = 0, AADlen = 128 */
		.key = "41c5da8667ef725220ffe39ae0ac590ac9fca729ab60ada0",
		.nonce = "05ad13a5e2c2ab667e1a6fbc",
		.aad = "8b5c124bef6e2f0fe4d8c95cd5fa4cf1",
		.ptext = NULL,
		.ctext = NULL,
		.tag = "204bdb1bd62154bf08922aaa54eed705",
	},
	{ /* Count = 0, PTlen = 128, AADlen = 0 */
		.key = "fbc0b4c56a714c83217b2d1bcadd2ed2e9efb0dcac6cc19f",
		.nonce = "5f4b43e811da9c470d6a9b01",
		.aad = NULL,
		.ptext = "d2ae38c4375954835d75b8e4c2f9bbb4",
		.ctext = "69482957e6be5c54882d00314e0259cf",
		.tag = "191e9f29bef63a26860c1e020a21137e",
	},
	{ /* Count = 0, PTlen = 104, AADlen = 160 */
		.key = "4bea36ca9c7a5cf6df8f8bb5be1e97647d014bd181d50e28",
		.nonce = "bff3d447b453eeb78f3a5650",
		.aad = "33b7e18c7d5fd133faadd0ab524b86526e398203",
		.ptext = "d4f1053348696176de90c538c6",
		.ctext = "0d9f7cde2614b71ed9c4b93503",
		.tag = "e88484488bd6470aa5e79b898c93dd28",
	},
	{ /* Count = 0, PTlen = 256, AADlen = 384 */
		.key = "d1007bd17c6c3ec9efba9baa7584a9c12f61bc36fd8fe95f",
		.nonce = "9513f4473b2bd9410d2e2f1f",
		.aad = "ab9c76ff9b1de550cde5fd42c6aeae95cbc0395a6c39ac3edf9db75b76a66884"
		       "61b8cf2fcaf2efcd8d8dd4265b30e291",
		.ptext = "17f5ccf5dbe6e97b277824f717d02f8b5b199d014444f72d1a00fb831e1a9d6f",
		.ctext = "db6aee7f53b8627323e7e77e01553463302effc19884553fcdca6d7d0c0ddd33",
		.tag = "8c413e2f67a4124f1ef9d7ab6c238784",
	},
	{ /* Count = 0, PTlen = 408, AADlen = 720 */
		.key = "50f5cc5e33774f383235c64e77c502ca6c5d06ab0af6be04",
		.nonce = "9d4c766490224946d91a99a7",
		.aad = "4feca4174889298e992b765dfa67d33219f9b23898f8e869b7f1fbf5d71d87b4"
		       "4edd963d1055618b9db7bffe96b7856f3197868d6ce5e755a6c751661773e1de"
		       "f403a4cf036151ecae67b35f2891285420956604ef31c9aab341",
		.ptext = "35df59329eb5fc30c28791164bf9b374df228d2be467414727f457a9dd0f079f"
			 "7342e23adb06929ce0ad607116ee11718ce320",
		.ctext = "77670f6520a34dfc05819a10f322b30e397473fe51f8274bfb105c2eec37e249"
			 "51abaef11e73c3c425a8c4b2d8c3ffeb8ed924",
		.tag = "5349ef7a70499f2760123c0d5dcf5a6d",
	},
	{ /* Count = 1, PTlen = 0, AADlen = 0, FAIL */
		.key = "f780e4089a6224b9db576b368149fc4f58e6c8f7061814e2",
		.nonce = "ae84a7ac9f89a70c92d566ec",
		.aad = NULL,
		.ctext = NULL,
		.tag = "cd65b48665146066b92b34b38ec3415e",
		.invalid = 1,
	},
	{ /* Count = 2, PTlen = 408, AADlen = 720, FAIL */
		.key = "bc8df0d3d35c078446ad079368a735f90a500454fe45f4f1",
		.nonce = "321c8322bc60e29b03ca49fd",
		.aad = "5e2d8ab06482a8b1c273501d6310495f7cecf6cb512158f0b73da1601f17a42d"
		       "a3b53a745428ed0dde052be6aba7fb3d08d89bcbbdadf7f56626b9c92c0ee894"
		       "187c1b295e54323aeadb02fb0f9753032a50dc5525462c9c2edb",
		.ctext = "3a5928125f004ebfc9aa7aae93b5e4fbc85f9d55ef89271351262f4a9e151b46"
			 "49e2999f13833fb22be0e05b6a9744e1615177",
		.tag = "5504de49e0db6411f8eabec70ea6920b",
		.invalid = 1,
	},
};

/* gcmEncryptExtIV256.rsp and gcmDecrypt256.rsp */
static const struct aead_testvec aes256_gcm_nist_tv[] = {
	{ /* Count = 0, PTlen = 0, AADlen = 0 */
		.key = "b52c505a37d78eda5dd34f20c22540ea1b58963cf8e5bf8ffa85f9f2492505b4",
		.nonce = "516c33929df5a3284ff463d7",
		.aad = NULL,
		.ptext = NULL,
		.ctext = NULL,
		.tag = "bdc1ac884d332457a1d2664f168c76f0",
	},
	{ /* Count = 0, PTlen = 0, AADlen = 128 */
		.key = "78dc4e0aaf52d935c3c01eea57428f00ca1fd475f5da86a49c8dd73d68c8e223",
		.nonce = "d79cf22d504cc793c3fb6c8a",
		.aad = "b96baa8c1c75a671bfb2d08d06be5f36",
		.ptext = NULL,
		.ctext = NULL,
		.tag = "3e5d486aa2e30b22e040b85723a06e76",
	},
	{ /* Count = 0, PTlen = 128, AADlen = 0 */
		.key = "31bdadd96698c204aa9ce1448ea94ae1fb4a9a0b3c9d773b51bb1822666b8f22",
		.nonce = "0d18e06c7c725ac9e362e1ce",
		.aad = NULL,
		.ptext = "2db5168e932556f8089a0622981d017d",
		.ctext = "fa4362189661d163fcd6a56d8bf0405a",
		.tag = "d636ac1bbedd5cc3ee727dc2ab4a9489",
	},
	{ /* Count = 0, PTlen = 104, AADlen = 160 */
		.key = "69b458f2644af9020463b40ee503cdf083d693815e2659051ae0d039e606a970",
		.nonce = "8d1da8ab5f91ccd09205944b",
		.aad = "036ad5e5494ef817a8af2f5828784a4bfedd1653",
		.ptext = "f3e0e09224256bf21a83a5de8d",
		.ctext = "c0a62d77e6031bfdc6b13ae217",
		.tag = "a794a9aaee48cd92e47761bf1baff0af",
	},
	{ /* Count = 0, PTlen = 256, AADlen = 384 */
		.key = "dc776f0156c15d032623854b625c61868e5db84b7b6f9fbd3672f12f0025e0f6",
		.nonce = "67130951c4a57f6ae7f13241",
		.aad = "fd0920faeb7b212932280a009bac969145e5c316cf3922622c3705c3457c4e9f"
		       "124b2076994323fbcfb523f8ed16d241",
		.ptext = "9378a727a5119595ad631b12a5a6bc8a91756ef09c8d6eaa2b718fe86876da20",
		.ctext = "6d958c20870d401a3c1f7a0ac092c97774d451c09f7aae992a8841ff0ab9d60d",
		.tag = "b876831b4ecd7242963b040aa45c4114",
	},
	{ /* Count = 0, PTlen = 408, AADlen = 720 */
		.key = "148579a3cbca86d5520d66c0ec71ca5f7e41ba78e56dc6eebd566fed547fe691",
		.nonce = "b08a5ea1927499c6ecbfd4e0",
		.aad = "e4f963f015ffbb99ee3349bbaf7e8e8e6c2a71c230a48f9d59860a29091d2747"
		       "e01a5ca572347e247d25f56ba7ae8e05cde2be3c97931292c02370208ecd097e"
		       "f692687fecf2f419d3200162a6480a57dad408a0dfeb492e2c5d",
		.ptext = "9d0b15fdf1bd595f91f8b3abc0f7dec927dfd4799935a1795d9ce00c9b879434"
			 "420fe42c275a7cd7b39d638fb81ca52b49dc41",
		.ctext = "2097e372950a5e9383c675e89eea1c314f999159f5611344b298cda45e628437"
			 "16f215f82ee663919c64002a5c198d7878fd3f",
		.tag = "adbecdb0d5c2224d804d2886ff9a5760",
	},
	{ /* Count = 1, PTlen = 0, AADlen = 0, FAIL */
		.key = "e5a8123f2e2e007d4e379ba114a2fb66e6613f57c72d4e4f024964053028a831",
		.nonce = "51e43385bf533e168427e1ad",
		.aad = NULL,
		.ctext = NULL,
		.tag = "38fe845c66e66bdd884c2aecafd280e6",
		.invalid = 1,
	},
	{ /* Count = 0, PTlen = 408, AADlen = 720, FAIL */
		.key = "e36aca93414b13f5313e76a7244588ee116551d1f34c32859166f2eb0ac1a9b7",
		.nonce = "e9e701b1ccef6bddd03391d8",
		.aad = "6a08fe6e55a08f283cec4c4b37676e770f402af6102f548ad473ec6236da764f"
		       "7076ffd41bbd9611b439362d899682b7b0f839fc5a68d9df54afd1e2b3c4e7d0"
		       "72454ee27111d52193d28b9c4f925d2a8b451675af39191a2cba",
		.ctext = "5b059ac6733b6de0e8cf5b88b7301c02c993426f71bb12abf692e9deeacfac1f"
			 "f1644c87d4df130028f515f0feda636309a24d",
		.tag = "43c7c9c93cc265fc8e192000e0417b5b",
		.invalid = 1,
	},
};

/*
 * Longer than every vector above: 300 bytes with 150 bytes of AAD cross
 * the fused cores' GHASH steps (128 bytes on ARM, 256 on x86), which
 * the self-test otherwise never reaches. Key 00 01 .. 1f, AAD byte i =
 * 3i + 1, plaintext byte i = 7i + 5 (mod 256), computed with OpenSSL
 * 4.0.0's AES-256-GCM through python3-cryptography 48.0.0 (AESGCM).
 */
static const struct aead_testvec aes256_gcm_long_tv[] = {
	{
		.key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		.nonce = "cafebabefacedbaddecaf888",
		.aad = "0104070a0d101316191c1f2225282b2e3134373a3d404346494c4f5255585b5e"
		       "6164676a6d707376797c7f8285888b8e9194979a9da0a3a6a9acafb2b5b8bbbe"
		       "c1c4c7cacdd0d3d6d9dcdfe2e5e8ebeef1f4f7fafd000306090c0f1215181b1e"
		       "2124272a2d303336393c3f4245484b4e5154575a5d606366696c6f7275787b7e"
		       "8184878a8d909396999c9fa2a5a8abaeb1b4b7babdc0",
		.ptext = "050c131a21282f363d444b525960676e757c838a91989fa6adb4bbc2c9d0d7de"
			 "e5ecf3fa01080f161d242b323940474e555c636a71787f868d949ba2a9b0b7be"
			 "c5ccd3dae1e8eff6fd040b121920272e353c434a51585f666d747b828990979e"
			 "a5acb3bac1c8cfd6dde4ebf2f900070e151c232a31383f464d545b626970777e"
			 "858c939aa1a8afb6bdc4cbd2d9e0e7eef5fc030a11181f262d343b424950575e"
			 "656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e"
			 "454c535a61686f767d848b9299a0a7aeb5bcc3cad1d8dfe6edf4fb020910171e"
			 "252c333a41484f565d646b727980878e959ca3aab1b8bfc6cdd4dbe2e9f0f7fe"
			 "050c131a21282f363d444b525960676e757c838a91989fa6adb4bbc2c9d0d7de"
			 "e5ecf3fa01080f161d242b32",
		.ctext = "8fafb33c8b52602d7b4f168f227dee51785c43db4e81f5d2e36bbfb37759b221"
			 "48bc32bcc0dc46743b7f035a0bc3672b0c08ca3bd2f2f756ae06ea9e175400fc"
			 "a44e8da8aeacb229adde2d0cb13ed7152d8c45350b7d9e69c7d90ff29d090b74"
			 "64db78474c75672dd78ae5fe41a80ecfcfb63c27abf2a7836d461258553796eb"
			 "e8a0888f049e960b64f4d49f49a76e584237261d9c0ca44fe12e22e2ac43f625"
			 "3f26b0b64b399748b9206c8dbb477e1f9b6af84349c07248ed5600ef3b068535"
			 "64674d5eb8d90f051be028989c6a32b703806246b2e496a4531b093cef01183b"
			 "0db779454dff8be2b4492e4e3858556764e7514dda98277561c380c50bd9a94e"
			 "965840afb0b315e1169766ebd197ab760dbae10d45c4678fb298310993f9402c"
			 "095c6c6ae6ac342e9c912e07",
		.tag = "552f4bf318245382890b1b85c5c63f24",
	},
};

static const struct crypto_testvecs aes_gcm_testvecs[] = {
	{
		.alg_name = "gcm(aes)",
		.source = "McGrew & Viega, GCM specification appendix B, cases 1-4, 7-10, 13-16",
		.count = ARRAY_SIZE(aes_gcm_mcgrew_viega_tv),
		.aead = aes_gcm_mcgrew_viega_tv,
	},
	{
		.alg_name = "gcm(aes)",
		.source = "NIST CAVP gcmEncryptExtIV128.rsp, gcmDecrypt128.rsp",
		.count = ARRAY_SIZE(aes128_gcm_nist_tv),
		.aead = aes128_gcm_nist_tv,
	},
	{
		.alg_name = "gcm(aes)",
		.source = "NIST CAVP gcmEncryptExtIV192.rsp, gcmDecrypt192.rsp",
		.count = ARRAY_SIZE(aes192_gcm_nist_tv),
		.aead = aes192_gcm_nist_tv,
	},
	{
		.alg_name = "gcm(aes)",
		.source = "NIST CAVP gcmEncryptExtIV256.rsp, gcmDecrypt256.rsp",
		.count = ARRAY_SIZE(aes256_gcm_nist_tv),
		.aead = aes256_gcm_nist_tv,
	},
	{
		.alg_name = "gcm(aes)",
		.source = "OpenSSL 4.0.0 AES-256-GCM, 300 bytes, 150 bytes of AAD",
		.count = ARRAY_SIZE(aes256_gcm_long_tv),
		.aead = aes256_gcm_long_tv,
	},
};

/* see aes-internal.h */
int aes_gcm_register_testvecs(struct crypto_registry *reg)
{
	return crypto_register_testvec_sets(reg, aes_gcm_testvecs,
					    ARRAY_SIZE(aes_gcm_testvecs));
}
