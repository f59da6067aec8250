/* decipher-occurrence-strip-list.c: the occurrences the strip lists, one item a glyph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from decipher-occurrence-strip.c, which is the widget: the strip's model, a
 * symbol's glyphs copied once, an item made only when a row asks for it, so that a symbol
 * drawn thousands of times costs little more than one screenful.
 */

#define G_LOG_DOMAIN "decipher-occurrence-strip"

#include "config.h"

#include "decipher-occurrence-strip-private.h"

/* ---- one occurrence: a glyph of the symbol ------------------------------------------ */

G_DEFINE_FINAL_TYPE (DecipherOccurrence, decipher_occurrence, G_TYPE_OBJECT)

static void
decipher_occurrence_class_init (DecipherOccurrenceClass *klass)
{
}

static void
decipher_occurrence_init (DecipherOccurrence *self)
{
}

/* ---- the list: a symbol's glyphs, an item made only when a row asks for it ---------- */

struct _DecipherOccurrenceList
{
  GObject parent_instance;
  guint32 *glyphs; /* a copy: the session's index is rebuilt when the document changes */
  guint n_glyphs;
};

static GType
occurrence_list_get_item_type (GListModel *model)
{
  return DECIPHER_TYPE_OCCURRENCE;
}

static guint
occurrence_list_get_n_items (GListModel *model)
{
  return DECIPHER_OCCURRENCE_LIST (model)->n_glyphs;
}

static gpointer
occurrence_list_get_item (GListModel *model, guint position)
{
  DecipherOccurrenceList *self = DECIPHER_OCCURRENCE_LIST (model);
  DecipherOccurrence *item;

  if (position >= self->n_glyphs)
    return NULL;
  item = g_object_new (DECIPHER_TYPE_OCCURRENCE, NULL);
  item->glyph = self->glyphs[position];
  return item;
}

static void
occurrence_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = occurrence_list_get_item_type;
  iface->get_n_items = occurrence_list_get_n_items;
  iface->get_item = occurrence_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (DecipherOccurrenceList, decipher_occurrence_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      occurrence_list_model_init))

static void
decipher_occurrence_list_finalize (GObject *object)
{
  g_free (DECIPHER_OCCURRENCE_LIST (object)->glyphs);

  G_OBJECT_CLASS (decipher_occurrence_list_parent_class)->finalize (object);
}

static void
decipher_occurrence_list_class_init (DecipherOccurrenceListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = decipher_occurrence_list_finalize;
}

static void
decipher_occurrence_list_init (DecipherOccurrenceList *self)
{
}

DecipherOccurrenceList *
_decipher_occurrence_list_new (const guint32 *glyphs, guint n_glyphs)
{
  DecipherOccurrenceList *self = g_object_new (DECIPHER_TYPE_OCCURRENCE_LIST, NULL);

  self->glyphs = g_memdup2 (glyphs, (gsize) n_glyphs * sizeof *glyphs);
  self->n_glyphs = n_glyphs;
  return self;
}
