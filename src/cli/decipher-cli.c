/* decipher-cli.c: the headless commands (README.md; docs/session-protocol.md,
 * docs/export-formats.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * main(): the options, which command runs, the document it loads and the exit status.
 * The commands that read one document live in files of their own (decipher-cli-glyphs.c,
 * decipher-cli-fonts.c, decipher-cli-export.c for text and repair); `session`, `library`
 * and a collection are handed over to decipher-cli-session.c, the engine's library and
 * decipher-cli-collection.c from here.
 */

#define G_LOG_DOMAIN "decipher-cli"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>

#include "decipher-cli-collection.h"
#include "decipher-cli-commands.h"
#include "decipher-cli-session.h"

#define command_fonts decipher_cli_command_fonts
#define command_glyphs decipher_cli_command_glyphs
#define command_repair decipher_cli_command_repair
#define command_text decipher_cli_command_text
#define load_key decipher_cli_load_key
#define opt_font decipher_cli_opt_font
#define opt_format decipher_cli_opt_format
#define opt_json decipher_cli_opt_json
#define opt_normalize decipher_cli_opt_normalize
#define opt_output decipher_cli_opt_output
#define opt_password decipher_cli_opt_password
#define opt_project decipher_cli_opt_project
#define print_error decipher_cli_print_error

typedef int (*CommandFunc) (DcDocument *document, int argc, char **argv);

char *opt_password;
gboolean opt_json;
char *opt_format;
char *opt_normalize;
char *opt_project;
static gboolean opt_no_auto;
char *opt_output;
static gboolean opt_overwrite;
int opt_font = -1;
static char *opt_library;
/* Where the document is loaded through and its key started (dc-pipeline.h). */
static DcPipeline *pipeline;

#define LIBRARY_ENTRY                                                                              \
  {                                                                                                \
    "library", 0, 0, G_OPTION_ARG_FILENAME, &opt_library,                                          \
        N_ ("The font library to decode from and learn into (default "                             \
            "~/.local/share/decipher/library.sqlite, or $DECIPHER_LIBRARY; \"\" for none)"),       \
        N_ ("PATH")                                                                                \
  }

/* Unset: the engine's default. */
#define LIMIT_UNSET G_MININT64
static gint64 opt_max_glyphs = LIMIT_UNSET;
static gint64 opt_max_memory = LIMIT_UNSET;

static const GOptionEntry document_entries[] = {
  { "password", 0, 0, G_OPTION_ARG_STRING, &opt_password, N_ ("Password of an encrypted PDF"),
    N_ ("PASSWORD") },
  /* A small PDF can draw one content stream on thousands of pages: without a limit it
   * takes all the memory there is (issue 11). */
  { "max-glyphs", 0, 0, G_OPTION_ARG_INT64, &opt_max_glyphs,
    N_ ("Refuse a document that draws more glyphs than this (default 10000000)"), N_ ("N") },
  { "max-memory", 0, 0, G_OPTION_ARG_INT64, &opt_max_memory,
    N_ ("Refuse a document whose glyphs and texts take more memory than this, in MB "
        "(default 1024)"),
    N_ ("MB") },
  { NULL }
};

static const GOptionEntry json_entries[] = {
  { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_ ("Print JSON instead of text"), NULL }, { NULL }
};

static const GOptionEntry text_entries[] = {
  { "format", 0, 0, G_OPTION_ARG_STRING, &opt_format,
    N_ ("txt, layout, freki or json (default txt); map-json for the recovered map of every font, "
        "cmap for one font's ToUnicode CMap"),
    N_ ("FORMAT") },
  { "font", 0, 0, G_OPTION_ARG_INT, &opt_font,
    N_ ("With --format cmap: the font, by its index in “decipher-cli fonts”"), N_ ("N") },
  { "normalize", 0, 0, G_OPTION_ARG_STRING, &opt_normalize,
    N_ ("Unicode normalization of the text: nfc, nfkc (full-width forms folded) or nfd "
        "(default: json's spans in NFC, other formats as drawn)"),
    N_ ("FORM") },
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
    N_ ("Decode several PDFs or folders of them, and write each one's text into this folder"),
    N_ ("OUTDIR") },
  { "overwrite", 0, 0, G_OPTION_ARG_NONE, &opt_overwrite,
    N_ ("With -o OUTDIR: replace results already in the folder"), NULL },
  { "project", 0, 0, G_OPTION_ARG_FILENAME, &opt_project,
    N_ ("Decode with the table saved in this project"), N_ ("PROJECT") },
  { "no-auto", 0, 0, G_OPTION_ARG_NONE, &opt_no_auto,
    N_ ("Without a project, decode only by the fonts' own evidence: no font library, automatic "
        "guesses or installed fonts"),
    NULL },
  LIBRARY_ENTRY,
  { NULL }
};

