/* decipher-cli-collection.h: text and repair over many PDFs at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "decipher.h"

G_BEGIN_DECLS

typedef enum
{
  DECIPHER_CLI_COLLECTION_TEXT,
  DECIPHER_CLI_COLLECTION_MAP,
  DECIPHER_CLI_COLLECTION_REPAIR,
} DecipherCliCollectionKind;

typedef struct
{
  DecipherCliCollectionKind kind;
  DcExportFormat format;    /* with DECIPHER_CLI_COLLECTION_TEXT */
  const char *output_dir;   /* created when missing */
  const char *project_path; /* nullable: one document's work, carried to the others */
  const char *library_path; /* nullable: the font library */
  const char *password;     /* nullable: tried on every encrypted file */
  gboolean automatic_pass;
  gboolean overwrite; /* an existing result may be replaced (a regular file only) */
} DecipherCliCollection;

int decipher_cli_collection_item_main (int argc, char **argv);
int decipher_cli_collection_run (const DecipherCliCollection *collection, char **inputs,
                                 guint n_inputs);

G_END_DECLS
