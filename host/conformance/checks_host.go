package conformance

import (
	"encoding/json"
	"os"
	"strings"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The one check that goes through the reference host library rather than the raw
// session: the host's own discovery, handshake validation, calls and shutdown must
// accept the extension, with the minimal feature offer of a host without services.

func init() {
	register(&Check{
		Name:        "host.reference_lifecycle",
		Description: "the reference host library discovers, starts (its own handshake validation, required features only), calls and shuts the extension down",
		Requirement: "docs/host.md; wire.md §2 (answer the supported subset of what is offered)",
		Tier:        Required,
		Covers:      []string{protocol.MethodInitialize, protocol.MethodShutdown},
		Run:         checkReferenceHost,
	})
}

// referenceHost starts the extension through the reference host library as a required
// extension; stop shuts the host down and removes its state directory.
func referenceHost(t *T) (h *host.Host, stop func(), err error) {
	return referenceHostWith(t, nil)
}

// referenceHostWith is referenceHost with the options adjusted by tune (nil: as they are).
func referenceHostWith(t *T, tune func(*host.Options)) (h *host.Host, stop func(), err error) {
	res := discovery.Discover([]discovery.Root{{Dir: t.Ext.Dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	if len(res.Entries) != 1 || res.Entries[0].Manifest == nil {
		var diags []string
		for _, d := range res.Diagnostics {
			diags = append(diags, d.String())
		}
		return nil, nil, fail("discovery to find the extension", "%d entries; %s", len(res.Entries), strings.Join(diags, "; "))
	}
	state, err := os.MkdirTemp("", "octet-conformance-host-")
	if err != nil {
		return nil, nil, err
	}
	o := host.Options{
		StateDir: state, Workspace: t.Ext.Workspace, WorkspaceTrusted: true, PassEnv: t.opts.PassEnv,
		Session:      host.Session{SessionID: "conformance-session"}, // resource owners need a session id
		StartTimeout: t.Timeout(), RequestTimeout: t.Timeout(), ShutdownDrain: t.Drain(), TermGrace: exitGrace,
	}
	if t.opts.NoSandbox {
		o.Unconfined = func(string) bool { return true }
	}
	if tune != nil {
		tune(&o)
	}
	h = host.New(o)
	if _, err := h.Start(t.Ctx, res.Entries, []string{t.Ext.Manifest.Name}); err != nil {
		os.RemoveAll(state)
		return nil, nil, fail("the reference host to start the extension", "%v", err)
	}
	return h, func() { h.Shutdown(); os.RemoveAll(state) }, nil
}

func checkReferenceHost(t *T) error {
	name := t.Ext.Manifest.Name
	start := time.Now()
	h, stopHost, err := referenceHost(t)
	if err != nil {
		return err
	}
	started := time.Since(start)
	features := h.Extension(name).Status().Features
	if t.Ext.IsFixture() {
		if err := echoThroughHost(t, h, "through the host"); err != nil {
			stopHost()
			return err
		}
	}
	stop := time.Now()
	stopHost()
	stopped := time.Since(stop)
	st := h.Extension(name).Status()
	if st.State != host.StateStopped || st.LastError != "" {
		return fail("state stopped with no error after the host's shutdown", "state %s, last error %q", st.State, st.LastError)
	}
	t.Note("started in %s (features %s), stopped in %s", started.Round(time.Millisecond), strings.Join(features, ","), stopped.Round(time.Millisecond))
	return nil
}

// echoThroughHost calls the fixture's echo through the reference host.
func echoThroughHost(t *T, h *host.Host, value string) error {
	out, _, err := h.CallTool(t.Ctx, "echo", mustJSON(map[string]any{"value": value}))
	if err != nil {
		return fail("echo through the reference host", "%v", err)
	}
	var r toolResult
	want := mustJSON(map[string]any{"value": value})
	if json.Unmarshal(out, &r) != nil || !jsonEqual(r.StructuredContent, want) {
		return fail("structured_content "+string(want), "%s", excerpt(out, 200))
	}
	return nil
}
