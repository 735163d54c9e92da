package apply_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/plangram/plangram/apply"
	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
)

// Apply an acts plan to a project: the edit is made, the command is only
// listed. A plan whose checks fail changes nothing.
func ExampleApply() {
	root, _ := os.MkdirTemp("", "apply")
	defer os.RemoveAll(root)
	_ = os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc main() { println(1) }\n"), 0o644)

	plan := "~~~act\npatch_file main.go\n~~~\n~~~\nprintln(1)\n~~~\n~~~\nprintln(2)\n~~~\n" +
		"~~~act\nrun_command \"go test ./...\"\n~~~\n"
	doc, _ := grammar.Parse(context.Background(), "plan.md", []byte(plan), grammar.Options{})
	res, err := apply.Apply(context.Background(), []*ast.Document{doc}, root, apply.Options{})
	fmt.Println(err, res.Applied)
	for _, d := range res.Diagnostics[0] {
		fmt.Println(d.Format("plan.md"))
	}
	data, _ := os.ReadFile(filepath.Join(root, "main.go"))
	fmt.Printf("%q\n", data)

	bad := "~~~act\npatch_file main.go\n~~~\n~~~\nprintln(3)\n~~~\n~~~\nprintln(4)\n~~~\n"
	doc, _ = grammar.Parse(context.Background(), "bad.md", []byte(bad), grammar.Options{})
	_, err = apply.Apply(context.Background(), []*ast.Document{doc}, root, apply.Options{})
	fmt.Println(errors.Is(err, apply.ErrRefused))
	// Output:
	// <nil> true
	// plan.md:11:1: info: run_command is not run: apply only changes files; run the command yourself if it is wanted [command-not-run]
	// "package main\n\nfunc main() { println(2) }\n"
	// true
}
