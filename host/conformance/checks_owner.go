package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The session owner's checks (docs/host.md "The session owner"): an extension that declares
// [session] owner = true, run through the reference host library, is the one owner, its
// hooks fail closed, and its catalog (private tools, operator denials) is what the host
// enforces. They bind only an extension that declares ownership; another is skipped.

func init() {
	register(&Check{
		Name:        "owner.exclusive",
		Description: "the reference host starts the extension as the one session owner, and refuses a second extension declaring ownership before any process starts, naming both",
		Requirement: "docs/host.md: The session owner (one owner; owner_conflict)",
		Tier:        Conditional,
		Covers:      []string{protocol.MethodInitialize},
		Run:         checkOwnerExclusive,
	}, &Check{
		Name:        "owner.hook_fail_closed",
		Description: "the owner's before_prompt hook lets an ordinary prompt through, and while the owner is not running the host stops the turn (owner_hook_failed) instead of passing it",
		Requirement: "docs/host.md: The session owner (fail closed); docs/host.md: Hooks",
		Tier:        Conditional,
		Covers:      []string{protocol.MethodHookRun},
		Run:         checkOwnerHookFailClosed,
	}, &Check{
		Name:        "owner.catalog_enforced",
		Description: "the model's catalog leaves out the owner's private tools and the operator's denied tools and the host refuses them before execution, with the reason; the owner still reaches its private tools, never a denied one",
		Requirement: "docs/host.md: The session owner (the model's catalog)",
		Tier:        Conditional,
		Covers:      []string{protocol.MethodToolCall},
		Run:         checkOwnerCatalog,
	})
}

// rivalOwner is the name of the second owner owner.exclusive declares.
const rivalOwner = "conformance-rival-owner"

// ownerOnly skips an extension that does not declare session ownership.
func ownerOnly(t *T) error {
	if !t.Ext.Manifest.Session.Owner {
		return skip("the extension does not declare [session] owner = true")
	}
	return nil
}

func checkOwnerExclusive(t *T) error {
	if err := ownerOnly(t); err != nil {
		return err
	}
	name := t.Ext.Manifest.Name
	// The rival's command does not exist: were it started, its start would fail with
	// command_not_found rather than the conflict, so the conflict is decided before any start.
	parent, err := os.MkdirTemp("", "octet-conformance-rival-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(parent)
	rival := filepath.Join(parent, rivalOwner) // a manifest's name is its directory's
	if err := os.Mkdir(rival, 0o755); err != nil {
		return err
	}
	body := fmt.Sprintf("name = %q\nversion = \"0.1.0\"\napi_version = \"0.4\"\n[entrypoint]\ncommand = %q\n[session]\nowner = true\n",
		rivalOwner, filepath.Join(rival, "never-started"))
	if err := os.WriteFile(filepath.Join(rival, manifest.FileName), []byte(body), 0o644); err != nil {
		return err
	}
	res := discovery.Discover([]discovery.Root{{Dir: t.Ext.Dir, Source: discovery.Explicit, Single: true}, {Dir: rival, Source: discovery.Explicit, Single: true}},
		manifest.Options{OctetVersion: host.OctetVersion})
	if len(res.Entries) != 2 || !res.Entries[0].Valid() || !res.Entries[1].Valid() {
		var diags []string
		for _, d := range res.Diagnostics {
			diags = append(diags, d.String())
		}
		return fail("discovery to find the extension and the rival owner, both valid", "%d entries; %s", len(res.Entries), strings.Join(diags, "; "))
	}
	state, err := os.MkdirTemp("", "octet-conformance-host-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(state)
	h := host.New(host.Options{StateDir: state, Workspace: t.Ext.Workspace, StartTimeout: t.Timeout(), RequestTimeout: t.Timeout(),
		ShutdownDrain: t.Drain(), TermGrace: exitGrace, Session: host.Session{SessionID: "conformance-session"}})
	_, err = h.Start(t.Ctx, res.Entries, nil)
	var se *host.StartupError
	var oc *host.OwnerConflictError
	conflict := errors.As(err, &se) && se.Kind == host.StartupOwnerConflict && errors.As(err, &oc)
	started := false
	if e := h.Extension(name); e != nil {
		started = e.Status().Generation > 0
	}
	h.Shutdown()
	if !conflict || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), rivalOwner) || started {
		return fail(fmt.Sprintf("startup with a second owner stopped before any process started (owner_conflict naming %s and %s)", name, rivalOwner),
			"error %v; the extension started: %v", err, started)
	}
	// Alone, it is the owner.
	h, stop, err := referenceHost(t)
	if err != nil {
		return err
	}
	defer stop()
	if got := h.Owner(); got != name {
		return fail("the reference host to name the extension its session owner", "owner %q", got)
	}
	return nil
}

