# store: every container on disk (HDF5), and the schema validator
CORE_SRCS += $(wildcard lib/store/*.c)
# the schemas are embedded into the binary
$(BUILD)/obj/lib/store/schema_data.o: hdf5-schema/run.yaml hdf5-schema/run-1.yaml hdf5-schema/campaign.yaml hdf5-schema/history.yaml
