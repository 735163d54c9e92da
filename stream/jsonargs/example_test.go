package jsonargs_test

import (
	"fmt"

	"github.com/plangram/plangram/stream/jsonargs"
)

// A model streams the arguments of a write_file call in three chunks; the
// content argument arrives as decoded text while it is written, even where
// a chunk ends inside an escape.
func Example() {
	p := jsonargs.New(jsonargs.Options{}, func(e jsonargs.Event) {
		switch e.Kind {
		case jsonargs.Delta:
			fmt.Printf("delta %s %q at %s\n", e.Key, e.Text, e.Span)
		case jsonargs.Value:
			fmt.Printf("value %s = %#v\n", e.Key, e.Value)
		case jsonargs.Error:
			fmt.Printf("%s: %s [%s]\n", e.Span.Start, e.Message, e.Code)
		case jsonargs.Done:
			fmt.Println("done")
		}
	})
	for _, chunk := range []string{`{"path": "a.txt", "content": "caf`, `\u00`, `e9\nbar", "mode": 420}`} {
		p.Feed([]byte(chunk))
	}
	p.Close()
	// Output:
	// delta path "a.txt" at 1:11-1:16
	// value path = "a.txt"
	// delta content "caf" at 1:31-1:34
	// delta content "é\nbar" at 1:34-1:45
	// value content = "café\nbar"
	// value mode = "420"
	// done
}

// Arguments given as a JSON string holding the object, cut short: the
// positions point into the source, and the open argument is reported with
// what was read of it.
func Example_nested() {
	p := jsonargs.New(jsonargs.Options{Envelope: []string{"arguments"}}, func(e jsonargs.Event) {
		switch e.Kind {
		case jsonargs.Field:
			fmt.Printf("field %s = %#v\n", e.Key, e.Value)
		case jsonargs.Value:
			fmt.Printf("value %s = %#v partial=%v\n", e.Key, e.Value, e.Partial)
		case jsonargs.Error:
			fmt.Printf("%s: %s [%s]\n", e.Span, e.Message, e.Code)
		}
	})
	p.Feed([]byte(`{"name": "read_file", "arguments": "{\"path\": \"src/ma`))
	p.Close()
	// Output:
	// field name = "read_file"
	// value path = "src/ma" partial=true
	// 1:37-1:56: JSON ends before the value is complete (want the closing '"') [unterminated]
}

// DecodeString decodes a whole JSON string body, piece by piece, with the
// offsets each piece comes from: what a reader of complete JSON (an SSE
// event) shares with the incremental Parser.
func ExampleDecodeString() {
	jsonargs.DecodeString([]byte(`caf\u00e9\n!`), func(dec []byte, from, to int) {
		fmt.Printf("%q from [%d, %d)\n", dec, from, to)
	})
	// Output:
	// "caf" from [0, 3)
	// "é" from [3, 9)
	// "\n" from [9, 11)
	// "!" from [11, 12)
}
