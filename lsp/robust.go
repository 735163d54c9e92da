package lsp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"

	"github.com/plangram/plangram/ast"
)

// robust is the outermost handler of a connection whose handler h answers
// a method it does not know with errUnknownMethod: it keeps one bad
// message from ending the session, as the LSP specification asks
// (docs/editors.md, "Robustness"):
//
//   - A notification never fails the connection. An unknown one is ignored
//     (one starting with "$/" silently, others with a log line); one whose
//     params do not decode, or whose handler fails, is logged and dropped.
//   - A call whose params do not decode is answered InvalidParams (-32602),
//     an unknown call MethodNotFound (-32601).
//   - A handler that panics answers its call with InternalError (-32603) and
//     is logged with its stack; the server keeps running.
//
// Only a broken transport (framing, I/O) ends the session.
func robust(log *slog.Logger, h handler) handler {
	return func(ctx context.Context, req *request) (result any, err error) {
		method := req.method
		call := req.call
		defer func() {
			if r := recover(); r != nil {
				log.Error("handler panicked", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				result, err = nil, nil
				if call {
					err = errorf(codeInternalError, "plangram: internal error handling %s: %v", method, r)
				}
			}
		}()
		if result, err = h(ctx, req); err == nil {
			return result, nil
		}
		if !call {
			switch {
			case errors.Is(err, errUnknownMethod) && strings.HasPrefix(method, "$/"):
			case errors.Is(err, errUnknownMethod):
				log.Info("ignored unknown notification", "method", method)
			default:
				log.Warn("notification dropped", "method", method, "err", err)
			}
			return nil, nil
		}
		return nil, callError(method, err)
	}
}

// errUnknownMethod is the error of a method the server does not know.
var errUnknownMethod = errors.New("method not found")

// paramsError is the error of params that do not fit the method.
type paramsError struct{ reason string }

func (e *paramsError) Error() string { return "invalid params: " + e.reason }

// paramsErrorf returns a paramsError of the formatted reason.
func paramsErrorf(format string, args ...any) error {
	return &paramsError{fmt.Sprintf(format, args...)}
}

// callError maps a handler's error to the JSON-RPC error a call is
// answered with. A method name is written valid UTF-8 as diagnostics are.
func callError(method string, err error) error {
	var pe *paramsError
	switch {
	case errors.Is(err, errUnknownMethod):
		return errorf(codeMethodNotFound, "method not found: %s", ast.EscapeInvalidUTF8(method))
	case errors.As(err, &pe):
		// The message itself was read: only its params do not fit the
		// method.
		return errorf(codeInvalidParams, "invalid params for %s: %s", ast.EscapeInvalidUTF8(method), pe.reason)
	}
	return err
}
