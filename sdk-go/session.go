package octet

import (
	"encoding/json"
	"sync/atomic"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// negotiated holds what initialize settled, nil before it.
type negotiated struct {
	session atomic.Pointer[session]
}

// session is what initialize negotiated.
type session struct {
	apiVersion  string
	features    map[string]bool
	concurrency int
	params      InitializeInfo
	manifest    manifestView
	maxBytes    int
}

// InitializeInfo is what the host told the extension in initialize.
type InitializeInfo struct {
	APIVersion   string                  `json:"api_version"`
	OctetVersion string                  `json:"octet_version"`
	Extension    protocol.ExtensionInfo  `json:"extension"`
	Manifest     json.RawMessage         `json:"manifest"`
	Workspace    protocol.WorkspaceInfo  `json:"workspace"`
	Session      *protocol.SessionInfo   `json:"session,omitempty"`
	Protocol     *protocol.ProtocolOffer `json:"protocol,omitempty"`
}

// Initialized reports whether initialize has completed.
func (e *Extension) Initialized() bool { return e.session.Load() != nil }

// APIVersion returns the negotiated API version ("" before initialize).
func (e *Extension) APIVersion() string {
	if s := e.session.Load(); s != nil {
		return s.apiVersion
	}
	return ""
}

// NegotiatedFeatures returns the accepted features (empty for API 0.1 or before
// initialize).
func (e *Extension) NegotiatedFeatures() []string {
	s := e.session.Load()
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.features))
	for f := range s.features {
		out = append(out, f)
	}
	sortStrings(out)
	return out
}

// HasFeature reports whether feature was negotiated.
func (e *Extension) HasFeature(feature string) bool {
	s := e.session.Load()
	return s != nil && s.features[feature]
}

// NegotiatedConcurrency returns the worker pool size in effect (0 before initialize).
func (e *Extension) NegotiatedConcurrency() int {
	if s := e.session.Load(); s != nil {
		return s.concurrency
	}
	return 0
}

// Info returns what the host sent in initialize (nil before it).
func (e *Extension) Info() *InitializeInfo {
	if s := e.session.Load(); s != nil {
		return &s.params
	}
	return nil
}
