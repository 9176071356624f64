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

static int run_schema(int argc, char **argv)
{
	static const struct option opts[] = {{"yaml", no_argument, NULL, 'y'},
					     {"help", no_argument, NULL, 'h'}, {0}};
	bool yaml = false;
	int c;
	while ((c = cmd_getopt(argc, argv, "yh", opts, "schema")) != -1) {
		if (c == 'y')
			yaml = true;
		else
			return EXIT_USAGE;
	}
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
	"group and dataset with its type, shape, fields, units and meaning, and the invariants.\n"
	"--yaml prints the machine-readable description the validator reads (hdf5-schema/KIND.yaml).\n",
	run_schema, NULL, NULL,
};
