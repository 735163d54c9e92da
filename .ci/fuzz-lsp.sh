# Sourced by .ci/run (which defines fuzz): the language server's handlers
# (hover, completion, symbols, quick fix, ranged changes) on arbitrary text
# and positions.
fuzz ./lsp FuzzHandlers 10000
