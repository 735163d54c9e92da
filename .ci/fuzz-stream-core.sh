# Sourced by .ci/run: stream-core's fuzz targets, with short exec counts
# (chunk invariance of every registered syntax incl. non-ASCII input, and
# XML-family calls cut at fuzzed bytes).
fuzz ./stream FuzzSyntax 2000
fuzz ./stream FuzzXMLCut 1000
# The tools dialect read as a document (stream.ReadDocument) against the
# stream's own events.
fuzz ./stream FuzzReadDocument 3000
