# Sourced by .ci/run before the tests: the browser test of `plangram render`
# (render/browser_test.go) opens pages in headless Chromium, and fails when
# it cannot start one (set PLANGRAM_SKIP_BROWSER=1 to skip it explicitly).
# Debian's chromium package; about a minute to install on a fresh machine.
if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium (for the render browser test)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update && apt-get install -y chromium
fi
/usr/bin/chromium --version 2>/dev/null || true
