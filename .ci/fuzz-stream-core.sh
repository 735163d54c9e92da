# Sourced by .ci/run: stream-core's fuzz targets, with short exec counts.
fuzz ./stream FuzzSyntax 4000
