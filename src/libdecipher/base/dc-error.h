/* dc-error.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DC_ERROR (dc_error_quark ())

typedef enum
{
  DC_ERROR_FAILED,
  DC_ERROR_NOT_FOUND,    /* the file does not exist or cannot be read */
  DC_ERROR_NOT_PDF,      /* not a PDF at all */
  DC_ERROR_DAMAGED,      /* a PDF, but broken or truncated */
  DC_ERROR_ENCRYPTED,    /* needs a password that was not given */
  DC_ERROR_BAD_PASSWORD, /* a password was given and it is wrong */
  DC_ERROR_NO_TEXT,      /* no text drawn at all */
  DC_ERROR_SCANNED,      /* only images: a scan, OCR is out of scope */
  DC_ERROR_CANCELLED,
  DC_ERROR_INVALID_INPUT,   /* typed input or an argument is unusable */
  DC_ERROR_PROJECT,         /* a project file is damaged, hostile or for another document */
  DC_ERROR_CONFLICT,        /* a value would overwrite one the user or a match already decided */
  DC_ERROR_IN_USE,          /* another program is writing the project (dc_project_lock()) */
  DC_ERROR_TOO_MANY_GLYPHS, /* the document draws more glyphs than the limit allows */
  DC_ERROR_TOO_MUCH_TEXT,   /* its glyphs and texts would take more memory than allowed */
  DC_ERROR_REFUSED,         /* evidence offered a value the user rejected for that symbol */
} DcError;

GQuark dc_error_quark (void);

G_END_DECLS
