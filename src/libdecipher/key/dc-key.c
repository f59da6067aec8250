/* dc-key.c: what each symbol of a document stands for, how sure we are, and why
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "dc-key"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-error.h"
#include "dc-key-state-private.h"
#include "dc-unicode-private.h"

#define PDF_PROVENANCE "pdf"

/* NFC composes at most a handful of code points into one (Hangul L V T, a letter with
 * three marks), so anything longer than this cannot normalise down to the limit: no need
 * to normalise a pasted page to find out. */
#define MAX_VALUE_CHARS_BEFORE_NFC (DC_KEY_MAX_VALUE_CHARS * 4)

G_DEFINE_FINAL_TYPE (DcKey, dc_key, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  N_PROPS
};

enum
{
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
_dc_key_slot_clear (Slot *slot)
{
  g_clear_pointer (&slot->value, g_free);
  g_clear_pointer (&slot->provenance, g_free);
  g_clear_pointer (&slot->refused, g_strfreev);
  slot->status = DC_KEY_UNKNOWN;
  slot->level = DC_KEY_LEVEL_NONE;
  slot->confidence = 0;
}

static void
slot_copy (Slot *dest, const Slot *src)
{
  dest->value = g_strdup (src->value);
  dest->provenance = g_strdup (src->provenance);
  dest->status = src->status;
  dest->level = src->level;
  dest->confidence = src->confidence;
  dest->refused = g_strdupv (src->refused);
}

static gboolean
strv_same (const char *const *a, const char *const *b)
{
  if (a == NULL || b == NULL)
    return (a == NULL || a[0] == NULL) && (b == NULL || b[0] == NULL);
  return g_strv_equal (a, b);
}

static gboolean
strv_has (char **strv, const char *value)
{
  return strv != NULL && value != NULL && g_strv_contains ((const char *const *) strv, value);
}

/* @refused with @add appended (nullable) and @drop left out (nullable); NULL when empty. */
static char **
refused_with (char **refused, const char *add, const char *drop)
{
  g_autoptr (GStrvBuilder) builder = NULL;
  guint n = 0;

  /* The common case, on every set: nothing rejected, nothing to build. */
  if (refused == NULL && add == NULL)
    return NULL;
  builder = g_strv_builder_new ();
  for (guint i = 0; refused != NULL && refused[i] != NULL; i++)
    if (g_strcmp0 (refused[i], drop) != 0 && g_strcmp0 (refused[i], add) != 0)
      {
        g_strv_builder_add (builder, refused[i]);
        n++;
      }
  if (add != NULL)
    {
      g_strv_builder_add (builder, add);
      n++;
    }
  if (n == 0)
    return NULL;
  return g_strv_builder_end (builder);
}

static void
edit_clear (gpointer data)
{
  Edit *edit = data;

  _dc_key_slot_clear (&edit->before);
  _dc_key_slot_clear (&edit->after);
}

Change *
_dc_key_change_new (const char *label)
{
  Change *change = g_new0 (Change, 1);

  change->label = g_strdup (label);
  change->edits = g_array_new (FALSE, TRUE, sizeof (Edit));
  g_array_set_clear_func (change->edits, edit_clear);
  return change;
}

void
_dc_key_change_free (gpointer data)
{
  Change *change = data;

  g_free (change->label);
  g_array_unref (change->edits);
  g_free (change);
}

/* A proposal is a guess, so it ranks below a trusted font's own map even though the enum
 * lists it later. */
static int
status_rank (DcKeyStatus status)
{
  switch (status)
    {
    case DC_KEY_UNKNOWN:
      return 0;
    case DC_KEY_PROPOSED:
      return 1;
    case DC_KEY_FROM_PDF:
      return 2;
    case DC_KEY_INFERRED:
      return 3;
    case DC_KEY_CONFIRMED:
      return 4;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
status_is_usable (DcKeyStatus status)
{
  return status == DC_KEY_FROM_PDF || status == DC_KEY_INFERRED || status == DC_KEY_CONFIRMED;
}

static gboolean
slot_is_decoded (DcKey *self, guint symbol, const Slot *slot)
{
  return self->needs_decoding[symbol]
         && (slot->status == DC_KEY_INFERRED || slot->status == DC_KEY_CONFIRMED);
}

static void
seed_slot (DcKey *self, guint symbol, Slot *slot)
{
  const DcSymbol *s = dc_document_get_symbol (self->document, symbol);

  if (self->needs_decoding[symbol])
    {
      slot->value = NULL;
      slot->provenance = NULL;
      slot->status = DC_KEY_UNKNOWN;
      slot->level = DC_KEY_LEVEL_NONE;
      slot->confidence = 0;
    }
  else
    {
      /* A ToUnicode is the PDF's word; a glyph name (no ToUnicode, or one that maps the
       * code to nothing) is the font's, which DESIGN §7 rates lower. */
      DcKeyLevel level = (s->flags & DC_SYMBOL_FROM_FONT) ? DC_KEY_LEVEL_FONT : DC_KEY_LEVEL_PDF;

      slot->value = g_strdup (s->pdf_text);
      slot->provenance = g_strdup (PDF_PROVENANCE);
      slot->status = DC_KEY_FROM_PDF;
      slot->level = level;
      slot->confidence = dc_key_level_get_default_confidence (level);
    }
}

/* Tokens are split at spaces, so the document has to hear when a symbol becomes one or
 * stops being one. While nothing better is known, and for the PDF's own values, the
 * document's reading of the PDF stands. */
static void
sync_space (DcKey *self, guint symbol)
{
  const Slot *slot = &self->slots[symbol];
  gboolean is_space;

  if (slot->status == DC_KEY_INFERRED || slot->status == DC_KEY_CONFIRMED)
    is_space = _dc_text_is_space (slot->value);
  else
    is_space = (dc_document_get_symbol (self->document, symbol)->flags & DC_SYMBOL_PDF_SPACE) != 0;

  if (dc_document_symbol_is_space (self->document, symbol) != is_space)
    dc_document_set_symbol_is_space (self->document, symbol, is_space);
}

void
_dc_key_mark_changed (DcKey *self, guint symbol)
{
  if (self->n_changed == 0)
    {
      self->changed_symbol = symbol;
      self->n_changed = 1;
    }
  else if (self->changed_symbol != symbol)
    self->n_changed = 2;
}

static void
flush_changed (DcKey *self)
{
  guint symbol;

  if (self->n_changed == 0)
    return;
  symbol = self->n_changed == 1 ? self->changed_symbol : DC_SYMBOL_NONE;
  self->n_changed = 0;
  g_signal_emit (self, signals[CHANGED], 0, symbol);
}

/* Adds (or takes away) what @symbol contributes to the decoded counts. The counts are of
 * what the reader sees: a glyph is decoded when the value it reads is, so an occurrence
 * split off its symbol (always the user's confirmed value) counts as decoded even while its
 * symbol is unknown, and the symbol's other occurrences still count as undecoded. A symbol
 * counts as decoded when its own value is, or when every occurrence is split off: then no
 * glyph it draws reads as U+FFFD, and its own value could change nothing on the page. */
void
_dc_key_count_symbol (DcKey *self, guint symbol, gboolean add)
{
  guint n_glyphs = dc_document_get_symbol (self->document, symbol)->n_glyphs;
  guint n_symbols = 0, n_decoded = 0;

  if (!self->needs_decoding[symbol])
    return;
  if (slot_is_decoded (self, symbol, &self->slots[symbol]))
    {
      n_symbols = 1;
      n_decoded = n_glyphs;
    }
  else
    {
      n_decoded = self->n_split[symbol];
      n_symbols = n_glyphs > 0 && n_decoded == n_glyphs;
    }
  if (add)
    {
      self->n_decoded_symbols += n_symbols;
      self->n_decoded_glyphs += n_decoded;
    }
  else
    {
      self->n_decoded_symbols -= n_symbols;
      self->n_decoded_glyphs -= n_decoded;
    }
}

/* Every change of a slot goes through here, so the counts and spaces stay true. */
static void
apply_slot (DcKey *self, guint symbol, const Slot *value)
{
  Slot *slot = &self->slots[symbol];

  _dc_key_count_symbol (self, symbol, FALSE);
  _dc_key_slot_clear (slot);
  slot_copy (slot, value);
  _dc_key_count_symbol (self, symbol, TRUE);

  sync_space (self, symbol);
  _dc_key_mark_changed (self, symbol);
}

/* Replays one recorded edit, forwards (its after state) or backwards (its before). */
void
_dc_key_apply_edit (DcKey *self, const Edit *edit, gboolean backwards)
{
  const Slot *state = backwards ? &edit->before : &edit->after;

  if (edit->on_glyph)
    _dc_key_apply_split (self, edit->glyph, state);
  else
    apply_slot (self, edit->symbol, state);
}

void
_dc_key_notify_undo_state (DcKey *self, gboolean could_undo, gboolean could_redo)
{
  if (could_undo != dc_key_can_undo (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  if (could_redo != dc_key_can_redo (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
}

static void
dc_key_constructed (GObject *object)
{
  DcKey *self = DC_KEY (object);

  G_OBJECT_CLASS (dc_key_parent_class)->constructed (object);

  g_assert (DC_IS_DOCUMENT (self->document));

  dc_document_get_symbols (self->document, &self->n_slots);
  self->slots = g_new0 (Slot, self->n_slots);
  self->needs_decoding = g_new0 (guint8, self->n_slots);
  self->n_split = g_new0 (guint, self->n_slots);

  for (guint s = 0; s < self->n_slots; s++)
    {
      self->needs_decoding[s] = dc_document_symbol_needs_decoding (self->document, s);
      seed_slot (self, s, &self->slots[s]);
      if (self->needs_decoding[s])
        {
          self->n_to_decode_symbols++;
          self->n_to_decode_glyphs += dc_document_get_symbol (self->document, s)->n_glyphs;
        }
    }
}

static void
dc_key_finalize (GObject *object)
{
  DcKey *self = DC_KEY (object);

  for (guint s = 0; s < self->n_slots; s++)
    _dc_key_slot_clear (&self->slots[s]);
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->needs_decoding, g_free);
  g_clear_pointer (&self->n_split, g_free);
  g_clear_pointer (&self->splits, g_hash_table_unref);
  g_clear_pointer (&self->undo_stack, g_ptr_array_unref);
  g_clear_pointer (&self->redo_stack, g_ptr_array_unref);
  g_clear_pointer (&self->pending, _dc_key_change_free);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (dc_key_parent_class)->finalize (object);
}

static void
dc_key_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DcKey *self = DC_KEY (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, dc_key_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, dc_key_can_redo (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dc_key_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  DcKey *self = DC_KEY (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      self->document = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dc_key_class_init (DcKeyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = dc_key_constructed;
  object_class->finalize = dc_key_finalize;
  object_class->get_property = dc_key_get_property;
  object_class->set_property = dc_key_set_property;

  properties[PROP_DOCUMENT] = g_param_spec_object ("document", NULL, NULL, DC_TYPE_DOCUMENT,
                                                   G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY
                                                       | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_UNDO] = g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                        | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] = g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                        | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DcKey::changed:
   * @symbol: the symbol whose value or status changed, or %DC_SYMBOL_NONE when several did
   *
   * Emitted once per finished change, undo or redo. The document's tokens are already
   * up to date when it runs, since a symbol may have become a space or stopped being one.
   */
  dc_value_func_add_glyph_func (dc_key_value_func, _dc_key_split_value_func);

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
dc_key_init (DcKey *self)
{
  self->undo_stack = g_ptr_array_new_with_free_func (_dc_key_change_free);
  self->redo_stack = g_ptr_array_new_with_free_func (_dc_key_change_free);
  self->splits = g_hash_table_new_full (NULL, NULL, NULL, _dc_key_slot_free);
}

/**
 * dc_key_new:
 * @document: the document whose symbols the key is about
 *
 * Trusted fonts' symbols start with the PDF's own text (%DC_KEY_FROM_PDF); the symbols
 * that need decoding start unknown.
 */
DcKey *
dc_key_new (DcDocument *document)
{
  g_return_val_if_fail (DC_IS_DOCUMENT (document), NULL);

  return g_object_new (DC_TYPE_KEY, "document", document, NULL);
}

DcDocument *
dc_key_get_document (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);

  return self->document;
}

/**
 * dc_key_get_value:
 *
 * Returns: the text @symbol stands for ("" when it is to be ignored), or %NULL while it
 * is unknown or only proposed.
 */
const char *
dc_key_get_value (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);
  g_return_val_if_fail (symbol < self->n_slots, NULL);

  if (!status_is_usable (self->slots[symbol].status))
    return NULL;
  return self->slots[symbol].value;
}

/**
 * dc_key_peek_value:
 *
 * Like dc_key_get_value(), but also gives a proposal's text, for showing it.
 */
const char *
dc_key_peek_value (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);
  g_return_val_if_fail (symbol < self->n_slots, NULL);

  return self->slots[symbol].value;
}

DcKeyStatus
dc_key_get_status (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), DC_KEY_UNKNOWN);
  g_return_val_if_fail (symbol < self->n_slots, DC_KEY_UNKNOWN);

  return self->slots[symbol].status;
}

/**
 * dc_key_get_provenance:
 *
 * Returns: (nullable): which input or rule set the value ("pdf" for a trusted font's own
 * map), or %NULL while the symbol is unknown.
 */
const char *
dc_key_get_provenance (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);
  g_return_val_if_fail (symbol < self->n_slots, NULL);

  return self->slots[symbol].provenance;
}

/**
 * dc_key_get_level:
 *
 * Returns: what kind of evidence the value rests on (%DC_KEY_LEVEL_NONE while unknown)
 */
DcKeyLevel
dc_key_get_level (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), DC_KEY_LEVEL_NONE);
  g_return_val_if_fail (symbol < self->n_slots, DC_KEY_LEVEL_NONE);

  return self->slots[symbol].level;
}

/**
 * dc_key_get_confidence:
 *
 * Returns: how sure the evidence is, from 0 (unknown) to 1 (the user or a trusted PDF)
 */
double
dc_key_get_confidence (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), 0);
  g_return_val_if_fail (symbol < self->n_slots, 0);

  return self->slots[symbol].confidence;
}

