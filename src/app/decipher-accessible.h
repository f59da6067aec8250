/* decipher-accessible.h: names for the controls a screen reader would call by their type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void decipher_accessible_name_controls (GtkWidget *root);
void decipher_accessible_name_new_children (GtkWidget *parent);

G_END_DECLS
