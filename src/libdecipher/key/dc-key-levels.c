/* dc-key-levels.c: the key's levels and statuses, their names and what they are worth
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-key.c: the stable names project files and decipher-cli use, each
 * level's measured confidence, and which levels apply their values without the user.
 */

#define G_LOG_DOMAIN "dc-key"

#include "config.h"

#include <string.h>

#include "dc-key.h"

static const char *const level_names[] = {
  [DC_KEY_LEVEL_NONE] = "none",       [DC_KEY_LEVEL_GUESS] = "guess",
  [DC_KEY_LEVEL_SHAPE] = "shape",     [DC_KEY_LEVEL_IDENTITY] = "identity",
  [DC_KEY_LEVEL_LAYOUT] = "layout",   [DC_KEY_LEVEL_FONT] = "font",
  [DC_KEY_LEVEL_LIBRARY] = "library", [DC_KEY_LEVEL_PDF] = "pdf",
  [DC_KEY_LEVEL_USER] = "user",
};

/* What each level's values are worth when its evidence gives no figure of its own: the
 * precision measured for what the level applies by itself, by bench/calibrate-levels.py
 * (issue 28; 200 generated documents, 25 Debian fonts × 11 layouts × 7 languages, read
 * as a new user, "decipher-cli text" table; the library level from 30 documents read
 * after the user decided another in the same font). Each is within 0.05 of its figure:
 *   pdf        97.8 % of 89 values (two trusted English texts whose ToUnicode lies for
 *              one character, À for ‐: the trust analysis's, not a level's, to tell)
 *   library   100.0 % of 373 (after dc_library_verify(); 97.5 % of 561 before it)
 *   font       99.9 % of 2,200
 *   layout     99.6 % of 805
 *   identity  100.0 % of 5,246
 *   guess     100.0 % of 274 (space and full stop)
 * A level's proposals state their own, lower figures (dc-proposals.c, dc-references.c,
 * dc-font-tables.c, dc-library-apply.c). DESIGN §7's table gave the levels' ranks before
 * they were measured (0.95 … 0.6); shape values are OCR's and state their agreement. */
static const double level_confidence[] = {
  [DC_KEY_LEVEL_NONE] = 0,        [DC_KEY_LEVEL_GUESS] = 0.99,  [DC_KEY_LEVEL_SHAPE] = 0.8,
  [DC_KEY_LEVEL_IDENTITY] = 0.99, [DC_KEY_LEVEL_LAYOUT] = 0.99, [DC_KEY_LEVEL_FONT] = 0.99,
  [DC_KEY_LEVEL_LIBRARY] = 0.99,  [DC_KEY_LEVEL_PDF] = 1.0,     [DC_KEY_LEVEL_USER] = 1.0,
};

/* The stable names project files and decipher-cli use. */
const char *
dc_key_level_to_string (DcKeyLevel level)
{
  g_return_val_if_fail (level <= DC_KEY_LEVEL_LAST, NULL);

  return level_names[level];
}

gboolean
dc_key_level_from_string (const char *string, DcKeyLevel *level)
{
  g_return_val_if_fail (string != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (level_names); i++)
    if (strcmp (string, level_names[i]) == 0)
      {
        if (level)
          *level = i;
        return TRUE;
      }
  return FALSE;
}

double
dc_key_level_get_default_confidence (DcKeyLevel level)
{
  g_return_val_if_fail (level <= DC_KEY_LEVEL_LAST, 0);

  return level_confidence[level];
}

/**
 * dc_key_level_applies_automatically:
 *
 * Whether values at @level are applied without the user (DESIGN §7): only levels whose
 * measured precision is at least 99 % (see level_confidence). The others propose.
 */
gboolean
dc_key_level_applies_automatically (DcKeyLevel level)
{
  g_return_val_if_fail (level <= DC_KEY_LEVEL_LAST, FALSE);

  return level != DC_KEY_LEVEL_NONE && level != DC_KEY_LEVEL_SHAPE;
}

/**
 * dc_key_level_for_status:
 * @provenance: (nullable): the value's provenance
 *
 * The level a value set without one (dc_key_set(), a project saved before levels
 * existed) rests on, told from its status and the rule its provenance names.
 */
DcKeyLevel
dc_key_level_for_status (DcKeyStatus status, const char *provenance)
{
  switch (status)
    {
    case DC_KEY_UNKNOWN:
      return DC_KEY_LEVEL_NONE;
    case DC_KEY_FROM_PDF:
      return DC_KEY_LEVEL_PDF;
    case DC_KEY_CONFIRMED:
      return DC_KEY_LEVEL_USER;
    case DC_KEY_INFERRED:
    case DC_KEY_PROPOSED:
      if (provenance == NULL)
        return status == DC_KEY_INFERRED ? DC_KEY_LEVEL_USER : DC_KEY_LEVEL_GUESS;
      if (g_str_has_prefix (provenance, "auto: "))
        return DC_KEY_LEVEL_GUESS;
      if (g_str_has_prefix (provenance, "font: ")
          || g_str_has_prefix (provenance, "proposal: glyph names"))
        return DC_KEY_LEVEL_FONT;
      if (g_str_has_prefix (provenance, "layout: ")
          || g_str_has_prefix (provenance, "proposal: code page"))
        return DC_KEY_LEVEL_LAYOUT;
      if (g_str_has_prefix (provenance, "library: "))
        return DC_KEY_LEVEL_LIBRARY;
      if (g_str_has_prefix (provenance, "identity: "))
        return DC_KEY_LEVEL_IDENTITY;
      if (g_str_has_prefix (provenance, "shape: ") || g_str_has_prefix (provenance, "ocr: "))
        return DC_KEY_LEVEL_SHAPE;
      return status == DC_KEY_INFERRED ? DC_KEY_LEVEL_USER : DC_KEY_LEVEL_GUESS;
    default:
      g_return_val_if_reached (DC_KEY_LEVEL_NONE);
    }
}

static const char *const status_names[] = {
  [DC_KEY_UNKNOWN] = "unknown",   [DC_KEY_FROM_PDF] = "from-pdf",   [DC_KEY_PROPOSED] = "proposed",
  [DC_KEY_INFERRED] = "inferred", [DC_KEY_CONFIRMED] = "confirmed",
};

/* The stable names project files and decipher-cli use. */
const char *
dc_key_status_to_string (DcKeyStatus status)
{
  g_return_val_if_fail (status <= DC_KEY_CONFIRMED, NULL);

  return status_names[status];
}

gboolean
dc_key_status_from_string (const char *string, DcKeyStatus *status)
{
  g_return_val_if_fail (string != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    if (strcmp (string, status_names[i]) == 0)
      {
        if (status)
          *status = i;
        return TRUE;
      }
  return FALSE;
}
