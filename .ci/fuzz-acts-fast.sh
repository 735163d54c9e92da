# Sourced by .ci/run: the coarse lexer's jumping scan (CoarseToken, Detect)
# against a line-by-line scan. FuzzActs (in .ci/run) compares the
# hand-written acts parse with the participle grammar of record.
fuzz ./lexer FuzzCoarseToken 50000
