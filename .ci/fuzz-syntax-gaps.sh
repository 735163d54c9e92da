# Sourced by .ci/run: fuzz syntax-gaps' additions: pythonic calls of the
# llama syntax (chunk invariance, spans, raw text, the --format openai
# argument fragments, a cut at a fuzzed byte).
fuzz ./stream FuzzPythonic 800
