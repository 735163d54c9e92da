# Sourced by .ci/run: a didChange message's ranged changes applied to the
# chunked text (lsp/changes.go) against the change-by-change reference.
fuzz ./lsp FuzzApplyChanges 3000
