package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// bin holds the binaries TestMain builds: octet-host, octet-mcp, octet-mcp-gateway and
// the steerable test server.
var bin string

// moduleDir is mcp/, repoDir the kit's root.
var moduleDir, repoDir string

func TestMain(m *testing.M) {
	_, file, _, _ := runtime.Caller(0)
	moduleDir = filepath.Dir(filepath.Dir(file))
	repoDir = filepath.Dir(moduleDir)
	dir, err := os.MkdirTemp("", "octet-mcp-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = dir
	builds := [][2]string{
		{repoDir, "./host/cmd/octet-host"},
		{moduleDir, "./cmd/octet-mcp"},
		{moduleDir, "./cmd/octet-mcp-gateway"},
		{moduleDir, "./internal/testserver"},
		{moduleDir, "./internal/hostile"},
	}
	for _, b := range builds {
		cmd := exec.Command("go", "build", "-o", bin+"/", b[1])
		if b[1] == "./cmd/octet-mcp" && os.Getenv("OCTET_MCP_PROFILE") != "" {
			// BenchmarkBridgeAddedLatency's profiles (cmd/octet-mcp/profile_on.go).
			cmd.Args = append(cmd.Args[:2], "-tags", "mcpprofile", "-o", bin+"/", b[1])
		}
		cmd.Dir = b[0]
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building", b[1], err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// serversDir is where mage mcpServers installs the npm servers and the FastMCP venv.
func serversDir() string { return filepath.Join(moduleDir, "testdata", "servers") }

// needNPM skips (or, when OCTET_MCP_SERVERS=required, fails) without the npm servers.
func needNPM(t *testing.T) {
	t.Helper()
	need(t, filepath.Join(serversDir(), "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
}

// needFastMCP is needNPM for the FastMCP venv.
func needFastMCP(t *testing.T) {
	t.Helper()
	need(t, filepath.Join(serversDir(), ".venv", "bin", "fastmcp"))
}

// needKit is needNPM for the kit's own Python venv and TypeScript build, which the
// Python and TypeScript examples run on (mage test makes both before the Go tests).
func needKit(t *testing.T) {
	t.Helper()
	need(t, filepath.Join(repoDir, ".venv", "bin", "python"))
	need(t, filepath.Join(repoDir, "sdk-typescript", "dist"))
}

func need(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("OCTET_MCP_SERVERS") == "required" {
			t.Fatalf("%s is missing: run go run mage.go mcpServers pythonEnv buildTypeScript", path)
		}
		t.Skipf("%s is missing: run go run mage.go mcpServers pythonEnv buildTypeScript", path)
	}
}

func everythingCmd() (string, []string) {
	return "node", []string{filepath.Join(serversDir(), "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")}
}

// bridgeDir lays out an octet-mcp extension directory (manifest, binary, mcp.json with
// servers) in a fresh temporary directory and returns it.
func bridgeDir(t testing.TB, servers map[string]any) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "octet-mcp")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(moduleDir, "cmd", "octet-mcp", "extension.toml"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "extension.toml"), manifest)
	if err := os.Link(filepath.Join(bin, "octet-mcp"), filepath.Join(dir, "octet-mcp")); err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"servers": servers})
	write(t, filepath.Join(dir, "mcp.json"), cfg)
	return dir
}

func write(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// callLine is one line `octet-host call` printed: a tool result, or an error object.
type callLine struct {
	Tool              string            `json:"tool"`
	Error             *callError        `json:"error"`
	Content           []json.RawMessage `json:"content"`
	IsError           bool              `json:"is_error"`
	StructuredContent json.RawMessage   `json:"structured_content"`
	Metadata          json.RawMessage   `json:"metadata"`
	raw               string
}

type callError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Code    int64  `json:"code"`
}

// text joins the result's text parts.
func (l callLine) text() string {
	var parts []string
	for _, c := range l.Content {
		var p struct {
			Type, Text string
		}
		_ = json.Unmarshal(c, &p)
		if p.Type == "text" {
			parts = append(parts, p.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// hostCall runs octet-host call with args (flags, DIR, TOOL JSON ...) and returns one
// parsed line per tool and the exit code.
func hostCall(t *testing.T, args ...string) ([]callLine, int, string) {
	t.Helper()
	// A state directory of its own: the default one is shared by every octet-host on the
	// machine, and one of another version may have migrated it.
	cmd := exec.Command(filepath.Join(bin, "octet-host"), append([]string{"call", "--state", t.TempDir()}, args...)...)
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var lines []callLine
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l callLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("octet-host printed a line that is not JSON: %q", sc.Text())
		}
		l.raw = sc.Text()
		lines = append(lines, l)
	}
	return lines, code, stderr.String()
}

// statusOf decodes mcp_status's structured content.
func statusOf(t *testing.T, l callLine) []serverStatus {
	t.Helper()
	var s struct {
		Servers []serverStatus `json:"servers"`
	}
	if err := json.Unmarshal(l.StructuredContent, &s); err != nil {
		t.Fatalf("mcp_status structured content: %v (%s)", err, l.raw)
	}
	return s.Servers
}

type serverStatus struct {
	Name        string   `json:"name"`
	State       string   `json:"state"`
	Class       string   `json:"class"`
	Detail      string   `json:"detail"`
	Restarts    int      `json:"restarts"`
	Tools       []string `json:"tools"`
	DroppedLogs int64    `json:"dropped_logs"`
	Withheld    []struct {
		Tool, Pointer, Error string
	} `json:"withheld"`
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
