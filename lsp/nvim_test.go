package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serveEnv makes the test binary itself the language server an editor
// starts (see TestNeovim): with it set, TestMain serves LSP on stdio.
const serveEnv = "PLANGRAM_LSP_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		err := Serve(context.Background(), stdioConn{}, Options{})
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type stdioConn struct{}

func (stdioConn) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdioConn) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdioConn) Close() error                { return nil }

var _ io.ReadWriteCloser = stdioConn{}

// nvimScript starts the server with Neovim's built-in LSP client
// (vim.lsp.start on 0.8+, vim.lsp.start_client on 0.7 as in Debian 12),
// waits for the diagnostics of the open buffer, asks for a hover, writes
// what it got as JSON and stops the client (shutdown, exit).
const nvimScript = `
local out = os.getenv("PLANGRAM_NVIM_OUT")
local config = {
  name = "plangram",
  cmd = { os.getenv("PLANGRAM_NVIM_SERVER") },
  cmd_env = { ["` + serveEnv + `"] = "1" },
  root_dir = os.getenv("PLANGRAM_NVIM_ROOT"),
}
local id
if vim.lsp.start then
  id = vim.lsp.start(config)
else
  id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(0, id)
end
local ok = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local diags = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code
  if code == nil and d.user_data and d.user_data.lsp then code = d.user_data.lsp.code end
  table.insert(diags, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
    severity = d.severity, code = code, source = d.source, message = d.message })
end
local hover = ""
local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 13, character = 6 } }
local res = vim.lsp.buf_request_sync(0, "textDocument/hover", params, 5000)
if res then
  for _, r in pairs(res) do
    if r.result and r.result.contents then hover = r.result.contents.value or "" end
  end
end
local f = io.open(out, "w")
f:write(vim.fn.json_encode({ ok = ok, version = tostring(vim.version().major) .. "." .. tostring(vim.version().minor),
  diags = diags, hover = hover }))
f:close()
vim.lsp.stop_client(id)
vim.wait(3000, function() return vim.lsp.get_client_by_id(id) == nil end, 50)
vim.cmd("qa!")
`

// TestNeovim proves the server with a real editor: headless Neovim opens a
// plan, its built-in LSP client starts the server (this test binary) and
// receives the diagnostics; Neovim turns their UTF-16 columns back into
// byte columns, which must be plangram's own.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("SKIPPING the real-editor LSP test: nvim is not installed " +
			"(CI installs it with .ci/setup-neovim.sh: apt-get install -y neovim)")
	}
	if testing.Short() {
		t.Skip("skipping the Neovim test in -short mode")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := workspaceRoot(t)
	plan := filepath.Join(root, "plan.md")
	if err := os.WriteFile(plan, []byte(planText), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "client.lua")
	if err := os.WriteFile(script, []byte(nvimScript), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.json")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", plan, "-c", "luafile "+script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"PLANGRAM_NVIM_OUT="+out, "PLANGRAM_NVIM_SERVER="+exe, "PLANGRAM_NVIM_ROOT="+root,
		"XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	logs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, logs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, logs)
	}
	var got struct {
		OK      bool   `json:"ok"`
		Version string `json:"version"`
		Hover   string `json:"hover"`
		Diags   []struct {
			Lnum     int    `json:"lnum"`
			Col      int    `json:"col"`
			EndLnum  int    `json:"end_lnum"`
			EndCol   int    `json:"end_col"`
			Severity int    `json:"severity"`
			Code     string `json:"code"`
			Source   string `json:"source"`
			Message  string `json:"message"`
		} `json:"diags"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	t.Logf("Neovim %s received %d diagnostics", got.Version, len(got.Diags))
	if !got.OK {
		t.Fatalf("Neovim received no diagnostics: %s\n%s", data, logs)
	}
	found := false
	for _, d := range got.Diags {
		if d.Code != "file-not-found" {
			continue
		}
		found = true
		// Line 15, byte columns 18-34 in plangram's terms: Neovim's 0-based
		// byte columns 17-33, converted back from UTF-16 units 17-27.
		if d.Lnum != 14 || d.Col != 17 || d.EndLnum != 14 || d.EndCol != 33 || d.Severity != 1 || d.Source != "plangram" {
			t.Errorf("diagnostic = %+v, want line 14, columns 17-33, error from plangram", d)
		}
	}
	if !found {
		t.Errorf("no file-not-found diagnostic in %s", data)
	}
	if !strings.Contains(got.Hover, "**EDIT**") {
		t.Errorf("hover = %q", got.Hover)
	}
}
