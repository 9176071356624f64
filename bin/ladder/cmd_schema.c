/*
 * ladder schema — print a container schema: for people (Markdown) or as the machine-readable
 * YAML that the validator uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "store/schema.h"
#include "util/exitcode.h"

struct schema_opts {
	bool yaml;
};

static const struct opt schema_options[] = {
	OPT_FLAG('y', "yaml", struct schema_opts, yaml,
		 "print the machine-readable description the validator reads (hdf5-schema/KIND.yaml)"),
	OPT_END(),
};

static int run_schema(int argc, char **argv)
{
	struct schema_opts o = {0};
	int rc = cmd_parse_options("schema", schema_options, argc, argv, &o);
	if (rc >= 0)
		return rc;
	bool yaml = o.yaml;
	const char *kind = optind < argc ? argv[optind] : "run";
	if (optind < argc - 1 || !schema_text(kind))
		return cmd_usage_error("schema", "KIND is run, campaign or history");
	if (yaml)
		fputs(schema_text(kind), stdout);
	else {
		char *text = schema_markdown(kind);
		fputs(text, stdout);
		free(text);
	}
	return EXIT_OK;
}

const struct command command_schema = {
	"schema", "print a container schema",
	"usage: ladder schema [--yaml] [run|campaign|history]\n"
	"\n"
	"Print the schema of a container kind (default: run) as Markdown: root attributes, every\n"
	"group and dataset with its type, shape, fields, units and meaning, and the invariants.\n",
	run_schema, schema_options, NULL,
};
