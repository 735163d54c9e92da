package ast_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/plangram/plangram/ast"
)

// WriteJSON prints a document as `plangram parse --format json --compact`
// does, writing directly through a buffer.
func ExampleWriteJSON() {
	doc := &ast.Document{Dialect: "acts", Actions: []*ast.Action{{
		Name:   "run_command",
		Args:   []string{"go test <pkg>"},
		Params: ast.Params{{Name: "command", Value: "go test <pkg>"}},
	}}}
	if err := ast.WriteJSON(os.Stdout, doc, true); err != nil {
		panic(err)
	}
	// Output:
	// {"dialect":"acts","actions":[{"name":"run_command","args":["go test <pkg>"],"params":{"command":"go test <pkg>"},"blocks":[],"name_span":{"start":{"offset":0,"line":0,"col":0},"end":{"offset":0,"line":0,"col":0}},"span":{"start":{"offset":0,"line":0,"col":0},"end":{"offset":0,"line":0,"col":0}}}],"diagnostics":[],"span":{"start":{"offset":0,"line":0,"col":0},"end":{"offset":0,"line":0,"col":0}}}
}

// An action whose argument is not UTF-8 (a Latin-1 "é") keeps its bytes:
// the JSON shows U+FFFD and gives the exact bytes in args_base64 and
// params_base64, and reading the JSON back restores them.
func ExampleAction_UnmarshalJSON() {
	a := &ast.Action{Name: "echo", Args: []string{"caf\xe9", "ok"},
		Params: ast.Params{{Name: "text", Value: "caf\xe9"}}}
	data, err := a.MarshalJSON()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(data[:strings.Index(string(data), `,"blocks"`)]))
	var back ast.Action
	if err := json.Unmarshal(data, &back); err != nil {
		panic(err)
	}
	fmt.Printf("%q %q\n", back.Args, back.Params.String("text"))
	// Output:
	// {"name":"echo","args":["caf\ufffd","ok"],"args_base64":["Y2Fm6Q==",null],"params":{"text":"caf\ufffd"},"params_base64":{"text":"Y2Fm6Q=="}
	// ["caf\xe9" "ok"] "caf\xe9"
}

// DecodeValue converts a parameter value as a JSON round trip would,
// keeping the exact bytes of strings that are not UTF-8.
func ExampleDecodeValue() {
	v := []any{map[string]any{"find": "caf\xe9", "replace": "cafe"}}
	var pairs []struct {
		Find    string `json:"find"`
		Replace string `json:"replace"`
	}
	if err := ast.DecodeValue(v, &pairs); err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", pairs[0].Find)
	// Output:
	// "caf\xe9"
}

// ApplyBase64 puts the exact bytes of a base64 overlay (params_base64's
// member) back into a value read from JSON.
func ExampleApplyBase64() {
	v, err := ast.ApplyBase64([]any{"caf\ufffd", "ok"}, []any{"Y2Fm6Q==", nil})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", v)
	// Output:
	// ["caf\xe9" "ok"]
}
