/* dc-font-list.c: the installed outline fonts and their names, kept between runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A PDF that names a font it does not embed is read with the installed font of that name
 * (dc-font-installed.c), found among every installed outline font by its names. Asking
 * fontconfig for them costs its start, some fifty configuration files parsed: a third of
 * a one-file `decipher-cli text` of such a PDF (issue 32). The list is therefore kept in
 * a file beside the index of installed fonts, with the stamp that index is checked by
 * (dc-references-stamp.c): while the stamp matches, the list is read from the file, in
 * fontconfig's order, and fontconfig is not started.
 *
 * The file is $DECIPHER_REFERENCES with ".fonts" added, none when that is "", else
 * ~/.cache/decipher/installed-fonts. It holds the stamp, a line holding a form feed, the
 * number of fonts, then one line per font: its file, face index, PostScript names, full
 * names, families and styles, separated by tabs, the values of one field by U+001F. A
 * file that does not hold what it says is not used.
 *
 * A run asks for the list once for every font its PDF does not embed, and parsing it is
 * most of the cost: a list parsed is kept for the process under its stamp, the file and
 * the stamp still checked every time. A list replaced meanwhile (the fonts changed in a
 * long run of the window) is not freed, as a caller may still be reading it.
 */

#define G_LOG_DOMAIN "dc-font-installed"

#include "config.h"

#include <string.h>

#include "dc-font-list-private.h"
#include "dc-references-stamp-private.h"

#define SEPARATOR "\f\n"

G_LOCK_DEFINE_STATIC (kept);
static char *kept_stamp;
static FcFontSet *kept_set;
#define VALUES '\x1f'

/* The names a font is found by, in the order dc-font-installed.c reads them. */
static const char *const fields[] = { FC_POSTSCRIPT_NAME, FC_FULLNAME, FC_FAMILY, FC_STYLE };

static char *
list_path (void)
{
  const char *references = g_getenv ("DECIPHER_REFERENCES");

  if (references == NULL)
    return g_build_filename (g_get_user_cache_dir (), "decipher", "installed-fonts", NULL);
  if (references[0] == '\0')
    return NULL;
  return g_strconcat (references, ".fonts", NULL);
}

static FcFontSet *
list_from_fontconfig (void)
{
  FcPattern *pattern;
  FcObjectSet *objects;
  FcFontSet *set;

  if (!FcInit ())
    return NULL;
  pattern = FcPatternBuild (NULL, FC_OUTLINE, FcTypeBool, FcTrue, NULL);
  objects = FcObjectSetBuild (FC_FILE, FC_INDEX, FC_FAMILY, FC_STYLE, FC_FULLNAME,
                              FC_POSTSCRIPT_NAME, NULL);
  set = FcFontList (NULL, pattern, objects);
  FcObjectSetDestroy (objects);
  FcPatternDestroy (pattern);
  return set;
}

/* FALSE when @value cannot be told apart from the file's separators. */
static gboolean
append_value (GString *out, const char *value)
{
  if (strpbrk (value, "\t\n\f\x1f") != NULL)
    return FALSE;
  g_string_append (out, value);
  return TRUE;
}

static gboolean
append_font (GString *out, FcPattern *font)
{
  FcChar8 *value = NULL;
  int index = 0;

  if (FcPatternGetString (font, FC_FILE, 0, &value) != FcResultMatch
      || !append_value (out, (const char *) value))
    return FALSE;
  FcPatternGetInteger (font, FC_INDEX, 0, &index);
  g_string_append_printf (out, "\t%d", index);
  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    {
      g_string_append_c (out, '\t');
      for (int i = 0; FcPatternGetString (font, fields[f], i, &value) == FcResultMatch; i++)
        {
          if (i > 0)
            g_string_append_c (out, VALUES);
          if (!append_value (out, (const char *) value))
            return FALSE;
        }
    }
  g_string_append_c (out, '\n');
  return TRUE;
}