static const char *const level_names[] = {
  [DC_KEY_LEVEL_NONE] = "none",       [DC_KEY_LEVEL_GUESS] = "guess",
  [DC_KEY_LEVEL_SHAPE] = "shape",     [DC_KEY_LEVEL_IDENTITY] = "identity",
  [DC_KEY_LEVEL_LAYOUT] = "layout",   [DC_KEY_LEVEL_FONT] = "font",
  [DC_KEY_LEVEL_LIBRARY] = "library", [DC_KEY_LEVEL_PDF] = "pdf",
  [DC_KEY_LEVEL_USER] = "user",
};

/* What each level's values are worth when its evidence gives no figure of its own: the
 * precision measured for what the level applies by itself, by bench/calibrate-levels.py
 * (issue 28; 200 generated documents, 25 Debian fonts × 11 layouts × 7 languages, read
 * as a new user, "decipher-cli text" table; the library level from 30 documents read
 * after the user decided another in the same font). Each is within 0.05 of its figure:
 *   pdf        97.8 % of 89 values (two trusted English texts whose ToUnicode lies for
 *              one character, À for ‐: the trust analysis's, not a level's, to tell)
 *   library   100.0 % of 373 (after dc_library_verify(); 97.5 % of 561 before it)
 *   font       99.9 % of 2,200
 *   layout     99.6 % of 805
 *   identity  100.0 % of 5,246
 *   guess     100.0 % of 274 (space and full stop)
 * A level's proposals state their own, lower figures (dc-proposals.c, dc-references.c,
 * dc-font-tables.c, dc-library-apply.c). DESIGN §7's table gave the levels' ranks before
 * they were measured (0.95 … 0.6); shape values are OCR's and state their agreement. */
