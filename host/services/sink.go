package services

import (
	"encoding/json"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// EventKind names what an Event carries.
type EventKind string

// Event kinds the services emit to the console.
const (
	EventNotification EventKind = "notification" // Payload: Notification
	EventStatus       EventKind = "status"       // Payload: StatusContribution
	EventContext      EventKind = "context"      // Payload: ContextContribution
	EventPresentation EventKind = "presentation" // Payload: PresentationUpdate
	EventProgress     EventKind = "progress"     // Payload: Progress
	EventDiagnostic   EventKind = "diagnostic"   // Payload: Diagnostic
)

// Event is something the console shows. Payloads never carry secret values.
type Event struct {
	Kind       EventKind
	At         time.Time
	Extension  string
	InstanceID string
	Generation int64
	Payload    any
}

// EventSink receives events; it must not block for long (it is called on
// the extension's serving goroutine).
type EventSink interface {
	Event(Event)
}

// EventSinkFunc adapts a function to EventSink.
type EventSinkFunc func(Event)

// Event calls f.
func (f EventSinkFunc) Event(e Event) { f(e) }

// Notification is a validated notification.
type Notification struct {
	Message string `json:"message"`
	Level   string `json:"level"`
	Title   string `json:"title,omitempty"`
}

// StatusContribution is a validated status/contribution.
type StatusContribution struct {
	Surface   string  `json:"surface"`
	Text      string  `json:"text"`
	Priority  int64   `json:"priority"`
	StyleRole *string `json:"style_role,omitempty"`
}

// ContextItem is one context/contribution item.
type ContextItem = protocol.ContextItem

// ContextContribution is a validated context/contribution.
type ContextContribution struct {
	Items []ContextItem `json:"items"`
}

// PresentationUpdate is an accepted (possibly coalesced) snapshot.
type PresentationUpdate struct {
	Owner    *Owner          `json:"owner,omitempty"` // nil: process-scoped
	Revision int64           `json:"revision"`
	Snapshot json.RawMessage `json:"snapshot"`
}

// Progress is an accepted $/progress event.
type Progress struct {
	Parent   jsonrpc.ID      `json:"parent_request_id"`
	Sequence int64           `json:"sequence"`
	Event    json.RawMessage `json:"event"`
}

// Diagnostic is a host-side problem with what an extension sent (an invalid
// notification, a throttled presentation window, …).
type Diagnostic struct {
	Method  string `json:"method"`
	Message string `json:"message"`
	// Dropped counts the notifications a drop report says were lost (read by the host,
	// never handled: the connection closed before its queue drained); 0 otherwise.
	Dropped int `json:"dropped,omitempty"`
}
