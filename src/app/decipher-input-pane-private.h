/* decipher-input-pane-private.h: the input pane's parts, for the files it is split into
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher-input-pane.h"

G_BEGIN_DECLS

struct _DecipherInputPane
{
  GtkWidget parent_instance;

  DcSession *session;
  DcMatcher *matcher;                /* the engine's */
  DecipherViewState *state;          /* the marks and the page, shared with the window */
  gboolean has_placeholders;         /* the entry holds “?” for glyphs a drag found unknown */
  gboolean refused_insert;           /* the reason shown is an insertion the entry refused */
  GCancellable *suggest_cancellable; /* the What Next? running, if any */
  GSignalGroup *engine_signals;      /* on the engine's session */
  char *pending_text;                /* a query waiting for the index */
  int pending_line, pending_token;
  guint line;
  gboolean line_from_suggestion; /* the cue is What Next?'s, to go once it is handled */
  GArray *suggested;             /* the glyphs What Next? highlighted, while highlighted */
  DcMatchKind last_kind;
  char *candidates_text; /* the text the listed candidates are places of */
  /* The hint is about open conflicts, and the entry held this when they were found:
   * both go once the review has settled the last of them. */
  gboolean showing_conflicts;
  gboolean busy; /* as last notified: a What Next? or a query waiting for the index */
  guint n_conflicts_shown;
  char *conflict_text;
  char *dragged_text; /* what a drag across the page put in the entry, until edited */
  /* The entry's text was typed (or edited) since it was last submitted or set by the
   * pane: only then does Ctrl+Z undo the typing rather than the last decoding step. */
  gboolean typing;
  gboolean setting_text;

  GtkWidget *box;
  DecipherCharacterRow *character_row;
  GtkWidget *line_chip;
  GtkLabel *line_label;
  GtkButton *clear_line_button;
  GtkEntry *entry;
  GtkButton *picker_button;
  GtkButton *what_next_button;
  GtkLabel *hint_label;
  GtkLabel *reason_label;
  GtkWidget *candidates_scroller;
  GtkListBox *candidates;
};

/* The pane's signals and properties, emitted from decipher-input-pane-answers.c too. */
enum
{
  DECIPHER_INPUT_PANE_LEARNED,
  DECIPHER_INPUT_PANE_LEARNED_ELSEWHERE,
  DECIPHER_INPUT_PANE_CONFLICT,
  DECIPHER_INPUT_PANE_N_SIGNALS
};

extern guint _decipher_input_pane_signals[DECIPHER_INPUT_PANE_N_SIGNALS];

enum
{
  DECIPHER_INPUT_PANE_PROP_0,
  DECIPHER_INPUT_PANE_PROP_BUSY,
  DECIPHER_INPUT_PANE_N_PROPS
};

extern GParamSpec *_decipher_input_pane_properties[DECIPHER_INPUT_PANE_N_PROPS];

void _decipher_input_pane_set_entry_text (DecipherInputPane *self, const char *text);

/* decipher-input-pane-answers.c */
DcDocument *_decipher_input_pane_get_document (DecipherInputPane *self);
char *_decipher_input_pane_line_title (DecipherInputPane *self, guint line);
void _decipher_input_pane_set_label (GtkLabel *label, const char *text);
void _decipher_input_pane_clear_feedback (DecipherInputPane *self);
void _decipher_input_pane_query (DecipherInputPane *self, const char *text, int line, int token);
void _decipher_input_pane_update_busy (DecipherInputPane *self);
void _decipher_input_pane_candidate_activated_cb (DecipherInputPane *self, GtkListBoxRow *row);
void _decipher_input_pane_index_ready_cb (DecipherInputPane *self);
void _decipher_input_pane_engine_changed_cb (DecipherInputPane *self);

/* decipher-input-pane-places.c */
guint _decipher_line_of_glyph (DcDocument *document, guint glyph);
GArray *_decipher_place_glyphs (DcDocument *document, guint line, guint token, guint n_tokens);
char *_decipher_place_markup (DcDocument *document, DcKey *key, const DcMatchPlace *place);
char *_decipher_run_text (DcDocument *document, DcKey *key, guint first_glyph, guint last_glyph,
                          guint *line_out, int *placeholder);

G_END_DECLS
