package jsonrpc

// The error codes this transport answers with itself. The first five are JSON-RPC 2.0's;
// the other two answer what only a transport with concurrent serving and cancellation
// meets. The wire's full error registry (the codes services answer with) belongs to the
// protocol above, which generates them from its schema; a test outside this package
// holds these to the same values, so the floor never depends on that layer.
const (
	CodeParseError     int64 = -32700 // the frame is not JSON (or not UTF-8)
	CodeInvalidRequest int64 = -32600 // the frame is JSON but not a valid message
	CodeMethodNotFound int64 = -32601 // no handler for the method
	CodeInvalidParams  int64 = -32602 // params this side cannot take (here: nested too deep)
	CodeInternalError  int64 = -32603 // the handler failed, panicked, or its result cannot be sent

	CodeOverloaded       int64 = -32001 // Options.MaxInFlight requests are already being served
	CodeRequestCancelled int64 = -32800 // the peer withdrew the request before its handler returned (Cancellation)
)

// The defaults of the limits Options takes. They match the protocol's MAX_MESSAGE_BYTES
// and MAX_IN_FLIGHT, so a connection opened without options speaks within them.
const (
	DefaultMaxMessageBytes = 1 << 20
	DefaultMaxInFlight     = 64
)

// MaxIDBytes bounds a string request id, in UTF-8 bytes: part of what makes a frame a
// valid message here, checked while decoding, before any connection option applies.
const MaxIDBytes = 256
