package limitscheck

import (
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

func TestHostLimitsMatchTheSchema(t *testing.T) {
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	checks := []struct {
		name      string
		host, gen int64
	}{
		{"MAX_MESSAGE_BYTES", host.MaxMessageBytes, protocol.MaxMessageBytes},
		{"MAX_IN_FLIGHT", host.MaxInFlight, protocol.MaxInFlight},
		{"REQUEST_TIMEOUT_MS", int64(host.RequestTimeout), int64(ms(protocol.RequestTimeoutMS))},
		{"SHUTDOWN_DRAIN_MS", int64(host.ShutdownDrain), int64(ms(protocol.ShutdownDrainMS))},
		{"START_TIMEOUT_MS", int64(host.StartTimeout), int64(ms(protocol.StartTimeoutMS))},
		{"BACKOFF_BASE_MS", int64(host.BackoffBase), int64(ms(protocol.BackoffBaseMS))},
		{"BACKOFF_CAP_MS", int64(host.BackoffCap), int64(ms(protocol.BackoffCapMS))},
		{"PARK_AFTER_FAILURES", host.ParkAfterFailures, protocol.ParkAfterFailures},
		{"READY_RESET_MS", int64(host.ReadyReset), int64(ms(protocol.ReadyResetMS))},
		{"MAX_CATALOG_TOOLS", host.MaxCatalogTools, protocol.MaxCatalogTools},
	}
	for _, c := range checks {
		if c.host != c.gen {
			t.Errorf("%s: host has %d, the schema %d", c.name, c.host, c.gen)
		}
	}
}
