/* dc-code-pages-private.h: the code pages legacy fonts were made for (private to the engine)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by the proposals (dc-proposals.c), which try them in this order, and by
 * dc-code-pages-gen.c, which writes their tables when the engine is built.
 */

#pragma once

/* Their iconv names. */
#define DC_CODE_PAGE_NAMES                                                                         \
  "CP1251", "KOI8-R", "KOI8-U", "CP866", "ISO-8859-5", "MAC-CYRILLIC", "CP1252", "CP1250",         \
      "CP1253", "ISO-8859-7", "CP1254", "CP1257", "CP1255", "CP1256", "CP874", "MACINTOSH"
#define DC_N_CODE_PAGES 16
