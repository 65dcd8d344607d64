package octet

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// hostResultTypes maps an extension-to-host method to its result type per API version,
// from the generated method registry; built on first use, not at start-up.
var hostResultTypes = sync.OnceValue(func() map[string]map[string]string {
	m := map[string]map[string]string{}
	for _, info := range protocol.Methods {
		if info.Kind == protocol.KindRequest && info.Direction != protocol.DirectionHostToExtension && len(info.Result) > 0 {
			m[info.Name] = info.Result
		}
	}
	return m
})

// HostResultError is a host answer that does not match the schema's result type: the
// SDK refuses to act on it (the Python and TypeScript SDKs raise the same refusal).
type HostResultError struct {
	Method string
	Reason string
}

func (e *HostResultError) Error() string {
	return fmt.Sprintf("octet: the host's %s result does not match the schema: %s", e.Method, e.Reason)
}

// ask sends a request to the host and decodes its result into res (nil discards it),
// after checking the result strictly against the schema's result type for the
// negotiated API version, so no SDK code trusts a host answer's shape unchecked.
func (e *Extension) ask(ctx context.Context, method string, params, res any) error {
	var raw json.RawMessage
	if err := e.conn.Call(ctx, method, params, &raw); err != nil {
		return err
	}
	if err := checkHostResult(e.APIVersion(), method, raw); err != nil {
		return err
	}
	if res == nil {
		return nil
	}
	if err := json.Unmarshal(raw, res); err != nil {
		return &HostResultError{Method: method, Reason: err.Error()}
	}
	return nil
}

func checkHostResult(api, method string, raw json.RawMessage) error {
	typeName := hostResultTypes()[method][api]
	if typeName == "" {
		return nil
	}
	doc, err := strictjson.Parse(raw)
	if err == nil {
		err = protocol.ValidateFromHost(typeName, doc)
	}
	if err != nil {
		return &HostResultError{Method: method, Reason: err.Error()}
	}
	return nil
}
