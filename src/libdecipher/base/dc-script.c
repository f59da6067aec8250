/* dc-script.c: which script and direction a run of text is in (UAX #24)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exports describe each span by the script of its letters. A span whose letters come from
 * two scripts is worth flagging: in a recovered text it usually means a legacy font's
 * values are only partly right (Cyrillic letters decoded, Latin look-alikes left over).
 */

#define G_LOG_DOMAIN "dc-script"

#include "config.h"

#include "dc-script.h"
#include "dc-unicode-private.h"

/**
 * dc_script_is_joining:
 *
 * Whether @script's letters join their neighbours, so that each is drawn in several
 * positional forms, each a glyph of its own that rightly stands for the one letter.
 */
gboolean
dc_script_is_joining (GUnicodeScript script)
{
  switch (script)
    {
    case G_UNICODE_SCRIPT_ARABIC:
    case G_UNICODE_SCRIPT_SYRIAC:
    case G_UNICODE_SCRIPT_MONGOLIAN:
    case G_UNICODE_SCRIPT_NKO:
    case G_UNICODE_SCRIPT_MANDAIC:
    case G_UNICODE_SCRIPT_PHAGS_PA:
    case G_UNICODE_SCRIPT_MANICHAEAN:
    case G_UNICODE_SCRIPT_PSALTER_PAHLAVI:
    case G_UNICODE_SCRIPT_ADLAM:
    case G_UNICODE_SCRIPT_HANIFI_ROHINGYA:
    case G_UNICODE_SCRIPT_SOGDIAN:
      return TRUE;
    default:
      return FALSE;
    }
}

/**
 * dc_script_is_rtl:
 *
 * Whether lines in @script run right to left (the scripts whose letters have the R or AL
 * bidirectional class).
 */
gboolean
dc_script_is_rtl (GUnicodeScript script)
{
  switch (script)
    {
    case G_UNICODE_SCRIPT_ARABIC:
    case G_UNICODE_SCRIPT_HEBREW:
    case G_UNICODE_SCRIPT_SYRIAC:
    case G_UNICODE_SCRIPT_THAANA:
    case G_UNICODE_SCRIPT_NKO:
    case G_UNICODE_SCRIPT_SAMARITAN:
    case G_UNICODE_SCRIPT_MANDAIC:
    case G_UNICODE_SCRIPT_ADLAM:
    case G_UNICODE_SCRIPT_HANIFI_ROHINGYA:
    case G_UNICODE_SCRIPT_MENDE_KIKAKUI:
    case G_UNICODE_SCRIPT_OLD_HUNGARIAN:
    case G_UNICODE_SCRIPT_PHOENICIAN:
    case G_UNICODE_SCRIPT_IMPERIAL_ARAMAIC:
    case G_UNICODE_SCRIPT_NABATAEAN:
    case G_UNICODE_SCRIPT_PALMYRENE:
    case G_UNICODE_SCRIPT_AVESTAN:
    case G_UNICODE_SCRIPT_KHAROSHTHI:
    case G_UNICODE_SCRIPT_OLD_SOUTH_ARABIAN:
    case G_UNICODE_SCRIPT_OLD_NORTH_ARABIAN:
    case G_UNICODE_SCRIPT_MANICHAEAN:
    case G_UNICODE_SCRIPT_PSALTER_PAHLAVI:
    case G_UNICODE_SCRIPT_INSCRIPTIONAL_PAHLAVI:
    case G_UNICODE_SCRIPT_INSCRIPTIONAL_PARTHIAN:
    case G_UNICODE_SCRIPT_LYDIAN:
    case G_UNICODE_SCRIPT_HATRAN:
    case G_UNICODE_SCRIPT_CYPRIOT:
    case G_UNICODE_SCRIPT_MEROITIC_CURSIVE:
    case G_UNICODE_SCRIPT_MEROITIC_HIEROGLYPHS:
    case G_UNICODE_SCRIPT_OLD_SOGDIAN:
    case G_UNICODE_SCRIPT_SOGDIAN:
    case G_UNICODE_SCRIPT_ELYMAIC:
    case G_UNICODE_SCRIPT_CHORASMIAN:
    case G_UNICODE_SCRIPT_YEZIDI:
      return TRUE;
    default:
      return FALSE;
    }
}

