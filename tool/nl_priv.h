/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the netlink client: what nl.c gives nl_keyed.c, nl_events.c and
 * nl_ctl.c (the socket, one request and its replies, attribute reading).
 * Not for the rest of the tool: nl.h is its interface.
 */
#ifndef STACKLAT_TOOL_NL_PRIV_H
#define STACKLAT_TOOL_NL_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "nl.h"

/* A request @cmd of the family, @flags (NLM_F_DUMP, NLM_F_ACK). */
struct nl_msg *new_msg(uint8_t cmd, int flags);
/* The string attribute @attr; out of memory is fatal. */
void put_name(struct nl_msg *msg, int attr, const char *s);
/*
 * Send @msg (freed) and read every reply until the ACK, the end of the dump
 * or an error; @parse (may be NULL) sees each data message.  Returns true
 * if the dump was interrupted (NLM_F_DUMP_INTR) and should be retried.
 */
bool transact(struct nl_msg *msg, const char *what,
	      int (*parse)(struct nl_msg *, void *), void *arg,
	      const char *enoent);
/*
 * Dump @cmd for @pipe (NULL: all) into @arg through @parse, from scratch
 * (@clear) each time the dump comes back interrupted.
 */
void dump_retry(uint8_t cmd, const char *pipe, const char *what,
		int (*parse)(struct nl_msg *, void *), void *arg,
		void (*clear)(void *));
/* A change request (NLM_F_ACK) of @cmd about @pipe (NULL: none). */
struct nl_msg *change_msg(uint8_t cmd, const char *pipe);
/* Send it and wait for the ACK; a refusal is fatal, named by @fmt. */
void __attribute__((format(printf, 2, 3))) change(struct nl_msg *msg, const char *fmt, ...);
/* Does the module know attribute @attr (its family's maxattr)?  Once. */
bool module_knows(int attr);

/* @a's string into @dst (@len bytes), if @a */
void copy_str(char *dst, size_t len, struct nlattr *a);
/* @a's value, 0 if absent or short */
uint32_t get_u32(struct nlattr *a);
uint64_t get_u64(struct nlattr *a);
/* The attributes of type @type in @nest. */
int count_nested(struct nlattr *nest, int type);

#endif
