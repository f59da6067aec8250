/* dc-language.h: which language a text is in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char tag[36];       /* BCP 47 ("en", "zh-CN"); "" when unknown */
  const char *source; /* "document", "detector", "document+detector" or "none" */
  double confidence;  /* 0–1 */
} DcLanguageGuess;

/* Texts shorter than this (in letters) are left to the document's /Lang. */
#define DC_LANGUAGE_MIN_LETTERS 40

/* The detector reads no more of a text than this, in bytes. */
#define DC_LANGUAGE_SAMPLE_BYTES 2048

gboolean dc_language_detector_available (void);
void dc_language_guess (const char *text, const char *prior, DcLanguageGuess *guess);
void dc_language_guess_both (const char *text, const char *prior, DcLanguageGuess *guess,
                             DcLanguageGuess *alone);
char *dc_language_guess_key (const char *text, const char *prior);

G_END_DECLS
