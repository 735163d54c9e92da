package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// zshExpect drives an interactive zsh through zsh/zpty as a user at a
// terminal: compinit with the script as _plangram in $fpath, then Tab
// after `plangram ch` and after `--st`. Each step waits for the completed
// word (60 s at most: compinit is slow on a loaded machine).
const zshExpect = `zmodload zsh/zpty || exit 3
zmodload zsh/datetime
expect() {
  local out="" chunk deadline=$(( EPOCHSECONDS + 60 ))
  while (( EPOCHSECONDS < deadline )); do
    while zpty -r -t z chunk; do out+=$chunk; done
    [[ $out == $~1 ]] && return 0
    sleep 0.1
  done
  print -r -- "no $1 in: ${(q)out}"; exit 1
}
zpty z 'zsh -f -i'
zpty -w z 'PS1="P> "; fpath=(` + "$DIR" + ` ${(M)fpath:#*/Completion(|/Base|/Unix|/Zsh)}); autoload -U compinit; compinit -u -D; print RE""ADY'
expect '*READY*P> *'
zpty -n -w z $'plangram ch\t'
expect '*plangram*check*'
zpty -n -w z $'--st\t'
expect '*--strict*'
zpty -n -w z $'\x03'
zpty -d z
print OK
`

// TestCompletionShells loads each completion script into its shell, when
// the shell is installed (.ci/setup-shells.sh installs zsh and fish), and
// completes a command name and a flag: the scripts must not only parse
// (`-n`) but work.
func TestCompletionShells(t *testing.T) {
	dir := t.TempDir()
	script := func(shell string) string {
		t.Helper()
		code, out, stderr := runCLI(t, "", "completion", shell)
		if code != exitOK {
			t.Fatalf("completion %s: exit %d %s", shell, code, stderr)
		}
		return out
	}
	run := func(name string, args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "DIR="+dir)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	t.Run("bash", func(t *testing.T) {
		if _, err := exec.LookPath("bash"); err != nil {
			t.Skip("SKIP: bash is not installed")
		}
		f := filepath.Join(dir, "plangram.bash")
		os.WriteFile(f, []byte(script("bash")+`
for line in "plangram ch" "plangram check --st" "plangram help fm" "plangram completion z"; do
  read -ra COMP_WORDS <<< "$line"; COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _plangram; echo "${COMPREPLY[*]}"
done
`), 0o644)
		if out, err := run("bash", "-n", f); err != nil {
			t.Fatalf("bash -n: %v %s", err, out)
		}
		if out, err := run("bash", f); err != nil || out != "check\n--strict\nfmt\nzsh\n" {
			t.Errorf("bash completion: %v %q", err, out)
		}
	})
	t.Run("zsh", func(t *testing.T) {
		if _, err := exec.LookPath("zsh"); err != nil {
			t.Skip("SKIP: zsh is not installed (.ci/setup-shells.sh installs it)")
		}
		if testing.Short() {
			t.Skip("drives an interactive zsh; skipped in -short mode")
		}
		f := filepath.Join(dir, "_plangram")
		os.WriteFile(f, []byte(script("zsh")), 0o644)
		if out, err := run("zsh", "-n", f); err != nil {
			t.Fatalf("zsh -n: %v %s", err, out)
		}
		out, err := run("zsh", "-f", "-c", zshExpect)
		if strings.Contains(out, "zpty") && !strings.Contains(out, "OK") {
			t.Skipf("SKIP: zsh/zpty unusable here: %v %s", err, out)
		}
		if err != nil || !strings.HasSuffix(out, "OK\n") {
			t.Errorf("zsh completion from $fpath: %v\n%s", err, out)
		}
	})
	t.Run("fish", func(t *testing.T) {
		if _, err := exec.LookPath("fish"); err != nil {
			t.Skip("SKIP: fish is not installed (.ci/setup-shells.sh installs it)")
		}
		f := filepath.Join(dir, "plangram.fish")
		os.WriteFile(f, []byte(script("fish")), 0o644)
		if out, err := run("fish", "-n", f); err != nil {
			t.Fatalf("fish -n: %v %s", err, out)
		}
		out, err := run("fish", "--no-config", "-c", "source "+f+`; complete -C "plangram ch"; complete -C "plangram check --st"; complete -C "plangram fmt -w"; complete -C "plangram completion z"`)
		if err != nil || out != "check\n--strict\n-w\nzsh\n" {
			t.Errorf("fish completion: %v %q", err, out)
		}
	})
}
