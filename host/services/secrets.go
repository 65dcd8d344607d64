package services

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// secretGet brokers a secret from the script's secrets. Errors name the
// secret, never its value; the value is not logged, recorded or emitted.
func (r *Router) secretGet(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeBinding(raw, secretWording, func(p *protocol.SecretGetParams) error { return allowedSecret(c, p.Name) }, nil)
	if err != nil {
		return nil, err
	}
	name := p.Name
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

// allowedSecret binds secret/get to the manifest's capabilities.secrets allowlist; a name
// that is not a secret name at all is worded as such first.
func allowedSecret(c *Caller, name string) error {
	if !protocol.Valid("SecretName", name) {
		return invalidParams("name", "%s", secretWording["/name pattern"](strconv.Quote(name)))
	}
	if !slices.Contains(c.Secrets, name) {
		return invalidParams("name", "%q is not in the manifest's capabilities.secrets allowlist", name)
	}
	return nil
}
