package lsp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"

	"go.lsp.dev/jsonrpc2"
)

// robust is the outermost handler of a connection whose handler h
// implements the methods known reports: it keeps one bad
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
func robust(log *slog.Logger, known func(method string) bool, h jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		method := strings.Clone(req.Method())
		call := req.IsCall()
		defer func() {
			if r := recover(); r != nil {
				log.Error("handler panicked", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				result = nil
				err = nil
				if call {
					err = jsonrpc2.Errorf(jsonrpc2.InternalError, "plangram: internal error handling %s: %v", method, r)
				}
			}
		}()
		if !known(method) {
			err = fmt.Errorf("%s: %w", method, errUnknownMethod)
		} else {
			result, err = h(ctx, req)
		}
		if err == nil {
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

// errUnknownMethod is what Server.Request returns for a method the server
// does not implement.
var errUnknownMethod = errors.New("method not found")

// callError maps a handler's error to the JSON-RPC error a call is
// answered with.
func callError(method string, err error) error {
	var je *jsonrpc2.Error
	switch {
	case errors.Is(err, errUnknownMethod):
		return jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", method)
	case errors.Is(err, jsonrpc2.ErrParse):
		// The message itself was read (the transport parsed it): only its
		// params do not fit the method.
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params for %s: %v", method, paramsReason(err))
	case errors.As(err, &je):
		return err
	}
	return err
}

// paramsReason drops the "JSON-RPC parse error" prefix the protocol
// package puts before the decoder's message.
func paramsReason(err error) string {
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, jsonrpc2.ErrParse.Error()+": "); ok {
		return rest
	}
	return msg
}

// Request answers every method the server does not implement.
func (s *Server) Request(ctx context.Context, method string, params any) (any, error) {
	return nil, fmt.Errorf("%s: %w", method, errUnknownMethod)
}
