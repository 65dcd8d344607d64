package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// BenchmarkStartToReady: a process start until the initialize answer, for an
// empty Go binary (bench/floors/bare-go, timed to its exit), the Go floor
// (bench/floors/floor-go) and the Go hello-world example, each built once into
// a temporary directory (issue 17: a Go extension starts within +3 ms of an
// empty Go binary, its idle RSS within 1.3× of the floor's). Besides ns/op
// (one start, the mean) it reports the median start (p50-ms, the idle VmRSS
// reading excluded) and the median idle VmRSS after initialize, in KiB; run
// them in one go test so they see the same machine load:
//
//	go test -run '^$' -bench StartToReady -benchtime 40x ./examples/go/hello-world
func BenchmarkStartToReady(b *testing.B) {
	for _, c := range []struct{ name, dir string }{
		{"empty", "bench/floors/bare-go"},
		{"floor", "bench/floors/floor-go"},
		{"hello-world", "examples/go/hello-world"},
	} {
		b.Run(c.name, func(b *testing.B) {
			bin := filepath.Join(b.TempDir(), "extension")
			build := exec.Command("go", "build", "-o", bin, ".")
			build.Dir = filepath.Join(kitRoot, c.dir)
			if out, err := build.CombinedOutput(); err != nil {
				b.Fatalf("go build %s: %v\n%s", c.dir, err, out)
			}
			var init []byte
			if c.name != "empty" {
				init = initializeLine(b, filepath.Join(kitRoot, c.dir, "extension.toml"))
			}
			var rss []int
			var took []time.Duration
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				if init == nil {
					if err := exec.Command(bin).Run(); err != nil {
						b.Fatal(err)
					}
					took = append(took, time.Since(start))
				} else {
					r, d := startOnce(b, bin, init)
					rss, took = append(rss, r), append(took, d)
				}
			}
			// Medians: on a loaded machine the mean (ns/op) follows the stragglers.
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
			if len(rss) > 0 {
				slices.Sort(rss)
				b.ReportMetric(float64(rss[len(rss)/2]), "idle-RSS-KiB")
			}
		})
	}
}

// kitRoot is the checkout's root, from this example's directory.
const kitRoot = "../../.."

// initializeLine is an initialize request for the extension of a manifest, as
// the host sends it (the manifest as JSON).
func initializeLine(b *testing.B, manifest string) []byte {
	var m map[string]any
	if _, err := toml.DecodeFile(manifest, &m); err != nil {
		b.Fatal(err)
	}
	work := b.TempDir()
	params := map[string]any{
		"api_version": "0.4", "octet_version": "0.1.0",
		"extension": map[string]any{"name": m["name"], "version": m["version"], "dir": filepath.Dir(manifest), "manifest_path": manifest, "source": "explicit"},
		"manifest":  m,
		"workspace": map[string]any{"root": work, "trusted": true},
		"protocol": map[string]any{"version": "0.4", "required_features": []string{"request_cancellation", "content_parts"},
			"optional_features": []string{}, "limits": map[string]any{"max_concurrent_requests": 64, "max_message_bytes": 1 << 20, "max_pending_requests": 64}},
	}
	raw, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
	if err != nil {
		b.Fatal(err)
	}
	return append(raw, '\n')
}

// startOnce starts bin, sends init, waits for the answer and returns the
// process's VmRSS then and the time to the answer; the process is ended untimed.
func startOnce(b *testing.B, bin string, init []byte) (int, time.Duration) {
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "OCTET_EXTENSION_API_VERSION=0.4")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	if _, err := stdin.Write(init); err != nil {
		b.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.Contains(line, `"result"`) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		b.Fatalf("initialize: %v %.300s", err, line)
	}
	took := time.Since(start)
	b.StopTimer()
	rss := vmRSSKiB(cmd.Process.Pid)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	b.StartTimer()
	return rss, took
}

func vmRSSKiB(pid int) int {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0 // not Linux: no figure
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}
