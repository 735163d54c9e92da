package ast_test

import (
	"fmt"

	"github.com/plangram/plangram/ast"
)

// RawExact writes a JSON value whose strings are not all UTF-8 with their
// exact bytes beside them; UnmarshalExact reads them back.
func ExampleRawExact() {
	raw, err := ast.RawExact(map[string]any{"find": "caf\xe9", "replace": "cafe"})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(raw))
	var edit struct{ Find, Replace string }
	if err := ast.UnmarshalExact(raw, &edit); err != nil {
		panic(err)
	}
	fmt.Printf("%q %q\n", edit.Find, edit.Replace)
	// Output:
	// {"find":"caf\ufffd","find_base64":"Y2Fm6Q==","replace":"cafe"}
	// "caf\xe9" "cafe"
}

// A parameter name that is not UTF-8 gets its exact bytes in
// params_keys_base64, and ApplyKeysBase64 renames it back.
func ExampleApplyKeysBase64() {
	ps := ast.Params{{Name: "caf\xe9", Value: "1"}}
	keys := map[string]any{"/caf\ufffd": "Y2Fm6Q=="}
	read := ast.Params{{Name: "caf\ufffd", Value: "1"}} // as read back from JSON
	if _, err := ast.ApplyKeysBase64(read, keys); err != nil {
		panic(err)
	}
	fmt.Println(read[0].Name == ps[0].Name)
	// Output: true
}

func ExampleEscapeInvalidUTF8() {
	fmt.Println(ast.EscapeInvalidUTF8("unknown key caf\xe9"))
	// Output: unknown key caf\xe9
}
