/* SPDX-License-Identifier: GPL-2.0 */
/* tramp.S and what it calls (main.c) */
#ifndef SL_DIRECT_H
#define SL_DIRECT_H

void sl_direct_tramp(void);
void sld_entry(unsigned long body, unsigned long *args);
void sld_exit(unsigned long body, unsigned long ret);

#endif
