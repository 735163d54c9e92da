# Sourced by .ci/run: fuzz stream-api's readers: tools registries
# (positioned errors, converted schemas read back) and the provider API
# syntaxes (chunk invariance, events consistent with the input).
fuzz ./schema FuzzFromTools 5000
fuzz ./stream FuzzAPI 300
