package jsonrpc

import "context"

type sentIDKey struct{}

// WithSentID returns a context whose Call reports the id of the request it sends to fn, on
// the calling goroutine, before the request is written: a caller that must tie what the
// peer later sends about the request (progress naming its id) to its own record learns the
// id without a second bookkeeping of its own. A Call that fails before it writes never
// calls fn.
func WithSentID(ctx context.Context, fn func(ID)) context.Context {
	return context.WithValue(ctx, sentIDKey{}, fn)
}