static const double level_confidence[] = {
  [DC_KEY_LEVEL_NONE] = 0,        [DC_KEY_LEVEL_GUESS] = 0.99,  [DC_KEY_LEVEL_SHAPE] = 0.8,
  [DC_KEY_LEVEL_IDENTITY] = 0.99, [DC_KEY_LEVEL_LAYOUT] = 0.99, [DC_KEY_LEVEL_FONT] = 0.99,
  [DC_KEY_LEVEL_LIBRARY] = 0.99,  [DC_KEY_LEVEL_PDF] = 1.0,     [DC_KEY_LEVEL_USER] = 1.0,
};

/* The stable names project files and decipher-cli use. */
const char *
dc_key_level_to_string (DcKeyLevel level)
{
  g_return_val_if_fail (level <= DC_KEY_LEVEL_LAST, NULL);

  return level_names[level];
}

gboolean
dc_key_level_from_string (const char *string, DcKeyLevel *level)
{
  g_return_val_if_fail (string != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (level_names); i++)
    if (strcmp (string, level_names[i]) == 0)
      {
        if (level)
          *level = i;
        return TRUE;
      }
  return FALSE;
}

double
dc_key_level_get_default_confidence (DcKeyLevel level)
{
  g_return_val_if_fail (level <= DC_KEY_LEVEL_LAST, 0);

  return level_confidence[level];
}

/**
 * dc_key_level_applies_automatically:
 *
 * Whether values at @level are applied without the user (DESIGN §7): only levels whose
 * measured precision is at least 99 % (see level_confidence). The others propose.
 */
gboolean
dc_key_level_applies_automatically (DcKeyLevel level)
{
  g_return_val_if_fail (level <= DC_KEY_LEVEL_LAST, FALSE);

  return level != DC_KEY_LEVEL_NONE && level != DC_KEY_LEVEL_SHAPE;
}

