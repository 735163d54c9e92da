# Sourced by .ci/run: fuzz the incremental JSON argument reader (chunk
# invariance, agreement with encoding/json, spans) and the JSON tool-call
# syntaxes of package stream.
fuzz ./stream/jsonargs FuzzJSONArgs 20000
fuzz ./stream FuzzJSONSyntax 1500
