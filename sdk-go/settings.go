package octet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Settings is typed access to the extension's settings: the values the operator set in the
// host config, checked by the host against the manifest's `settings` schema and delivered by
// `configure` (the configure feature). Current is the last accepted value; a refused
// configure leaves it as it was.
type Settings[T any] struct {
	mu       sync.RWMutex
	value    T
	revision int64
}

// Current returns the settings in force and their revision (0: none delivered yet).
func (s *Settings[T]) Current() (T, int64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.value, s.revision
}

// ConfigureInfo says which configure a handler is judging.
type ConfigureInfo struct {
	// DryRun: judge only. Returning nil means "would accept"; Current does not change.
	DryRun bool
	// Revision is the host's settings revision (1 at start).
	Revision int64
}

// ConfigureHandler judges (and, outside a dry run, applies) new settings. A nil error
// accepts them; RefuseSettings (or any other error, its message the reason) refuses them and
// keeps the settings in force.
type ConfigureHandler[T any] func(ctx context.Context, settings T, info ConfigureInfo) error

// SettingsRefusal is a configure refusal with the reasons the host shows the operator.
type SettingsRefusal struct{ Reasons []string }

func (r *SettingsRefusal) Error() string { return fmt.Sprintf("settings refused: %v", r.Reasons) }

// RefuseSettings refuses a configure with reasons (at least one).
func RefuseSettings(reasons ...string) error {
	if len(reasons) == 0 {
		reasons = []string{"refused by the extension"}
	}
	return &SettingsRefusal{Reasons: reasons}
}

// configurer is the untyped form OnConfigure registers.
type configurer func(ctx context.Context, raw json.RawMessage, info ConfigureInfo) error

// OnConfigure declares the extension's typed settings and the handler that judges each
// change; fn may be nil (every valid value is accepted). The settings are decoded into T with
// encoding/json (json tags name the keys); a value that does not decode is refused.
// Register it before Run, once.
func OnConfigure[T any](ext *Extension, fn ConfigureHandler[T]) *Settings[T] {
	s := &Settings[T]{}
	ext.mu.Lock()
	defer ext.mu.Unlock()
	if ext.configure != nil {
		panic("octet: OnConfigure called twice")
	}
	ext.configure = func(ctx context.Context, raw json.RawMessage, info ConfigureInfo) error {
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return RefuseSettings(fmt.Sprintf("settings do not decode into %T: %v", v, err))
		}
		if fn != nil {
			if err := fn(ctx, v, info); err != nil {
				return err
			}
		}
		if !info.DryRun {
			s.mu.Lock()
			s.value, s.revision = v, info.Revision
			s.mu.Unlock()
		}
		return nil
	}
	return s
}

// RawSettings returns the last accepted settings as JSON (nil before any configure), for an
// extension that declares settings without OnConfigure.
func (e *Extension) RawSettings() json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.settings
}

// Configure is the configure method (hostMethods): decode, judge, apply or refuse.
func (h hostMethods) Configure(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		Settings json.RawMessage `json:"settings"`
		DryRun   bool            `json:"dry_run"`
		Revision int64           `json:"revision"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		return nil, invalidParams("", "configure params: %v", err)
	}
	e := h.e
	e.mu.Lock()
	fn := e.configure
	e.mu.Unlock()
	info := ConfigureInfo{DryRun: p.DryRun, Revision: p.Revision}
	var err error
	if fn != nil {
		err = fn(ctx, p.Settings, info)
	}
	if err != nil {
		var r *SettingsRefusal
		if !errors.As(err, &r) {
			r = &SettingsRefusal{Reasons: []string{err.Error()}}
		}
		return protocol.ConfigureResult{Accepted: false, Reasons: r.Reasons}, nil
	}
	if !p.DryRun {
		e.mu.Lock()
		e.settings = p.Settings
		e.mu.Unlock()
	}
	return protocol.ConfigureResult{Accepted: true}, nil
}
