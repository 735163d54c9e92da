# Sourced by .ci/run: edit-stream's fuzz targets, with short exec counts
# (the edit-format stream parser agrees with the whole-document parse for
# any chunking; each edit syntax's events have the chunking property and
# agree with the parse).
fuzz ./grammar FuzzEditStream 2000
fuzz ./stream FuzzEditSyntax 500
