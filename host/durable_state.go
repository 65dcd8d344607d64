package host

import (
	"context"
	"fmt"

	"github.com/octet-kit/octet/host/durable"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
)

// StoredKVVersion is implemented by Services that keep KV (the reference router): the
// kv_version stored for an extension identity (0 when none is stored).
type StoredKVVersion interface {
	StoredKVVersion(ctx context.Context, name, identity string) (int64, error)
}

// durableState runs before the process is spawned: it refuses a downgrade (stored KV
// version newer than the manifest's [state] kv_version) with a state_downgrade start
// error, and creates the extension's durable state directory (OCTET_EXTENSION_STATE),
// which outlives generations and host runs. Without a state directory the host keeps no
// durable state and the variable is not set.
func (h *Host) durableState(ctx context.Context, m *manifest.Manifest) (string, error) {
	if sv, ok := h.opts.Services.(StoredKVVersion); ok {
		stored, err := sv.StoredKVVersion(ctx, m.Name, m.Identity())
		if err != nil {
			return "", &StartError{Kind: process.KindSpawn, Message: fmt.Sprintf("cannot read the stored kv_version: %v", err)}
		}
		if stored > m.State.KVVersion {
			return "", &StartError{Kind: process.KindStateDowngrade, Message: fmt.Sprintf(
				"its stored KV data is at kv_version %d, newer than the %d its manifest declares ([state] kv_version): a newer release wrote it; install that release again, or remove the extension's state (octet-host bundle remove)",
				stored, m.State.KVVersion)}
		}
	}
	if h.opts.StateDir == "" {
		return "", nil
	}
	d, err := durable.Ensure(h.opts.StateDir, m.Name, m.Identity())
	if err != nil {
		return "", &StartError{Kind: process.KindSpawn, Message: err.Error()}
	}
	return d, nil
}