/**
 * dc_key_level_for_status:
 * @provenance: (nullable): the value's provenance
 *
 * The level a value set without one (dc_key_set(), a project saved before levels
 * existed) rests on, told from its status and the rule its provenance names.
 */
DcKeyLevel
dc_key_level_for_status (DcKeyStatus status, const char *provenance)
{
  switch (status)
    {
    case DC_KEY_UNKNOWN:
      return DC_KEY_LEVEL_NONE;
    case DC_KEY_FROM_PDF:
      return DC_KEY_LEVEL_PDF;
    case DC_KEY_CONFIRMED:
      return DC_KEY_LEVEL_USER;
    case DC_KEY_INFERRED:
    case DC_KEY_PROPOSED:
      if (provenance == NULL)
        return status == DC_KEY_INFERRED ? DC_KEY_LEVEL_USER : DC_KEY_LEVEL_GUESS;
      if (g_str_has_prefix (provenance, "auto: "))
        return DC_KEY_LEVEL_GUESS;
      if (g_str_has_prefix (provenance, "font: ")
          || g_str_has_prefix (provenance, "proposal: glyph names"))
        return DC_KEY_LEVEL_FONT;
      if (g_str_has_prefix (provenance, "layout: ")
          || g_str_has_prefix (provenance, "proposal: code page"))
        return DC_KEY_LEVEL_LAYOUT;
      if (g_str_has_prefix (provenance, "library: "))
        return DC_KEY_LEVEL_LIBRARY;
      if (g_str_has_prefix (provenance, "identity: "))
        return DC_KEY_LEVEL_IDENTITY;
      if (g_str_has_prefix (provenance, "shape: ") || g_str_has_prefix (provenance, "ocr: "))
        return DC_KEY_LEVEL_SHAPE;
      return status == DC_KEY_INFERRED ? DC_KEY_LEVEL_USER : DC_KEY_LEVEL_GUESS;
    default:
      g_return_val_if_reached (DC_KEY_LEVEL_NONE);
    }
}

static const char *const status_names[] = {
  [DC_KEY_UNKNOWN] = "unknown",   [DC_KEY_FROM_PDF] = "from-pdf",   [DC_KEY_PROPOSED] = "proposed",
  [DC_KEY_INFERRED] = "inferred", [DC_KEY_CONFIRMED] = "confirmed",
};

/* The stable names project files and decipher-cli use. */
const char *
dc_key_status_to_string (DcKeyStatus status)
{
  g_return_val_if_fail (status <= DC_KEY_CONFIRMED, NULL);

  return status_names[status];
}

gboolean
dc_key_status_from_string (const char *string, DcKeyStatus *status)
{
  g_return_val_if_fail (string != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    if (strcmp (string, status_names[i]) == 0)
      {
        if (status)
          *status = i;
        return TRUE;
      }
  return FALSE;
}

static gboolean
is_noncharacter (gunichar c)
{
  return (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE;
}

/**
 * dc_key_normalize_value:
 * @value: what the user typed for one glyph
 *
 * Checks that @value can be what a glyph stands for, and puts it in NFC so that the same
 * letter typed two ways is one value. "" is valid: the glyph is to be ignored.
 *
 * Returns: (transfer full): the normalised value, or %NULL with %DC_ERROR_INVALID_INPUT
 * and a sentence saying what is wrong.
 */
char *
dc_key_normalize_value (const char *value, GError **error)
{
  g_autofree char *normalized = NULL;
  glong n_chars;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_utf8_validate (value, -1, NULL))
    {
      g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                           _("The text is not valid UTF-8."));
      return NULL;
    }

  n_chars = g_utf8_strlen (value, -1);
  if (n_chars <= MAX_VALUE_CHARS_BEFORE_NFC)
    {
      normalized = g_utf8_normalize (value, -1, G_NORMALIZE_NFC);
      g_assert (normalized != NULL);
      n_chars = g_utf8_strlen (normalized, -1);
    }
  if (n_chars > DC_KEY_MAX_VALUE_CHARS)
    {
      g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                   ngettext ("The text has %ld character, but a glyph can stand for at most %d.",
                             "The text has %ld characters, but a glyph can stand for at most %d.",
                             n_chars),
                   n_chars, DC_KEY_MAX_VALUE_CHARS);
      return NULL;
    }

  for (const char *p = normalized; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      GUnicodeType type = g_unichar_type (c);

      if (type == G_UNICODE_CONTROL)
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("The text contains the control character U+%04X, which no glyph "
                         "stands for."),
                          c);
          return NULL;
        }
      /* Lines come from the page's geometry, never from the values. */
      if (type == G_UNICODE_LINE_SEPARATOR || type == G_UNICODE_PARAGRAPH_SEPARATOR)
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("The text contains the line break U+%04X; a glyph cannot stand for "
                         "one."),
                          c);
          return NULL;
        }
      if (c == 0xFFFD)
        {
          g_set_error_literal (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                               _("The text contains U+FFFD, which Decipher shows for an unknown "
                                 "glyph, so it cannot be what a glyph stands for."));
          return NULL;
        }
      if (is_noncharacter (c))
        {
          g_set_error (error, DC_ERROR, DC_ERROR_INVALID_INPUT,
                       _("The text contains U+%04X, which Unicode reserves as a "
                         "non-character."),
                          c);
          return NULL;
        }
    }

  return g_steal_pointer (&normalized);
}

/* How a value reads in a sentence: a lone combining mark on a dotted circle, as
 * character pickers show it, and an empty value as what it means. */
static char *
display_value (const char *value)
{
  if (value == NULL)
    return g_strdup (_("unknown"));
  if (*value == '\0')
    return g_strdup (_("nothing (ignored)"));
  if (_dc_text_is_space (value))
    return g_strdup (_("a space"));
  if (g_unichar_ismark (g_utf8_get_char (value)))
    return g_strdup_printf ("«\u25CC%s»", value);
  return g_strdup_printf ("«%s»", value);
}

