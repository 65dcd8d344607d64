package host

import (
	"context"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Owner is the host-derived resource owner of a request (wire.md §4): the wire type
// ResourceOwner itself, so an owner the core issues is the one the extension echoes.
type Owner = protocol.ResourceOwner

// Caller is the identity a generation was started with. Reverse services bind to it and
// never to anything the extension says about itself. host/services uses this very type, so
// its Router serves the core without an adapter.
type Caller struct {
	Extension  string // manifest name
	Principal  string // name + "@" + sha256(manifest file bytes)
	APIVersion string
	InstanceID string // this host run's non-repeating instance fence for the extension
	Generation int64

	Features map[string]bool // negotiated

	Secrets       []string
	Commands      []string
	UI            []string
	Context       bool
	Presentation  bool
	Notifications bool
	Confirmations bool

	ScratchDir string // this generation's OCTET_EXTENSION_SCRATCH

	// Identity is the trusted identity durable state is keyed by: name + "@" + install
	// root (manifest.Identity). Empty (a Caller built by a test) means the bare name.
	Identity string

	// IssuedOwner reports whether the host issued owner to this generation: a host request
	// carried it (presentation/update may echo an issued resource_owner outside a
	// handler). The core always sets it; a nil IssuedOwner (a Caller built by a test)
	// accepts any owner with this generation's instance and generation fence.
	IssuedOwner func(Owner) bool

	// ActiveParent reports whether id is a host request this generation is serving now, and
	// its owner. Process-scoped requests (status/collect, tool/render) are not parents.
	ActiveParent func(id jsonrpc.ID) (Owner, bool)
}

// ToolDefinition is one tool of a catalog (wire.md §4): the generated type, whose
// parameters and output_schema are the bytes the extension sent (open objects are raw
// JSON in Go), so a schema reaches a caller exactly as its author wrote it.
type ToolDefinition = protocol.ToolDefinition

// Services serves every extension->host method. host/services.Router satisfies it (see
// host/reference, which wires the two); tests use small fakes.
type Services interface {
	// Handle serves one request or notification; errors are *jsonrpc.Error.
	Handle(ctx context.Context, c *Caller, req *jsonrpc.Request) (any, error)
	// ParentSettled is called when a host request of c's generation finished.
	ParentSettled(c *Caller, id jsonrpc.ID)
	// GenerationEnded is called once c's generation has stopped.
	GenerationEnded(c *Caller)
	// SeedCatalog installs the initialize catalog as revision 0 of c's generation.
	SeedCatalog(c *Caller, tools []ToolDefinition) error
}

// DropReporter is implemented by Services that report the extension's notifications the
// host read and never handled (its connection closed before the queue drained).
type DropReporter interface {
	NotificationsDropped(c *Caller, n int)
}

// noServices answers every request method_not_found and ignores notifications.
type noServices struct{}

func (noServices) Handle(_ context.Context, _ *Caller, req *jsonrpc.Request) (any, error) {
	if req.IsNotification() {
		return nil, nil
	}
	return nil, jsonrpc.NewError(protocol.CodeMethodNotFound, "method not found: "+req.Method+" (this host runs without services)", map[string]string{"method": req.Method})
}
func (noServices) ParentSettled(*Caller, jsonrpc.ID)           {}
func (noServices) GenerationEnded(*Caller)                     {}
func (noServices) SeedCatalog(*Caller, []ToolDefinition) error { return nil }
