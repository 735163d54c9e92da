#!/usr/bin/env bash
# Installs Neovim from Debian's packages when it is missing, so the LSP test
# with a real editor (lsp.TestNeovim: headless Neovim's built-in client starts
# `plangram lsp` on a plan and receives its diagnostics) runs instead of
# skipping. Debian 12 ships Neovim 0.7.2: the test uses vim.lsp.start on
# 0.8+ and vim.lsp.start_client + buf_attach_client before that.
set -euo pipefail
if command -v nvim >/dev/null 2>&1; then
  echo "== neovim: $(nvim --version | head -1)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "== neovim: WARNING: no nvim and no apt-get; lsp.TestNeovim will SKIP" >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo -n"
  else
    echo "== neovim: WARNING: not root and no sudo; lsp.TestNeovim will SKIP" >&2
    exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends neovim >/dev/null
echo "== neovim: installed $(nvim --version | head -1)"
