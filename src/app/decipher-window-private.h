/* decipher-window-private.h: the window's parts, for its actions and the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher-conflict-view.h"
#include "decipher-document-view.h"
#include "decipher-glyph-palette.h"
#include "decipher-glyph-shapes.h"
#include "decipher-input-pane.h"
#include "decipher-page-sidebar.h"
#include "decipher-password-dialog.h"
#include "decipher-search-bar.h"
#include "decipher-window.h"

G_BEGIN_DECLS

struct _DecipherWindow
{
  AdwApplicationWindow parent_instance;

  GSettings *settings;
  DecipherSession *session;
  /* The page, zoom, selection, search and marks the widgets share (decipher-view-state.c). */
  DecipherViewState *view_state;
  DecipherGlyphShapes *shapes;
  GCancellable *load_cancellable;
  /* Cancelled when the window is disposed: work that finishes later (a load, an export,
   * a repair) checks it before touching a widget that is gone. */
  GCancellable *lifetime;
  GFile *loading_file;
  char *return_page; /* the stack page to go back to if a load fails */
  char *last_error;  /* the last error shown, for the tests */
  GMenu *recent_menu;
  guint show_text : 1;
  guint show_pages : 1;
  guint palette_shown : 1; /* the "show-palette" property */
  guint palette_below : 1; /* under the pages, on a narrow window */

  AdwWindowTitle *window_title;
  AdwSplitButton *open_button;
  GtkToggleButton *text_button;
  GtkToggleButton *palette_button;
  AdwToastOverlay *toast_overlay;
  AdwToast *undo_toast;  /* the toast whose Undo is the key's last step, while shown */
  AdwToast *learn_toast; /* the one toast that counts what was learned, while shown */
  AdwToast *redo_toast;  /* the toast whose Redo is the step Ctrl+Z just undid, while shown */
  guint n_learned;       /* symbols it has counted */
  GtkStack *main_stack;
  AdwStatusPage *loading_page;
  GtkProgressBar *load_progress;
  GtkButton *cancel_button;
  GtkBox *recent_box;
  GtkListBox *recent_list;
  /* Shown once the input pane has been busy for a while. A label, not a spinner: an
   * animation redraws the window at every frame, which under software GL (Xvfb, many
   * virtual machines) costs the main loop more than the wait it reports. */
  GtkLabel *busy_label;
  guint busy_source;
  AdwFlap *flap;           /* the palette beside the pages, on a wide window */
  GtkPaned *sheet_paned;   /* the pages over the palette, on a narrow window */
  int sheet_height;        /* the palette's height under the pages the user chose, or 0 */
  int sheet_position;      /* the handle's position as last set or seen */
  int sheet_seen_height;   /* the pane's height when last seen */
  guint fit_width_tick_id; /* fits the window to a new width before the next frame */
  guint palette_tick_id;   /* ends the palette's hold once the first page is drawn */
  guint palette_frames;
  DecipherDocumentView *document_view;
  DecipherGlyphPalette *palette;
  DecipherSearchBar *search_bar;
  GtkRevealer *pages_revealer;
  DecipherPageSidebar *page_sidebar;
  GtkToggleButton *pages_button;
  GtkBox *input_slot;
  DecipherInputPane *input_pane;
  GtkWindow *conflict_window; /* the review, while open */
  guint n_conflicts;          /* open conflicts when last counted */
  DecipherConflictView *conflict_view;
  GtkButton *conflicts_button;
  GtkLabel *conflicts_label;
  GtkActionBar *status_bar;
  GtkLevelBar *progress_level;
  GtkLabel *progress_label;
  GtkLabel *progress_short_label; /* shown instead where the whole line does not fit */
  GtkButton *zoom_button;
  /* The frames left before the status bar follows the page (see update_status()). */
  guint status_tick;
  guint status_frames;
  GtkLabel *page_label;
  GtkEntry *page_entry;
  GtkPrintSettings *print_settings; /* as last printed with, for the next print */
};

/* The window's properties, notified from decipher-window.c and decipher-window-session.c. */
enum
{
  DECIPHER_WINDOW_PROP_0,
  DECIPHER_WINDOW_PROP_SHOW_TEXT,
  DECIPHER_WINDOW_PROP_SHOW_PALETTE,
  DECIPHER_WINDOW_PROP_SHOW_PAGES,
  DECIPHER_WINDOW_PROP_SESSION,
  DECIPHER_WINDOW_N_PROPS
};

extern GParamSpec *_decipher_window_properties[DECIPHER_WINDOW_N_PROPS];