static const GOptionEntry fonts_entries[] = {
  { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json,
    N_ ("Print JSON instead of text, with every symbol's value, level, confidence and "
        "provenance"),
    NULL },
  { "project", 0, 0, G_OPTION_ARG_FILENAME, &opt_project,
    N_ ("With --json: report the values saved in this project"), N_ ("PROJECT") },
  { "no-auto", 0, 0, G_OPTION_ARG_NONE, &opt_no_auto,
    N_ ("Without a project, do not recover values automatically"), NULL },
  LIBRARY_ENTRY,
  { NULL }
};

static const GOptionEntry repair_entries[] = {
  { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output,
    N_ ("Write the repaired PDF to this file; with several PDFs or folders, into this folder"),
    N_ ("FILE|OUTDIR") },
  { "overwrite", 0, 0, G_OPTION_ARG_NONE, &opt_overwrite,
    N_ ("With -o OUTDIR: replace results already in the folder"), NULL },
  { "project", 0, 0, G_OPTION_ARG_FILENAME, &opt_project,
    N_ ("Repair with the table saved in this project"), N_ ("PROJECT") },
  { "no-auto", 0, 0, G_OPTION_ARG_NONE, &opt_no_auto,
    N_ ("Without a project, decode only by the fonts' own evidence: no font library, automatic "
        "guesses or installed fonts"),
    NULL },
  LIBRARY_ENTRY,
  { NULL }
};

static const GOptionEntry session_entries[] = {
  { "project", 0, 0, G_OPTION_ARG_FILENAME, &opt_project,
    N_ ("Load this project if it exists, and write every decision to it"), N_ ("PROJECT") },
  { "no-auto", 0, 0, G_OPTION_ARG_NONE, &opt_no_auto,
    N_ ("Decode new work only by the fonts' own evidence: no font library, automatic guesses "
        "or installed fonts (values are still proposed)"),
    NULL },
  LIBRARY_ENTRY,
  { NULL }
};

/* Errors name files and fonts, which a hostile PDF or project chose: escaped. */
void
print_error (const char *message)
{
  g_autofree char *shown = decipher_cli_escape_controls (message, FALSE);

  g_printerr ("decipher-cli: %s\n", shown);
}

/* The font library named by --library, $DECIPHER_LIBRARY or the user's default one;
 * "" for none. FALSE (said) when a library the user named cannot be opened. */
static gboolean
open_library (DcLibrary **library, char **path)
{
  g_autoptr (GError) error = NULL;

  *library = dc_pipeline_open_user_library (opt_library, path, &error);
  if (error == NULL)
    return TRUE;
  print_error (error->message);
  return FALSE;
}

/* The key the text, map and repair commands work from: the project's, or, without one,
 * every level the pipeline applies (none with --no-auto). */
DcKey *
load_key (DcDocument *document)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = NULL;
  DcKey *key;

  /* These commands only read the library: a default one not made yet is none. */
  library = dc_pipeline_find_user_library (opt_library, &error);
  if (error != NULL)
    {
      print_error (error->message);
      return NULL;
    }
  dc_pipeline_set_library (pipeline, library);
  if (opt_project == NULL && dc_pipeline_references_need_building (pipeline))
    print_error (_("reading the installed fonts once, to recognise their glyphs in PDFs…"));
  if ((key = dc_pipeline_load_key (pipeline, document, opt_project, &error)) == NULL)
    {
      print_error (error->message);
      return NULL;
    }
  if (dc_pipeline_get_references_error (pipeline) != NULL)
    print_error (dc_pipeline_get_references_error (pipeline)->message);
  return key;
}

