# Sourced by .ci/run: fuzz the schema file reader (no panic, errors
# positioned inside the file), and the Go generator (every schema the
# reader accepts generates code that type-checks).
fuzz ./schema FuzzSchemaParse 30000
fuzz ./codegen FuzzGen 5000
