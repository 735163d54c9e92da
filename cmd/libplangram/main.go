// Command libplangram is plangram's C ABI, built with
// `go build -buildmode=c-shared` into the shared library the Python package
// (python/, docs/python.md) loads. Every function takes bytes as a pointer
// and a length and returns JSON bytes in memory allocated with malloc, which
// the caller frees with plangram_free; no Go pointer crosses the boundary.
// A function returns NULL on success, or an error string (also freed with
// plangram_free) of the form "CLASS\tMESSAGE", CLASS being one of usage,
// refused, nothing, closed, handle, limit or error. Streams are integer
// handles into a map guarded by a mutex.
package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/plangram/plangram/apply"
	"github.com/plangram/plangram/ast"
	"github.com/plangram/plangram/grammar"
	"github.com/plangram/plangram/lexer"
	"github.com/plangram/plangram/lint"
	rpt "github.com/plangram/plangram/report"
	"github.com/plangram/plangram/schema"
	"github.com/plangram/plangram/stream"
	"github.com/plangram/plangram/workspace"
)

func main() {}

// maxInput bounds one input (a document, or a chunk fed to a stream):
// larger ones are refused with a limit error before any work.
const maxInput = 256 << 20

// options are the keyword arguments of the Python calls, as JSON.
type options struct {
	Dialect    string `json:"dialect"`
	Fence      string `json:"fence"`
	Schema     string `json:"schema"` // the schema file's content
	SchemaName string `json:"schema_name"`
	Filename   string `json:"filename"`
	Root       string `json:"root"`
	DryRun     bool   `json:"dry_run"`
	Syntax     string `json:"syntax"`
	Tools      string `json:"tools"` // a tools registry as JSON
	NoThinking bool   `json:"no_thinking"`
	InThinking bool   `json:"in_thinking"`
	Exact      bool   `json:"exact"`
}

// classed is an error with its class, the first field of the error string.
type classed struct {
	class string
	err   error
}

func (c classed) Error() string { return c.err.Error() }

// call decodes the options, runs f and hands its output and error back
// through the C out-parameters; a panic becomes an error.
func call(o *C.char, on C.size_t, out **C.char, outLen *C.size_t, f func(options) ([]byte, error)) (cerr *C.char) {
	defer func() {
		if r := recover(); r != nil {
			cerr = C.CString(fmt.Sprintf("error\tplangram: internal error: %v", r))
		}
	}()
	var opts options
	if on > 0 {
		if err := json.Unmarshal(view(o, on), &opts); err != nil {
			return C.CString("usage\tplangram: options: " + err.Error())
		}
	}
	b, err := f(opts)
	if err != nil {
		class := "error"
		var c classed
		if errors.As(err, &c) {
			class = c.class
		}
		return C.CString(class + "\t" + err.Error())
	}
	if out != nil {
		*out, *outLen = (*C.char)(C.CBytes(b)), C.size_t(len(b))
	}
	return nil
}

// view is the C bytes as a slice, valid only during the call (nothing
// keeps it: the stream parser copies what it is fed).
func view(p *C.char, n C.size_t) []byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
}

// docCall is call for the document functions: the input, checked against
// maxInput, and the parser options as the CLI's parser flags make them.
func docCall(o *C.char, on C.size_t, p *C.char, n C.size_t, out **C.char, outLen *C.size_t, f func(options, []byte, grammar.Options) ([]byte, error)) *C.char {
	return call(o, on, out, outLen, func(o options) ([]byte, error) {
		src, err := input(p, n)
		if err != nil {
			return nil, err
		}
		popts, err := o.parserOptions()
		if err != nil {
			return nil, err
		}
		return f(o, src, popts)
	})
}

func input(p *C.char, n C.size_t) ([]byte, error) {
	if n > maxInput {
		return nil, classed{"limit", fmt.Errorf("plangram: input of %d bytes is over the limit of %d bytes", uint64(n), maxInput)}
	}
	return view(p, n), nil
}

