/* dc-recognize-private.h: what the parts of recognition share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The job, read by dc-recognize.c (the reading), dc-recognize-vote.c (the votes) and
 * dc-recognize-apply.c (the values).
 */

#pragma once

#include "dc-align-private.h"
#include "dc-fingerprint.h"
#include "dc-recognize.h"

G_BEGIN_DECLS

/* Tesseract's confidence (0–100) in a word above which its letters count as read surely:
 * one such reading of a rare capital is as good as two uncertain ones. */
#define SURE_WORD 90.0f

struct _DcRecognizeJob
{
  DcDocument *document;
  char *path;
  char *password;
  char *languages;
  char **values;   /* per symbol: the usable value, NULL when unknown */
  guint8 *unknown; /* per symbol: needs a value and has none */
  guint n_symbols;
  GArray *lines;    /* guint: the lines to read */
  DcShapes *shapes; /* worked out while reading, to tell letters apart */

  GMutex lock;
  GHashTable **votes;   /* per symbol: value → count */
  GHashTable **sure;    /* per symbol: value → count of readings in words read surely */
  guint *n_inside;      /* per symbol: occurrences inside a word (not its first glyph) */
  guint *n_read;        /* per symbol: occurrences in the lines read */
  guint8 *keeps_cp1251; /* per font, worked out when applying: 0 not yet, 1 no, 2 yes */
  guint n_lines_read;
  gint done;
};

gboolean _dc_recognize_vote_line (DcRecognizeJob *job, const DcLine *line, char **words,
                                  const float *confidences);

G_END_DECLS
