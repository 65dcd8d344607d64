package jsonrpc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// runChild is the body of a re-executed test binary.
func runChild(mode string) {
	switch mode {
	case "floor":
		floorEcho()
		return
	case "echo", "crash":
	default:
		os.Stderr.WriteString("unknown child mode " + mode + "\n")
		os.Exit(2)
	}
	var conn *jsonrpc.Conn
	mux := jsonrpc.NewMux()
	mux.Handle("echo", echoHandler)
	mux.Handle("crash", func(context.Context, *jsonrpc.Request) (any, error) {
		os.Exit(3) // die mid-call, never answering
		return nil, nil
	})
	mux.Handle("callbacks", func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		var p struct{ N int }
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, err
		}
		for i := 0; i < p.N; i++ {
			if err := conn.Call(ctx, "pong", map[string]int{"i": i}, nil); err != nil {
				return nil, err
			}
		}
		return map[string]int{"calls": p.N}, nil
	})
	conn = jsonrpc.NewConn(pollable(0, "stdin"), pollable(1, "stdout"), jsonrpc.Options{Handler: mux.Serve, IDPrefix: "go:"})
	<-conn.Done()
	conn.Close()
}

// floorEcho is the benchmark floor: the least code that answers JSON-lines echo
// requests, with no envelope checks, no concurrency and no cancellation.
func floorEcho() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Params json.RawMessage `json:"params"`
	}
	for {
		line, err := in.ReadSlice('\n')
		if err != nil {
			return
		}
		req.ID, req.Params = nil, nil
		if json.Unmarshal(line, &req) != nil {
			return
		}
		out.WriteString(`{"jsonrpc":"2.0","id":`)
		out.Write(req.ID)
		out.WriteString(`,"result":`)
		out.Write(req.Params)
		out.WriteString("}\n")
		out.Flush()
	}
}

// startChild re-executes the test binary in the given mode, connected by real pipes.
func startChild(t testing.TB, mode string) (*exec.Cmd, *os.File, *os.File) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JSONRPC_TEST_CHILD="+mode)
	if p := os.Getenv("JSONRPC_CHILD_GOMAXPROCS"); p != "" {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+p)
	}
	cmd.Stderr = os.Stderr
	toChild, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	fromChild, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		toChild.Close()
		_ = cmd.Wait()
	})
	return cmd, fromChild.(*os.File), toChild.(*os.File)
}

// pollable returns fd as a non-blocking *os.File so its reads and writes park the
// goroutine on the poller instead of holding a thread (what the SDK does too).
func pollable(fd int, name string) *os.File {
	if err := syscall.SetNonblock(fd, true); err != nil {
		panic(err)
	}
	return os.NewFile(uintptr(fd), name)
}