static char *
display_symbol (DcKey *self, guint symbol)
{
  const DcSymbol *s = dc_document_get_symbol (self->document, symbol);
  const char *name = dc_font_get_name (dc_document_get_font (self->document, s->font));

  /* Translators: a glyph code and its font, as in “Code 0x41 of “Times” was…”. */
  return g_strdup_printf (_("0x%0*X of “%s”"), (int) s->code_len * 2, s->code,
                             name != NULL ? name : _("an unnamed font"));
}

/* How a level reads in a sentence: “from the font’s own tables”. */
static const char *
display_level (DcKeyLevel level)
{
  switch (level)
    {
    case DC_KEY_LEVEL_GUESS:
      return _("an automatic guess");
    case DC_KEY_LEVEL_SHAPE:
      return _("the glyph’s shape");
    case DC_KEY_LEVEL_IDENTITY:
      return _("an installed font with the same outline");
    case DC_KEY_LEVEL_LAYOUT:
      return _("a standard layout");
    case DC_KEY_LEVEL_FONT:
      return _("the font’s own tables");
    case DC_KEY_LEVEL_LIBRARY:
      return _("your font library");
    case DC_KEY_LEVEL_PDF:
      return _("the PDF");
    case DC_KEY_LEVEL_USER:
      return _("your input");
    case DC_KEY_LEVEL_NONE:
    default:
      return _("nothing");
    }
}

static void
set_conflict (DcKey *self, guint symbol, const char *value, DcKeyLevel level,
              const char *provenance, GError **error)
{
  const Slot *slot = &self->slots[symbol];
  g_autofree char *what = display_symbol (self, symbol);
  g_autofree char *old = display_value (slot->value);
  g_autofree char *new = display_value (value);
  g_autofree char *old_from = NULL;
  g_autofree char *new_from = NULL;

  /* Both sides named: which level, and which rule or input within it. */
  if (slot->provenance != NULL && slot->level != DC_KEY_LEVEL_PDF)
    old_from = g_strdup_printf ("%s: %s", display_level (slot->level), slot->provenance);
  else
    old_from = g_strdup (display_level (slot->level));
  if (provenance != NULL)
    new_from = g_strdup_printf ("%s: %s", display_level (level), provenance);
  else
    new_from = g_strdup (display_level (level));

  if (slot->status == DC_KEY_CONFIRMED)
    g_set_error (error, DC_ERROR, DC_ERROR_CONFLICT,
                 _("You confirmed code %s as %s; %s (from %s) does not replace it unless you "
                   "confirm the new value."),
                    what, old, new, new_from);
  else if (level < slot->level)
    g_set_error (error, DC_ERROR, DC_ERROR_CONFLICT,
                 _("Code %s is %s (from %s); %s (from %s) is weaker evidence and does not "
                   "replace it."),
                    what, old, old_from, new, new_from);
  else
    g_set_error (error, DC_ERROR, DC_ERROR_CONFLICT,
                 _("Code %s was already inferred as %s (from %s); %s (from %s) contradicts it."),
                    what, old, old_from, new, new_from);
}

static void
record_and_apply (DcKey *self, guint symbol, const Slot *after)
{
  Edit edit = { 0 };

  g_assert (self->pending != NULL);

  edit.symbol = symbol;
  slot_copy (&edit.before, &self->slots[symbol]);
  slot_copy (&edit.after, after);
  g_array_append_val (self->pending->edits, edit);
  /* From the edit's own copy: @after may point into the slot being replaced. */
  apply_slot (self, symbol, &edit.after);
}

/**
 * dc_key_set:
 * @value: the text @symbol stands for; "" to ignore its glyphs
 * @status: %DC_KEY_PROPOSED, %DC_KEY_INFERRED or %DC_KEY_CONFIRMED
 * @provenance: (nullable): which input or rule says so, e.g. "type: «слово»"
 *
 * dc_key_set_full() with the level dc_key_level_for_status() tells from @status and
 * @provenance, at that level's default confidence.
 *
 * Returns: %TRUE when the key now holds @value (or already did)
 */
gboolean
dc_key_set (DcKey *self, guint symbol, const char *value, DcKeyStatus status,
            const char *provenance, GError **error)
{
  return dc_key_set_full (self, symbol, value, status, dc_key_level_for_status (status, provenance),
                          -1, provenance, error);
}

/* Whether a different value at @level with @status may take @slot's place without the
 * user saying so. */
static gboolean
may_replace (const Slot *slot, DcKeyStatus status, DcKeyLevel level, double confidence)
{
  if (slot->status == DC_KEY_UNKNOWN || status == DC_KEY_CONFIRMED)
    return TRUE;
  if (slot->status == DC_KEY_CONFIRMED || slot->status == DC_KEY_INFERRED)
    return FALSE;
  /* A proposal less sure than a value applied by itself does not hold its place (issue
   * 28: an untrusted cmap's proposals at 3 % kept the installed fonts' outlines out). */
  if (slot->status == DC_KEY_PROPOSED && status == DC_KEY_INFERRED && confidence > slot->confidence
      && confidence >= DC_KEY_AUTOMATIC_CONFIDENCE)
    return TRUE;
  /* The PDF's text or a proposal: only as good evidence, used at least as much, may. */
  return level >= slot->level && status_rank (status) >= status_rank (slot->status);
}