/* Keeps @set for the next run; a list that cannot be written is asked for again. */
static void
save (const char *path, const char *stamp, FcFontSet *set)
{
  g_autoptr (GString) out = g_string_new (stamp);
  g_autofree char *folder = g_path_get_dirname (path);

  g_string_append (out, SEPARATOR);
  g_string_append_printf (out, "%d\n", set->nfont);
  for (int i = 0; i < set->nfont; i++)
    if (!append_font (out, set->fonts[i]))
      return;
  g_mkdir_with_parents (folder, 0700);
  if (!g_file_set_contents (path, out->str, (gssize) out->len, NULL))
    g_debug ("the list of installed fonts could not be kept in %s", path);
}

static FcPattern *
parse_font (char *line)
{
  g_auto (GStrv) columns = g_strsplit (line, "\t", -1);
  FcPattern *font;

  if (g_strv_length (columns) != 2 + G_N_ELEMENTS (fields))
    return NULL;
  font = FcPatternCreate ();
  FcPatternAddString (font, FC_FILE, (const FcChar8 *) columns[0]);
  FcPatternAddInteger (font, FC_INDEX, (int) g_ascii_strtoll (columns[1], NULL, 10));
  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    {
      g_auto (GStrv) values = NULL;

      if (columns[2 + f][0] == '\0')
        continue;
      values = g_strsplit (columns[2 + f], (const char[]){ VALUES, '\0' }, -1);
      for (guint i = 0; values[i] != NULL; i++)
        FcPatternAddString (font, fields[f], (const FcChar8 *) values[i]);
    }
  return font;
}

/* The list kept in @contents, or NULL when its stamp no longer matches. */
static FcFontSet *
parse (char *contents)
{
  char *separator = strstr (contents, SEPARATOR);
  FcFontSet *set;
  char *line, *end;
  gint64 n_fonts;

  if (separator == NULL)
    return NULL;
  *separator = '\0';
  if (!_dc_references_stamp_is_current (contents))
    return NULL;
  G_LOCK (kept);
  set = g_strcmp0 (kept_stamp, contents) == 0 ? kept_set : NULL;
  G_UNLOCK (kept);
  if (set != NULL)
    return set;
  line = separator + strlen (SEPARATOR);
  n_fonts = g_ascii_strtoll (line, &end, 10);
  if (*end != '\n')
    return NULL;
  set = FcFontSetCreate ();
  for (line = end + 1; *line != '\0'; line = end + 1)
    {
      FcPattern *font = NULL;

      if ((end = strchr (line, '\n')) != NULL)
        *end = '\0';
      if (end == NULL || (font = parse_font (line)) == NULL || !FcFontSetAdd (set, font))
        {
          if (font != NULL)
            FcPatternDestroy (font);
          FcFontSetDestroy (set);
          return NULL;
        }
    }
  if (set->nfont != n_fonts)
    {
      FcFontSetDestroy (set);
      return NULL;
    }
  G_LOCK (kept);
  g_free (kept_stamp);
  kept_stamp = g_strdup (contents);
  kept_set = set;
  G_UNLOCK (kept);
  return set;
}

/**
 * _dc_font_list_installed:
 *
 * What FcFontList() gives for every installed outline font with its file, face index,
 * PostScript name, full names, families and styles, in its order; from the list kept
 * when the installed fonts have not changed since, else from fontconfig.
 *
 * @kept: (out): set to whether the fonts are kept for the process (else they are for
 *   FcFontSetDestroy())
 *
 * Returns: (nullable): the fonts; %NULL when fontconfig did not start
 */
FcFontSet *
_dc_font_list_installed (gboolean *kept)
{
  g_autofree char *path = list_path ();
  g_autofree char *contents = NULL;
  g_autofree char *stamp = NULL;
  FcFontSet *set;

  g_return_val_if_fail (kept != NULL, NULL);

  *kept = TRUE;
  if (path != NULL && g_file_get_contents (path, &contents, NULL, NULL)
      && (set = parse (contents)) != NULL)
    return set;
  *kept = FALSE;
  /* Made before the list, so that fonts changed meanwhile are looked at again. */
  stamp = path != NULL ? _dc_references_stamp_new () : NULL;
  set = list_from_fontconfig ();
  if (set != NULL && stamp != NULL)
    save (path, stamp, set);
  return set;
}
