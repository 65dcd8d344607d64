package services

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
)

var secretName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,63}$`)

type secretParams struct {
	Parent json.RawMessage `json:"parent_request_id"`
	Name   string          `json:"name"`
}

type secretResult struct {
	Value string `json:"value"`
}

// secretGet brokers a secret from the script's secrets. Errors name the
// secret, never its value; the value is not logged, recorded or emitted.
func (r *Router) secretGet(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p secretParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if !secretName.MatchString(p.Name) || len(p.Name) > secretNameMaxBytes {
		return nil, invalidParams("name", "%q is not a secret name (letter or underscore, then letters, digits, _ . -; at most 64 bytes)", p.Name)
	}
	if !slices.Contains(c.Secrets, p.Name) {
		return nil, invalidParams("name", "%q is not in the manifest's capabilities.secrets allowlist", p.Name)
	}
	_, _, _, done, err := r.withParent(ctx, c, p.Parent)
	if err != nil {
		return nil, err
	}
	defer done()
	v, ok := r.cfg.Script.Secret(p.Name)
	if !ok || len(v) > secretValueMaxBytes {
		return nil, errSecretUnavailable()
	}
	// Known since NewRouter; added again so a value the script gained later
	// (AddSecretsFile) is redacted before it is handed out.
	r.red.Add(v)
	return secretResult{Value: v}, nil
}
