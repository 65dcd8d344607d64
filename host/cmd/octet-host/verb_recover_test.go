package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/store"
)

// openStore opens the state store of a finished host run.
func openStore(t *testing.T, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// killHostMidCall runs `octet-host call --trace ARGS` as a child process and SIGKILLs it
// once its trace shows the tool/call written to the extension: the host dies with the call
// in flight. It returns what the child printed.
func killHostMidCall(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"call", "--no-sandbox", "--trace"}, args...)...)
	cmd.Env = append(os.Environ(), hostChildEnv+"=1", "OCTET_TRUSTED_EXTENSIONS=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var seen strings.Builder
	sc := bufio.NewScanner(stderr)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		seen.WriteString(line + "\n")
		if strings.Contains(line, `"direction":"host->ext"`) && strings.Contains(line, `"method":"tool/call"`) {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			return seen.String()
		}
	}
	t.Fatalf("the host ended before it wrote the tool call:\n%s", seen.String())
	return ""
}

func inputArguments(t *testing.T, s store.SendRow) string {
	t.Helper()
	var in struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(s.Input, &in); err != nil {
		t.Fatalf("send %d input %s: %v", s.ID, s.Input, err)
	}
	return string(in.Arguments)
}

// A host SIGKILLed mid-call leaves the send with its input and no final receipt; recover
// replays that input to the extension, prints the answer and records a recovery receipt
// linked to the original; a second recover finds nothing to do.
func TestRecoverReplaysTheSendAKilledHostLeft(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "rec", Tools: []string{"gated", "echo"}})
	gate := filepath.Join(t.TempDir(), "gate")
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	args := `{"while":` + strconvQuote(gate) + `,"note":"<ü&\"\\>"}`
	killHostMidCall(t, "--state", e.state, "--config", e.config, dir, "gated", args)

	st := openStore(t, e.state)
	sends, err := st.Sends(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(sends) != 1 || sends[0].Method != "tool/call" || sends[0].Name != "gated" || sends[0].Extension != "rec" {
		t.Fatalf("sends after the kill: %+v", sends)
	}
	orig := sends[0]
	if _, found, _ := st.Receipt(context.Background(), orig.ID); found {
		t.Fatal("the killed call has a final receipt")
	}
	var want, got any
	json.Unmarshal([]byte(args), &want)
	json.Unmarshal([]byte(inputArguments(t, orig)), &got)
	if !jsonEqual(want, got) {
		t.Fatalf("persisted arguments %s, want %s", inputArguments(t, orig), args)
	}
	st.Close()

	os.Remove(gate) // the replay answers
	code, out, errOut := octetHost(t, "", "recover", "--no-sandbox", "--state", e.state, "--config", e.config, dir)
	if code != exitOK {
		t.Fatalf("recover: exit %d\n%s\n%s", code, out, errOut)
	}
	var line struct {
		Send     int64           `json:"send"`
		Recovery int64           `json:"recovery"`
		Outcome  string          `json:"outcome"`
		Result   json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &line); err != nil || line.Send != orig.ID || line.Recovery == 0 || line.Outcome != "completed" ||
		!strings.Contains(string(line.Result), `note`) {
		t.Fatalf("recover printed %q (%v)", out, err)
	}
	st = openStore(t, e.state)
	rep, found, err := st.Send(context.Background(), line.Recovery)
	if err != nil || !found || rep.RecoveryOf != orig.ID || rep.Name != "gated" {
		t.Fatalf("the replay's send: %+v %v %v", rep, found, err)
	}
	json.Unmarshal([]byte(inputArguments(t, rep)), &got)
	if !jsonEqual(want, got) {
		t.Fatalf("the replay sent %s, want the original %s", inputArguments(t, rep), args)
	}
	rc, found, err := st.Receipt(context.Background(), rep.ID)
	if err != nil || !found || rc.Outcome != "completed" || rc.ResultSHA256 == "" || rc.InputSHA256 != rep.InputSHA256 || rc.RequestID == "" {
		t.Fatalf("recovery receipt: %+v %v %v", rc, found, err)
	}
	if _, found, _ := st.Receipt(context.Background(), orig.ID); found {
		t.Fatal("the original got a final receipt it never had")
	}
	if un, _ := st.Unsettled(context.Background()); len(un) != 0 {
		t.Fatalf("still unsettled after recovery: %+v", un)
	}
	st.Close()

	code, out, errOut = octetHost(t, "", "recover", "--no-sandbox", "--state", e.state, "--config", e.config, dir)
	if code != exitOK || out != "" || !strings.Contains(errOut, "nothing to recover") {
		t.Fatalf("second recover: exit %d\n%s\n%s", code, out, errOut)
	}
}

