package octettest_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

// helloExtension is examples/go/hello-world's registry.
func helloExtension() *octet.Extension {
	ext := octet.New(octet.Options{Logger: octet.NewLogger(io.Discard, slog.LevelInfo)})
	octet.Tool(ext, octet.ToolSpec{Name: "hello_world", Description: "Greet someone"},
		func(ctx context.Context, a struct {
			Name string `json:"name"`
		}) (octet.Result, error) {
			return octet.Text("Hello, " + a.Name + "!"), nil
		})
	return ext
}

// TestHelloWorld is how an extension author tests a tool: start the extension
// against the scripted host, call the tool, look at the result and the frames.
func TestHelloWorld(t *testing.T) {
	h := octettest.Start(t, helloExtension(), octettest.Options{
		Manifest: map[string]any{"name": "hello-world", "version": "0.1.0",
			"contributes": map[string]any{"tools": []string{"hello_world"}}},
	})
	res, err := h.CallTool(context.Background(), "hello_world", map[string]any{"name": "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "Hello, Ada!" {
		t.Fatalf("got %q", res.Text())
	}
	if _, err := h.CallTool(context.Background(), "hello_world", map[string]any{"name": 7}); err == nil {
		t.Fatal("a number was accepted as the name")
	}
	if n := len(h.Frames()); n < 6 {
		t.Fatalf("only %d frames recorded", n)
	}
}
