# util: logging, allocation, byte buffers and varints, hashing, paths, files, processes, the thread's
# CPU clock (dependency-free)
PURE_SRCS += lib/util/log.c lib/util/xalloc.c lib/util/buf.c lib/util/idpool.c lib/util/path.c lib/util/file.c lib/util/spawn.c \
	lib/util/cpuclock.c lib/util/escape.c lib/util/options.c
