/* dc-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "dc-error.h"

G_DEFINE_QUARK (dc - error - quark, dc_error)
