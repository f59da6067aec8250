/* dc-export-language.c: the language a block or span of the JSON export is said to be in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * pdftract's rules for a PDF's /Lang (its docs/research/language-detection-and-script-
 * handling.md, section 7): the /Lang is a prior the text must bear out, not a fact. It is
 * kept when the detector gives it 0.4 or more; another language the detector is 0.7 sure
 * of replaces it, with a lang_conflict warning; without a /Lang a detection is used from
 * 0.6; anything less sure is "und". The detector's confidence is dc_language_guess()'s:
 * 0.9 when it names one language, 1/n for n candidates (it returns those within a few
 * per cent of the best, so each is as likely as the others).
 */

#define G_LOG_DOMAIN "dc-export"

#include "config.h"

#include <string.h>

#include "dc-export-private.h"

#define LANG_ACCEPT_DECLARED 0.4
#define LANG_ACCEPT_DETECTED 0.6
#define LANG_OVERRIDE 0.7
#define CONFIDENCE_DECLARED_ONLY 0.5
#define CONFIDENCE_AGREE 0.95

gboolean
_dc_export_resolve_language (const DcLanguageEvidence *evidence, DcLanguageGuess *out)
{
  gboolean declared = evidence->declared != NULL && *evidence->declared != '\0';

  memset (out, 0, sizeof *out);
  out->source = "none";
  if (!evidence->detected)
    {
      /* Too short to detect: the /Lang stands alone, as the only evidence there is. */
      if (declared)
        {
          g_strlcpy (out->tag, evidence->declared, sizeof out->tag);
          out->source = "document";
          out->confidence = CONFIDENCE_DECLARED_ONLY;
        }
      return FALSE;
    }
  if (declared && evidence->declared_score >= LANG_ACCEPT_DECLARED)
    {
      g_strlcpy (out->tag, evidence->declared, sizeof out->tag);
      out->source = "document+detector";
      out->confidence = CONFIDENCE_AGREE;
      return FALSE;
    }
  if (evidence->best != NULL
      && evidence->best_score >= (declared ? LANG_OVERRIDE : LANG_ACCEPT_DETECTED))
    {
      g_strlcpy (out->tag, evidence->best, sizeof out->tag);
      out->source = "detector";
      out->confidence = evidence->best_score;
      return declared;
    }
  /* Neither the /Lang borne out nor another language sure enough: unknown. */
  return FALSE;
}

gboolean
_dc_export_guess_language (const char *text, const char *declared, DcLanguageGuess *out)
{
  DcLanguageGuess with_declared, alone;
  DcLanguageEvidence evidence = { declared, FALSE, 0, NULL, 0 };

  dc_language_guess_both (text, declared, &with_declared, &alone);
  if (g_str_equal (with_declared.source, "detector"))
    {
      /* The /Lang, if any, is not among the detector's candidates. */
      evidence.detected = TRUE;
      evidence.best = with_declared.tag;
      evidence.best_score = with_declared.confidence;
    }
  else if (g_str_equal (with_declared.source, "document+detector"))
    {
      /* The /Lang is a candidate, as likely as the detector's best one. */
      evidence.detected = TRUE;
      evidence.declared_score = alone.confidence;
      evidence.best = alone.tag;
      evidence.best_score = alone.confidence;
    }
  return _dc_export_resolve_language (&evidence, out);
}
