/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The front ends: debugfs.c (the files and the control file), netlink.c
 * (the generic netlink family) and events_fs.c (debugfs "events").
 */
#ifndef _STACKLAT_IFACE_H
#define _STACKLAT_IFACE_H

/* debugfs.c, netlink.c */
int sl_debugfs_init(void);
void sl_debugfs_exit(void);
int sl_netlink_init(void);
void sl_netlink_exit(void);

/* iface/events_fs.c: debugfs "events" and the status line */
struct seq_file;
extern const struct file_operations sl_events_fops;
void sl_events_status(struct seq_file *m);

#endif /* _STACKLAT_IFACE_H */
