# Sourced by .ci/run: fuzz the structured Markdown plan dialect — the
# Markdown lexer (lossless), the plan parser (no panic, block content equals
# its span, every byte placed once) and plangram fix (idempotent, no
# improperly nested fence left, block content kept).
fuzz ./lexer FuzzMarkdown 100000
fuzz ./grammar FuzzPlan 30000
fuzz ./fix FuzzFix 20000
