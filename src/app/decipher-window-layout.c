/* decipher-window-layout.c: the window fitted to its width
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Wide, the glyph palette stands beside the pages, in an AdwFlap that F9 opens and
 * closes. Narrower than SIDE_PALETTE_WIDTH it would leave the page too little width
 * beside it, and laid over the page, as it was until issue 31.8, it hid half of it:
 * there it moves under the pages, into the bottom pane of a vertical GtkPaned whose
 * handle shares the height between the two. The page stays whole and readable, the
 * palette whole and usable, and the focus goes from the page to the palette to the
 * word entry, top to bottom as they are shown. Narrower still the window gets compact.
 *
 * libadwaita 1.4's AdwBreakpoint and 1.6's AdwBottomSheet do this work; Debian 12 has
 * 1.2, so the window watches its own width.
 */

#define G_LOG_DOMAIN "decipher-window"

#include "config.h"

#include <glib/gi18n.h>

#include "decipher-window-private.h"

/* Narrower than this, the palette beside the pages would leave them too little room
 * (at 600 px it took half the window): it goes under them. */
#define SIDE_PALETTE_WIDTH 800
/* Narrower than this, the window gets compact so that it goes down to GNOME's 360 px:
 * the status bar drops its level bar, which only draws what the label beside it says,
 * and the Open button shows an icon for its label. Above the window's minimum width
 * without them, so putting them back never makes the window too narrow for them. */
#define COMPACT_WIDTH 480
/* The share of the height the palette takes under the pages until the user drags the
 * handle; the room it wants over its own minimum, which holds its controls and only
 * half a row of cells; the height it leaves the pages at least: a few lines at 100 %. */
#define SHEET_SHARE 0.45
#define SHEET_CELLS_ROOM 80
#define SHEET_PAGE_MIN 160

static gboolean
focus_in_palette (DecipherWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  return focus != NULL
         && (focus == GTK_WIDGET (self->palette)
             || gtk_widget_is_ancestor (focus, GTK_WIDGET (self->palette)));
}

gboolean
_decipher_window_get_show_palette (DecipherWindow *self)
{
  return self->palette_shown;
}

/**
 * _decipher_window_set_show_palette:
 *
 * Shows or hides the palette where it is, beside the pages or under them. Showing it
 * takes no focus: the user may be typing a word in the input pane. Hidden while it has
 * the focus, it gives the focus to the page rather than to nothing.
 *
 * Returns: whether it changed
 */
gboolean
_decipher_window_set_show_palette (DecipherWindow *self, gboolean show)
{
  if (self->palette_shown == show)
    return FALSE;
  self->palette_shown = show;
  if (self->flap == NULL) /* disposed */
    return TRUE;
  if (!show && gtk_widget_get_mapped (GTK_WIDGET (self->document_view))
      && (focus_in_palette (self) || gtk_root_get_focus (GTK_ROOT (self)) == NULL))
    gtk_widget_grab_focus (GTK_WIDGET (self->document_view));
  if (self->palette_below)
    gtk_widget_set_visible (GTK_WIDGET (self->palette), show);
  else
    adw_flap_set_reveal_flap (self->flap, show);
  return TRUE;
}

gboolean
_decipher_window_get_palette_below (DecipherWindow *self)
{
  return self->palette_below;
}

/* How tall the palette is under the pages of a pane @height px tall: as the user last
 * left it, else SHEET_SHARE of it but no less than its controls and a row of cells
 * need; always leaving SHEET_PAGE_MIN to the pages, or half the pane when it is short. */
static int
sheet_height (DecipherWindow *self, int height)
{
  int wanted = self->sheet_height;

  if (wanted <= 0)
    {
      int minimum;

      gtk_widget_measure (GTK_WIDGET (self->palette), GTK_ORIENTATION_VERTICAL,
                          gtk_widget_get_width (GTK_WIDGET (self->main_stack)), &minimum, NULL,
                          NULL, NULL);
      wanted = MAX ((int) (height * SHEET_SHARE), minimum + SHEET_CELLS_ROOM);
    }
  return CLAMP (wanted, 0, MAX (height - SHEET_PAGE_MIN, height / 2));
}

/* The height the pane of the pages and the palette has, or will have once the document
 * is shown: what the stack of the window's states leaves under the pages' neighbours.
 * (Asked of the pane itself, it is 0 while a document loads, which is when a window
 * opened narrow puts the palette under the pages.) */
static int
pane_height (DecipherWindow *self)
{
  GtkWidget *paned = GTK_WIDGET (self->sheet_paned);
  GtkWidget *box = gtk_widget_get_parent (paned);
  int width = gtk_widget_get_width (GTK_WIDGET (self->main_stack));
  int height = gtk_widget_get_height (GTK_WIDGET (self->main_stack));

  for (GtkWidget *child = gtk_widget_get_first_child (box); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (child != paned && gtk_widget_get_visible (child))
      {
        int natural;

        gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, width, NULL, &natural, NULL, NULL);
        height -= natural;
      }
  return MAX (height, 0);
}

/* Where the handle goes for the palette to have its height under the pages. */
static void
place_handle (DecipherWindow *self, int height)
{
  self->sheet_position = MAX (height - sheet_height (self, height), 0);
  gtk_paned_set_position (self->sheet_paned, self->sheet_position);
}

/* The pane as tall as when last seen and the handle elsewhere: the user moved it (a
 * drag, or F8 and the arrows). From then on the palette keeps the height given, also
 * on its next trip under the pages. */
