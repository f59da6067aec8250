/* decipher-cli-commands.h: the commands that read one document, and what they share of
 * decipher-cli.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher.h"

G_BEGIN_DECLS

/* decipher-cli.c: the options parsed (NULL, FALSE or -1: not given), an error said on
 * standard error, and the key that text, repair and fonts --json work from. */
extern char *decipher_cli_opt_password;
extern gboolean decipher_cli_opt_json;
extern char *decipher_cli_opt_format;
extern char *decipher_cli_opt_normalize;
extern char *decipher_cli_opt_project;
extern char *decipher_cli_opt_output;
extern int decipher_cli_opt_font;

void decipher_cli_print_error (const char *message);
DcKey *decipher_cli_load_key (DcDocument *document);

/* decipher-cli-glyphs.c */
int decipher_cli_command_glyphs (DcDocument *document, int argc, char **argv);

/* decipher-cli-fonts.c */
int decipher_cli_command_fonts (DcDocument *document, int argc, char **argv);

/* decipher-cli-export.c */
int decipher_cli_command_text (DcDocument *document, int argc, char **argv);
int decipher_cli_command_repair (DcDocument *document, int argc, char **argv);

G_END_DECLS
