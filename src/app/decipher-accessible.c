/* decipher-accessible.c: names for the controls a screen reader would call by their type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK 4.8 names a control after its type when nothing else names it: an icon button is
 * announced as "GtkImage", a menu button as "GtkMenuButton", the button inside a
 * drop-down as "GtkToggleButton"; and a button with a mnemonic as "_Open Open". Every
 * such button has a tooltip saying what it does, which is what a sighted user reads:
 * the screen reader gets the same words. Run over a window's widgets once they are
 * built (tests/gui/test-accessibility.py walks the AT-SPI tree and fails on any
 * control without a name).
 */

#define G_LOG_DOMAIN "decipher-accessible"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "decipher-accessible.h"

/* The tooltip without the shortcut it ends with: "Zoom In (Ctrl++)" → "Zoom In"; the
 * shortcut is the button's key, not its name. */
static char *
name_from_tooltip (const char *tooltip)
{
  const char *open = strrchr (tooltip, '(');
  gsize len = strlen (tooltip);

  if (open != NULL && open > tooltip && len > 0 && tooltip[len - 1] == ')'
      && (strstr (open, "Ctrl") != NULL || strstr (open, "Shift") != NULL
          || strstr (open, "Alt") != NULL || g_str_has_prefix (open, "(F")))
    return g_strstrip (g_strndup (tooltip, open - tooltip));
  return g_strdup (tooltip);
}

/* Whether @widget shows text of its own, which GTK reads as its name. */
static gboolean
has_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return *gtk_label_get_text (GTK_LABEL (widget)) != '\0';
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_text (child))
      return TRUE;
  return FALSE;
}

static void
set_name (GtkWidget *widget, const char *tooltip)
{
  g_autofree char *name = name_from_tooltip (tooltip);

  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

static void
name_control (GtkWidget *widget)
{
  GtkWidget *parent = gtk_widget_get_parent (widget);
  const char *tooltip = gtk_widget_get_tooltip_text (widget);

  if (GTK_IS_MENU_BUTTON (widget))
    {
      /* Its inner button is named after it. */
      if (tooltip != NULL)
        set_name (widget, tooltip);
    }
  else if (!GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (parent))
    return;
  else if (gtk_button_get_label (GTK_BUTTON (widget)) != NULL)
    {
      /* GTK 4.8 names it by its label as set ("_Open") and again by the text shown
       * ("Open"): the text shown alone is the name. */
      if (gtk_button_get_use_underline (GTK_BUTTON (widget)))
        gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
    }
  else if (GTK_IS_DROP_DOWN (parent) && gtk_widget_get_tooltip_text (parent) != NULL)
    set_name (widget, gtk_widget_get_tooltip_text (parent));
  else if (has_text (widget))
    return;
  else if (tooltip != NULL)
    set_name (widget, tooltip);
  /* GtkSearchBar's close button has neither label nor tooltip. */
  else if (g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), "window-close-symbolic") == 0)
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _("Close"), -1);
}

/**
 * decipher_accessible_name_controls:
 * @root: a widget whose buttons, menu buttons and drop-downs are built
 *
 * Names every button under @root (itself included) that shows no text after its
 * tooltip, and buttons with a mnemonic after the text they show.
 */
void
decipher_accessible_name_controls (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  name_control (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    decipher_accessible_name_controls (child);
}

static void
children_changed_cb (GListModel *children, guint position, guint removed, guint added,
                     gpointer data)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr (GtkWidget) child = g_list_model_get_item (children, i);

      decipher_accessible_name_controls (child);
    }
}

/**
 * decipher_accessible_name_new_children:
 * @parent: a widget that gets children of its own making later (an AdwToastOverlay
 *   shows each toast as a new child, with an Undo and a close button)
 *
 * Names the controls of every child @parent gets from now on, as they come.
 */
void
decipher_accessible_name_new_children (GtkWidget *parent)
{
  GListModel *children;

  g_return_if_fail (GTK_IS_WIDGET (parent));

  children = gtk_widget_observe_children (parent);
  g_signal_connect (children, "items-changed", G_CALLBACK (children_changed_cb), NULL);
  g_object_set_data_full (G_OBJECT (parent), "decipher-accessible-children", children,
                          g_object_unref);
}