/**
 * dc_text_get_script:
 * @text: UTF-8
 * @mixed: (out) (optional): set when letters of more than one script occur
 *
 * The script most of @text's characters belong to (by UAX #24, GLib's
 * g_unichar_get_script()); Common and Inherited characters (digits, punctuation,
 * combining marks) count for no script. %G_UNICODE_SCRIPT_COMMON when there is none,
 * %G_UNICODE_SCRIPT_UNKNOWN for text that is only U+FFFD (undecoded glyphs).
 */
GUnicodeScript
dc_text_get_script (const char *text, gboolean *mixed)
{
  /* Few spans hold more than two or three scripts: a small list beats a hash table. */
  GUnicodeScript scripts[8];
  guint counts[8], n = 0, unknown = 0, best = 0;

  g_return_val_if_fail (text != NULL, G_UNICODE_SCRIPT_COMMON);

  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c;
      GUnicodeScript script;
      guint k;

      /* ASCII, most of many texts, without a call: its letters are Latin, the rest
       * Common. */
      if ((guchar) *p < 0x80)
        {
          if (!g_ascii_isalpha (*p))
            continue;
          script = G_UNICODE_SCRIPT_LATIN;
        }
      else if ((c = _dc_utf8_get_char (p)) == 0xFFFD)
        {
          unknown++;
          continue;
        }
      else
        script = g_unichar_get_script (c);
      if (script == G_UNICODE_SCRIPT_COMMON || script == G_UNICODE_SCRIPT_INHERITED
          || script == G_UNICODE_SCRIPT_UNKNOWN || script == G_UNICODE_SCRIPT_INVALID_CODE)
        continue;
      for (k = 0; k < n && scripts[k] != script; k++)
        ;
      if (k == n)
        {
          if (n == G_N_ELEMENTS (scripts))
            continue;
          scripts[n] = script;
          counts[n++] = 0;
        }
      counts[k]++;
    }

  if (mixed)
    *mixed = n > 1;
  if (n == 0)
    return unknown > 0 ? G_UNICODE_SCRIPT_UNKNOWN : G_UNICODE_SCRIPT_COMMON;
  for (guint k = 1; k < n; k++)
    if (counts[k] > counts[best])
      best = k;
  return scripts[best];
}

/* The ISO 15924 code ("Latn", "Cyrl", "Zyyy" for Common, "Zzzz" for unknown). */
void
dc_script_to_iso15924 (GUnicodeScript script, char code[5])
{
  guint32 tag = g_unicode_script_to_iso15924 (script);

  if (tag == 0)
    tag = g_unicode_script_to_iso15924 (G_UNICODE_SCRIPT_UNKNOWN);
  code[0] = (char) (tag >> 24);
  code[1] = (char) (tag >> 16);
  code[2] = (char) (tag >> 8);
  code[3] = (char) tag;
  code[4] = '\0';
}

const char *
dc_direction_to_string (DcDirection direction)
{
  switch (direction)
    {
    case DC_DIRECTION_RTL:
      return "rtl";
    case DC_DIRECTION_TTB:
      return "ttb";
    case DC_DIRECTION_BTT:
      return "btt";
    case DC_DIRECTION_LTR:
    default:
      return "ltr";
    }
}

/* A vertical line (glyph rotation 1 or 3) runs down or up whatever its script; a
 * horizontal one runs as its script does. */
DcDirection
dc_text_get_direction (GUnicodeScript script, guint rotation)
{
  if (rotation == 1)
    return DC_DIRECTION_TTB;
  if (rotation == 3)
    return DC_DIRECTION_BTT;
  return dc_script_is_rtl (script) ? DC_DIRECTION_RTL : DC_DIRECTION_LTR;
}
