# Sourced by .ci/run: fuzz the schema file reader (no panic, errors
# positioned inside the file).
fuzz ./schema FuzzSchemaParse 30000
