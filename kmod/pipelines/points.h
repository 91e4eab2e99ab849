/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Points named at run time (points.c): what func.c ("func add") and
 * span.c ("span add") share - why a kernel function or a user-space
 * point cannot be probed, in the operator's words, and a user point's
 * names.  Process context, sl_lock held.
 */
#ifndef _STACKLAT_POINTS_H
#define _STACKLAT_POINTS_H

struct netlink_ext_ack;

/*
 * Why kernel function @sym cannot be probed (@err from the engine):
 * ENOENT no such function, EINVAL blacklisted, else @err.  @who names the
 * command in the log line ("func add").
 */
int sl_points_why(const char *who, const char *sym, int err,
		  struct netlink_ext_ack *extack);

/* Why user point @target ("/PATH:0xOFFSET") cannot be probed; 0 if it can. */
int sl_points_user_check(const char *who, const char *target,
			 struct netlink_ext_ack *extack);

/*
 * The row name of user point @spec ("/PATH:0xOFFSET[:NAME]", checked by
 * stacklat_valid_upoint()) in @target (STACKLAT_SYM_MAX bytes), and its
 * short name (NAME, else the file's base name and the offset) in @stage
 * (STACKLAT_NAME_MAX bytes).
 */
void sl_points_user_names(const char *spec, char *target, char *stage);

#endif /* _STACKLAT_POINTS_H */
