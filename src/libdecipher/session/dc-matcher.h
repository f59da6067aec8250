/* dc-matcher.h: typed words → the glyph runs they spell → new table entries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "dc-document.h"
#include "dc-key.h"

G_BEGIN_DECLS

typedef enum
{
  DC_MATCH_ASSIGNED,  /* exactly one run fits: its unknown symbols were learned */
  DC_MATCH_AMBIGUOUS, /* several runs fit differently: the caller picks one */
  DC_MATCH_NO_MATCH,  /* nothing fits; the reason says why */
  DC_MATCH_CONFLICT,  /* it fits only by contradicting values already held */
  DC_MATCH_KNOWN,     /* it fits, and teaches nothing new */
} DcMatchKind;

/* A run of tokens: @n_tokens tokens from token @token (0-based within @line). */
typedef struct
{
  guint line;
  guint token;
  guint n_tokens;
  int penalty; /* lower is likelier */
} DcMatchPlace;

typedef struct
{
  guint symbol;
  char *text;
} DcLearned;

/* Two pieces of evidence about one symbol that disagree. */
typedef struct
{
  guint symbol;
  char *current;            /* the value held */
  char *current_provenance; /* where it came from */
  char *proposed;           /* what the new input says */
  char *proposed_provenance;
  DcMatchPlace place;       /* where the new input matched */
  DcKeyLevel current_level; /* what kind of evidence each side is (DESIGN §7) */
  DcKeyLevel proposed_level;
} DcConflict;

typedef struct
{
  DcMatchKind kind;
  GArray *places;       /* of DcMatchPlace, best first */
  GArray *learned;      /* of DcLearned */
  GPtrArray *conflicts; /* of DcConflict */
  char *reason;         /* a sentence for no-match (and a summary otherwise) */
} DcMatchResult;

const char *dc_match_kind_to_string (DcMatchKind kind);
void dc_match_result_free (DcMatchResult *result);
void dc_conflict_free (DcConflict *conflict);
DcConflict *dc_conflict_copy (const DcConflict *conflict);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcMatchResult, dc_match_result_free)

#define DC_MATCHER_MAX_INPUT 65536 /* bytes of typed input */

#define DC_TYPE_MATCHER (dc_matcher_get_type ())

G_DECLARE_FINAL_TYPE (DcMatcher, dc_matcher, DC, MATCHER, GObject)

DcMatcher *dc_matcher_new (DcKey *key);
DcMatchResult *dc_matcher_type (DcMatcher *self, const char *text, int line, int token,
                                GError **error);
DcMatchResult *dc_matcher_type_in_view (DcMatcher *self, const char *text, int line, int token,
                                        int view_line, guint n_view_lines, GError **error);
gboolean dc_matcher_has_index (DcMatcher *self);

/* The index a query needs, built off the calling thread: a snapshot is taken here,
 * built anywhere, then adopted here (see dc_matcher_index_new()). */
typedef struct _DcMatcherIndex DcMatcherIndex;

DcMatcherIndex *dc_matcher_index_new (DcDocument *document);
void dc_matcher_index_build (DcMatcherIndex *index);
void dc_matcher_index_free (DcMatcherIndex *index);
gboolean dc_matcher_adopt_index (DcMatcher *self, DcMatcherIndex *index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DcMatcherIndex, dc_matcher_index_free)

guint dc_matcher_get_n_conflicts (DcMatcher *self);
void dc_matcher_add_conflict (DcMatcher *self, const DcConflict *conflict);
const DcConflict *dc_matcher_get_conflict (DcMatcher *self, guint index);
gboolean dc_matcher_resolve_conflict (DcMatcher *self, guint index, gboolean take_proposed,
                                      GError **error);

G_END_DECLS
