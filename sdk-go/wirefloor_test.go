package octet

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// TestWireFloorImportsNothingAbove: the jsonrpc transport (the floor the SDK and the host
// stand on) depends on the standard library and strictjson (a standard-library-only JSON
// scanner that shares the protocol directory because it is generated alongside it), never
// on the protocol package or anything else of the kit; its tests neither. A file of
// jsonrpc that imports protocol (as seven did) fails here.
func TestWireFloorImportsNothingAbove(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	const floor = "github.com/octet-kit/octet/sdk-go/jsonrpc"
	allowed := map[string]bool{
		floor: true, floor + ".test": true, floor + "_test": true,
		"github.com/octet-kit/octet/sdk-go/protocol/strictjson": true,
	}
	for _, args := range [][]string{{"list", "-deps"}, {"list", "-deps", "-test"}} {
		cmd := exec.Command(goBin, append(args, "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./jsonrpc")...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go %s: %v", strings.Join(args, " "), err)
		}
		n := 0
		for _, line := range strings.Split(string(out), "\n") {
			// -test lists a package rebuilt for the test as "P [P.test]".
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			n++
			if !allowed[f[0]] {
				t.Errorf("go %s: jsonrpc depends on %s", strings.Join(args, " "), f[0])
			}
		}
		if n == 0 {
			t.Fatalf("go %s listed nothing", strings.Join(args, " "))
		}
	}
}

// TestWireFloorCodesAreTheSchemas: the codes the transport owns and the defaults of its
// limits are the schema's (generated into protocol), by value and by registry name, so
// owning them below the protocol never lets the two drift apart.
func TestWireFloorCodesAreTheSchemas(t *testing.T) {
	codes := map[string][2]int64{
		"parse_error":       {jsonrpc.CodeParseError, protocol.CodeParseError},
		"invalid_request":   {jsonrpc.CodeInvalidRequest, protocol.CodeInvalidRequest},
		"method_not_found":  {jsonrpc.CodeMethodNotFound, protocol.CodeMethodNotFound},
		"invalid_params":    {jsonrpc.CodeInvalidParams, protocol.CodeInvalidParams},
		"internal_error":    {jsonrpc.CodeInternalError, protocol.CodeInternalError},
		"overloaded":        {jsonrpc.CodeOverloaded, protocol.CodeOverloaded},
		"request_cancelled": {jsonrpc.CodeRequestCancelled, protocol.CodeRequestCancelled},
	}
	for name, c := range codes {
		if c[0] != c[1] {
			t.Errorf("%s: jsonrpc %d, schema %d", name, c[0], c[1])
		}
		info, ok := protocol.LookupError(c[0])
		if !ok || info.Name != name {
			t.Errorf("code %d: the registry has %+v (%v), want %s", c[0], info, ok, name)
		}
	}
	limits := map[string][2]int{
		"MAX_MESSAGE_BYTES": {jsonrpc.DefaultMaxMessageBytes, protocol.MaxMessageBytes},
		"MAX_IN_FLIGHT":     {jsonrpc.DefaultMaxInFlight, protocol.MaxInFlight},
		"MAX_ID_BYTES":      {jsonrpc.MaxIDBytes, protocol.MaxIDBytes},
	}
	for name, l := range limits {
		if l[0] != l[1] {
			t.Errorf("%s: jsonrpc %d, schema %d", name, l[0], l[1])
		}
	}
}
