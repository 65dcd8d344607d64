package host

import (
	"encoding/json"
	"fmt"
)

// The params of the requests the host sends are the generated protocol types
// (protocol.ToolCallParams, …), built as Go values and encoded once by their generated
// AppendJSON: no map, no reflection, and a caller's arguments (raw JSON) go to the wire as
// the bytes given. The host's own hook points send protocol.HookRunParams; only the untyped
// Extension.Request, RunHook and CollectContext (payloads a script hands over as maps) and
// tool/render (whose result would have to be decoded into the typed ToolResult) still
// travel as a map through encoding/json.

// ownerBound is the params type of an owner-bound method (generated SetResourceOwner).
type ownerBound interface {
	SetResourceOwner(*Owner)
}

// wireParams is a generated params type, which encodes itself.
type wireParams interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// bindOwner sets the caller's resource owner on the params of an owner-bound request.
func bindOwner(params any, o Owner) any {
	switch p := params.(type) {
	case ownerBound:
		p.SetResourceOwner(&o)
	case map[string]any:
		if p == nil {
			p = map[string]any{}
		}
		p["resource_owner"] = o
		return p
	case nil:
		return map[string]any{"resource_owner": o}
	}
	return params
}

// encodeHostParams encodes typed params to JSON once; a map (or nil) is left to the
// connection's encoder.
func encodeHostParams(method string, params any) (any, error) {
	p, ok := params.(wireParams)
	if !ok {
		return params, nil
	}
	b, err := p.AppendJSON(make([]byte, 0, 256))
	if err != nil {
		return nil, fmt.Errorf("host: params of %s: %w", method, err)
	}
	return json.RawMessage(b), nil
}
