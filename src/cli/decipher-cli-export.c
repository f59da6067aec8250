/* decipher-cli-export.c: `decipher-cli text` and `repair` for one PDF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-cli.c. The document's text in a format of docs/export-formats.md,
 * the recovered map (map-json, or one font's ToUnicode CMap), or a repaired copy of the
 * PDF, each from the key decipher_cli_load_key() starts; several PDFs or a folder go to
 * decipher-cli-collection.c instead.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "decipher-cli-commands.h"
#include "decipher-cli-session.h"

#define command_repair decipher_cli_command_repair
#define command_text decipher_cli_command_text
#define load_key decipher_cli_load_key
#define opt_font decipher_cli_opt_font
#define opt_format decipher_cli_opt_format
#define opt_normalize decipher_cli_opt_normalize
#define opt_output decipher_cli_opt_output
#define opt_password decipher_cli_opt_password
#define opt_project decipher_cli_opt_project
#define print_error decipher_cli_print_error

/* The document's own text (text, cmap) goes out as it is to a file or a pipe; a terminal
 * gets its control characters escaped, since it would obey them. */
static void
print_document_text (const char *text)
{
  g_autofree char *shown = NULL;

  if (!isatty (STDOUT_FILENO))
    {
      fputs (text, stdout);
      return;
    }
  shown = decipher_cli_escape_controls (text, TRUE);
  fputs (shown, stdout);
}

/* Without a project nothing the user typed is known: say where the work is. */
static void
print_map_error (DcKey *key, const GError *error)
{
  g_autofree char *message = NULL;

  if (opt_project != NULL || dc_map_has_recovered (key))
    {
      print_error (error->message);
      return;
    }
  message = g_strdup_printf ("%s %s", error->message,
                             _("Give the project that holds your work with --project P."));
  print_error (message);
}

static int
print_map (DcKey *key, gboolean cmap)
{
  DcDocument *document = dc_key_get_document (key);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  guint font = 0, n_recovered = 0;

  if (!cmap)
    {
      if ((text = dc_map_to_json (key, &error)) == NULL)
        {
          print_map_error (key, error);
          return 1;
        }
      g_print ("%s\n", text);
      return 0;
    }

  if (opt_font >= 0)
    {
      if ((guint) opt_font >= dc_document_get_n_fonts (document))
        {
          g_autofree char *message = g_strdup_printf (_("The document has no font %d: “decipher-cli fonts” lists its fonts."), opt_font);
          print_error (message);
          return 2;
        }
      font = (guint) opt_font;
    }
  else
    {
      for (guint f = 0; f < dc_document_get_n_fonts (document); f++)
        if (dc_map_font_is_recovered (key, f))
          {
            font = f;
            n_recovered++;
          }
      if (n_recovered == 0)
        {
          g_set_error (&error, DC_ERROR, DC_ERROR_INVALID_INPUT, "%s",
                       _("No font has recovered values yet, so there is no map to export."));
          print_map_error (key, error);
          return 1;
        }
      if (n_recovered > 1)
        {
          print_error (_("Several fonts have recovered values: choose one with --font N, or use "
                         "--format map-json for all of them."));
          return 2;
        }
    }

  if ((text = dc_map_font_to_cmap (key, font, &error)) == NULL)
    {
      print_map_error (key, error);
      return 1;
    }
  print_document_text (text);
  return 0;
}

static gboolean
write_stdout (const char *data, gsize length, gpointer user_data)
{
  return fwrite (data, 1, length, stdout) == length;
}

/* write_stdout() for a terminal: a part is whole pages, so no character is cut. */
static gboolean
write_terminal (const char *data, gsize length, gpointer user_data)
{
  g_autofree char *part = g_strndup (data, length);

  print_document_text (part);
  return TRUE;
}

int
command_text (DcDocument *document, int argc, char **argv)
{
  g_autoptr (DcKey) key = NULL;
  g_autofree char *text = NULL;
  DcExportFormat format = DC_EXPORT_TEXT;
  DcNormalization normalization = DC_NORMALIZATION_NFC;
  gboolean map = FALSE, cmap = FALSE;

  if (opt_format == NULL || g_str_equal (opt_format, "txt"))
    format = DC_EXPORT_TEXT;
  else if (g_str_equal (opt_format, "freki"))
    format = DC_EXPORT_FREKI;
  else if (g_str_equal (opt_format, "json"))
    format = DC_EXPORT_JSON;
  else if (g_str_equal (opt_format, "layout"))
    format = DC_EXPORT_LAYOUT;
  else if (g_str_equal (opt_format, "map-json"))
    map = TRUE;
  else if (g_str_equal (opt_format, "cmap"))
    map = cmap = TRUE;
  else
    {
      g_autofree char *message = g_strdup_printf (_("“%s” is not a text format: use txt, layout, freki, json, map-json or cmap."),
          opt_format);
      print_error (message);
      return 2;
    }
  if (opt_font >= 0 && !cmap)
    {
      print_error (_("--font only chooses the font of --format cmap."));
      return 2;
    }
  if (opt_normalize != NULL && !dc_normalization_from_string (opt_normalize, &normalization))
    {
      g_autofree char *message = g_strdup_printf (_("“%s” is not a normalization form: use nfc, nfkc or nfd."), opt_normalize);

      print_error (message);
      return 2;
    }

  if ((key = load_key (document)) == NULL)
    return 1;

  if (map)
    return print_map (key, cmap);

  /* A book's JSON is half a kilobyte a glyph: written as it is made, never held whole.
   * A failed write is said when the process ends (finish_output()). */
  if (format == DC_EXPORT_JSON)
    {
      dc_export_json_write (document, normalization, dc_key_value_func, key, write_stdout, NULL);
      return 0;
    }
  /* A book's text, too, goes out a few pages at a time. */
  if (format == DC_EXPORT_TEXT && opt_normalize == NULL)
    {
      dc_export_text_write (document, dc_key_value_func, key,
                            isatty (STDOUT_FILENO) ? write_terminal : write_stdout, NULL);
      return 0;
    }
  if (opt_normalize != NULL)
    text = dc_export_document_normalized (document, format, normalization, dc_key_value_func, key);
  else
    text = dc_export_document (document, format, dc_key_value_func, key);
  print_document_text (text);
  return 0;
}

int
command_repair (DcDocument *document, int argc, char **argv)
{
  g_autoptr (DcKey) key = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) notes = NULL;

  if (opt_output == NULL)
    {
      print_error (_("Say where to write the repaired PDF with -o OUT.pdf."));
      return 2;
    }
  if ((key = load_key (document)) == NULL)
    return 1;

  if (!dc_repair_write (key, opt_password, opt_output, &notes, &error))
    {
      print_map_error (key, error);
      return 1;
    }
  for (guint i = 0; notes[i] != NULL; i++)
    {
      g_autofree char *message = g_strdup_printf (_("note: %s"), notes[i]);
      print_error (message);
    }
  return 0;
}
