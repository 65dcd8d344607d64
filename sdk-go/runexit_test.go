package octet_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Run's exit status is the verdict a host sees (wire.md §1, framing faults): 0 for an
// orderly end (stdin EOF at a frame boundary), 1 for a framing fault — garbage before
// the handshake, a byte order mark, a blank line, stdin ending inside a frame. It
// exited 0 for all of them; Python and TypeScript exit 1.
func TestRunExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the test binary as an extension")
	}
	cases := []struct {
		name, input string
		want        int
	}{
		{"eof at a frame boundary", "", 0},
		{"garbage before the handshake", "Content-Length: 52\r\n\r\n", 1},
		{"byte order mark", "\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\n", 1},
		{"blank line", "\n", 1},
		{"eof inside a frame", `{"jsonrpc":"2.0","id":1,"method":"x"}`, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "OCTET_SDK_TEST_EXTENSION=1", "OCTET_EXTENSION_API_VERSION=0.4")
			cmd.Stdin = strings.NewReader(tc.input)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.want {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.want, stderr.String())
			}
		})
	}
}
