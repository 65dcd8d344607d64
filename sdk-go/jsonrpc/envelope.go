package jsonrpc

import "encoding/json"

// Envelope is what Options.OnMessage sees of one message: its id (zero for a
// notification), its method (empty for a response) and, for the installed
// Cancellation's notification, the id it cancels.
type Envelope struct {
	ID       ID
	Method   string
	CancelID ID
}

// IsRequest reports a request (a method and an id).
func (e Envelope) IsRequest() bool { return e.Method != "" && !e.ID.IsZero() }

// IsResponse reports a response (an id, no method).
func (e Envelope) IsResponse() bool { return e.Method == "" && !e.ID.IsZero() }

// cancelledID reads params.id of a cancellation (zero when absent or not an id; the
// handler that serves the notification judges it).
func cancelledID(params []byte) ID {
	var p struct {
		ID *ID `json:"id"`
	}
	if json.Unmarshal(params, &p) != nil || p.ID == nil {
		return ID{}
	}
	return *p.ID
}