static int
command_session (DcDocument *document, int argc, char **argv)
{
  g_autoptr (DecipherCliSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DcLibrary) library = NULL;
  int status;

  if (!open_library (&library, NULL))
    return 1;
  dc_pipeline_set_library (pipeline, library);
  if (dc_pipeline_references_need_building (pipeline)
      && (opt_project == NULL || !g_file_test (opt_project, G_FILE_TEST_EXISTS)))
    print_error (_("reading the installed fonts once, to recognise their glyphs in PDFs…"));
  session = decipher_cli_session_new_with_pipeline (document, opt_project, pipeline, &error);
  if (session == NULL)
    {
      print_error (error->message);
      return 1;
    }
  decipher_cli_session_set_password (session, opt_password);
  status = decipher_cli_session_run (session);
  /* A project not written is an exit status a script can see. */
  if (!decipher_cli_session_close (session, &error))
    {
      print_error (error->message);
      return 1;
    }
  return status;
}

/* decipher-cli library export|import FILE: the font library as a file a team shares.
 * It reads no document, so main() runs it before opening one. */
static int
command_library (int argc, char **argv)
{
  static const GOptionEntry entries[] = { LIBRARY_ENTRY, { NULL } };
  g_autoptr (GOptionContext) context = g_option_context_new ("export|import FILE");
  g_autoptr (DcLibrary) library = NULL;
  g_autoptr (GError) error = NULL;
  guint n_imported = 0;

  g_option_context_set_summary (context,
                                _("Export the font library to FILE, or import FILE into it"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      print_error (error->message);
      return 2;
    }
  if (argc != 3 || (!g_str_equal (argv[1], "export") && !g_str_equal (argv[1], "import")))
    {
      print_error (_("Say “library export FILE” or “library import FILE”."));
      return 2;
    }
  if (!open_library (&library, NULL))
    return 1;
  if (library == NULL)
    {
      print_error (_("No font library: give one with --library PATH."));
      return 1;
    }
  if (g_str_equal (argv[1], "export"))
    {
      if (!dc_library_export (library, argv[2], &error))
        {
          print_error (error->message);
          return 1;
        }
      g_print (_("%u entries exported.\n"), dc_library_get_n_entries (library));
      return 0;
    }
  if (!dc_library_import (library, argv[2], &n_imported, &error))
    {
      print_error (error->message);
      return 1;
    }
  g_print (_("%u entries imported.\n"), n_imported);
  return 0;
}

/* text|repair FILES_OR_FOLDERS… -o OUTDIR: decipher-cli-collection.c. */
static int
run_collection (gboolean repair, int argc, char **argv)
{
  DecipherCliCollection collection = { 0 };
  g_autoptr (DcLibrary) library = NULL;
  g_autofree char *library_file = NULL;

  if (opt_output == NULL)
    {
      print_error (_("Say which folder to write the results to with -o OUTDIR."));
      return 2;
    }
  collection.kind = repair ? DECIPHER_CLI_COLLECTION_REPAIR : DECIPHER_CLI_COLLECTION_TEXT;
  if (!repair && opt_format != NULL && !g_str_equal (opt_format, "txt"))
    {
      if (g_str_equal (opt_format, "layout"))
        collection.format = DC_EXPORT_LAYOUT;
      else if (g_str_equal (opt_format, "freki"))
        collection.format = DC_EXPORT_FREKI;
      else if (g_str_equal (opt_format, "json"))
        collection.format = DC_EXPORT_JSON;
      else if (g_str_equal (opt_format, "map-json"))
        collection.kind = DECIPHER_CLI_COLLECTION_MAP;
      else
        {
          g_autofree char *message = g_strdup_printf (_("“%s” cannot be written for several PDFs: use txt, layout, freki, json or "
                "map-json."),
              opt_format);
          print_error (message);
          return 2;
        }
    }
  if (opt_font >= 0)
    {
      print_error (_("--font only chooses the font of --format cmap, for one PDF."));
      return 2;
    }
  /* A library the user named must open; the default one is a convenience. */
  if (!open_library (&library, &library_file))
    return 1;
  collection.output_dir = opt_output;
  collection.project_path = opt_project;
  collection.library_path = library_file;
  collection.password = opt_password;
  collection.automatic_pass = !opt_no_auto;
  collection.overwrite = opt_overwrite;
  g_clear_object (&library);
  return decipher_cli_collection_run (&collection, argv + 1, (guint) argc - 1);
}

typedef struct
{
  const char *name;
  const char *summary;
  CommandFunc func;
  const GOptionEntry *entries;
} Command;

static const Command commands[] = {
  { "glyphs", N_ ("One record per drawn glyph, in reading order"), command_glyphs, json_entries },
  { "fonts", N_ ("Each font, and whether its text map can be trusted"), command_fonts,
    fonts_entries },
  { "text", N_ ("The document's text, with what is recovered so far"), command_text, text_entries },
  { "repair", N_ ("Write a copy of the PDF whose text copies correctly, with -o OUT.pdf"),
    command_repair, repair_entries },
  { "session", N_ ("JSON-lines session: one request per line on stdin, one reply per line"),
    command_session, session_entries },
};

/* The levels @func's key starts with: the sessions propose too, the exports do not (a
 * proposal is no value), and --no-auto leaves the fonts' own evidence alone. */
static DcPipelineLevels
levels_for (CommandFunc func)
{
  if (func == command_session)
    return opt_no_auto ? DC_PIPELINE_PROPOSALS : DC_PIPELINE_ALL;
  if ((func == command_text || func == command_repair || (func == command_fonts && opt_json))
      && opt_project == NULL && !opt_no_auto)
    return DC_PIPELINE_AUTOMATIC;
  return 0;
}

static void
print_usage (void)
{
  g_printerr ("%s\n", _("Usage: decipher-cli COMMAND FILE.pdf [OPTION…]"));
  g_printerr ("\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_printerr ("  %-8s %s\n", commands[i].name, _(commands[i].summary));
  g_printerr ("  %-8s %s\n", "library",
              _("Export the font library to a file, or import one: library export|import FILE"));
  g_printerr ("\n%s\n", _("Run “decipher-cli COMMAND --help” for its options."));
}

/* Why a document could not be opened, with the option that helps where one does. */
static void
print_load_error (const GError *error)
{
  const char *advice = NULL;
  g_autofree char *message = NULL;

  if (g_error_matches (error, DC_ERROR, DC_ERROR_ENCRYPTED))
    advice = _("Use --password PASSWORD.");
  else if (g_error_matches (error, DC_ERROR, DC_ERROR_TOO_MANY_GLYPHS))
    advice = _("If it is a real document, raise the limit with --max-glyphs N.");
  else if (g_error_matches (error, DC_ERROR, DC_ERROR_TOO_MUCH_TEXT))
    advice = _("If it is a real document, raise the limit with --max-memory MB.");
  message = advice != NULL ? g_strdup_printf ("%s %s", error->message, advice)
                           : g_strdup (error->message);
  print_error (message);
}

static const Command *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (name, commands[i].name))
      return &commands[i];
  return NULL;
}

