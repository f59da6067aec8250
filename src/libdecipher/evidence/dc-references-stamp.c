/* dc-references-stamp.c: whether the installed fonts changed, without fontconfig
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The index of installed fonts (dc-references.c) is rebuilt when the fonts fontconfig
 * lists are not those it was built from. Asking fontconfig costs every run its start:
 * parsing some fifty configuration files and loading its caches, about a fifth of a
 * one-file `decipher-cli text` (issue 32), before a single font is listed. The stamp
 * records what fontconfig's answer depends on, so that the next run can tell it would
 * be the same by looking at the files alone:
 *
 *   - the environment variables fontconfig reads its configuration and folders from, and
 *     the Flatpak runtime and app commits, where files carry no times (base/dc-packaged.c);
 *   - every configuration file and folder it read, and the user's configuration files
 *     that would be read if they existed; a link in a folder recorded to a file the
 *     package manager installs (/etc/fonts/conf.d → /usr/share/fontconfig/conf.avail)
 *     by the target's folder;
 *   - every font folder it scans, existing or not: a font added to or removed from a
 *     folder changes the folder's time, which is how fontconfig itself notices;
 *   - fontconfig's cache folders, whose time changes when it rewrites a cache
 *     (`fc-cache -f` after a font was changed in place, which fontconfig needs too);
 *   - every font file it lists, where users write (their home, /usr/local, folders named
 *     by their configuration): one rewritten in place keeps its folder's time, as a font
 *     a linguist regenerates in ~/.fonts does. A regular file below /usr is replaced
 *     only by the package manager, by renaming a new file over it, which changes its
 *     folder's time: the folder stands for it (the reasoning and the evidence are in
 *     base/dc-packaged.c). That was two thirds of the files stated at every run.
 *
 * Each is recorded with its size and time to the nanosecond, or as missing. The stamp is
 * made before the fonts are listed, so a change while the index is built makes the next
 * run look again rather than trust an index older than the fonts. A stamp that no longer
 * holds costs fontconfig's start and a look at every font file (dc-references.c), not a
 * rebuild, unless the fonts did change.
 */

#define G_LOG_DOMAIN "dc-references"

#include "config.h"

#include <fontconfig/fontconfig.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dc-file-private.h"
#include "dc-packaged-private.h"
#include "dc-references-stamp-private.h"

#define STAMP_FORMAT "decipher-fonts-stamp-2"

/* What fontconfig (2.13–2.15) finds its configuration and the user's fonts by. */
static const char *const variables[] = {
  "FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT", "HOME",
  "XDG_CONFIG_HOME", "XDG_DATA_HOME",
};

/* A file's size and time as the stamp records them, or "-" for a missing one. */
typedef struct
{
  char text[64];
} State;

static void
file_state (const char *path, State *state)
{
  struct stat buf;

  if (stat (path, &buf) != 0)
    g_strlcpy (state->text, "-", sizeof state->text);
  else
    g_snprintf (state->text, sizeof state->text, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT ".%09ld",
                (gint64) buf.st_size, (gint64) buf.st_mtim.tv_sec, (long) buf.st_mtim.tv_nsec);
}

/* FALSE when @path cannot be told apart from the stamp's separators. */
static gboolean
add_file (GString *stamp, const char *path)
{
  State state;

  if (strpbrk (path, "\t\n") != NULL)
    return FALSE;
  file_state (path, &state);
  g_string_append_printf (stamp, "%s\t%s\n", path, state.text);
  return TRUE;
}

/* @recorded, when not NULL, gets each path recorded. */
static gboolean
add_list (GString *stamp, FcStrList *list, GHashTable *recorded)
{
  gboolean ok = list != NULL;
  FcChar8 *path;

  while (ok && (path = FcStrListNext (list)) != NULL)
    {
      ok = add_file (stamp, (const char *) path);
      if (ok && recorded != NULL)
        g_hash_table_add (recorded, g_strdup ((const char *) path));
    }
  if (list != NULL)
    FcStrListDone (list);
  return ok;
}

/* Whether @path, a configuration file, is a symbolic link in a folder already recorded
 * to a file the package manager installs, as /etc/fonts/conf.d/10-hinting-slight.conf is
 * to /usr/share/fontconfig/conf.avail: adding, removing or pointing the link elsewhere
 * changes its folder's time, and the package replacing the target its folder's, which is
 * then recorded (once). Only an absolute target: a relative one with ".." would need the
 * folders resolved to be told. */
static gboolean
covered_link (GString *stamp, const char *path, GHashTable *recorded)
{
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *target_folder = NULL;
  char target[PATH_MAX];
  struct stat buf;
  gssize length;

  if (!g_hash_table_contains (recorded, folder) || lstat (path, &buf) != 0 || !S_ISLNK (buf.st_mode)
      || (length = readlink (path, target, sizeof target - 1)) <= 0)
    return FALSE;
  target[length] = '\0';
  if (target[0] != '/' || !_dc_packaged_file (target))
    return FALSE;
  target_folder = g_path_get_dirname (target);
  if (!g_hash_table_contains (recorded, target_folder))
    {
      if (!add_file (stamp, target_folder))
        return FALSE;
      g_hash_table_add (recorded, g_steal_pointer (&target_folder));
    }
  return TRUE;
}

