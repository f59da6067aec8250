/* decipher.h: the engine's public header
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#define DECIPHER_INSIDE

#include "dc-auto.h"
#include "dc-document.h"
#include "dc-error.h"
#include "dc-export.h"
#include "dc-file.h"
#include "dc-fingerprint.h"
#include "dc-font.h"
#include "dc-font-tables.h"
#include "dc-json.h"
#include "dc-key.h"
#include "dc-library.h"
#include "dc-map.h"
#include "dc-matcher.h"
#include "dc-memory.h"
#include "dc-parallel.h"
#include "dc-pipeline.h"
#include "dc-poppler-lock.h"
#include "dc-project.h"
#include "dc-proposals.h"
#include "dc-language.h"
#include "dc-recognize.h"
#include "dc-references.h"
#include "dc-repair.h"
#include "dc-search.h"
#include "dc-script.h"
#include "dc-session.h"
#include "dc-suggest.h"
#include "dc-types.h"

#undef DECIPHER_INSIDE
