# Sourced by .ci/run: fuzz a didChange message's ranged changes
# (lsp/changes.go) against the byte ranges they name.
fuzz ./lsp FuzzApplyChanges 3000
