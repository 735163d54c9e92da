# Sourced by .ci/run: fuzz the edit formats (search-replace, udiff,
# apply-patch) — parse never panics, blocks, heads and prose tile the input,
# spans agree with their offsets — and their canonical printer (parse(fmt(x))
# means what parse(x) means, fmt is idempotent).
fuzz ./grammar FuzzEditFormats 20000
fuzz ./format FuzzFmtEdits 10000
