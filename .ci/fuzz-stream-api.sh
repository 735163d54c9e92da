# Sourced by .ci/run: fuzz stream-api's readers (tools registries; the SSE
# syntaxes and the openai writer are added below as they land).
fuzz ./schema FuzzFromTools 5000
