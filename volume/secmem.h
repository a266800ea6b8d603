/* SPDX-License-Identifier: MIT */
/* Secret memory moved to the crypto layer (transform contexts use it). */
#ifndef CLOAKFS_VOLUME_SECMEM_H
#define CLOAKFS_VOLUME_SECMEM_H
#include "crypto/secmem.h"
#endif
