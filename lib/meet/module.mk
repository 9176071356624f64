# meet: would the calls of a run meet, and can it be replayed at all — the communicator instances
# of a run (comms), each call's communication facts (call_facts), the counts of sends, receives,
# collectives and requests that must agree (balance) and the checks before a replay (replayable);
# asked by extrap, replay, proxy and export
CORE_SRCS += $(wildcard lib/meet/*.c)