static void
note_handle (DecipherWindow *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->sheet_paned));
  int position = gtk_paned_get_position (self->sheet_paned);

  if (height == 0) /* not shown: a document loading */
    return;
  if (height == self->sheet_seen_height && position != self->sheet_position)
    self->sheet_height = height - position; /* the palette's and the handle's */
  self->sheet_seen_height = height;
  self->sheet_position = position;
}

/* Until the user moves the handle, the palette follows the pane's height and width (it
 * needs more height on a narrower window, where its controls take two lines). */
static gboolean
handle_fits (DecipherWindow *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->sheet_paned));

  if (!self->palette_below || !self->palette_shown || self->sheet_height > 0 || height == 0)
    return TRUE;
  return ABS (gtk_paned_get_position (self->sheet_paned) - (height - sheet_height (self, height)))
         <= 1;
}

/* The toggle's icon draws where the palette is: a pane at the right while it stands beside
 * the pages, a pane at the bottom (Adwaita has no bottom-panel icon; this one is a frame
 * with its content along the bottom) while it is under them. Its words name the palette
 * either way, since an icon alone says nothing to a screen reader. */
static void
update_palette_button (DecipherWindow *self, gboolean below)
{
  GtkWidget *button = GTK_WIDGET (self->palette_button);

  gtk_button_set_icon_name (GTK_BUTTON (button), below ? "media-view-subtitles-symbolic"
                                                       : "sidebar-show-right-symbolic");
  gtk_widget_set_tooltip_text (button, below ? _("Show the glyph palette under the pages (F9)")
                                             : _("Show the glyph palette beside the pages (F9)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Glyph Palette"), -1);
}

/* The palette moves as a whole, its cells, selection and scroll with it; a focus it
 * had goes with it. */
static void
move_palette (DecipherWindow *self, gboolean below)
{
  GtkWidget *palette = GTK_WIDGET (self->palette);
  g_autoptr (GtkWidget) focus = NULL;

  if (focus_in_palette (self))
    focus = g_object_ref (gtk_root_get_focus (GTK_ROOT (self)));
  g_object_ref (palette);
  if (below)
    {
      adw_flap_set_flap (self->flap, NULL);
      adw_flap_set_reveal_flap (self->flap, FALSE);
      gtk_widget_set_visible (palette, self->palette_shown);
      gtk_paned_set_end_child (self->sheet_paned, palette);
      place_handle (self, pane_height (self));
      self->sheet_seen_height = 0; /* a height foreseen, not seen */
    }
  else
    {
      gtk_paned_set_end_child (self->sheet_paned, NULL);
      gtk_widget_set_visible (palette, TRUE);
      adw_flap_set_flap (self->flap, palette);
      adw_flap_set_reveal_flap (self->flap, self->palette_shown);
    }
  g_object_unref (palette);
  self->palette_below = below;
  update_palette_button (self, below);
  if (focus != NULL && gtk_widget_get_visible (palette))
    gtk_widget_grab_focus (focus);
}

static gboolean
palette_should_be_below (DecipherWindow *self)
{
  return gtk_widget_get_width (GTK_WIDGET (self)) < SIDE_PALETTE_WIDTH;
}

static gboolean
should_be_compact (DecipherWindow *self)
{
  return gtk_widget_get_width (GTK_WIDGET (self)) < COMPACT_WIDTH;
}

static gboolean
fits_width (DecipherWindow *self)
{
  return palette_should_be_below (self) == self->palette_below
         && should_be_compact (self) == !gtk_widget_get_visible (GTK_WIDGET (self->progress_level));
}

static void
set_compact (DecipherWindow *self, gboolean compact)
{
  gtk_widget_set_visible (GTK_WIDGET (self->progress_level), !compact);
  if (compact)
    adw_split_button_set_icon_name (self->open_button, "document-open-symbolic");
  else
    adw_split_button_set_label (self->open_button, _("_Open"));
}

/* The palette moves at once, like at a breakpoint, not animated: the flap skips its
 * animations while it is not shown. Animated over frames in which the window was being
 * resized, a flap's change left the page's box marked for a layout GTK 4.8 never gave
 * it ("Trying to snapshot GtkBox without a current allocation"). */
static gboolean
fit_width_tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  DecipherWindow *self = DECIPHER_WINDOW (widget);

  self->fit_width_tick_id = 0;
  if (should_be_compact (self) == gtk_widget_get_visible (GTK_WIDGET (self->progress_level)))
    set_compact (self, should_be_compact (self));
  if (palette_should_be_below (self) != self->palette_below)
    {
      gtk_widget_set_child_visible (GTK_WIDGET (self->flap), FALSE);
      move_palette (self, palette_should_be_below (self));
      gtk_widget_set_child_visible (GTK_WIDGET (self->flap), TRUE);
    }
  else if (!handle_fits (self))
    place_handle (self, gtk_widget_get_height (GTK_WIDGET (self->sheet_paned)));
  return G_SOURCE_REMOVE;
}

/**
 * _decipher_window_layout_allocated:
 *
 * Called once the window has its size: the width is known here, but nothing changes
 * here, in the middle of the window's layout; before the next frame's, as animations
 * change widgets.
 */
void
_decipher_window_layout_allocated (DecipherWindow *self)
{
  if (self->flap == NULL)
    return;
  if (self->palette_below && self->palette_shown)
    note_handle (self);
  if (self->fit_width_tick_id == 0 && (!fits_width (self) || !handle_fits (self)))
    self->fit_width_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), fit_width_tick_cb,
                                                            NULL, NULL);
}

void
_decipher_window_layout_dispose (DecipherWindow *self)
{
  if (self->fit_width_tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->fit_width_tick_id);
  self->fit_width_tick_id = 0;
}
