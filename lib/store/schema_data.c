/*
 * schema_data — the YAML schemas of hdf5-schema/, embedded into the binary so that the validator
 * and `ladder schema` use exactly the checked-in text, wherever ladder is installed.
 */
__asm__(".section .rodata\n"
	".global ladder_schema_run_yaml\n"
	"ladder_schema_run_yaml:\n"
	".incbin \"hdf5-schema/run.yaml\"\n"
	".byte 0\n"
	".global ladder_schema_run_v1_yaml\n"
	"ladder_schema_run_v1_yaml:\n"
	".incbin \"hdf5-schema/run-1.yaml\"\n"
	".byte 0\n"
	".global ladder_schema_campaign_yaml\n"
	"ladder_schema_campaign_yaml:\n"
	".incbin \"hdf5-schema/campaign.yaml\"\n"
	".byte 0\n"
	".global ladder_schema_history_yaml\n"
	"ladder_schema_history_yaml:\n"
	".incbin \"hdf5-schema/history.yaml\"\n"
	".byte 0\n"
	".previous\n");
