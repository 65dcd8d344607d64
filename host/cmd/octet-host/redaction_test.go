package main

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/octet-kit/octet/host/redact/redacttest"
)

// leakyExtensions are the three careless extensions of testdata/leaky: Python and
// TypeScript run from there; the Go one is built first and its manifest copied to point at
// the binary.
func leakyExtensions(t *testing.T) map[string]string {
	t.Helper()
	abs, _ := filepath.Abs("testdata/leaky")
	goDir := filepath.Join(t.TempDir(), "leaky-go")
	os.Mkdir(goDir, 0o755)
	bin := filepath.Join(goDir, "leaky")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/leaky/leaky-go").CombinedOutput(); err != nil {
		t.Fatalf("build the Go extension: %v\n%s", err, out)
	}
	m, err := os.ReadFile(filepath.Join(abs, "leaky-go", "extension.toml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(goDir, "extension.toml"), []byte(strings.Replace(string(m), "LEAKY_GO_BINARY", bin, 1)), 0o644)
	for _, need := range []string{"../../../.venv/bin/python", "../../../sdk-typescript/dist/src/index.js"} {
		if _, err := os.Stat(need); err != nil {
			t.Fatalf("%s is missing: run `go run mage.go pythonEnv buildTypeScript` first", need)
		}
	}
	return map[string]string{"go": goDir, "python": filepath.Join(abs, "leaky-python"), "typescript": filepath.Join(abs, "leaky-typescript")}
}

// scanState scans every file under dir raw, and every text and blob cell of every table of
// the SQLite database as stored (so a value kept in a compressed or escaped column is not
// missed by the raw scan alone).
func scanState(t *testing.T, dir string, enc map[string][]redacttest.Encoding) (found []redacttest.Finding, files []string, cells int) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, fmt.Sprintf("%s (%d bytes)", rel, len(b)))
		found = append(found, scanEvery(rel, b, enc)...)
		return nil
	})
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "state.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			cell := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range cell {
				ptrs[i] = &cell[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, c := range cell {
				var b []byte
				switch v := c.(type) {
				case string:
					b = []byte(v)
				case []byte:
					b = v
				default:
					continue
				}
				cells++
				found = append(found, scanEvery("state.db "+table+"."+cols[i], b, enc)...)
			}
		}
		rows.Close()
	}
	return found, files, cells
}

// scanEvery scans b for every value in every listed encoding and, decoding each base64 and
// hex run at every alignment, for values embedded in a longer encoded stream.
func scanEvery(where string, b []byte, enc map[string][]redacttest.Encoding) []redacttest.Finding {
	values := make([]string, 0, len(enc))
	for v := range enc {
		values = append(values, v)
	}
	return append(redacttest.Scan(where, b, enc), redacttest.ScanDecoded(where, b, values)...)
}

// withDerived adds the real re-encoders' forms (percent, base64, hex, HTML, \u) to enc.
func withDerived(t *testing.T, values []string, enc map[string][]redacttest.Encoding) map[string][]redacttest.Encoding {
	for v, forms := range redacttest.DerivedEncodings(t, values) {
		enc[v] = append(enc[v], forms...)
	}
	return enc
}

// scanAll scans stdout, stderr and the state directory of one host run, reports every
// finding and returns how many there were.
func scanAll(t *testing.T, what, out, errOut, state string, enc map[string][]redacttest.Encoding) int {
	t.Helper()
	found := append(scanEvery("stdout", []byte(out), enc), scanEvery("stderr", []byte(errOut), enc)...)
	stateFound, files, cells := scanState(t, state, enc)
	found = append(found, stateFound...)
	t.Logf("%s: scanned %d bytes of stdout, %d of stderr, state files %v, %d database cells: %d occurrences",
		what, len(out), len(errOut), files, cells, len(found))
	for _, f := range found {
		t.Errorf("%s: %s: %q (as %s)", what, f.Where, f.Value, f.Writer)
	}
	if len(files) < 2 || cells == 0 {
		t.Fatalf("%s: nothing to scan in the state directory: files %v, %d cells", what, files, cells)
	}
	return len(found)
}

