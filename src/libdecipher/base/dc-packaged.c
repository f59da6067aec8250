/* dc-packaged.c: files only a package manager replaces, for the caches' stamps
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The index of installed fonts (evidence/dc-references-stamp.c) and the language models'
 * cache (dc-ngram-cache.c) are trusted while a stamp of the files they were made from
 * holds: each file's size and time. Stating every file was most of the system calls of a
 * one-page `decipher-cli text` (issue 32: 844 stat() calls against pdftotext's 43, some
 * 480 font files and 165 model files). Where only a package manager writes, a file's
 * folder tells as much as the file:
 *
 *   - dpkg (1.21, Debian 12) installs every file of a package, new or upgraded, as
 *     NAME.dpkg-new in the same folder and renames it over NAME (traced: openat of
 *     font.ttf.dpkg-new, link to .dpkg-tmp, rename over font.ttf, unlink), so the folder's
 *     time changes with every file it installs, replaces or removes. The file's own time
 *     is the one in the package: an upgrade to a font of the same size built with the
 *     same SOURCE_DATE_EPOCH kept the file's size and time to the nanosecond, and only
 *     its folder showed the change. rpm does the same with NAME;TRANSACTION (lib/fsm.c:
 *     the temporary suffix ";%08x" of its transaction ID, then a rename).
 *   - In a Flatpak, /usr is the runtime, an ostree checkout: every file and folder has
 *     the time 0 (OSTREE_TIMESTAMP), so neither a file's time nor its folder's tells
 *     anything; what does is the commit of the runtime and of the app, which
 *     /.flatpak-info names. Those are added to the stamps (_dc_packaged_add_sandbox()).
 *   - A file rewritten in place keeps its folder's time: that is how a user regenerates
 *     a font of their own in ~/.fonts or /usr/local/share/fonts, and how `cp` replaces a
 *     file. Those files keep a stamp each. fontconfig itself does not see such a change
 *     either (its caches go by the folder's time) until `fc-cache -f` rewrites its cache,
 *     which the fonts' stamp also records.
 *
 * So a regular file (not a symbolic link, which may point anywhere, such as an
 * alternative in /etc) below /usr, but not /usr/local, is stamped by its folder alone.
 * $DECIPHER_PACKAGED_DIRS, folders separated by ':' ("" for none), names other such
 * trees (the tests' stand-in for /usr); /usr/local never is one.
 */

#define G_LOG_DOMAIN "dc-packaged"

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "dc-packaged-private.h"
#include "dc-tsan-private.h"

#define HEX "0123456789abcdef"

/* Whether @path is @root or below it. */
static gboolean
is_below (const char *path, const char *root, gsize length)
{
  while (length > 1 && root[length - 1] == '/')
    length--;
  return length > 0 && strncmp (path, root, length) == 0
         && (path[length] == '/' || (length == 1 && root[0] == '/'));
}

static gboolean
in_packaged_tree (const char *path)
{
  const char *roots = g_getenv ("DECIPHER_PACKAGED_DIRS");

  if (path[0] != '/' || is_below (path, "/usr/local", strlen ("/usr/local")))
    return FALSE;
  if (roots == NULL)
    return is_below (path, "/usr", strlen ("/usr"));
  for (const char *root = roots; *root != '\0';)
    {
      const char *end = root + strcspn (root, ":");

      if (root[0] == '/' && is_below (path, root, (gsize) (end - root)))
        return TRUE;
      root = *end == ':' ? end + 1 : end;
    }
  return FALSE;
}

/**
 * _dc_packaged_file:
 * @path: an absolute path
 *
 * Whether @path is a regular file that only a package manager replaces, whose folder's
 * time therefore changes whenever it does: its folder's stamp stands for it. Costs one
 * lstat() for a path in such a tree, none otherwise.
 */
gboolean
_dc_packaged_file (const char *path)
{
  struct stat buf;

  g_return_val_if_fail (path != NULL, FALSE);

  return in_packaged_tree (path) && lstat (path, &buf) == 0 && S_ISREG (buf.st_mode);
}

/**
 * _dc_packaged_add_sandbox:
 * @stamp: a stamp being made or checked
 *
 * Adds a line naming the Flatpak runtime and app commits this process runs in, where
 * files carry no times; an empty line elsewhere.
 */
void
_dc_packaged_add_sandbox (GString *stamp)
{
  static gsize once = 0;
  static char *line = NULL;

  g_return_if_fail (stamp != NULL);

  if (g_once_init_enter (&once))
    {
      g_autoptr (GKeyFile) info = g_key_file_new ();
      g_autofree char *runtime = NULL;
      g_autofree char *app = NULL;

      if (g_key_file_load_from_file (info, "/.flatpak-info", G_KEY_FILE_NONE, NULL))
        {
          runtime = g_key_file_get_string (info, "Instance", "runtime-commit", NULL);
          app = g_key_file_get_string (info, "Instance", "app-commit", NULL);
        }
      /* A commit is hexadecimal: nothing else is kept, so no separator gets in. */
      line = g_strdup_printf ("flatpak=%s %s\n",
                              runtime != NULL ? g_strcanon (runtime, HEX, '?') : "",
                              app != NULL ? g_strcanon (app, HEX, '?') : "");
      DC_ONCE_LEAVE (&once, 1);
    }
  DC_ONCE_ENTERED (&once);
  g_string_append (stamp, line);
}
