# Sourced by .ci/run (which defines fuzz): arbitrary messages to the
# language server between initialize and shutdown — the session survives
# every one (only exit or a broken transport ends it).
fuzz ./lsp FuzzMessages 3000