void _decipher_window_class_add_actions (GtkWidgetClass *widget_class);
void _decipher_window_update_actions (DecipherWindow *self);
void _decipher_window_update_conflicts (DecipherWindow *self);
void _decipher_window_review_conflicts (DecipherWindow *self);

/* decipher-window-open.c */
void _decipher_window_init_opening (DecipherWindow *self);
void _decipher_window_add_recent (DecipherWindow *self, GFile *file);

typedef void (*DecipherFileChosenFunc) (DecipherWindow *self, GFile *file);

void _decipher_window_choose_file (DecipherWindow *self, gboolean save, const char *title,
                                   const char *accept, const char *initial_name,
                                   GtkFileFilter *filter, DecipherFileChosenFunc func);
void _decipher_window_choose_pdf (DecipherWindow *self);
GFile *_decipher_window_export_folder (DecipherWindow *self);

void _decipher_window_go_to_typed_page (DecipherWindow *self);
gboolean _decipher_window_page_entry_has_focus (DecipherWindow *self);

/* decipher-window-actions.c */
void _decipher_window_choose_export_file (DecipherWindow *self, const char *title,
                                          const char *initial_name, GtkFileFilter *filter,
                                          DecipherFileChosenFunc func);

/* decipher-window-export.c */
void _decipher_window_export (DecipherWindow *self);
void _decipher_window_export_pdf_to (DecipherWindow *self, GFile *file);
void _decipher_window_export_map_to (DecipherWindow *self, GFile *file);
void _decipher_window_export_action (GtkWidget *widget, const char *name, GVariant *param);
void _decipher_window_export_map_action (GtkWidget *widget, const char *action, GVariant *param);
void _decipher_window_export_pdf_action (GtkWidget *widget, const char *action, GVariant *param);
void _decipher_window_print_action (GtkWidget *widget, const char *name, GVariant *param);

/* decipher-window-layout.c */
void _decipher_window_layout_allocated (DecipherWindow *self);
void _decipher_window_layout_dispose (DecipherWindow *self);
gboolean _decipher_window_get_show_palette (DecipherWindow *self);
gboolean _decipher_window_set_show_palette (DecipherWindow *self, gboolean show);
gboolean _decipher_window_get_palette_below (DecipherWindow *self);

/* decipher-window-session.c */
void _decipher_window_set_session (DecipherWindow *self, DecipherSession *session);
void _decipher_window_save_session (DecipherWindow *self);
void _decipher_window_release_palette (DecipherWindow *self);

/* decipher-window-status.c */
void _decipher_window_show_error (DecipherWindow *self, const char *heading, const char *body);
void _decipher_window_toast (DecipherWindow *self, const char *title, gboolean undo);
void _decipher_window_forget_undo_toast (DecipherWindow *self);
void _decipher_window_learned_toast (DecipherWindow *self, guint n_symbols);
void _decipher_window_undone_toast (DecipherWindow *self, const char *step, gboolean undone);
void _decipher_window_update_progress (DecipherWindow *self);
void _decipher_window_set_status (DecipherWindow *self);
void _decipher_window_update_status (DecipherWindow *self);
void _decipher_window_pane_busy_cb (DecipherWindow *self);

/* decipher-window-print.c */
GtkPrintOperation *_decipher_window_print (DecipherWindow *self, GtkPrintOperationAction action,
                                           const char *export_path);

/* decipher-window-project.c */
void _decipher_window_choose_project_to_save (DecipherWindow *self);
void _decipher_window_choose_project_to_open (DecipherWindow *self);
gboolean _decipher_window_save_project_to (DecipherWindow *self, GFile *file);
gboolean _decipher_window_open_project_from (DecipherWindow *self, GFile *file);

DecipherDocumentView *_decipher_window_get_document_view (DecipherWindow *self);
DecipherGlyphPalette *_decipher_window_get_palette (DecipherWindow *self);
GtkLabel *_decipher_window_get_progress_label (DecipherWindow *self);
GtkLabel *_decipher_window_get_shown_progress_label (DecipherWindow *self);
GtkBox *_decipher_window_get_input_slot (DecipherWindow *self);
DecipherInputPane *_decipher_window_get_input_pane (DecipherWindow *self);
DecipherConflictView *_decipher_window_get_conflict_view (DecipherWindow *self);
const char *_decipher_window_get_last_error (DecipherWindow *self);
gboolean _decipher_window_is_busy_shown (DecipherWindow *self);
const char *_decipher_window_get_visible_page (DecipherWindow *self);

G_END_DECLS
