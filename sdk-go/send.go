package octet

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// Send is the one way a request reaches the host: it checks what the descriptor says the
// method needs (API version, negotiated feature, manifest contribution), fills the parent
// request from ctx for a method bound to one, validates the params with the schema's
// generated validator (a refusal is -32602 before anything is sent, as the host would
// answer), sends, and validates the result against the schema before decoding it. The
// service objects (ext.KV, ext.Agents, ...) are built on it; call it directly with a
// descriptor of package protocol (protocol.RequestKVGet, ...) to pass params whole.
func Send[P any, R any, PP interface {
	*P
	protocol.Validated
}](ctx context.Context, e *Extension, d protocol.RequestType[P, R], params P) (R, error) {
	var res R
	raw, err := e.prepare(ctx, d.Method, d.Versions, d.Feature, d.Contribution, d.OwnerBound, PP(&params))
	if err != nil {
		return res, err
	}
	var out json.RawMessage
	if err := e.conn.Call(ctx, d.Method, raw, &out); err != nil {
		return res, err
	}
	if typ := d.Result[e.APIVersion()]; typ != "" {
		doc, err := strictjson.Parse(out)
		if err == nil {
			err = protocol.ValidateFromHost(typ, doc)
		}
		if err != nil {
			return res, &HostResultError{Method: d.Method, Reason: err.Error()}
		}
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return res, &HostResultError{Method: d.Method, Reason: err.Error()}
	}
	if c, ok := any(&res).(protocol.ResultChecker); ok {
		if err := c.CheckResult(); err != nil {
			return res, &HostResultError{Method: d.Method, Reason: err.Error()}
		}
	}
	return res, nil
}

// Notify is Send for a notification: the same checks, nothing comes back.
func Notify[P any, PP interface {
	*P
	protocol.Validated
}](ctx context.Context, e *Extension, d protocol.NotificationType[P], params P) error {
	pp := PP(&params)
	if ss, ok := any(pp).(protocol.SequenceSetter); ok {
		// A sequenced notification ($/progress) numbers per parent under the parent's lock,
		// so frames leave in sequence order.
		st, err := e.parent(ctx, d.Method)
		if err != nil {
			return err
		}
		st.progressMu.Lock()
		defer st.progressMu.Unlock()
		ss.SetSequence(st.progress + 1)
		raw, err := e.prepare(ctx, d.Method, d.Versions, d.Feature, d.Contribution, d.OwnerBound, pp)
		if err != nil {
			return err
		}
		if err := e.conn.Notify(d.Method, raw); err != nil {
			return err
		}
		st.progress++
		return nil
	}
	return e.guard(pp, func() error {
		raw, err := e.prepare(ctx, d.Method, d.Versions, d.Feature, d.Contribution, d.OwnerBound, pp)
		if err != nil {
			return err
		}
		return e.conn.Notify(d.Method, raw)
	})
}

// prepare runs the checks Send and Notify share and returns the params' encoding.
func (e *Extension) prepare(ctx context.Context, method string, versions []string, feature protocol.Feature, contribution string, ownerBound bool, params protocol.Validated) (json.RawMessage, error) {
	s, err := e.ready(method)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(versions, s.apiVersion) {
		return nil, fmt.Errorf("octet: %s needs API %v; this session speaks %s", method, versions, s.apiVersion)
	}
	if feature != "" && !s.features[string(feature)] {
		return nil, featureError(method, feature)
	}
	if contribution != "" && !contributesTo(s, contribution) {
		return nil, localError("%s needs the %s contribution ([contributes] %s) in the manifest", method, contribution, contribution)
	}
	if ps, ok := params.(protocol.ParentSetter); ok {
		st, err := e.parent(ctx, method)
		switch {
		case err == nil && s.apiVersion != "0.1":
			ps.SetParentRequestID(wireID(st.id))
		case ownerBound:
			return nil, err
		}
	}
	if feature == protocol.FeatureKV && ctx.Value(migratingKey{}) == nil {
		// The manifest's kv_version is reached before any KV call but the migration's own.
		if err := e.migrated(ctx); err != nil {
			return nil, err
		}
	}
	return checkOutgoing(method, params)
}

// checkOutgoing encodes params and validates them with the schema's validator, so a value
// the host would refuse is refused here, with the host's code and the same reason.
func checkOutgoing(method string, params protocol.Validated) (json.RawMessage, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, localError("%s params: %v", method, err)
	}
	if err := protocol.ValidateValue(params, raw); err != nil {
		// The first reasons name the fault; a thousand bad items must not make a megabyte
		// of message.
		reason, rest := err.Error(), 0
		if parts := strings.Split(reason, "; "); len(parts) > maxReasons {
			reason, rest = strings.Join(parts[:maxReasons], "; "), len(parts)-maxReasons
		}
		if rest > 0 {
			return nil, localError("%s params: %s; and %d more", method, reason, rest)
		}
		return nil, localError("%s params: %s", method, reason)
	}
	return raw, nil
}

// maxReasons bounds the validator's reasons quoted in a local refusal.
const maxReasons = 4

// atMostOne refuses a second options value: the options of an operation are one struct.
func atMostOne(op string, n int) error {
	if n > 1 {
		return localError("%s takes at most one options value, got %d", op, n)
	}
	return nil
}

// migratingKey marks the context of the KV migration's own calls (they run before the
// migration is done, so Send must not wait for it).
type migratingKey struct{}

// contributesTo reports whether the manifest makes the contribution: a boolean set true or
// a non-empty list (ui surfaces).
func contributesTo(s *session, name string) bool {
	c := s.manifest.Contributes
	if c == nil {
		return false
	}
	truthy := func(b *bool) bool { return b != nil && *b }
	switch name {
	case "notifications":
		return truthy(c.Notifications)
	case "confirmations":
		return truthy(c.Confirmations)
	case "context":
		return truthy(c.Context)
	case "presentation":
		return truthy(c.Presentation)
	case "ui":
		return len(c.UI) > 0
	}
	return false
}
