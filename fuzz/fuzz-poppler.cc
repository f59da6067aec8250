/* fuzz-poppler.cc: keep poppler's globals alive for the whole fuzzing run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bridge holds poppler's GlobalParams only while a document is open, so each input
 * would build them again: a scan of poppler-data's folders that costs more than reading a
 * small PDF. The application never pays that (poppler-glib holds them while it renders),
 * so neither do the fuzz targets. Holding them also installs a silent error callback
 * before the bridge's own, which only logs at debug level anyway.
 */

#include <GlobalParams.h>

#include "fuzz-common.h"

static void
discard_error (ErrorCategory category, Goffset pos, const char *msg)
{
}

/* Never freed, and reachable through this pointer until exit, so not a leak to
 * LeakSanitizer. It is global so that the compiler cannot drop the store. */
GlobalParamsIniter *dc_fuzz_poppler_globals;

void
dc_fuzz_hold_poppler_globals (void)
{
  if (dc_fuzz_poppler_globals == nullptr)
    dc_fuzz_poppler_globals = new GlobalParamsIniter (discard_error);
}