// recover on a store with no sends does nothing, starts nothing and says so.
func TestRecoverOnACleanStore(t *testing.T) {
	e := newEnv(t)
	code, out, errOut := octetHost(t, "", "recover", "--state", e.state, "--config", e.config)
	if code != exitOK || out != "" || !strings.Contains(errOut, "nothing to recover") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	st := openStore(t, e.state)
	if s, _ := st.Sends(context.Background()); len(s) != 0 {
		t.Fatalf("sends: %+v", s)
	}
	code, _, errOut = octetHost(t, "", "recover", "--state", e.state, "--config", e.config, "--send", "7")
	if code != exitStartup || !strings.Contains(errOut, "no recorded send 7") {
		t.Fatalf("--send 7 on a clean store: exit %d %s", code, errOut)
	}
}

// A streaming call's final receipt counts the progress events that came before its answer
// and digests its result; an error answer's receipt carries its code.
func TestReceiptOfAStreamingCall(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "stream", Args: []string{"-feature=request_progress"}})
	code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, dir, "burst", `{"n":37}`, "rpc_error")
	if code != exitFailed {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	st := openStore(t, e.state)
	sends, err := st.Sends(context.Background())
	if err != nil || len(sends) != 2 {
		t.Fatalf("sends %+v %v", sends, err)
	}
	burst, found, _ := st.Receipt(context.Background(), sends[0].ID)
	first := strings.SplitN(out, "\n", 2)[0]
	sum := sha256.Sum256([]byte(first))
	if !found || burst.Outcome != "completed" || burst.StreamEvents != 37 || burst.ResultSHA256 != hex.EncodeToString(sum[:]) ||
		burst.InputSHA256 != sends[0].InputSHA256 || burst.ErrorCode != nil {
		t.Fatalf("burst receipt %+v (result line %s)", burst, first)
	}
	failed, found, _ := st.Receipt(context.Background(), sends[1].ID)
	if !found || failed.Outcome != "error" || failed.ErrorCode == nil || *failed.ErrorCode != 1234 || failed.StreamEvents != 0 || failed.ResultSHA256 != "" {
		t.Fatalf("rpc_error receipt %+v", failed)
	}
	if un, _ := st.Unsettled(context.Background()); len(un) != 0 {
		t.Fatalf("settled calls listed as unsettled: %+v", un)
	}
}

// A brokered secret in a call's input never lands in the store: the input is stored
// redacted and marked, and recover refuses to replay the placeholder.
func TestSendInputKeepsNoSecret(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "sec", Tools: []string{"gated", "echo"}})
	sc := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(sc, []byte("[secrets]\n\"api.token\" = \"receipt-secret-91\"\n"), 0o644)
	gate := filepath.Join(t.TempDir(), "gate")
	os.WriteFile(gate, nil, 0o644)
	killHostMidCall(t, "--script", sc, "--state", e.state, "--config", e.config, dir, "gated", `{"while":`+strconvQuote(gate)+`,"token":"receipt-secret-91"}`)
	raw, err := os.ReadFile(filepath.Join(e.state, store.DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	wal, _ := os.ReadFile(filepath.Join(e.state, store.DatabaseFile+"-wal"))
	if strings.Contains(string(raw)+string(wal), "receipt-secret-91") {
		t.Fatal("the secret is in the state store")
	}
	st := openStore(t, e.state)
	un, _ := st.Unsettled(context.Background())
	if len(un) != 1 || !un[0].InputRedacted || !strings.Contains(string(un[0].Input), "[redacted]") {
		t.Fatalf("unsettled: %+v", un)
	}
	st.Close()
	os.Remove(gate)
	code, out, errOut := octetHost(t, "", "recover", "--no-sandbox", "--script", sc, "--state", e.state, "--config", e.config, dir)
	if code != exitFailed || !strings.Contains(out, `"skipped"`) || !strings.Contains(errOut, "brokered secret") {
		t.Fatalf("recover: exit %d\n%s\n%s", code, out, errOut)
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
