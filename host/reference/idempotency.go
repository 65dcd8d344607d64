package reference

import (
	"context"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/store"
)

// idempotencyStore is the store's idempotency claims as host.IdempotencyStore (the host
// package does not import the store's SQLite).
type idempotencyStore struct{ *store.Store }

func (s idempotencyStore) ClaimKey(ctx context.Context, extension, key, digest string, lease time.Duration) (host.IdempotencyClaim, error) {
	c, err := s.Store.ClaimKey(ctx, extension, key, digest, lease)
	return host.IdempotencyClaim(c), err
}
