/* SPDX-License-Identifier: MIT */
/*
 * The part of QEMU's TCG plugin API (version 1) that insncount.c uses,
 * declared here for hosts without QEMU's qemu-plugin.h: Debian 12's
 * qemu-user 7.2 loads plugins but no Debian 12 package ships the header.
 * Only functions whose signature is the same in every plugin API version
 * are declared, so insncount.c reads the same against either header.
 * Where qemu-plugin.h is installed, meson builds against it instead
 * (CLOAKFS_HAVE_QEMU_PLUGIN_H), with that QEMU's API version.
 */
#ifndef CLOAKFS_QEMU_PLUGIN_V1_H
#define CLOAKFS_QEMU_PLUGIN_V1_H

#include <stddef.h>
#include <stdint.h>

/* the API version a plugin built against these declarations speaks */
#define QEMU_PLUGIN_VERSION 1
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
/* only ever passed by pointer; the plugin reads no field of it */
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* whether a callback reads or writes guest registers: ours do neither */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

#endif
