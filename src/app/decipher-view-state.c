/* decipher-view-state.c: what the window shows of its document, shared by the widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page on screen, the zoom, whether text is selected, what is searched and which
 * match is shown, the symbol the user has chosen, and the glyphs each part of the window
 * points out: one model the window owns and hands to the document view, the glyph
 * palette, the occurrence strip, the input pane, the search bar and the page sidebar. They bind to
 * its properties or listen to its notifications instead of reaching into each other, so a widget
 * can be tested, replaced or left out alone. The document view keeps it in step with what it shows
 * (the page scrolled to, the zoom) and answers its requests: a glyph to bring into view. Presses
 * and drags on the page come back through it as signals, for the widgets that act on them.
 */

#define G_LOG_DOMAIN "decipher-view-state"

#include "config.h"

#include "decipher-view-state.h"

#include "decipher.h"

/* The document view's own limits (decipher-document-view.h). */
#define ZOOM_MIN 0.1
#define ZOOM_MAX 16.0

struct _DecipherViewState
{
  GObject parent_instance;

  guint page;
  guint n_pages;
  double zoom;
  gboolean has_selection;
  char *search_text;
  int current_hit;
  guint selected_symbol;                     /* DC_SYMBOL_NONE when none */
  GArray *marks[DECIPHER_N_MARKS];           /* of guint32 glyph indices, sorted, or NULL */
  guint first_line_in_view, n_lines_in_view; /* as the document view last drew them */
};

G_DEFINE_FINAL_TYPE (DecipherViewState, decipher_view_state, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_PAGE,
  PROP_N_PAGES,
  PROP_ZOOM,
  PROP_HAS_SELECTION,
  PROP_SEARCH_TEXT,
  PROP_CURRENT_HIT,
  PROP_SELECTED_SYMBOL,
  N_PROPS
};

enum
{
  MARKS_CHANGED,
  SHOW_GLYPH,
  GLYPH_PRESSED,
  RUN_SELECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
decipher_view_state_finalize (GObject *object)
{
  DecipherViewState *self = DECIPHER_VIEW_STATE (object);

  g_free (self->search_text);
  for (guint kind = 0; kind < DECIPHER_N_MARKS; kind++)
    g_clear_pointer (&self->marks[kind], g_array_unref);

  G_OBJECT_CLASS (decipher_view_state_parent_class)->finalize (object);
}

static void
decipher_view_state_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DecipherViewState *self = DECIPHER_VIEW_STATE (object);