/**
 * dc_key_set_full:
 * @value: the text @symbol stands for; "" to ignore its glyphs
 * @status: %DC_KEY_PROPOSED, %DC_KEY_INFERRED or %DC_KEY_CONFIRMED
 * @level: what kind of evidence says so; %DC_KEY_CONFIRMED is always %DC_KEY_LEVEL_USER
 * @confidence: from 0 to 1, or negative for @level's default
 *   (dc_key_level_get_default_confidence())
 * @provenance: (nullable): which input or rule says so, e.g. "type: «слово»",
 *   "font: glyph name uni0434"
 *
 * Validates and normalises @value (see dc_key_normalize_value()) and records it as one
 * undoable step, or as part of the step dc_key_begin_change() opened.
 *
 * Evidence that agrees with what is known only ever raises the status, level and
 * confidence. A different value replaces a proposal or the PDF's text when it rests on
 * evidence at least as strong (@level) and is used at least as much (@status), but never
 * an inferred or confirmed value, and a lower level never replaces a higher one: that is a
 * conflict (%DC_ERROR_CONFLICT) whose message names both sides, for the user to resolve,
 * which they do by setting the value with %DC_KEY_CONFIRMED.
 *
 * Returns: %TRUE when the key now holds @value (or already did)
 */
gboolean
dc_key_set_full (DcKey *self, guint symbol, const char *value, DcKeyStatus status, DcKeyLevel level,
                 double confidence, const char *provenance, GError **error)
{
  g_autofree char *normalized = NULL;
  g_auto (GStrv) refused = NULL;
  const Slot *slot;
  Slot after;

  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (symbol < self->n_slots, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (status == DC_KEY_PROPOSED || status == DC_KEY_INFERRED
                            || status == DC_KEY_CONFIRMED,
                        FALSE);
  g_return_val_if_fail (level > DC_KEY_LEVEL_NONE && level <= DC_KEY_LEVEL_LAST, FALSE);
  g_return_val_if_fail (confidence <= 1.0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (status == DC_KEY_CONFIRMED)
    level = DC_KEY_LEVEL_USER;
  if (confidence < 0)
    confidence = level_confidence[level];

  normalized = dc_key_normalize_value (value, error);
  if (normalized == NULL)
    return FALSE;

  slot = &self->slots[symbol];
  /* Issue 31: a value the user rejected stays rejected, whatever evidence offers it again
   * (the same cmap, code page or reading would bring it back at every pass); only the
   * user's own word (typed, assigned, accepted) gives it back, and lifts the refusal. */
  if (level != DC_KEY_LEVEL_USER && strv_has (slot->refused, normalized))
    {
      g_set_error (error, DC_ERROR, DC_ERROR_REFUSED,
                   _("“%s” was rejected for this symbol; only the user can give it again."),
                      normalized);
      return FALSE;
    }
  refused = refused_with (slot->refused, NULL, level == DC_KEY_LEVEL_USER ? normalized : NULL);
  after.value = normalized;
  after.provenance = (char *) provenance;
  after.status = status;
  after.level = level;
  after.confidence = confidence;
  after.refused = refused;

  if (slot->value != NULL && strcmp (slot->value, normalized) == 0)
    {
      /* Agreement: keep the best of both, and say where the stronger part came from. */
      if (status_rank (status) <= status_rank (slot->status) && level <= slot->level
          && confidence <= slot->confidence
          && strv_same ((const char *const *) refused, (const char *const *) slot->refused))
        return TRUE;
      /* A proposal less sure than the value now applied lends it neither its level nor
       * its reason: the value rests on its own evidence (issue 31: an untrusted cmap's
       * space at 10 % is no font-level space once the ink says so). */
      gboolean weaker_proposal = slot->status == DC_KEY_PROPOSED
                                 && status_rank (status) > status_rank (slot->status)
                                 && slot->confidence < confidence;

      if (status_rank (slot->status) > status_rank (status))
        after.status = slot->status;
      if (slot->level > level && !weaker_proposal)
        {
          after.level = slot->level;
          after.provenance = slot->provenance;
        }
      if (!weaker_proposal)
        after.confidence = MAX (slot->confidence, confidence);
    }
  else if (!may_replace (slot, status, level, confidence))
    {
      set_conflict (self, symbol, normalized, level, provenance, error);
      return FALSE;
    }

  dc_key_begin_change (self, provenance);
  record_and_apply (self, symbol, &after);
  dc_key_end_change (self);
  return TRUE;
}

/**
 * dc_key_forget:
 *
 * Puts @symbol back as it started: the PDF's text for a trusted font, unknown otherwise.
 * Undoable like any set.
 */
void
dc_key_forget (DcKey *self, guint symbol)
{
  Slot seed = { 0 };

  g_return_if_fail (DC_IS_KEY (self));
  g_return_if_fail (symbol < self->n_slots);

  seed_slot (self, symbol, &seed);
  /* What the user rejected stays rejected: forgetting a value is no change of mind. */
  seed.refused = g_strdupv (self->slots[symbol].refused);
  if (seed.status != self->slots[symbol].status
      || g_strcmp0 (seed.value, self->slots[symbol].value) != 0)
    {
      dc_key_begin_change (self, _("Forget"));
      record_and_apply (self, symbol, &seed);
      dc_key_end_change (self);
    }
  _dc_key_slot_clear (&seed);
}

/**
 * dc_key_take_back:
 *
 * Makes @symbol unknown, whatever started it: for a value the document's own evidence
 * gave (a ToUnicode, a cmap) that a check of the glyph's outline contradicts, which
 * dc_key_forget() would only put back. A confirmed value is the user's and stays.
 * Undoable like any set.
 *
 * Returns: %TRUE when the symbol held a value and now is unknown
 */
gboolean
dc_key_take_back (DcKey *self, guint symbol)
{
  Slot unknown = { 0 };

  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (symbol < self->n_slots, FALSE);

  if (self->slots[symbol].status == DC_KEY_UNKNOWN
      || self->slots[symbol].status == DC_KEY_CONFIRMED)
    return FALSE;
  unknown.refused = self->slots[symbol].refused;
  dc_key_begin_change (self, _("Forget"));
  record_and_apply (self, symbol, &unknown);
  dc_key_end_change (self);
  return TRUE;
}

/**
 * dc_key_reject:
 *
 * The user says @symbol's value is wrong: the symbol becomes unknown and its value is
 * refused for it from then on. No level sets a refused value again (dc_key_set_full()
 * fails with %DC_ERROR_REFUSED), however strong its evidence; the user's own word
 * (%DC_KEY_LEVEL_USER) still may, and lifts the refusal. The refusals are part of the
 * symbol's state: a project keeps them, and undoing the step brings the value back
 * unrefused. Undoable like any set.
 *
 * Returns: %TRUE when the symbol held a value and now is unknown with it refused
 */
gboolean
dc_key_reject (DcKey *self, guint symbol)
{
  g_auto (GStrv) refused = NULL;
  Slot unknown = { 0 };

  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (symbol < self->n_slots, FALSE);

  if (self->slots[symbol].status == DC_KEY_UNKNOWN || self->slots[symbol].value == NULL)
    return FALSE;
  refused = refused_with (self->slots[symbol].refused, self->slots[symbol].value, NULL);
  unknown.refused = refused;
  dc_key_begin_change (self, _("Reject"));
  record_and_apply (self, symbol, &unknown);
  dc_key_end_change (self);
  return TRUE;
}

/**
 * dc_key_is_refused:
 * @value: a value as the key holds it (normalised, dc_key_normalize_value())
 *
 * Returns: whether the user rejected @value for @symbol (dc_key_reject())
 */
gboolean
dc_key_is_refused (DcKey *self, guint symbol, const char *value)
{
  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (symbol < self->n_slots, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  return strv_has (self->slots[symbol].refused, value);
}

/**
 * dc_key_get_refused:
 *
 * Returns: (nullable) (array zero-terminated=1): the values the user rejected for
 *   @symbol, the oldest first, or %NULL when none
 */
const char *const *
dc_key_get_refused (DcKey *self, guint symbol)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);
  g_return_val_if_fail (symbol < self->n_slots, NULL);

  return (const char *const *) self->slots[symbol].refused;
}

/* A project's refusals for @symbol, taken over as part of the pending step: the rest of
 * its state is set through dc_key_set_full(), which keeps the refusals it finds. */
void
_dc_key_set_refused (DcKey *self, guint symbol, const char *const *refused)
{
  Slot after = { 0 };

  g_return_if_fail (DC_IS_KEY (self));
  g_return_if_fail (symbol < self->n_slots);

  if (strv_same (refused, (const char *const *) self->slots[symbol].refused))
    return;
  slot_copy (&after, &self->slots[symbol]);
  g_clear_pointer (&after.refused, g_strfreev);
  after.refused = refused != NULL && refused[0] != NULL ? g_strdupv ((char **) refused) : NULL;
  dc_key_begin_change (self, _("Reject"));
  record_and_apply (self, symbol, &after);
  dc_key_end_change (self);
  _dc_key_slot_clear (&after);
}

/**
 * dc_key_begin_change:
 * @label: (nullable): how the step reads in an Undo menu, e.g. "type: «слово»"
 *
 * Groups every set until the matching dc_key_end_change() into one undoable step, and one
 * #DcKey::changed emission. Pairs nest; the outermost label names the step.
 */
void
dc_key_begin_change (DcKey *self, const char *label)
{
  g_return_if_fail (DC_IS_KEY (self));

  if (self->depth++ == 0)
    {
      g_assert (self->pending == NULL);
      self->pending = _dc_key_change_new (label);
    }
}

void
dc_key_end_change (DcKey *self)
{
  gboolean could_undo, could_redo;
  Change *change;

  g_return_if_fail (DC_IS_KEY (self));
  g_return_if_fail (self->depth > 0);

  if (--self->depth > 0)
    return;

  change = g_steal_pointer (&self->pending);
  if (change->edits->len == 0)
    {
      _dc_key_change_free (change);
      return;
    }

  could_undo = dc_key_can_undo (self);
  could_redo = dc_key_can_redo (self);
  g_ptr_array_add (self->undo_stack, change);
  g_ptr_array_set_size (self->redo_stack, 0);

  flush_changed (self);
  _dc_key_notify_undo_state (self, could_undo, could_redo);
}

gboolean
dc_key_can_undo (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), FALSE);

  return self->undo_stack->len > 0;
}

