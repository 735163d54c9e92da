# Sourced by .ci/run: the coarse lexer's jumping scan (CoarseToken) keeps
# the fence rules on every token and Detect agrees with its line-by-line
# statement. FuzzActs (in .ci/run) checks the acts parse's invariants
# (spans inside the input and in order, blocks byte for byte, every byte in
# one node).
fuzz ./lexer FuzzCoarseToken 50000
