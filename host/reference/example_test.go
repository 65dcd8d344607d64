package reference_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/script"
)

// Start one extension directory with a script, open the session and call a tool in one
// turn, as `octet-host call --script` does. (Compiled, not run: it needs a real extension.)
func Example() {
	ctx := context.Background()
	sc, err := script.Parse("answers.toml", []byte("[[confirmations]]\nmatch = \"Publish\"\nconfirmed = true\n"), ".")
	if err != nil {
		log.Fatal(err)
	}
	state, _ := os.MkdirTemp("", "octet-state-")
	defer os.RemoveAll(state)
	h, err := reference.Open(ctx, reference.Options{
		Host:   host.Options{StateDir: state, Workspace: ".", Session: host.Session{SessionID: "example"}},
		Script: sc,
		Record: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close()
	ext, err := h.StartDir(ctx, "examples/go/hello-world")
	if err != nil {
		log.Fatal(err)
	}
	sess, err := h.BeginSession()
	if err != nil {
		log.Fatal(err)
	}
	turn := sess.TurnStarted()
	raw, err := sess.CallTool(ctx, ext, turn, "hello_world", json.RawMessage(`{"name":"Ada"}`))
	sess.TurnSettled(turn, "completed")
	sess.End("completed")
	fmt.Println(string(raw), err, h.RecordingID(ext.Name()))
}
