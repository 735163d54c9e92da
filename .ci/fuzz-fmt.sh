# Sourced by .ci/run: fuzz plangram fmt — parse(fmt(x)) means what parse(x)
# means and fmt(fmt(x)) == fmt(x), for fenced acts (fence detected, forced
# backtick, forced tilde) and structured Markdown plans — and the review page
# renderer (no error, only known tags and attributes, safe hrefs, one card
# per action, every block's bytes shown), and its streamed page (the same bytes),
# and the code highlighter (its pieces are the block's bytes, in any language).
fuzz ./format FuzzFmt 30000
fuzz ./render FuzzRender 3000
fuzz ./render FuzzRenderStream 3000
fuzz ./render FuzzHighlight 20000
