/* dc-poppler-lock.c: one thread at a time draws with poppler-glib
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each thread that draws pages opens a PopplerDocument of its own, and poppler locks
 * what a document owns. But poppler-glib's cairo output (CairoOutputDev in poppler 22.12)
 * makes every document's fonts in one FreeType library for the whole process, and
 * FreeType wants the calls that make or free faces in one library made one at a time:
 * two recognition readers, or the page view's worker and a reader, drawing at once made
 * and freed faces in it together (ThreadSanitizer saw it in test-recognize). So whoever
 * draws a page with poppler-glib (poppler_page_render()) or drops a PopplerDocument,
 * which frees its faces, holds this lock meanwhile. Drawing a line of text for Tesseract
 * takes a few milliseconds, reading it far longer, so the readers still overlap.
 */

#include "config.h"

#include "dc-poppler-lock.h"

static GMutex poppler_lock;

/**
 * dc_poppler_lock:
 *
 * Waits until no other thread draws with poppler-glib or drops a PopplerDocument, and
 * keeps them waiting until dc_poppler_unlock().
 */
void
dc_poppler_lock (void)
{
  g_mutex_lock (&poppler_lock);
}

void
dc_poppler_unlock (void)
{
  g_mutex_unlock (&poppler_lock);
}