static int
run (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (DcDocument) document = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *parameter = NULL;
  const Command *command = NULL;
  DcDocumentLimits limits = { 0 };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      print_usage ();
      return argc < 2 ? 2 : 0;
    }

  /* One file of a collection, in a process of its own (decipher-cli-collection-item.c). */
  if (g_str_equal (argv[1], "--collection-item"))
    {
      argv[1] = argv[0];
      return decipher_cli_collection_item_main (argc - 1, argv + 1);
    }

  if (g_str_equal (argv[1], "library"))
    {
      argv[1] = argv[0];
      return command_library (argc - 1, argv + 1);
    }

  command = find_command (argv[1]);
  if (command == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("“%s” is not a command."), argv[1]);
      print_error (message);
      print_usage ();
      return 2;
    }

  parameter = g_strdup_printf ("%s FILE.pdf", command->name);
  context = g_option_context_new (parameter);
  g_option_context_set_summary (context, _(command->summary));
  if (command->func == command_session)
    g_option_context_set_description (
        context,
        _("Requests, one JSON object a line, such as {\"cmd\": \"status\"}: status, "
          "lines, type, suggest, assign, accept, reject, symbols, occurrences, split, unsplit, "
          "undo, redo, text, save, conflicts, resolve, recognize.\n"
          "  reject {symbol}: the symbol's value is wrong; no evidence brings it back "
          "there, only typing or assigning it.\n"
          "  split {glyphs, text}: these occurrences of one symbol read another value, e.g. "
          "{\"cmd\": \"split\", \"glyphs\": [12, 40], \"text\": \"ʼ\"}; the glyph numbers "
          "come from {\"cmd\": \"occurrences\", \"symbol\": 3}.\n"
          "See docs/session-protocol.md for every request and reply."));
  g_option_context_add_main_entries (context, document_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, command->entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);

  /* argv[1] is the command: let GOption see "decipher-cli" followed by the rest. */
  argv[1] = argv[0];
  argc--;
  argv++;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      print_error (error->message);
      return 2;
    }
  /* Several PDFs, a folder, or text written to a folder: a collection. */
  if ((command->func == command_text || command->func == command_repair)
      && (argc > 2 || (argc == 2 && g_file_test (argv[1], G_FILE_TEST_IS_DIR))
          || (command->func == command_text && opt_output != NULL)))
    return run_collection (command->func == command_repair, argc, argv);
  if (argc != 2)
    {
      print_error (_("Give exactly one PDF file."));
      return 2;
    }

  /* 0 given would quietly have meant the default (issue 33). */
  if ((opt_max_glyphs != LIMIT_UNSET && opt_max_glyphs <= 0)
      || (opt_max_memory != LIMIT_UNSET && opt_max_memory <= 0))
    {
      print_error (_("--max-glyphs and --max-memory take a positive number."));
      return 2;
    }
  limits.max_glyphs = opt_max_glyphs == LIMIT_UNSET ? 0 : (guint64) opt_max_glyphs;
  limits.max_megabytes = opt_max_memory == LIMIT_UNSET ? 0 : (guint64) opt_max_memory;
  pipeline = dc_pipeline_new (levels_for (command->func));
  document = dc_pipeline_load_document (pipeline, argv[1], opt_password, &limits, NULL, NULL, NULL,
                                        &error);
  if (document == NULL)
    {
      print_load_error (error);
      return 1;
    }

  return command->func (document, argc, argv);
}

