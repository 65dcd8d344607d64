package host

import (
	"math/rand/v2"
	"time"

	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Clock is the time source supervision uses; tests inject a manual one so backoff and
// parking are checked without sleeping.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Session is the inspectable session state sent in initialize.
type Session struct {
	SessionID       string   `json:"session_id,omitempty"`
	Model           *Model   `json:"model,omitempty"`
	ReasoningEffort string   `json:"reasoning_effort,omitempty"`
	ActiveSkills    []string `json:"active_skills,omitempty"`
}

// Model names the session's model.
type Model struct {
	Provider string `json:"provider"`
	ID       string `json:"id"`
}

// Event is a status change the console shows ("ready", "crashed", "parked", …).
type Event struct {
	Extension  string
	Generation int64
	State      State
	Message    string
}

// Options configure a Host. Zero values take the wire contract's defaults.
type Options struct {
	OctetVersion string // default OctetVersion
	StateDir     string // logs and scratch live here (required for logs; empty disables)
	Workspace    string // the children's cwd and OCTET_WORKSPACE
	// WorkspaceTrusted is sent in initialize.
	WorkspaceTrusted bool
	PassEnv          []string // host variables granted to every extension by name
	// Settings are the operator's values per extension name ([extensions.NAME.settings],
	// workspace over user), checked against each manifest's settings schema before start.
	Settings map[string]map[string]any
	// Idempotency records tool results under callers' idempotency keys (ToolCall); nil
	// refuses a call that carries a key.
	Idempotency IdempotencyStore
	// Deliveries records each tool call, command and hook run with its original input
	// and its final receipt (delivery.go); nil records none.
	Deliveries Deliveries
	Session    Session
	// Services serves extension->host requests; nil answers method_not_found to requests
	// and ignores notifications, and only the required features are offered.
	Services Services
	// SecretBroker says a secret broker is configured: only then is the conditional secrets
	// feature offered (and only to a manifest with a non-empty secrets allowlist).
	SecretBroker bool
	// ApprovalIssuance says the host issues one-use approval tokens (its policy can approve
	// an ask): only then is the conditional approvals feature offered, and only with
	// policy_intents (seed 001). The reference host sets it from its script.
	ApprovalIssuance bool

	// BundleDigest, when set, names the SHA-256 of the bundle archive an extension
	// directory was installed from ("" for none), for Status (the reference host reads the
	// bundle's install record; this package cannot import the bundle manager).
	BundleDigest func(dir string) string
	// DeniedTools are the operator's denials: patterns over qualified tool names
	// (extension/tool, manifest.MatchToolPattern) that never enter the model's catalog,
	// whatever the session owner allows (modelcatalog.go).
	DeniedTools []string

	RequestTimeout time.Duration // default REQUEST_TIMEOUT_MS (30 s)
	StartTimeout   time.Duration // default START_TIMEOUT_MS (10 s, spawn to initialize answered)
	ShutdownDrain  time.Duration // default SHUTDOWN_DRAIN_MS (5 s)
	TermGrace      time.Duration // SIGTERM to SIGKILL, default 2 s
	// CancelGrace bounds how long a request the host cancelled may stay unanswered before
	// the generation is ended as non-cooperative; default CANCEL_GRACE_MS (5 s).
	CancelGrace     time.Duration
	MaxMessageBytes int // default MAX_MESSAGE_BYTES (1 MiB)
	MaxConcurrency  int // cap on negotiated concurrency, default MAX_IN_FLIGHT (64)
	// NotificationRate paces each extension process's notifications (per second, after
	// a burst of NOTIFICATION_RATE_BURST); default NOTIFICATION_RATE_PER_SECOND, negative
	// unpaced (a test measuring the queue bound alone).
	NotificationRate float64
	// NotificationDrain bounds how long a closing connection keeps handling queued
	// notifications; default NOTIFICATION_DRAIN_MS.
	NotificationDrain time.Duration

	Clock Clock          // default real time
	Rand  func() float64 // jitter in [0,1), default math/rand
	// StderrFilter, when set, makes a filter for each process's stderr, applied before the
	// stream reaches the log file and the tail kept for errors: the reference host passes
	// its redactor's stream, so an echoed secret is never written down.
	StderrFilter func() process.Filter
	// OnFrame sees every frame of every generation (the recorder's tap).
	OnFrame func(extension string, generation int64, dir jsonrpc.Direction, frame []byte)
	// OnEvent sees status changes.
	OnEvent func(Event)

	// OnIdempotencyWait sees a call start waiting for another call holding its key
	// (holder names that call's process), once per call.
	OnIdempotencyWait func(extension, key, holder string)

	// OnRejected sees every extension answer the host refused (*ResultError) and every
	// tool/call it refused to send (*ArgumentsError), before the caller gets the error: the
	// reference host traces and records it.
	OnRejected func(extension string, generation int64, err error)
	// Logf receives diagnostics.
	Logf func(format string, args ...any)
	// Subreaper says the process is dedicated to this host (the CLI): on Linux it becomes
	// the child subreaper of everything it starts, and Shutdown kills every orphan it
	// adopted. An embedding program that starts children of its own in other process
	// groups leaves it unset.
	Subreaper bool
	// Unconfined says which extensions the operator runs outside the sandbox (--no-sandbox,
	// sandbox = "off" in the host config, host-wide or per extension); nil confines every
	// extension, and a kernel without the sandbox's mechanisms then refuses each start as
	// sandbox_unavailable.
	Unconfined func(name string) bool
	// LookupEnv reads the host environment (tests inject); nil is os.LookupEnv.
	LookupEnv func(string) (string, bool)
}

// ConditionHolds reports whether a host condition of the negotiation table holds for these
// options, so a conditional feature is offered exactly when the host can serve it:
// owner_bound when reverse requests are served and a session gives every request a
// host-derived owner; approval_issuance with ApprovalIssuance; secret_broker with
// SecretBroker (the manifest's allowlist is checked by the offer itself).
func (o *Options) ConditionHolds(c protocol.HostCondition) bool {
	switch c {
	case protocol.ConditionOwnerBound:
		return o.Services != nil && o.Session.SessionID != ""
	case protocol.ConditionApprovalIssuance:
		return o.ApprovalIssuance
	case protocol.ConditionSecretBroker:
		return o.SecretBroker
	}
	return false
}

func (o *Options) withDefaults() {
	if o.OctetVersion == "" {
		o.OctetVersion = OctetVersion
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = protocol.RequestTimeoutMS * time.Millisecond
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = protocol.StartTimeoutMS * time.Millisecond
	}
	if o.ShutdownDrain <= 0 {
		o.ShutdownDrain = protocol.ShutdownDrainMS * time.Millisecond
	}
	if o.CancelGrace <= 0 {
		o.CancelGrace = protocol.CancelGraceMS * time.Millisecond
	}
	if o.TermGrace <= 0 {
		o.TermGrace = termGrace
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = protocol.MaxMessageBytes
	}
	if o.MaxConcurrency <= 0 {
		o.MaxConcurrency = protocol.MaxInFlight
	}
	if o.NotificationRate == 0 {
		o.NotificationRate = protocol.NotificationRatePerSecond
	}
	if o.NotificationDrain <= 0 {
		o.NotificationDrain = protocol.NotificationDrainMS * time.Millisecond
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.OnEvent == nil {
		o.OnEvent = func(Event) {}
	}
}
