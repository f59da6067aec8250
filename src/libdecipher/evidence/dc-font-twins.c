/* dc-font-twins.c: fontconfig's choice of installed font for a name, kept between runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A PDF naming a font it does not embed (Arial, Times New Roman: common in real-world
 * files) is measured against the installed font fontconfig draws that name with
 * (dc-font-installed.c). Asking costs fontconfig's start, some fifty configuration files
 * parsed, about a third of a one-file `decipher-cli text` (issue 32), though the answer is
 * the same every run until the configuration or the fonts change. The answers are
 * therefore kept in a file beside the list of installed fonts (dc-font-list.c), with the
 * stamp that list is checked by (dc-references-stamp.c): while the stamp matches, a name
 * asked before is answered from the file; a name never asked is asked of fontconfig and
 * its answer added.
 *
 * Besides the configuration and the fonts, fontconfig's choice depends on the default
 * language it adds to the question, which it takes from the environment: the variables
 * it reads it from are part of each question kept.
 *
 * The file is $DECIPHER_REFERENCES with ".twins" added, none when that is "", else
 * ~/.cache/decipher/installed-font-twins. It holds the stamp, a line holding a form feed,
 * then one line per question: family, "b" or "-", "i" or "-", the language variables
 * (separated by U+001F), the file (empty for no font), the face index and the name of the
 * font chosen, separated by tabs. A file that does not hold what it says is not used.
 */

#define G_LOG_DOMAIN "dc-font-installed"

#include "config.h"

#include <fontconfig/fontconfig.h>
#include <string.h>

#include "dc-font-twins-private.h"
#include "dc-references-stamp-private.h"

#define SEPARATOR "\f\n"
#define N_COLUMNS 7

/* Where fontconfig (2.13–2.15) takes the default language from, in its order. */
static const char *const language_variables[] = { "FC_LANG", "LC_ALL", "LC_CTYPE", "LANG" };

static char *
twins_path (void)
{
  const char *references = g_getenv ("DECIPHER_REFERENCES");

  if (references == NULL)
    return g_build_filename (g_get_user_cache_dir (), "decipher", "installed-font-twins", NULL);
  if (references[0] == '\0')
    return NULL;
  return g_strconcat (references, ".twins", NULL);
}

/* The question as a line of the file starts, tab included; NULL when a value cannot be
 * told apart from the file's separators (then it is asked of fontconfig every time). */
static char *
question_new (const char *family, gboolean bold, gboolean italic)
{
  g_autoptr (GString) question = g_string_new (NULL);

  if (strpbrk (family, "\t\n\f\x1f") != NULL)
    return NULL;
  g_string_append_printf (question, "%s\t%c\t%c\t", family, bold ? 'b' : '-', italic ? 'i' : '-');
  for (guint i = 0; i < G_N_ELEMENTS (language_variables); i++)
    {
      const char *value = g_getenv (language_variables[i]);

      if (value != NULL && strpbrk (value, "\t\n\f\x1f") != NULL)
        return NULL;
      if (i > 0)
        g_string_append_c (question, '\x1f');
      g_string_append (question, value != NULL ? value : "");
    }
  g_string_append_c (question, '\t');
  return g_string_free (g_steal_pointer (&question), FALSE);
}

static gboolean
ask_fontconfig (const char *family, gboolean bold, gboolean italic, char **file, int *index,
                char **label)
{
  FcPattern *pattern, *match;
  FcResult result;
  FcChar8 *value = NULL, *name = NULL;

  *file = NULL;
  *label = NULL;
  *index = 0;
  if (!FcInit ())
    return FALSE;
  pattern = FcPatternBuild (NULL, FC_FAMILY, FcTypeString, family, FC_OUTLINE, FcTypeBool, FcTrue,
                            NULL);
  if (bold)
    FcPatternAddInteger (pattern, FC_WEIGHT, FC_WEIGHT_BOLD);
  if (italic)
    FcPatternAddInteger (pattern, FC_SLANT, FC_SLANT_ITALIC);
  FcConfigSubstitute (NULL, pattern, FcMatchPattern);
  FcDefaultSubstitute (pattern);
  match = FcFontMatch (NULL, pattern, &result);
  FcPatternDestroy (pattern);
  if (match != NULL && FcPatternGetString (match, FC_FILE, 0, &value) == FcResultMatch)
    {
      FcPatternGetInteger (match, FC_INDEX, 0, index);
      if (FcPatternGetString (match, FC_FULLNAME, 0, &name) != FcResultMatch)
        FcPatternGetString (match, FC_FAMILY, 0, &name);
      *file = g_strdup ((const char *) value);
      *label = g_strdup (name != NULL ? (const char *) name : (const char *) value);
    }
  if (match != NULL)
    FcPatternDestroy (match);
  return TRUE;
}

/* Whether @answer (the columns after the question) is a well-formed answer; fills the
 * out arguments when it is. */
