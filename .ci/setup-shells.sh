# Sourced by .ci/run before the tests: cmd/plangram's TestCompletionShells
# loads `plangram completion zsh|fish` into real shells (and skips with a
# SKIP line without them). Debian's zsh and fish packages.
if ! command -v zsh >/dev/null || ! command -v fish >/dev/null; then
  echo "== installing zsh and fish (for the completion test)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y zsh fish || { apt-get update && apt-get install -y zsh fish; } || echo "zsh/fish not installed: TestCompletionShells will skip them"
fi