gboolean
dc_key_can_redo (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), FALSE);

  return self->redo_stack->len > 0;
}

/* Returns: (nullable): the label of the step dc_key_undo() would revert. */
const char *
dc_key_get_undo_label (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);

  if (self->undo_stack->len == 0)
    return NULL;
  return ((Change *) g_ptr_array_index (self->undo_stack, self->undo_stack->len - 1))->label;
}

const char *
dc_key_get_redo_label (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), NULL);

  if (self->redo_stack->len == 0)
    return NULL;
  return ((Change *) g_ptr_array_index (self->redo_stack, self->redo_stack->len - 1))->label;
}

/* Moves the last step of @from onto @to, replaying it backwards or forwards. */
static gboolean
replay (DcKey *self, GPtrArray *from, GPtrArray *to, gboolean backwards)
{
  gboolean could_undo = dc_key_can_undo (self);
  gboolean could_redo = dc_key_can_redo (self);
  Change *change;

  if (from->len == 0)
    return FALSE;

  change = g_ptr_array_steal_index (from, from->len - 1);
  if (backwards)
    {
      for (guint i = change->edits->len; i-- > 0;)
        _dc_key_apply_edit (self, &g_array_index (change->edits, Edit, i), TRUE);
    }
  else
    {
      for (guint i = 0; i < change->edits->len; i++)
        _dc_key_apply_edit (self, &g_array_index (change->edits, Edit, i), FALSE);
    }
  g_ptr_array_add (to, change);

  flush_changed (self);
  _dc_key_notify_undo_state (self, could_undo, could_redo);
  return TRUE;
}

/* Reverts the last step, every symbol it set at once. Returns: %FALSE if there was none. */
gboolean
dc_key_undo (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (self->depth == 0, FALSE);

  return replay (self, self->undo_stack, self->redo_stack, TRUE);
}