// parserOptions are grammar's options as the CLI's parser flags make them.
func (o options) parserOptions() (grammar.Options, error) {
	fc, err := lexer.ParseFence(o.Fence)
	if err != nil {
		return grammar.Options{}, classed{"usage", err}
	}
	opts := grammar.Options{Dialect: o.Dialect, Fence: fc, ReadTools: stream.ReadDocument}
	if o.Schema != "" {
		if opts.Schema, err = schema.Parse(o.SchemaName, []byte(o.Schema)); err != nil {
			return opts, classed{"usage", err}
		}
	}
	return opts, nil
}

func (o options) name() string { return cmp.Or(o.Filename, lint.StdinName) }

//export plangram_parse
func plangram_parse(o *C.char, on C.size_t, p *C.char, n C.size_t, out **C.char, outLen *C.size_t) *C.char {
	return docCall(o, on, p, n, out, outLen, func(o options, src []byte, opts grammar.Options) ([]byte, error) {
		opts.Dialect = grammar.FileDialect(o.name(), opts.Dialect)
		doc, err := grammar.Parse(context.Background(), o.name(), src, opts)
		if err != nil {
			return nil, classed{"usage", fmt.Errorf("plangram: %w", err)}
		}
		doc.Diagnostics = lint.Suppress(doc, src, doc.Diagnostics, nil)
		var b bytes.Buffer
		err = ast.WriteJSON(&b, doc, false)
		return b.Bytes(), err
	})
}

//export plangram_check
func plangram_check(o *C.char, on C.size_t, p *C.char, n C.size_t, out **C.char, outLen *C.size_t) *C.char {
	return docCall(o, on, p, n, out, outLen, func(o options, src []byte, popts grammar.Options) ([]byte, error) {
		ctx := context.Background()
		if o.Root != "" {
			if err := workspace.ValidateRoot(o.Root); err != nil {
				return nil, classed{"usage", fmt.Errorf("plangram: %w", err)}
			}
			// As `plangram check --root`: an interrupted apply is finished
			// first, so that the rules see the workspace whole.
			if _, err := apply.Recover(ctx, o.Root); err != nil {
				return nil, fmt.Errorf("plangram: check: %w", err)
			}
		}
		files, err := lint.Run(ctx, []string{lint.Stdin}, lint.Options{Parse: popts, Root: o.Root, Stdin: bytes.NewReader(src), QuietNoPlan: true})
		if err != nil {
			return nil, fmt.Errorf("plangram: %w", err)
		}
		var b bytes.Buffer
		err = rpt.Write(&b, rpt.JSON, files, rpt.Options{})
		return b.Bytes(), err
	})
}

//export plangram_apply
func plangram_apply(o *C.char, on C.size_t, p *C.char, n C.size_t, out **C.char, outLen *C.size_t) *C.char {
	return docCall(o, on, p, n, out, outLen, func(o options, src []byte, popts grammar.Options) ([]byte, error) {
		if err := workspace.ValidateRoot(o.Root); err != nil {
			return nil, classed{"usage", fmt.Errorf("plangram: %w", err)}
		}
		ins := []apply.Input{{Name: o.name(), Src: src}}
		res, err := apply.ApplyInputs(context.Background(), ins, popts, o.Root, apply.Options{Workspace: workspace.Options{Schema: popts.Schema}, DryRun: o.DryRun})
		r := struct {
			Applied        bool                `json:"applied"`
			AlreadyApplied bool                `json:"already_applied"`
			Changes        []map[string]string `json:"changes"`
			Diagnostics    []*ast.Diagnostic   `json:"diagnostics"`
			Error          string              `json:"error,omitempty"`
			Class          string              `json:"class,omitempty"`
		}{Changes: []map[string]string{}, Diagnostics: []*ast.Diagnostic{}}
		if res != nil {
			r.Applied, r.AlreadyApplied = res.Applied, res.AlreadyApplied
			for _, ds := range res.Diagnostics {
				r.Diagnostics = append(r.Diagnostics, ds...)
			}
			for _, ch := range res.Changes { // kind A, M or D, as `plangram apply` lists it
				kind := map[bool]string{true: "A", false: "M"}[!ch.Existed]
				if !ch.Exists {
					kind = "D"
				}
				r.Changes = append(r.Changes, map[string]string{"path": ch.Path, "kind": kind, "moved_from": ch.MovedFrom})
			}
		}
		// The CLI's messages for a refusal (exit 1) and a failure (exit 2).
		switch {
		case errors.Is(err, apply.ErrNothingToApply):
			r.Class, r.Error = "nothing", "plangram: apply refused: nothing to apply; nothing was written to "+o.Root
		case errors.Is(err, apply.ErrRefused):
			r.Class, r.Error = "refused", "plangram: apply refused: nothing was written to "+o.Root
		case err != nil && res == nil:
			return nil, fmt.Errorf("plangram: apply: %w", err)
		case err != nil:
			r.Class, r.Error = "error", "plangram: apply: "+err.Error()
		}
		return json.Marshal(r)
	})
}