static gboolean
add_configuration (GString *stamp, FcStrList *list, GHashTable *recorded)
{
  gboolean ok = list != NULL;
  FcChar8 *path;

  while (ok && (path = FcStrListNext (list)) != NULL)
    if (!covered_link (stamp, (const char *) path, recorded))
      {
        ok = add_file (stamp, (const char *) path);
        g_hash_table_add (recorded, g_strdup ((const char *) path));
      }
  if (list != NULL)
    FcStrListDone (list);
  return ok;
}

/* The user's configuration that fontconfig's own files include only when it exists
 * (50-user.conf), so that it appears among the files read only once it is there. */
static gboolean
add_user_configuration (GString *stamp)
{
  g_autofree char *xdg = g_build_filename (g_get_user_config_dir (), "fontconfig", NULL);
  g_autofree char *xdg_file = g_build_filename (xdg, "fonts.conf", NULL);
  g_autofree char *xdg_dir = g_build_filename (xdg, "conf.d", NULL);
  g_autofree char *old_file = g_build_filename (g_get_home_dir (), ".fonts.conf", NULL);
  g_autofree char *old_dir = g_build_filename (g_get_home_dir (), ".fonts.conf.d", NULL);

  return add_file (stamp, xdg) && add_file (stamp, xdg_file) && add_file (stamp, xdg_dir)
         && add_file (stamp, old_file) && add_file (stamp, old_dir);
}

/* Whether @file's folder, recorded in @folders, stands for it. */
static gboolean
covered_by_folder (const char *file, GHashTable *folders)
{
  g_autofree char *folder = NULL;

  if (!_dc_packaged_file (file))
    return FALSE;
  folder = g_path_get_dirname (file);
  return g_hash_table_contains (folders, folder);
}

static gboolean
add_font_files (GString *stamp, GHashTable *folders)
{
  FcPattern *pattern = FcPatternBuild (NULL, FC_OUTLINE, FcTypeBool, FcTrue, NULL);
  FcObjectSet *objects = FcObjectSetBuild (FC_FILE, NULL);
  FcFontSet *set = FcFontList (NULL, pattern, objects);
  gboolean ok = set != NULL;

  FcObjectSetDestroy (objects);
  FcPatternDestroy (pattern);
  for (int i = 0; ok && i < set->nfont; i++)
    {
      FcChar8 *file = NULL;

      if (FcPatternGetString (set->fonts[i], FC_FILE, 0, &file) == FcResultMatch
          && !covered_by_folder ((const char *) file, folders))
        ok = add_file (stamp, (const char *) file);
    }
  if (set != NULL)
    FcFontSetDestroy (set);
  return ok;
}

static void
add_variables (GString *stamp)
{
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    {
      const char *value = g_getenv (variables[i]);

      /* A value holding a newline is recorded as one that never matches. */
      g_string_append_printf (stamp, "%s=%s\n", variables[i],
                              value == NULL          ? ""
                              : strchr (value, '\n') ? "\t"
                                                     : value);
    }
  _dc_packaged_add_sandbox (stamp);
}

/**
 * _dc_references_stamp_new:
 *
 * Starts fontconfig (FcInit()) and records what its list of installed fonts depends on.
 *
 * Returns: (transfer full) (nullable): the stamp, or %NULL when fontconfig did not start
 *   or a path cannot be recorded (then every run asks fontconfig)
 */
char *
_dc_references_stamp_new (void)
{
  g_autoptr (GString) stamp = g_string_new (STAMP_FORMAT "\n");
  g_autoptr (GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable)
      configuration = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!FcInit ())
    return NULL;
  add_variables (stamp);
  if (!add_configuration (stamp, FcConfigGetConfigFiles (NULL), configuration)
      || !add_user_configuration (stamp) || !add_list (stamp, FcConfigGetFontDirs (NULL), folders)
      || !add_list (stamp, FcConfigGetCacheDirs (NULL), NULL) || !add_font_files (stamp, folders))
    return NULL;
  return g_string_free (g_steal_pointer (&stamp), FALSE);
}

/**
 * _dc_references_stamp_is_current:
 * @stamp: what _dc_references_stamp_new() returned, maybe in another process
 *
 * Whether every variable and file is as @stamp recorded it, without starting fontconfig:
 * then fontconfig would list the fonts it listed then.
 */
gboolean
_dc_references_stamp_is_current (const char *stamp)
{
  g_autoptr (GString) variables_now = g_string_new (NULL);
  const char *line = stamp, *end;

  g_return_val_if_fail (stamp != NULL, FALSE);

  if (!g_str_has_prefix (line, STAMP_FORMAT "\n"))
    return FALSE;
  line += strlen (STAMP_FORMAT "\n");
  add_variables (variables_now);
  if (strncmp (line, variables_now->str, variables_now->len) != 0)
    return FALSE;
  for (line += variables_now->len; *line != '\0'; line = end + 1)
    {
      const char *tab = strchr (line, '\t');
      char path[PATH_MAX];

      end = strchr (line, '\n');
      if (tab == NULL || end == NULL || tab > end || (gsize) (tab - line) >= sizeof path)
        return FALSE;
      memcpy (path, line, (gsize) (tab - line));
      path[tab - line] = '\0';
      if (!_dc_file_state_matches (path, tab + 1, end))
        return FALSE;
    }
  return TRUE;
}