gboolean
dc_key_redo (DcKey *self)
{
  g_return_val_if_fail (DC_IS_KEY (self), FALSE);
  g_return_val_if_fail (self->depth == 0, FALSE);

  return replay (self, self->redo_stack, self->undo_stack, FALSE);
}

/**
 * dc_key_count_decoded:
 * @n_symbols: (out) (optional): symbols that needed decoding and now have a value
 * @n_glyphs: (out) (optional): their occurrences
 *
 * Only symbols of untrusted fonts count, and only inferred or confirmed values: a
 * proposal is not decoded yet, and an ignored glyph ("") is. Glyphs are counted by what
 * each reads: an occurrence split off its symbol is decoded, and a symbol is when each of
 * its occurrences is (see _dc_key_count_symbol()).
 */
void
dc_key_count_decoded (DcKey *self, guint *n_symbols, guint *n_glyphs)
{
  g_return_if_fail (DC_IS_KEY (self));

  if (n_symbols)
    *n_symbols = self->n_decoded_symbols;
  if (n_glyphs)
    *n_glyphs = self->n_decoded_glyphs;
}

/* What dc_key_count_decoded() counts towards: every symbol of the untrusted fonts. */
void
dc_key_count_to_decode (DcKey *self, guint *n_symbols, guint *n_glyphs)
{
  g_return_if_fail (DC_IS_KEY (self));

  if (n_symbols)
    *n_symbols = self->n_to_decode_symbols;
  if (n_glyphs)
    *n_glyphs = self->n_to_decode_glyphs;
}

/**
 * dc_key_value_func:
 * @key: a #DcKey, as user data
 *
 * A #DcValueFunc, so that dc_export_document (document, format, dc_key_value_func, key)
 * renders the text as far as it is recovered.
 */
const char *
dc_key_value_func (guint symbol, gpointer key)
{
  return dc_key_get_value (key, symbol);
}

void
_dc_key_slot_free (gpointer data)
{
  _dc_key_slot_clear (data);
  g_free (data);
}

void
_dc_key_entry_clear (DcKeyEntry *entry)
{
  g_clear_pointer (&entry->value, g_free);
  g_clear_pointer (&entry->provenance, g_free);
  g_clear_pointer (&entry->refused, g_strfreev);
}

/* A stored state back into a slot. The document's own states (unknown, the PDF's text) are
 * not stored with a value: they are what the document says now, and an entry that claims
 * the other one of the two describes some other document. */
gboolean
_dc_key_slot_from_entry (DcKey *self, const DcKeyEntry *entry, Slot *slot)
{
  g_assert (entry->symbol < self->n_slots);

  if (entry->on_glyph)
    return _dc_key_split_slot_from_entry (self, entry, slot);
  if (entry->status == DC_KEY_UNKNOWN || entry->status == DC_KEY_FROM_PDF)
    {
      seed_slot (self, entry->symbol, slot);
      slot->refused = g_strdupv (entry->refused);
      if (slot->status == entry->status)
        return TRUE;
      if (entry->status != DC_KEY_UNKNOWN || entry->refused == NULL)
        return FALSE;
      /* A trusted font's text the user rejected: unknown, as dc_key_reject() left it. */
      g_clear_pointer (&slot->value, g_free);
      g_clear_pointer (&slot->provenance, g_free);
      slot->status = DC_KEY_UNKNOWN;
      slot->level = DC_KEY_LEVEL_NONE;
      slot->confidence = 0;
      return TRUE;
    }
  if (entry->value == NULL)
    return FALSE;

  slot->value = g_strdup (entry->value);
  slot->provenance = g_strdup (entry->provenance);
  slot->status = entry->status;
  slot->level = entry->level;
  slot->confidence = entry->confidence;
  slot->refused = g_strdupv (entry->refused);
  if (slot->level == DC_KEY_LEVEL_NONE)
    slot->level = dc_key_level_for_status (entry->status, entry->provenance);
  if (entry->status == DC_KEY_CONFIRMED)
    slot->level = DC_KEY_LEVEL_USER;
  if (slot->confidence <= 0 || slot->confidence > 1)
    slot->confidence = level_confidence[slot->level];
  return TRUE;
}

/* Loading a project replaces what the key knows: it is where the user left off, not a
 * step they could undo into some half state, so the history starts afresh (and
 * _dc_key_restore_steps() may then bring back the steps the project kept). */
void
_dc_key_restore (DcKey *self, const DcKeyEntry *entries, guint n_entries)
{
  gboolean could_undo, could_redo;

  g_return_if_fail (DC_IS_KEY (self));
  g_return_if_fail (self->depth == 0);

  could_undo = dc_key_can_undo (self);
  could_redo = dc_key_can_redo (self);

  for (guint s = 0; s < self->n_slots; s++)
    {
      Slot seed = { 0 };

      seed_slot (self, s, &seed);
      if (seed.status != self->slots[s].status || g_strcmp0 (seed.value, self->slots[s].value) != 0
          || g_strcmp0 (seed.provenance, self->slots[s].provenance) != 0
          || self->slots[s].refused != NULL)
        apply_slot (self, s, &seed);
      _dc_key_slot_clear (&seed);
    }

  _dc_key_clear_splits (self);
  for (guint i = 0; i < n_entries; i++)
    {
      Slot slot = { 0 };

      g_assert (entries[i].value != NULL || entries[i].refused != NULL);
      if (entries[i].on_glyph)
        {
          if (_dc_key_slot_from_entry (self, &entries[i], &slot))
            _dc_key_apply_split (self, entries[i].glyph, &slot);
          _dc_key_slot_clear (&slot);
          continue;
        }
      if (_dc_key_slot_from_entry (self, &entries[i], &slot))
        apply_slot (self, entries[i].symbol, &slot);
      _dc_key_slot_clear (&slot);
    }

  g_ptr_array_set_size (self->undo_stack, 0);
  g_ptr_array_set_size (self->redo_stack, 0);

  if (self->n_changed > 0)
    self->n_changed = 2;
  flush_changed (self);
  _dc_key_notify_undo_state (self, could_undo, could_redo);
}