func checkOwnerHookFailClosed(t *T) error {
	if err := ownerOnly(t); err != nil {
		return err
	}
	if !slices.Contains(t.Ext.Manifest.Contributes.Hooks, "before_prompt") {
		return skip("the owner contributes no before_prompt hook")
	}
	name := t.Ext.Manifest.Name
	h, stop, err := referenceHost(t)
	if err != nil {
		return err
	}
	defer stop()
	var hb *host.HookBlockedError
	if _, err := h.BeforePrompt(t.Ctx, "conformance: an ordinary prompt"); err != nil && !errors.As(err, &hb) {
		return fail("the owner's before_prompt hook to answer an ordinary prompt (continue, replace or block)", "%v", err)
	}
	h.Extension(name).Stop("conformance")
	_, err = h.BeforePrompt(t.Ctx, "conformance: a prompt while the owner is stopped")
	var he *host.HookError
	if !errors.As(err, &he) || !he.Owner || he.Extension != name {
		return fail("the turn stopped with the owner's hook failure (owner_hook_failed) while the owner is not running", "%v", err)
	}
	return nil
}

func checkOwnerCatalog(t *T) error {
	if err := ownerOnly(t); err != nil {
		return err
	}
	m := t.Ext.Manifest
	name := m.Name
	var denied string
	for _, tool := range m.Contributes.Tools {
		if !slices.Contains(m.Session.PrivateTools, tool) {
			denied = tool
			break
		}
	}
	if len(m.Session.PrivateTools) == 0 && denied == "" {
		return skip("the owner declares no private tool and no public tool to deny")
	}
	h, stop, err := referenceHostWith(t, func(o *host.Options) {
		if denied != "" {
			o.DeniedTools = []string{name + "/" + denied}
		}
	})
	if err != nil {
		return err
	}
	defer stop()
	mc := h.ModelCatalog()
	refused := func(check func(string, string) error, tool, reason string) error {
		var na *host.ToolNotAllowedError
		if err := check(name, tool); !errors.As(err, &na) || na.Reason != reason {
			return fail(fmt.Sprintf("%s refused (%s)", tool, reason), "%v", err)
		}
		return nil
	}
	for _, tool := range m.Session.PrivateTools {
		if mc.Has(name, tool) {
			return fail("private tool "+tool+" left out of the model's catalog", "it is in the catalog")
		}
		if err := refused(h.CheckModelCall, tool, "private"); err != nil {
			return err
		}
		if err := h.CheckOwnerCall(name, tool); err != nil {
			return fail("the owner to reach its private tool "+tool, "%v", err)
		}
		_, err := h.Extension(name).CallTool(t.Ctx, tool, json.RawMessage(`{}`))
		var we *jsonrpc.Error
		var ae *host.ArgumentsError
		if err != nil && !errors.As(err, &we) && !errors.As(err, &ae) {
			return fail("the owner's call of "+tool+" to reach the extension", "%v", err)
		}
	}
	if denied != "" {
		if mc.Has(name, denied) {
			return fail("denied tool "+denied+" left out of the model's catalog", "it is in the catalog")
		}
		if err := refused(h.CheckModelCall, denied, "denied"); err != nil {
			return err
		}
		if err := refused(h.CheckOwnerCall, denied, "denied"); err != nil {
			return fmt.Errorf("the owner's own call: %w", err)
		}
	}
	return nil
}
