/* dc-key-set.c: a symbol's value set, forgotten, taken back or rejected
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Split from dc-key.c: which values a symbol may take and which wins (levels,
 * confidence, conflicts between levels, dc_key_set_full()), what a value may be
 * (dc_key_normalize_value()), and the values the user rejected, which no level sets
 * again.
 */

#define G_LOG_DOMAIN "dc-key"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dc-error.h"
#include "dc-key-state-private.h"
#include "dc-unicode-private.h"

/* NFC composes at most a handful of code points into one (Hangul L V T, a letter with
 * three marks), so anything longer than this cannot normalise down to the limit: no need
 * to normalise a pasted page to find out. */
#define MAX_VALUE_CHARS_BEFORE_NFC (DC_KEY_MAX_VALUE_CHARS * 4)

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
      if (_dc_unichar_is_noncharacter (c))
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
  _dc_key_slot_copy (&edit.before, &self->slots[symbol]);
  _dc_key_slot_copy (&edit.after, after);
  g_array_append_val (self->pending->edits, edit);
  /* From the edit's own copy: @after may point into the slot being replaced. */
  _dc_key_apply_slot (self, symbol, &edit.after);
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
    confidence = dc_key_level_get_default_confidence (level);

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

  _dc_key_seed_slot (self, symbol, &seed);
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
  _dc_key_slot_copy (&after, &self->slots[symbol]);
  g_clear_pointer (&after.refused, g_strfreev);
  after.refused = refused != NULL && refused[0] != NULL ? g_strdupv ((char **) refused) : NULL;
  dc_key_begin_change (self, _("Reject"));
  record_and_apply (self, symbol, &after);
  dc_key_end_change (self);
  _dc_key_slot_clear (&after);
}
