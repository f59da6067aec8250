/* dc-project-history.c: the undo and redo steps a project keeps across closing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A linguist who closes the window at night expects Ctrl+Z in the morning to take back
 * what they did last, as it would have before. The steps are stored beside the key
 * (docs/project-format.md, "undo" and "redo"), each edit as two key entries: the symbol's
 * state before and after. They are a convenience, not the work: a damaged history is
 * dropped with a log message and the key still loads whole.
 */

#define G_LOG_DOMAIN "dc-project"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-project-private.h"

/* Newest steps first; beyond this a project file grows by megabytes for steps nobody
 * walks back through. */
#define MAX_KEPT_EDITS 5000
#define MAX_STEPS 100000

/* Returns: whether any edit was of a split */
static gboolean
add_steps (JsonBuilder *builder, DcDocument *document, GPtrArray *steps)
{
  gboolean splits = FALSE;

  json_builder_begin_array (builder);
  for (guint i = 0; i < steps->len; i++)
    {
      const DcKeyStep *step = g_ptr_array_index (steps, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "label");
      if (step->label != NULL)
        json_builder_add_string_value (builder, step->label);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "edits");
      json_builder_begin_array (builder);
      for (guint e = 0; e + 1 < step->edits->len; e += 2)
        {
          const DcKeyEntry *before = &g_array_index (step->edits, DcKeyEntry, e);
          const DcKeyEntry *after = &g_array_index (step->edits, DcKeyEntry, e + 1);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "before");
          _dc_project_add_key_entry (builder, document, before);
          json_builder_set_member_name (builder, "after");
          _dc_project_add_key_entry (builder, document, after);
          splits |= before->on_glyph;
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  return splits;
}

/* Writes the members "undo" and "redo" of the project object being built, if there is
 * anything to undo or redo. Returns: whether they hold a split's edit. */
gboolean
_dc_project_add_history_steps (JsonBuilder *builder, DcDocument *document, DcKey *key)
{
  gboolean splits = FALSE;

  g_autoptr (GPtrArray) undo = _dc_key_dup_steps (key, FALSE, MAX_KEPT_EDITS);
  g_autoptr (GPtrArray) redo = _dc_key_dup_steps (key, TRUE, MAX_KEPT_EDITS);

  if (undo->len > 0)
    {
      json_builder_set_member_name (builder, "undo");
      splits |= add_steps (builder, document, undo);
    }
  if (redo->len > 0)
    {
      json_builder_set_member_name (builder, "redo");
      splits |= add_steps (builder, document, redo);
    }
  return splits;
}

static gboolean
read_steps (DcProjectLoader *loader, JsonObject *root, const char *name, GPtrArray *steps)
{
  JsonNode *node = json_object_get_member (root, name);
  JsonArray *array;
  guint length;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return _dc_project_invalid (loader, "Its “%s” history is not a list.", name);
  array = json_node_get_array (node);
  length = json_array_get_length (array);
  if (length > MAX_STEPS)
    return _dc_project_invalid (loader, "Its “%s” history has %u steps.", name, length);

  for (guint i = 0; i < length; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autofree char *where = g_strdup_printf ("%s step %u", name, i + 1);
      g_autoptr (DcKeyStep) step = NULL;
      const char *label;
      JsonArray *edits;
      JsonNode *edits_node;
      JsonObject *object;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        return _dc_project_invalid (loader, "%s is not an object.", where);
      object = json_node_get_object (item);
      if (!_dc_project_read_string (loader, object, "label", where, TRUE, DC_PROJECT_MAX_TEXT_BYTES,
                                    &label))
        return FALSE;
      edits_node = json_object_get_member (object, "edits");
      if (edits_node == NULL || !JSON_NODE_HOLDS_ARRAY (edits_node))
        return _dc_project_invalid (loader, "%s has no list of edits.", where);
      edits = json_node_get_array (edits_node);

      step = _dc_key_step_new (label);
      for (guint e = 0; e < json_array_get_length (edits); e++)
        {
          JsonNode *edit = json_array_get_element (edits, e);
          DcKeyEntry pair[2] = { 0 };
          JsonObject *edit_object;

          if (!JSON_NODE_HOLDS_OBJECT (edit))
            return _dc_project_invalid (loader, "Edit %u of %s is not an object.", e + 1, where);
          edit_object = json_node_get_object (edit);
          if (!json_object_has_member (edit_object, "before")
              || !json_object_has_member (edit_object, "after"))
            return _dc_project_invalid (loader, "Edit %u of %s lacks a state.", e + 1, where);
          if (!_dc_project_read_entry (loader, json_object_get_member (edit_object, "before"), e,
                                       NULL, TRUE, &pair[0])
              || !_dc_project_read_entry (loader, json_object_get_member (edit_object, "after"), e,
                                          NULL, TRUE, &pair[1]))
            {
              _dc_key_entry_clear (&pair[0]);
              _dc_key_entry_clear (&pair[1]);
              return FALSE;
            }
          g_array_append_vals (step->edits, pair, 2);
        }
      g_ptr_array_add (steps, g_steal_pointer (&step));
    }
  return TRUE;
}

/* After the key is restored from @root: gives it back the steps the project kept, as far
 * as they still describe it. Never fails: history is not worth refusing a project for. */
void
_dc_project_restore_history_steps (JsonObject *root, const char *display, DcDocument *document,
                                   DcKey *key)
{
  g_autoptr (GPtrArray) undo = g_ptr_array_new_with_free_func ((GDestroyNotify) _dc_key_step_free);
  g_autoptr (GPtrArray) redo = g_ptr_array_new_with_free_func ((GDestroyNotify) _dc_key_step_free);
  g_autoptr (GError) error = NULL;
  DcProjectLoader loader = { 0 };

  loader.display = display;
  loader.document = document;
  loader.error = &error;
  if (!read_steps (&loader, root, "undo", undo) || !read_steps (&loader, root, "redo", redo))
    {
      /* The reader words its sentences for a project it refuses; this one opens. */
      g_autofree char *refusal = g_strdup_printf (_("Cannot open the project “%s”. %s"), display,
                                                     "");
      const char *reason = g_str_has_prefix (error->message, refusal)
                               ? error->message + strlen (refusal)
                               : error->message;

      g_message ("The undo history kept in “%s” is damaged; starting without it. %s", display,
                 reason);
      return;
    }
  _dc_key_restore_steps (key, undo, redo);
}
