/* fuzz-common.h: what every fuzz target needs besides its own entry point
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stddef.h>
#include <stdint.h>

#include <gio/gio.h>

G_BEGIN_DECLS

/* The two entry points libFuzzer calls, and standalone-driver.c too. */
int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

void dc_fuzz_init (void);
void dc_fuzz_hold_poppler_globals (void);
void dc_fuzz_note (const char *format,
                   ...) G_GNUC_PRINTF (1, 2);
const char *dc_fuzz_write_input (const char *name,
                                 const uint8_t *data,
                                 size_t size);
const char *dc_fuzz_get_input_dir (void);
char *dc_fuzz_fixture_path (const char *file);
gboolean dc_fuzz_json_is_valid (const char *text,
                                gsize length);
void dc_fuzz_json_self_test (void);
void dc_fuzz_deadline_start (GCancellable *cancellable,
                             guint milliseconds);
void dc_fuzz_deadline_stop (void);

G_END_DECLS