static gboolean
parse_answer (const char *answer, char **file, int *index, char **label)
{
  g_auto (GStrv) columns = g_strsplit (answer, "\t", -1);
  gint64 value;
  char *end;

  if (g_strv_length (columns) != 3)
    return FALSE;
  value = g_ascii_strtoll (columns[1], &end, 10);
  if (*end != '\0' || end == columns[1] || value < 0 || value > G_MAXINT)
    return FALSE;
  if (columns[0][0] == '\0')
    {
      *file = NULL;
      *label = NULL;
      *index = 0;
      return TRUE;
    }
  if (columns[2][0] == '\0')
    return FALSE;
  *file = g_strdup (columns[0]);
  *label = g_strdup (columns[2]);
  *index = (int) value;
  return TRUE;
}

/* Checks @contents line by line; the offset of its answers when it is well-formed and
 * its stamp current, else -1. */
static gssize
answers_start (const char *contents, gsize length)
{
  const char *separator = strstr (contents, SEPARATOR);
  g_autofree char *stamp = NULL;
  const char *line, *end;

  if (separator == NULL || strlen (contents) != length)
    return -1;
  for (line = separator + strlen (SEPARATOR); *line != '\0'; line = end + 1)
    {
      guint n_tabs = 0;

      if ((end = strchr (line, '\n')) == NULL)
        return -1;
      for (const char *c = line; c < end; c++)
        n_tabs += *c == '\t';
      if (n_tabs != N_COLUMNS - 1)
        return -1;
    }
  stamp = g_strndup (contents, (gsize) (separator - contents));
  if (!_dc_references_stamp_is_current (stamp))
    return -1;
  return separator + strlen (SEPARATOR) - contents;
}

/* The answer after @question in the answers from @contents + @start, or NULL. */
static const char *
find_answer (const char *contents, gsize start, const char *question, char **line_out)
{
  gsize question_length = strlen (question);

  for (const char *line = contents + start, *end; *line != '\0'; line = end + 1)
    {
      end = strchr (line, '\n');
      if (strncmp (line, question, question_length) == 0)
        {
          *line_out = g_strndup (line + question_length, (gsize) (end - line) - question_length);
          return *line_out;
        }
    }
  return NULL;
}

/* Adds the answer to @contents (NULL or not current: a new file with @stamp) and writes
 * it in place of the file at once, so a reader sees the old answers or the new ones. */
static void
save (const char *path, const char *contents, gssize start, const char *stamp, const char *question,
      const char *file, int index, const char *label)
{
  g_autoptr (GString) out = NULL;
  g_autofree char *folder = g_path_get_dirname (path);

  if ((file != NULL && strpbrk (file, "\t\n") != NULL)
      || (label != NULL && strpbrk (label, "\t\n") != NULL))
    return;
  if (start < 0 && stamp == NULL)
    return;
  out = g_string_new (start >= 0 ? contents : stamp);
  if (start < 0)
    g_string_append (out, SEPARATOR);
  g_string_append_printf (out, "%s%s\t%d\t%s\n", question, file != NULL ? file : "", index,
                          label != NULL ? label : "");
  g_mkdir_with_parents (folder, 0700);
  if (!g_file_set_contents (path, out->str, (gssize) out->len, NULL))
    g_debug ("fontconfig's answers could not be kept in %s", path);
}

/**
 * _dc_font_twin_find:
 * @family: the family asked for
 * @bold: whether a bold face is asked for
 * @italic: whether an italic face is asked for
 * @file: (out): set to the file of the installed font fontconfig chooses, or %NULL
 * @index: (out): set to its face index
 * @label: (out): set to its full name (else family, else file)
 *
 * What FcFontMatch() answers for @family after fontconfig's substitutions (Liberation
 * Sans for Arial): from the answers kept when the configuration and fonts have not
 * changed since, else from fontconfig, the answer then kept.
 *
 * Returns: %FALSE when fontconfig did not start
 */
gboolean
_dc_font_twin_find (const char *family, gboolean bold, gboolean italic, char **file, int *index,
                    char **label)
{
  g_autofree char *path = twins_path ();
  g_autofree char *question = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *stamp = NULL;
  gsize length = 0;
  gssize start = -1;

  g_return_val_if_fail (family != NULL && file != NULL && index != NULL && label != NULL, FALSE);

  question = path != NULL ? question_new (family, bold, italic) : NULL;
  if (question != NULL && g_file_get_contents (path, &contents, &length, NULL))
    start = answers_start (contents, length);
  if (start >= 0 && find_answer (contents, (gsize) start, question, &answer) != NULL)
    {
      if (parse_answer (answer, file, index, label))
        return TRUE;
      start = -1; /* the file is made anew rather than answer this question twice */
    }
  /* Made before asking, so that fonts changed meanwhile are looked at again. */
  if (question != NULL && start < 0)
    stamp = _dc_references_stamp_new ();
  if (!ask_fontconfig (family, bold, italic, file, index, label))
    return FALSE;
  if (question != NULL)
    save (path, contents, start, stamp, question, *file, *index, *label);
  return TRUE;
}
