/* dc-auto.h: the automatic pass that guesses each untrusted font's space and full stop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "dc-document.h"
#include "dc-key.h"

G_BEGIN_DECLS

/* DcAutoGuess.symbol when no symbol qualified. */
#define DC_AUTO_NO_SYMBOL G_MAXUINT

/* One guess about one font: which symbol, whether this pass put it in the key, and why. */
typedef struct
{
  guint symbol;      /* DC_AUTO_NO_SYMBOL when no symbol qualified */
  gboolean assigned; /* FALSE when the key already held a value it may not override */
  char *reason;      /* a translated sentence or two for the user, never NULL once filled */
} DcAutoGuess;

/* What the pass concluded about one untrusted font. */
typedef struct
{
  guint font;
  DcAutoGuess space;
  DcAutoGuess full_stop;
} DcAutoFontReport;

typedef struct
{
  /* FALSE until dc_auto_recover() fills the report: a caller that honours --no-auto
   * never runs the pass, and can tell from this that there is nothing to show. */
  gboolean ran;
  guint n_assigned; /* symbols set in the key, all within one undoable step */
  GArray *fonts;    /* of DcAutoFontReport, one per untrusted font, in font order */
} DcAutoReport;

void dc_auto_report_init (DcAutoReport *report);
void dc_auto_report_clear (DcAutoReport *report);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DcAutoReport, dc_auto_report_clear)

guint dc_auto_recover (DcDocument *document, DcKey *key, DcAutoReport *report);

G_END_DECLS
