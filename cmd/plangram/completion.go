package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// cmdCompletion prints a completion script for bash, zsh or fish: command
// names after `plangram`, each command's flags after it (taken from the
// flag sets themselves, so the scripts cannot drift), file names otherwise.
func cmdCompletion(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "completion", "bash|zsh|fish")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		return usageError(e, fmt.Errorf("completion takes one SHELL: bash, zsh or fish"))
	}
	cmds := commands()
	names := append(slices.Collect(maps.Keys(cmds)), "help")
	slices.Sort(names)
	// The words completed after each command: its flags, or the commands
	// after help and the shells after completion.
	words := map[string][]string{"help": names, "completion": {"bash", "zsh", "fish"}}
	for _, n := range names {
		if words[n] == nil {
			words[n] = commandFlags(ctx, cmds[n])
		}
	}
	var script string
	switch pos[0] {
	case "bash":
		script = bashCompletion(names, words)
	case "zsh":
		script = zshCompletion(names, cmds, words)
	case "fish":
		script = fishCompletion(names, words)
	default:
		return usageError(e, fmt.Errorf("completion: unknown shell %q (want bash, zsh or fish)", pos[0]))
	}
	fmt.Fprint(e.stdout, script)
	return exitOK
}

// commandFlags returns the "--name" flags of a command, read from its
// help output.
func commandFlags(ctx context.Context, c command) []string {
	var b strings.Builder
	he := &env{stdout: &b, stderr: &b}
	c.run(ctx, he, []string{"-h"})
	var out []string
	for _, line := range strings.Split(b.String(), "\n") {
		rest, ok := strings.CutPrefix(line, "  -")
		if !ok {
			continue
		}
		// `-x`, `--name`, or `-x, --name` (a short form on its long
		// flag's line), each maybe followed by its value's type.
		rest, _, _ = strings.Cut(rest, "\t")
		for _, f := range strings.Split(rest, ", ") {
			f = strings.TrimLeft(f, "-")
			f, _, _ = strings.Cut(f, " ")
			if len(f) == 1 {
				out = append(out, "-"+f)
			} else {
				out = append(out, "--"+f)
			}
		}
	}
	return out
}

func bashCompletion(names []string, words map[string][]string) string {
	var b strings.Builder
	b.WriteString("# bash completion for plangram: source <(plangram completion bash)\n")
	b.WriteString("_plangram() {\n  local cur=${COMP_WORDS[COMP_CWORD]}\n")
	b.WriteString("  if [ \"$COMP_CWORD\" -eq 1 ]; then\n")
	fmt.Fprintf(&b, "    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", strings.Join(names, " "))
	b.WriteString("  local words\n  case ${COMP_WORDS[1]} in\n")
	for _, n := range names {
		fmt.Fprintf(&b, "    %s) words=%q ;;\n", n, strings.Join(words[n], " "))
	}
	b.WriteString("  esac\n")
	b.WriteString("  if [[ $cur == -* || ${COMP_WORDS[1]} == help || ${COMP_WORDS[1]} == completion ]]; then\n")
	b.WriteString("    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\n")
	b.WriteString("complete -o filenames -F _plangram plangram\n")
	return b.String()
}

func fishCompletion(names []string, flags map[string][]string) string {
	var b strings.Builder
	b.WriteString("# fish completion for plangram: plangram completion fish > ~/.config/fish/completions/plangram.fish\n")
	fmt.Fprintf(&b, "complete -c plangram -n __fish_use_subcommand -f -a %q\n", strings.Join(names, " "))
	for _, n := range names {
		switch n {
		case "help":
			fmt.Fprintf(&b, "complete -c plangram -n '__fish_seen_subcommand_from help' -f -a %q\n", strings.Join(names, " "))
			continue
		case "completion":
			b.WriteString("complete -c plangram -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'\n")
			continue
		}
		for _, f := range flags[n] {
			if long, ok := strings.CutPrefix(f, "--"); ok {
				fmt.Fprintf(&b, "complete -c plangram -n '__fish_seen_subcommand_from %s' -l %s\n", n, long)
			} else {
				// -o (old-style), not -s: Go's flag package takes no
				// bundled short flags, so fish must not offer -wd.
				fmt.Fprintf(&b, "complete -c plangram -n '__fish_seen_subcommand_from %s' -o %s\n", n, strings.TrimPrefix(f, "-"))
			}
		}
	}
	return b.String()
}

// zshCompletion is a native zsh completion function (no bashcompinit): as
// a file `_plangram` in $fpath, autoloaded by compinit, it completes from
// the first Tab on; sourced after compinit, it registers itself.
func zshCompletion(names []string, cmds map[string]command, flags map[string][]string) string {
	var b strings.Builder
	b.WriteString("#compdef plangram\n")
	b.WriteString("# zsh completion for plangram: plangram completion zsh > \"${fpath[1]}/_plangram\"\n")
	b.WriteString("# (or, after compinit: source <(plangram completion zsh))\n")
	b.WriteString("_plangram() {\n  local -a commands flags\n  commands=(\n")
	for _, n := range names {
		summary := "print the commands, or one command's usage and flags"
		if c, ok := cmds[n]; ok {
			summary = c.summary
		}
		fmt.Fprintf(&b, "    %s\n", zshQuote(n+":"+strings.ReplaceAll(summary, ":", `\:`)))
	}
	b.WriteString("  )\n  if (( CURRENT == 2 )); then\n    _describe -t commands 'plangram command' commands\n    return\n  fi\n")
	b.WriteString("  case $words[2] in\n")
	b.WriteString("    help) (( CURRENT == 3 )) && _describe -t commands 'plangram command' commands; return ;;\n")
	b.WriteString("    completion) (( CURRENT == 3 )) && compadd bash zsh fish; return ;;\n")
	for _, n := range names {
		if n == "help" || n == "completion" {
			continue
		}
		fmt.Fprintf(&b, "    %s) flags=(%s) ;;\n", n, strings.Join(flags[n], " "))
	}
	b.WriteString("  esac\n")
	b.WriteString("  if [[ $PREFIX == -* ]]; then\n    compadd -a flags\n  else\n    _files\n  fi\n}\n")
	b.WriteString("if [[ $funcstack[1] == _plangram ]]; then\n  _plangram \"$@\"\nelse\n  compdef _plangram plangram\nfi\n")
	return b.String()
}

// zshQuote quotes s for zsh in single quotes.
func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
