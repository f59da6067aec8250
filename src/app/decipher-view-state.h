/* decipher-view-state.h: what the window shows of its document, shared by the widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Glyphs parts of the window point out on the page, each kind in its own color. */
typedef enum
{
  DECIPHER_MARK_SUGGESTION,     /* the words to type next */
  DECIPHER_MARK_CANDIDATE,      /* places a typed input could be */
  DECIPHER_MARK_CONFLICT,       /* where two pieces of evidence disagree */
  DECIPHER_MARK_SEARCH,         /* every match of a search */
  DECIPHER_MARK_SEARCH_CURRENT, /* the match shown */
  DECIPHER_N_MARKS
} DecipherMarkKind;

#define DECIPHER_TYPE_VIEW_STATE (decipher_view_state_get_type ())

G_DECLARE_FINAL_TYPE (DecipherViewState, decipher_view_state, DECIPHER, VIEW_STATE, GObject)

DecipherViewState *decipher_view_state_new (void);

guint decipher_view_state_get_page (DecipherViewState *self);
void decipher_view_state_set_page (DecipherViewState *self, guint page);
guint decipher_view_state_get_n_pages (DecipherViewState *self);
double decipher_view_state_get_zoom (DecipherViewState *self);
void decipher_view_state_set_zoom (DecipherViewState *self, double zoom);
gboolean decipher_view_state_get_has_selection (DecipherViewState *self);
void decipher_view_state_set_has_selection (DecipherViewState *self, gboolean has_selection);
const char *decipher_view_state_get_search_text (DecipherViewState *self);
void decipher_view_state_set_search_text (DecipherViewState *self, const char *text);
int decipher_view_state_get_current_hit (DecipherViewState *self);
void decipher_view_state_set_current_hit (DecipherViewState *self, int hit);
guint decipher_view_state_get_selected_symbol (DecipherViewState *self);
void decipher_view_state_set_selected_symbol (DecipherViewState *self, guint symbol);

void decipher_view_state_set_marks (DecipherViewState *self, DecipherMarkKind kind,
                                    const guint32 *glyphs, guint n_glyphs);
const guint32 *decipher_view_state_get_marks (DecipherViewState *self, DecipherMarkKind kind,
                                              guint *n_glyphs);
void decipher_view_state_clear_marks (DecipherViewState *self);
void decipher_view_state_set_lines_in_view (DecipherViewState *self, guint first_line,
                                            guint n_lines);
gboolean decipher_view_state_get_lines_in_view (DecipherViewState *self, guint *first_line,
                                                guint *n_lines);

void decipher_view_state_show_glyph (DecipherViewState *self, guint glyph);
void decipher_view_state_glyph_pressed (DecipherViewState *self, guint glyph);
void decipher_view_state_run_selected (DecipherViewState *self, guint first_glyph,
                                       guint last_glyph);

G_END_DECLS
