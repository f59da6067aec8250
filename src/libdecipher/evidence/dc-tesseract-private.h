/* dc-tesseract-private.h: Tesseract, loaded the first time recognition runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <tesseract/capi.h>

G_BEGIN_DECLS

/* The few functions of Tesseract's C API that recognition calls, typed as its header
 * declares them (Tess* without the prefix). */
typedef struct
{
  __typeof__ (&TessBaseAPICreate) BaseAPICreate;
  __typeof__ (&TessBaseAPIDelete) BaseAPIDelete;
  __typeof__ (&TessBaseAPIEnd) BaseAPIEnd;
  __typeof__ (&TessBaseAPIInit3) BaseAPIInit3;
  __typeof__ (&TessBaseAPISetVariable) BaseAPISetVariable;
  __typeof__ (&TessBaseAPISetPageSegMode) BaseAPISetPageSegMode;
  __typeof__ (&TessBaseAPISetImage) BaseAPISetImage;
  __typeof__ (&TessBaseAPISetSourceResolution) BaseAPISetSourceResolution;
  __typeof__ (&TessBaseAPIGetUTF8Text) BaseAPIGetUTF8Text;
  __typeof__ (&TessBaseAPIMeanTextConf) BaseAPIMeanTextConf;
  __typeof__ (&TessBaseAPIRecognize) BaseAPIRecognize;
  __typeof__ (&TessBaseAPIGetIterator) BaseAPIGetIterator;
  __typeof__ (&TessResultIteratorGetUTF8Text) ResultIteratorGetUTF8Text;
  __typeof__ (&TessResultIteratorConfidence) ResultIteratorConfidence;
  __typeof__ (&TessResultIteratorNext) ResultIteratorNext;
  __typeof__ (&TessResultIteratorDelete) ResultIteratorDelete;
  __typeof__ (&TessDeleteText) DeleteText;
} DcTesseract;

const DcTesseract *_dc_tesseract_get (GError **error);

G_END_DECLS