/*
 * Standard output goes to a file as often as to a terminal, and a file's disk fills up:
 * 16 KB of 143 KB written and exit status 0 told a script all was well (issue 33). So
 * what stdio holds is written now, and any write that failed on the way (stdio keeps
 * the error) makes the exit status 1, with a sentence.
 */
static int
finish_output (int status)
{
  int saved_errno = 0;
  gboolean failed;

  errno = 0;
  if (fflush (stdout) != 0)
    saved_errno = errno;
  failed = saved_errno != 0 || ferror (stdout);
  /* A standard output closed from the start (>&-) is only an error when written to. */
  if (fclose (stdout) != 0 && !failed && errno != EBADF)
    {
      saved_errno = errno;
      failed = TRUE;
    }
  if (!failed)
    return status;
  /* stdio keeps that a write failed, not why, once its buffer is gone. */
  if (saved_errno != 0)
    {
      g_autofree char *message = g_strdup_printf (_("The output could not be written whole: %s. What was written is incomplete."),
          g_strerror (saved_errno));

      print_error (message);
    }
  else
    print_error (_("The output could not be written whole (is its disk full?). What was "
                   "written is incomplete."));
  return 1;
}

int
main (int argc, char **argv)
{
  int status;

  /* Past `ulimit -f` a write should fail with EFBIG and be said, not kill the process
   * without a word. */
  signal (SIGXFSZ, SIG_IGN);
  dc_memory_prefer_huge_pages ();
  status = run (argc, argv);

  g_clear_object (&pipeline);
  /* A book read for the first time is written to the document cache on a thread of its
   * own, meanwhile: exiting sooner would leave the file half written. */
  dc_document_flush_cache ();
  return finish_output (status);
}