  switch (prop_id)
    {
    case PROP_PAGE:
      g_value_set_uint (value, self->page);
      break;
    case PROP_N_PAGES:
      g_value_set_uint (value, self->n_pages);
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    case PROP_HAS_SELECTION:
      g_value_set_boolean (value, self->has_selection);
      break;
    case PROP_SEARCH_TEXT:
      g_value_set_string (value, self->search_text);
      break;
    case PROP_CURRENT_HIT:
      g_value_set_int (value, self->current_hit);
      break;
    case PROP_SELECTED_SYMBOL:
      g_value_set_uint (value, self->selected_symbol);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
decipher_view_state_set_property (GObject *object, guint prop_id, const GValue *value,
                                  GParamSpec *pspec)
{
  DecipherViewState *self = DECIPHER_VIEW_STATE (object);

  switch (prop_id)
    {
    case PROP_PAGE:
      decipher_view_state_set_page (self, g_value_get_uint (value));
      break;
    case PROP_N_PAGES:
      if (self->n_pages != g_value_get_uint (value))
        {
          self->n_pages = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_ZOOM:
      decipher_view_state_set_zoom (self, g_value_get_double (value));
      break;
    case PROP_HAS_SELECTION:
      decipher_view_state_set_has_selection (self, g_value_get_boolean (value));
      break;
    case PROP_SEARCH_TEXT:
      decipher_view_state_set_search_text (self, g_value_get_string (value));
      break;
    case PROP_CURRENT_HIT:
      decipher_view_state_set_current_hit (self, g_value_get_int (value));
      break;
    case PROP_SELECTED_SYMBOL:
      decipher_view_state_set_selected_symbol (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
decipher_view_state_class_init (DecipherViewStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = decipher_view_state_finalize;
  object_class->get_property = decipher_view_state_get_property;
  object_class->set_property = decipher_view_state_set_property;

  properties[PROP_PAGE] = g_param_spec_uint ("page", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_N_PAGES] = g_param_spec_uint ("n-pages", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_ZOOM] = g_param_spec_double ("zoom", NULL, NULL, ZOOM_MIN, ZOOM_MAX, 1.0, flags);
  properties[PROP_HAS_SELECTION] = g_param_spec_boolean ("has-selection", NULL, NULL, FALSE, flags);
  properties[PROP_SEARCH_TEXT] = g_param_spec_string ("search-text", NULL, NULL, NULL, flags);
  properties[PROP_CURRENT_HIT] = g_param_spec_int ("current-hit", NULL, NULL, -1, G_MAXINT, -1,
                                                   flags);
  properties[PROP_SELECTED_SYMBOL] = g_param_spec_uint ("selected-symbol", NULL, NULL, 0, G_MAXUINT,
                                                        DC_SYMBOL_NONE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The glyphs of one kind changed (DecipherMarkKind). */
  signals[MARKS_CHANGED] = g_signal_new ("marks-changed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                         G_TYPE_UINT);
  /* A request to whoever shows the pages: bring the glyph into view. */
  signals[SHOW_GLYPH] = g_signal_new ("show-glyph", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /* The user pressed the primary button on a glyph of the page. */
  signals[GLYPH_PRESSED] = g_signal_new ("glyph-pressed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                         G_TYPE_UINT);
  /* The user dragged across the glyphs from the first to the last, in reading order. */
  signals[RUN_SELECTED] = g_signal_new ("run-selected", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                        G_TYPE_UINT, G_TYPE_UINT);
}

static void
decipher_view_state_init (DecipherViewState *self)
{
  self->zoom = 1.0;
  self->current_hit = -1;
  self->selected_symbol = DC_SYMBOL_NONE;
}

DecipherViewState *
decipher_view_state_new (void)
{
  return g_object_new (DECIPHER_TYPE_VIEW_STATE, NULL);
}

guint
decipher_view_state_get_page (DecipherViewState *self)
{
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (self), 0);

  return self->page;
}

/* The page to show: the document view scrolls there, and says so here when the user
 * scrolls elsewhere. */
void
decipher_view_state_set_page (DecipherViewState *self, guint page)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  if (self->page == page)
    return;
  self->page = page;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
}

guint
decipher_view_state_get_n_pages (DecipherViewState *self)
{
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (self), 0);

  return self->n_pages;
}

double
decipher_view_state_get_zoom (DecipherViewState *self)
{
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (self), 1.0);

  return self->zoom;
}

void
decipher_view_state_set_zoom (DecipherViewState *self, double zoom)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  if (self->zoom == zoom)
    return;
  self->zoom = zoom;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

gboolean
decipher_view_state_get_has_selection (DecipherViewState *self)
{
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (self), FALSE);

  return self->has_selection;
}

void
decipher_view_state_set_has_selection (DecipherViewState *self, gboolean has_selection)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  has_selection = !!has_selection;
  if (self->has_selection == has_selection)
    return;
  self->has_selection = has_selection;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTION]);
}

const char *
decipher_view_state_get_search_text (DecipherViewState *self)
{
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (self), NULL);

  return self->search_text;
}

void
decipher_view_state_set_search_text (DecipherViewState *self, const char *text)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  if (g_strcmp0 (self->search_text, text) == 0)
    return;
  g_free (self->search_text);
  self->search_text = g_strdup (text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_TEXT]);
}

/* The lines the document view showed in its last frame (see
 * decipher_document_view_get_lines_in_view()): a typed word is looked for there first.
 * Not a property: it changes with every scroll, and only a query reads it. */
void
decipher_view_state_set_lines_in_view (DecipherViewState *self, guint first_line, guint n_lines)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  self->first_line_in_view = first_line;
  self->n_lines_in_view = n_lines;
}

/* Returns: %FALSE when no line was on screen */
gboolean
decipher_view_state_get_lines_in_view (DecipherViewState *self, guint *first_line, guint *n_lines)
{
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (self), FALSE);

  *first_line = self->first_line_in_view;
  *n_lines = self->n_lines_in_view;
  return self->n_lines_in_view > 0;
}

int
decipher_view_state_get_current_hit (DecipherViewState *self)
{
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (self), -1);

  return self->current_hit;
}