// TestNoSecretReachesAnyOutput hands nine hostile broker values and a hostile secret input
// answer (quotes, backslashes, <>&, control characters with NUL, é, an emoji, a lone
// combining mark, U+2028, DEL) to a careless extension in each of Go, Python and
// TypeScript, which echoes all of them in a result, an error message and its data,
// notifications, progress and stderr (raw and as its language's JSON). `call`, then the
// `run` console (call, logs, status), run with --trace and --record; after each, every
// byte the host wrote — stdout, stderr, every file of the state directory (database, WAL,
// stderr logs) and every text or blob cell of the database — is scanned for every value
// in every real encoder's form. Each extension also re-encodes every value (percent-encoding,
// base64 in both alphabets and inside a longer stream, hex, HTML references, \u escapes) into
// its result, error data and stderr; those forms, and anything that decodes back to a value
// from a base64 or hex run, are scanned for too. Zero occurrences.
func TestNoSecretReachesAnyOutput(t *testing.T) {
	values := redacttest.Values(t)
	enc := withDerived(t, values, redacttest.Encodings(t, values))
	broker, answer := values[:len(values)-1], values[len(values)-1]
	dir := t.TempDir()
	var secrets strings.Builder
	for i, v := range broker {
		fmt.Fprintf(&secrets, "s%d = %s\n", i+1, redacttest.TOMLString(v))
	}
	os.WriteFile(filepath.Join(dir, "secrets.toml"), []byte(secrets.String()), 0o600)
	sc := filepath.Join(dir, "script.toml")
	os.WriteFile(sc, []byte("secrets_file = \"secrets.toml\"\n[[inputs]]\nmatch = \"Password\"\nvalue = "+redacttest.TOMLString(answer)+"\n"), 0o600)
	e := newEnv(t)
	total := 0
	exts := leakyExtensions(t)
	for _, lang := range []string{"go", "python", "typescript"} {
		ext := exts[lang]
		t.Run(lang, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "state")
			code, out, errOut := octetHost(t, "", "call", "--trace", "--record", "--script", sc, "--state", state, "--config", e.config, ext, "leak_result", "leak_error")
			// A result and an rpc error came back (so the extension gathered and echoed).
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if code != exitFailed || len(lines) != 2 || !strings.Contains(lines[1], `"code":1001`) {
				t.Fatalf("call: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			total += scanAll(t, lang+" call", out, errOut, state, enc)
			// The inspector's view of the recording (the frames as stored, each printed in full).
			m := regexp.MustCompile(`recorded session (\S+)`).FindStringSubmatch(errOut)
			if m == nil {
				t.Fatalf("no recorded session named on stderr:\n%s", errOut)
			}
			{
				code, insp, inspErr := octetHost(t, "", "inspect", "--state", state, "--verbose", m[1])
				if code != exitOK || !strings.Contains(insp, "leak_result") {
					t.Fatalf("inspect: exit %d\n%s\n%s", code, insp, inspErr)
				}
				found := append(scanEvery("inspect", []byte(insp), enc), scanEvery("inspect stderr", []byte(inspErr), enc)...)
				for _, f := range found {
					t.Errorf("%s inspect: %q (as %s)", lang, f.Value, f.Writer)
				}
				total += len(found)
			}
			// The values were really there to find, redacted: in the result, the error data
			// and the extension's stderr log.
			log, _ := os.ReadFile(filepath.Join(state, "logs", "extensions", "leaky-"+lang+".log"))
			if !strings.Contains(lines[0], "[redacted] | [redacted]") || !strings.Contains(lines[1], `"values":["[redacted]"`) || !strings.Contains(lines[1], `"encoded":["[redacted] [redacted]`) ||
				strings.Count(string(log), "raw [redacted]") != 2*len(values) { // both tools gather
				t.Errorf("redacted echoes missing:\nstdout:\n%s\nlog:\n%s", out, log)
			}
			if !strings.Contains(errOut, `"direction":"ext->host","extension":"leaky-`+lang+`","generation":1`) || !strings.Contains(errOut, "recorded session") {
				t.Fatalf("trace or recording missing:\n%s", errOut)
			}

			// The run console: results, errors, `logs` (the stderr tail) and `status`.
			state = filepath.Join(t.TempDir(), "state")
			console := "call leak_result\ncall leak_error\nlogs leaky-" + lang + "\nstatus\nquit\n"
			code, out, errOut = octetHost(t, console, "run", "--trace", "--record", "--script", sc, "--state", state, "--config", e.config, ext)
			if code != exitOK || !strings.Contains(out, `"code":1001`) {
				t.Fatalf("run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			total += scanAll(t, lang+" run", out, errOut, state, enc)
			// (`logs` may run before the host has read all of stderr: the complete log is checked.)
			log, _ = os.ReadFile(filepath.Join(state, "logs", "extensions", "leaky-"+lang+".log"))
			if !strings.Contains(out, `"text":"[redacted] | [redacted]`) || strings.Count(string(log), "raw [redacted]") != 2*len(values) {
				t.Errorf("run: redacted echoes missing:\n%s\nlog:\n%s", out, log)
			}
		})
	}
	t.Logf("total occurrences of a secret in the host's output: %d", total)
}

// TestStartFailureOutputIsRedacted: an extension that writes the broker values to stderr
// and exits before the handshake, or writes them to stdout as a non-frame line, fails to
// start; the start error (with its stderr tail or the quoted line) and the stderr log hold
// no value in any form.
func TestStartFailureOutputIsRedacted(t *testing.T) {
	values := redacttest.Values(t)
	enc := redacttest.Encodings(t, values)
	broker := values[:len(values)-1]
	dir := t.TempDir()
	var secrets strings.Builder
	for i, v := range broker {
		fmt.Fprintf(&secrets, "s%d = %s\n", i+1, redacttest.TOMLString(v))
	}
	sc := filepath.Join(dir, "script.toml")
	os.WriteFile(sc, []byte("[secrets]\n"+secrets.String()), 0o600)
	e := newEnv(t)
	// The stdout one stays alive, so the host reports the non-frame line rather than the exit.
	for mode, script := range map[string]string{"stderr": "cat \"${0%/*}/leak.txt\" >&2\nexit 3\n", "stdout": "cat \"${0%/*}/leak.txt\"\nexec sleep 30\n"} {
		t.Run(mode, func(t *testing.T) {
			ext := filepath.Join(t.TempDir(), "early-"+mode)
			os.MkdirAll(ext, 0o755)
			os.WriteFile(filepath.Join(ext, "leak.txt"), []byte(strings.Join(broker, " | ")+"\n"), 0o644)
			os.WriteFile(filepath.Join(ext, "run"), []byte("#!/bin/sh\n"+script), 0o755)
			os.WriteFile(filepath.Join(ext, "extension.toml"), []byte("name = \"early-"+mode+"\"\nversion = \"0.1.0\"\napi_version = \"0.4\"\n[entrypoint]\ncommand = \"run\"\n[contributes]\ntools = [\"t\"]\n"), 0o644)
			state := filepath.Join(t.TempDir(), "state")
			code, out, errOut := octetHost(t, "", "call", "--script", sc, "--state", state, "--config", e.config, ext, "t")
			if code != exitStartup {
				t.Fatalf("call: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			found := append(redacttest.Scan("stdout", []byte(out), enc), redacttest.Scan("stderr", []byte(errOut), enc)...)
			filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					found = append(found, redacttest.Scan(p, b, enc)...)
				}
				return err
			})
			for _, f := range found {
				t.Errorf("%s: %q (as %s)", f.Where, f.Value, f.Writer)
			}
			t.Logf("%s: %d occurrences", mode, len(found))
			if !strings.Contains(errOut, "[redacted] | [redacted]") {
				t.Errorf("the start error does not show the redacted output:\n%s", errOut)
			}
		})
	}
}