// streams holds the open streams by handle.
var streams = struct {
	sync.Mutex
	next int64
	m    map[int64]*handle
}{m: map[int64]*handle{}}

// handle is one stream: its parser and the events it emitted since the
// last feed, as JSON lines. Its own mutex serialises calls on it.
type handle struct {
	sync.Mutex
	p   *stream.Parser
	out []byte
}

//export plangram_stream_new
func plangram_stream_new(o *C.char, on C.size_t, id *C.int64_t) *C.char {
	return call(o, on, nil, nil, func(o options) ([]byte, error) {
		opts := stream.Options{Syntax: cmp.Or(o.Syntax, stream.Auto), HideThinking: o.NoThinking, InThinking: o.InThinking, OmitFraming: !o.Exact, ToolsHint: "with plangram.Stream(tools=...)"}
		if o.Tools != "" {
			t, err := schema.FromTools("<tools>", []byte(o.Tools))
			if err != nil {
				return nil, classed{"usage", err}
			}
			opts.Schema = t.Schema
		}
		h := &handle{}
		p, err := stream.New(opts, func(ev *stream.Event) error {
			var err error
			if h.out, err = ev.AppendJSON(h.out); err == nil {
				h.out = append(h.out, '\n')
			}
			return err
		})
		if err != nil {
			return nil, classed{"usage", err}
		}
		h.p = p
		streams.Lock()
		defer streams.Unlock()
		streams.next++
		streams.m[streams.next] = h
		*id = C.int64_t(streams.next)
		return nil, nil
	})
}

// onStream runs f on the stream of handle id and returns the events it
// emitted; free removes the handle first.
func onStream(id C.int64_t, out **C.char, outLen *C.size_t, free bool, f func(*stream.Parser) error) *C.char {
	return call(nil, 0, out, outLen, func(options) ([]byte, error) {
		streams.Lock()
		h := streams.m[int64(id)]
		if free {
			delete(streams.m, int64(id))
		}
		streams.Unlock()
		if h == nil {
			return nil, classed{"handle", fmt.Errorf("plangram: stream handle %d is not open (freed, or never made)", int64(id))}
		}
		h.Lock()
		defer h.Unlock()
		h.out = h.out[:0]
		if err := f(h.p); errors.Is(err, stream.ErrClosed) {
			return nil, classed{"closed", fmt.Errorf("plangram: %w", err)}
		} else if err != nil {
			return nil, err
		}
		return h.out, nil
	})
}

//export plangram_stream_feed
func plangram_stream_feed(id C.int64_t, p *C.char, n C.size_t, out **C.char, outLen *C.size_t) *C.char {
	return onStream(id, out, outLen, false, func(s *stream.Parser) error {
		b, err := input(p, n)
		if err == nil {
			_, err = s.Write(b)
		}
		return err
	})
}

//export plangram_stream_close
func plangram_stream_close(id C.int64_t, out **C.char, outLen *C.size_t) *C.char {
	return onStream(id, out, outLen, false, (*stream.Parser).Close)
}

//export plangram_stream_free
func plangram_stream_free(id C.int64_t) *C.char {
	return onStream(id, nil, nil, true, func(*stream.Parser) error { return nil })
}

//export plangram_free
func plangram_free(p unsafe.Pointer) { C.free(p) }
