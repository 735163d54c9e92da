package tools_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/stream"
	"github.com/plangram/plangram/typed/tools"
)

// Decode each streamed tool call into its typed form as soon as it is
// complete.
func ExampleDecodeAction() {
	answer := "Listing first.<list_files><path>src</path><recursive>true</recursive></list_files>"
	err := stream.Parse(context.Background(), strings.NewReader(answer), 4, stream.Options{}, func(e *stream.Event) error {
		if e.Type != stream.ToolCall {
			return nil
		}
		call, err := tools.DecodeAction(&ast.Action{Name: e.Name, Params: e.Params, Span: e.Span})
		if err != nil {
			return err
		}
		if ls, ok := call.(*tools.ListFiles); ok {
			fmt.Printf("list %s recursively: %v (call at %s)\n", ls.Path, ls.Recursive, ls.Source().Span.Start)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// list src recursively: true (call at 1:15)
}