/* Which match of the search is shown, counted from 0, or -1. */
void
decipher_view_state_set_current_hit (DecipherViewState *self, int hit)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  hit = MAX (hit, -1);
  if (self->current_hit == hit)
    return;
  self->current_hit = hit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURRENT_HIT]);
}

guint
decipher_view_state_get_selected_symbol (DecipherViewState *self)
{
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (self), DC_SYMBOL_NONE);

  return self->selected_symbol;
}

/* The symbol the user chose in the palette, the popover or on the page, or
 * %DC_SYMBOL_NONE: the palette selects it, the page outlines its glyphs, the occurrence
 * strip shows them. The state does not know the document; whoever opens another one
 * sets %DC_SYMBOL_NONE first. */
void
decipher_view_state_set_selected_symbol (DecipherViewState *self, guint symbol)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  if (self->selected_symbol == symbol)
    return;
  self->selected_symbol = symbol;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_SYMBOL]);
}

static int
compare_glyphs (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/**
 * decipher_view_state_set_marks:
 * @glyphs: (array length=n_glyphs) (nullable): glyph indices, in any order
 *
 * Points out @glyphs as @kind, replacing the marks of that kind: how the input pane
 * shows the words to type next and the places a typed input may be, the search its
 * matches, and the conflict review the places that disagree. %NULL clears them.
 */
void
decipher_view_state_set_marks (DecipherViewState *self, DecipherMarkKind kind,
                               const guint32 *glyphs, guint n_glyphs)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));
  g_return_if_fail (kind < DECIPHER_N_MARKS);

  if (glyphs == NULL || n_glyphs == 0)
    {
      if (self->marks[kind] == NULL)
        return;
      g_clear_pointer (&self->marks[kind], g_array_unref);
    }
  else
    {
      /* Into the same memory as the last time: a search hands over all its matches again
       * as more come, a few hundred thousand glyphs, and memory fresh from the system
       * costs more to touch than to copy into. */
      if (self->marks[kind] == NULL)
        self->marks[kind] = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_glyphs);
      g_array_set_size (self->marks[kind], 0);
      g_array_append_vals (self->marks[kind], glyphs, n_glyphs);
      /* Sorted, glyphs are page by page: drawing a page looks at its own marks only. A
       * search hands over its matches sorted already, a few hundred thousand at times. */
      for (guint i = 1; i < n_glyphs; i++)
        if (glyphs[i - 1] > glyphs[i])
          {
            g_array_sort (self->marks[kind], compare_glyphs);
            break;
          }
    }
  g_signal_emit (self, signals[MARKS_CHANGED], 0, (guint) kind);
}

/**
 * decipher_view_state_get_marks:
 *
 * Returns: (array length=n_glyphs) (nullable): the glyphs marked as @kind, sorted
 */
const guint32 *
decipher_view_state_get_marks (DecipherViewState *self, DecipherMarkKind kind, guint *n_glyphs)
{
  g_return_val_if_fail (DECIPHER_IS_VIEW_STATE (self), NULL);
  g_return_val_if_fail (kind < DECIPHER_N_MARKS, NULL);
  g_return_val_if_fail (n_glyphs != NULL, NULL);

  *n_glyphs = self->marks[kind] != NULL ? self->marks[kind]->len : 0;
  return self->marks[kind] != NULL ? (const guint32 *) (void *) self->marks[kind]->data : NULL;
}

/* Another document: nothing pointed out in the last one means anything here. */
void
decipher_view_state_clear_marks (DecipherViewState *self)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  for (guint kind = 0; kind < DECIPHER_N_MARKS; kind++)
    decipher_view_state_set_marks (self, kind, NULL, 0);
}

/* Asks whoever shows the pages to bring @glyph into view. */
void
decipher_view_state_show_glyph (DecipherViewState *self, guint glyph)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  g_signal_emit (self, signals[SHOW_GLYPH], 0, glyph);
}

/* Said by whoever shows the pages: the user pressed on @glyph. */
void
decipher_view_state_glyph_pressed (DecipherViewState *self, guint glyph)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  g_signal_emit (self, signals[GLYPH_PRESSED], 0, glyph);
}

/* Said by whoever shows the pages: the user dragged across these glyphs. */
void
decipher_view_state_run_selected (DecipherViewState *self, guint first_glyph, guint last_glyph)
{
  g_return_if_fail (DECIPHER_IS_VIEW_STATE (self));

  g_signal_emit (self, signals[RUN_SELECTED], 0, first_glyph, last_glyph);
}
