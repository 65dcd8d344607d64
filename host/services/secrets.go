package services

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// secretGet brokers a secret from the script's secrets. Errors name the
// secret, never its value; the value is not logged, recorded or emitted.
func (r *Router) secretGet(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeWorded[protocol.SecretGetParams](raw, secretWording)
	if err != nil {
		return nil, err
	}
	name := string(p.Name)
	if !slices.Contains(c.Secrets, name) {
		return nil, invalidParams("name", "%q is not in the manifest's capabilities.secrets allowlist", name)
	}
	_, _, _, done, err := r.withParent(ctx, c, p.ParentRequestID)
	if err != nil {
		return nil, err
	}
	defer done()
	v, ok := r.cfg.Script.Secret(name)
	if !ok || len(v) > secretValueMaxBytes {
		return nil, errSecretUnavailable()
	}
	// Known since NewRouter; added again so a value the script gained later
	// (AddSecretsFile) is redacted before it is handed out.
	r.red.Add(v)
	return protocol.SecretGetResult{Value: v}, nil
}
