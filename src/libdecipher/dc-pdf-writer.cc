/* dc-pdf-writer.cc: the only file that uses qpdf's C++ API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A repaired PDF is the original with new /ToUnicode streams in some font dictionaries
 * and nothing else changed: qpdf rewrites the file keeping every other object, and the
 * original's encryption (same passwords, same permissions), so that the copy is as
 * protected as the document it was made from.
 */

#define G_LOG_DOMAIN "dc-pdf-writer"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <exception>
#include <memory>
#include <string>

/* qpdf 11 warns unless told how far off its old PointerHolder a program is: this file
 * uses std::shared_ptr only. */
#define POINTERHOLDER_TRANSITION 4

#include <qpdf/Buffer.hh>
#include <qpdf/Constants.h>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFExc.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFWriter.hh>

#include "dc-error.h"
#include "dc-pdf-writer-private.h"

/**
 * dc_pdf_writer_replace_to_unicode:
 * @pdf: the whole original file
 * @display_name: the file's name, for messages
 * @password: (nullable): the password the document was opened with
 * @fonts: the font dictionaries to change, by their object numbers
 *
 * Returns: (transfer full): the repaired PDF, or %NULL with @error set
 */
GBytes *
dc_pdf_writer_replace_to_unicode (GBytes *pdf, const char *display_name, const char *password,
                                  const DcPdfWriterFont *fonts, guint n_fonts, GError **error)
{
  gsize size;
  const char *data;

  g_return_val_if_fail (pdf != NULL, NULL);
  g_return_val_if_fail (display_name != NULL, NULL);
  g_return_val_if_fail (fonts != NULL || n_fonts == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = static_cast<const char *> (g_bytes_get_data (pdf, &size));

  try
    {
      QPDF qpdf;

      /* Every oddity of a real-world file would otherwise go to stderr; poppler already
       * read this file, and what qpdf cannot read it reports by throwing. */
      qpdf.setSuppressWarnings (true);
      qpdf.processMemoryFile (display_name, data, size, password);

      for (guint i = 0; i < n_fonts; i++)
        {
          QPDFObjectHandle font = qpdf.getObject (fonts[i].num, fonts[i].gen);

          if (!font.isDictionary ())
            {
              g_set_error (error, DC_ERROR, DC_ERROR_DAMAGED,
                           _("“%s” is damaged in a way that hides where its font “%d %d R” is, "
                             "so no repaired copy was written."),
                              display_name, fonts[i].num, fonts[i].gen);
              return NULL;
            }
          /* A new stream for each font: producers share one ToUnicode between fonts,
           * and only this font's map is known to be wrong. */
          font.replaceKey ("/ToUnicode",
                           qpdf.newStream (std::string (fonts[i].cmap, fonts[i].cmap_len)));
        }

      QPDFWriter writer (qpdf);
      writer.setOutputMemory ();
      writer.setPreserveEncryption (true);
      writer.write ();

      std::shared_ptr<Buffer> out = writer.getBufferSharedPointer ();
      return g_bytes_new (out->getBuffer (), out->getSize ());
    }
  catch (const QPDFExc &e)
    {
      if (e.getErrorCode () == qpdf_e_password)
        g_set_error (error, DC_ERROR, password ? DC_ERROR_BAD_PASSWORD : DC_ERROR_ENCRYPTED,
                     _("“%s” is protected by a password, and the password given does not open "
                       "it: give the password the document was opened with."),
                        display_name);
      else
        g_set_error (error, DC_ERROR, DC_ERROR_DAMAGED,
                     _("“%s” could not be rewritten, so no repaired copy was made: %s."),
                        display_name, e.getMessageDetail ().c_str ());
      return NULL;
    }
  catch (const std::exception &e)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_FAILED,
                   _("“%s” could not be rewritten, so no repaired copy was made: %s."),
                      display_name, e.what ());
      return NULL;
    }
}
