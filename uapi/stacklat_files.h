/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The files pipeline's rows (issue 29, "top files"): GET_KEYED of "files",
 * one STACKLAT_A_KEYED nest per (process, file), enum stacklat_fl_attr.
 * A file is one the process opened, read or wrote (its device and inode,
 * the name of its dentry as the kernel knows it, its filesystem type), or
 * - a "name row", DEV and INO 0 - a name the process failed to open (the
 * last component of the path it gave), with the failures by errno.
 * Included by stacklat.h.
 */
#ifndef _UAPI_STACKLAT_FILES_H
#define _UAPI_STACKLAT_FILES_H

#define STACKLAT_FL_NAME_MAX	48	/* a name's bytes kept, with its NUL */
#define STACKLAT_FL_FSTYPE_MAX	16	/* a filesystem type's, likewise */

enum stacklat_fl_attr {
	STACKLAT_FL_A_UNSPEC,
	STACKLAT_FL_A_TGID,		/* u32, the process */
	STACKLAT_FL_A_COMM,		/* NUL string, its name (group leader's) */
	/* u32, the file's device, the kernel's dev_t (0: a name row) */
	STACKLAT_FL_A_DEV,
	STACKLAT_FL_A_INO,		/* u64, its inode number (0: a name row) */
	/*
	 * NUL string, the dentry's name when first seen (at most
	 * STACKLAT_FL_NAME_MAX - 1 bytes, cut), or the failed open's last
	 * path component
	 */
	STACKLAT_FL_A_NAME,
	STACKLAT_FL_A_FSTYPE,		/* NUL string, "ext4", "tmpfs"; "" */
	STACKLAT_FL_A_OPENS,		/* u64, opens that returned the file */
	STACKLAT_FL_A_OPEN_FAILS,	/* u64, opens of the name that failed */
	/* nest, repeated (at most STACKLAT_SC_ERRNOS): STACKLAT_SC_ERRNO_A_* */
	STACKLAT_FL_A_ERRNO,
	STACKLAT_FL_A_ERRNO_OTHER,	/* u64, failures with other errnos */
	STACKLAT_FL_A_READS,		/* u64, vfs_read() calls that returned */
	STACKLAT_FL_A_READ_ERRORS,	/* u64, of them returning an error */
	STACKLAT_FL_A_READ_BYTES,	/* u64, bytes they returned */
	STACKLAT_FL_A_WRITES,		/* u64, vfs_write() calls, likewise */
	STACKLAT_FL_A_WRITE_ERRORS,
	STACKLAT_FL_A_WRITE_BYTES,
	/* u64, updates of another file of the process that share the row */
	STACKLAT_FL_A_ALIAS,
	STACKLAT_FL_A_PAD,
	/* u64, the cgroup v2 id of the process at its last update counted */
	STACKLAT_FL_A_CGROUP_ID,
	__STACKLAT_FL_A_LAST
};
#define STACKLAT_FL_A_MAX (__STACKLAT_FL_A_LAST - 1)

#endif /* _UAPI_STACKLAT_FILES_H */
