package services

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// refuseSecret refuses a KV write whose key or value holds a secret the host
// handed out (a broker value or a secret input answer), raw or in any
// encoding the redactor knows. The store is never given one: refusing is
// the choice docs/host.md#kv-and-secrets explains (an encrypted store would
// keep its key beside it in the same state directory, and a redacted value
// would be data lost without a word). The whole commit is refused, so
// nothing of the batch is applied.
func (r *Router) refuseSecret(path, namespace, key string, value []byte) error {
	part := ""
	switch {
	case r.red.Holds([]byte(key)) || r.red.Holds([]byte(namespace)):
		part = path + ".key"
	case r.red.Holds(value):
		part = path + ".value"
	default:
		return nil
	}
	msg := strings.ReplaceAll(protocol.MessageKVSecretRefused, "{path}", part)
	return jsonrpc.NewError(protocol.CodeKVSecretRefused, msg, protocol.KVSecretRefusedData{
		Namespace: r.red.Text(namespace), Key: r.red.Text(key), Path: part,
	})
}

// kvOwner is the store owner of c's KV rows: its trusted identity (name plus install
// root), so two directories declaring one name never share data. The first identity of a
// name to use KV takes over that name's rows written before identities existed
// (store.KVClaim). A Caller without an identity (built by a test) uses its bare name.
func (r *Router) kvOwner(ctx context.Context, c *Caller) (string, error) {
	id := c.Identity
	if id == "" {
		id = c.Extension
	}
	if _, err := r.store.KVClaim(ctx, c.Extension, id); err != nil {
		return "", internal("kv: %v", err)
	}
	return id, nil
}

// StoredKVVersion is the kv_version stored for the extension identity (the integer under
// manifest.KVVersionKey in its own namespace; 0 when absent or not an integer the SDK
// would write). The host reads it before start to refuse a downgrade.
func (r *Router) StoredKVVersion(ctx context.Context, name, identity string) (int64, error) {
	if _, err := r.store.KVClaim(ctx, name, identity); err != nil {
		return 0, err
	}
	e, found, err := r.store.KVGetOf(ctx, identity, name, manifest.KVVersionKey)
	if err != nil || !found {
		return 0, err
	}
	var v int64
	if json.Unmarshal(e.Value, &v) != nil {
		return 0, nil
	}
	return v, nil
}
