// Command fakeext is a purpose-built extension for the host's integration tests. It speaks
// the wire by hand (no SDK) so it can misbehave on request. Behaviour is chosen with flags
// in the test manifest's entrypoint.args, because the host strips the test's environment.
//
// Tools (all API versions): maxconc returns the most slow, hold and gather calls ever in
// progress; callback makes two reverse requests; notes lists the notifications received;
// echo {…} returns its arguments as JSON text; slow {ms} waits or is cancelled; hold waits
// until the process gets SIGUSR1 (ever, so a hold arriving later returns at once) or is
// cancelled; gather {n} waits until n gather calls are in progress together, then they all
// return (or it is cancelled), so n calls are known to have run at once without any timing; crash {code} exits at once; env returns the environment; stderr {bytes}
// writes to stderr; spawn starts a grandchild that sleeps and returns its pid; garbage
// writes a non-frame line to stdout; pid returns the process id. strict {n} has a closed
// parameters schema and echoes; bad_field, bad_structured and foreign_image return results
// the host must refuse (an unknown member, structured_content breaking the declared
// output_schema, an image naming an artifact this process never published); burst {n}
// writes n $/progress events and its result in one write; flood {n} answers, then writes n
// notifications. With -register-early NAME the initialize answer and a tools/register of
// NAME go out in one write; early returns the host's answer to that request and NAME
// answers a fixed text.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

var (
	exitBefore  = flag.Int("exit-before", -1, "exit with this code before the handshake")
	garbage     = flag.Bool("garbage", false, "write a non-frame line instead of answering initialize")
	silent      = flag.Bool("silent", false, "never answer initialize")
	ignoreTerm  = flag.Bool("ignore-term", false, "ignore SIGTERM and shutdown")
	apiOverride = flag.String("answer-api", "", "answer initialize with this api_version")
	extraTool   = flag.String("extra-tool", "", "add a tool the manifest does not declare")
	badFeature  = flag.String("feature", "", "add this feature to the negotiated list")
	failFile    = flag.String("exit-if-file", "", "exit 7 before the handshake while this file exists")
	initDelay   = flag.Duration("init-delay", 0, "wait before answering initialize")
	ignoreCncl  = flag.Bool("ignore-cancel", false, "ignore $/cancelRequest (a non-cooperative extension)")
	deaf        = flag.Bool("deaf", false, "ignore $/cancelRequest (a hung call)")
	callMarker  = flag.String("call-marker", "", "create this file when a tool call arrives")
	hidden      = flag.Bool("family-hidden", false, "with -family, also a child in a new session with an empty environment")
	hiddenOrph  = flag.Bool("family-hidden-orphan", false, "with -family, also such a child whose parent exits at once")
	familyFile  = flag.String("family", "", "start a same-group, a setsid and an orphaned setsid sleep; write their pids here")
	regEarly    = flag.String("register-early", "", "write a tools/register of this tool in the same write as the initialize answer")
)

// earlyReply is the host's answer to the -register-early request, which tool early returns.
var earlyReply = make(chan json.RawMessage, 1)

var (
	outMu  sync.Mutex
	out    = bufio.NewWriter(os.Stdout)
	cancel = map[string]chan struct{}{}
	cmu    sync.Mutex
	api    string

	replies   = map[string]chan json.RawMessage{} // our requests to the host, by id
	rmu       sync.Mutex
	nextReqID int
	running   int // slow calls in progress, and the most ever seen
	maxRun    int
	notes     []string // lifecycle notifications received: "method session_id outcome"

	released = make(chan struct{}) // closed on SIGUSR1: every hold returns
	gate     = make(chan struct{}) // the current gather group's; closed when it is full
	gathered int                   // gather calls waiting on gate (under cmu)
)

// enter and leave count the calls in progress for maxconc.
func enter() { cmu.Lock(); running++; maxRun = max(maxRun, running); cmu.Unlock() }
func leave() { cmu.Lock(); running--; cmu.Unlock() }

// ask sends a request to the host and waits for its response frame.
func ask(method string, params any) json.RawMessage {
	rmu.Lock()
	nextReqID++
	id := fmt.Sprintf("fx:%d", nextReqID)
	ch := make(chan json.RawMessage, 1)
	replies[`"`+id+`"`] = ch
	rmu.Unlock()
	send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return <-ch
}

func send(v any) {
	b, _ := json.Marshal(v)
	outMu.Lock()
	defer outMu.Unlock()
	out.Write(b)
	out.WriteByte('\n')
	out.Flush()
}

type frame struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

func main() {
	flag.Parse()
	if *ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
	}
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	go func() { <-usr1; close(released) }()
	fmt.Fprintln(os.Stderr, "fakeext: starting")
	if *exitBefore >= 0 {
		fmt.Fprintf(os.Stderr, "fakeext: failing on purpose with %d\n", *exitBefore)
		os.Exit(*exitBefore)
	}
	if *familyFile != "" {
		spawnFamily(*familyFile)
	}
	if *failFile != "" {
		if _, err := os.Stat(*failFile); err == nil {
			fmt.Fprintln(os.Stderr, "fakeext: fail file present")
			os.Exit(7)
		}
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 2<<20)
	var wg sync.WaitGroup
	for sc.Scan() {
		var f frame
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			fmt.Fprintln(os.Stderr, "fakeext: bad frame:", err)
			continue
		}
		if f.Method == "" && len(f.ID) > 0 {
			rmu.Lock()
			ch := replies[string(f.ID)]
			delete(replies, string(f.ID))
			rmu.Unlock()
			if ch != nil {
				ch <- append(json.RawMessage(nil), sc.Bytes()...)
			}
			continue
		}
		switch f.Method {
		case protocol.MethodInitialize:
			if *garbage {
				fmt.Println("hello, I am not JSON")
				continue
			}
			if *silent {
				continue
			}
			time.Sleep(*initDelay)
			initialize(f)
		case protocol.MethodCancelRequest:
			if *ignoreCncl || *deaf {
				continue
			}
			var p struct{ ID json.RawMessage }
			json.Unmarshal(f.Params, &p)
			cmu.Lock()
			if ch, ok := cancel[string(p.ID)]; ok {
				close(ch)
				delete(cancel, string(p.ID))
			}
			cmu.Unlock()
		case protocol.MethodShutdown:
			if *ignoreTerm {
				continue
			}
			wg.Wait()
			send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": map[string]any{}})
			os.Exit(0)
		case protocol.MethodHookRun:
			hookRun(f)
		case protocol.MethodCommandExecute:
			// Command "bad" answers a member CommandExecuteResult does not have.
			var p struct{ Name string }
			json.Unmarshal(f.Params, &p)
			res := map[string]any{"text": "ran " + p.Name}
			if p.Name == "bad" {
				res["colour"] = "red"
			}
			send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": res})
		case protocol.MethodToolCall:
			if *callMarker != "" {
				os.WriteFile(*callMarker, nil, 0o644)
			}
			ch := make(chan struct{})
			cmu.Lock()
			cancel[string(f.ID)] = ch
			cmu.Unlock()
			wg.Add(1)
			go func() { defer wg.Done(); toolCall(f, ch) }()
		default:
			if len(f.ID) == 0 {
				var p struct {
					SessionID string `json:"session_id"`
					Outcome   string `json:"outcome"`
				}
				json.Unmarshal(f.Params, &p)
				cmu.Lock()
				notes = append(notes, strings.TrimSpace(f.Method+" "+p.SessionID+" "+p.Outcome))
				cmu.Unlock()
				continue
			}
			if len(f.ID) > 0 {
				send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "error": map[string]any{"code": -32601, "message": "method not found", "data": map[string]any{"method": f.Method}}})
			}
		}
	}
	if *ignoreTerm {
		select {} // stays until SIGKILL
	}
}

func initialize(f frame) {
	var p struct {
		APIVersion string `json:"api_version"`
		Manifest   struct {
			Name        string
			Version     string
			Contributes struct {
				Tools    []string
				Commands []string
			}
		}
		Protocol *struct {
			Version          string   `json:"version"`
			RequiredFeatures []string `json:"required_features"`
		}
	}
	if err := json.Unmarshal(f.Params, &p); err != nil {
		fmt.Fprintln(os.Stderr, "fakeext: bad initialize:", err)
		os.Exit(2)
	}
	api = p.APIVersion
	if *apiOverride != "" {
		api = *apiOverride
	}
	tools := []any{}
	names := p.Manifest.Contributes.Tools
	if *extraTool != "" {
		names = append(names, *extraTool)
	}
	for _, n := range names {
		def := map[string]any{"name": n, "description": "test tool " + n, "parameters": map[string]any{"type": "object"}}
		switch n {
		case "strict":
			def["parameters"] = map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}},
				"required": []any{"n"}, "additionalProperties": false}
		case "bad_schema":
			// An invalid regular expression: the host must refuse the catalog, not serve it.
			def["parameters"] = map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string", "pattern": "("}}}
		case "bad_structured":
			if api != "0.1" {
				def["output_schema"] = map[string]any{"type": "object", "properties": map[string]any{"count": map[string]any{"type": "integer"}}, "required": []any{"count"}}
			}
		}
		tools = append(tools, def)
	}
	cmds := []any{}
	for _, n := range p.Manifest.Contributes.Commands {
		cmds = append(cmds, map[string]any{"name": n, "description": "test command"})
	}
	res := map[string]any{"api_version": api, "name": p.Manifest.Name, "version": p.Manifest.Version, "tools": tools, "commands": cmds}
	if p.Protocol != nil {
		features := append([]string{}, p.Protocol.RequiredFeatures...)
		if *badFeature != "" {
			features = append(features, *badFeature)
		}
		res["protocol"] = map[string]any{"version": p.Protocol.Version, "features": features, "limits": map[string]any{"max_concurrent_requests": 8}}
	}
	if *regEarly == "" {
		send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": res})
		return
	}
	// The answer and the first request in one write: the host reads the request before
	// it can have checked the answer.
	rmu.Lock()
	replies[`"fx:early"`] = earlyReply
	rmu.Unlock()
	answer, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": res})
	reg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "fx:early", "method": protocol.MethodToolsRegister, "params": map[string]any{
		"tools": []any{map[string]any{"name": *regEarly, "description": "registered with the initialize answer", "parameters": map[string]any{"type": "object"}}}}})
	outMu.Lock()
	out.Write(append(append(append(answer, '\n'), reg...), '\n'))
	out.Flush()
	outMu.Unlock()
}

func text(s string, isErr bool) map[string]any {
	if api == "0.1" {
		return map[string]any{"content": s, "is_error": isErr}
	}
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}, "is_error": isErr}
}

func toolCall(f frame, cancelled chan struct{}) {
	defer func() {
		cmu.Lock()
		delete(cancel, string(f.ID))
		cmu.Unlock()
	}()
	var p struct {
		Name      string
		Arguments map[string]any
	}
	json.Unmarshal(f.Params, &p)
	reply := func(result any) { send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": result}) }
	num := func(k string) int {
		v, _ := p.Arguments[k].(float64)
		return int(v)
	}
	switch p.Name {
	case "echo":
		b, _ := json.Marshal(p.Arguments)
		reply(text(string(b), false))
	case "fail":
		reply(text("failed on purpose", true))
	case "early":
		// The host's answer to -register-early's request, as the frame it wrote.
		r := <-earlyReply
		earlyReply <- r
		reply(text(string(r), false))
	case *regEarly:
		reply(text("late tool called", false))
	case "strict":
		// Its schema forbids anything but {"n": integer}: the host must never send more.
		b, _ := json.Marshal(p.Arguments)
		reply(text(string(b), false))
	case "bad_field":
		r := text("fine", false)
		r["colour"] = "red" // no result type has this member
		reply(r)
	case "bad_structured":
		r := text("three", false)
		r["structured_content"] = map[string]any{"count": "three"} // output_schema wants an integer
		reply(r)
	case "foreign_image":
		// Names an artifact this process never published (another owner's, or none).
		reply(map[string]any{"content": []any{map[string]any{"type": "text", "text": "see image"},
			map[string]any{"type": "image", "artifact_id": "artifact:0123456789abcdef0123456789abcdef", "mime_type": "image/png"}}})
	case "rpc_error":
		send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "error": map[string]any{"code": 1234, "message": "authored failure", "data": map[string]any{"why": "test"}}})
	case "slow", "hold", "gather":
		// Count down before answering: the host may start the next call as soon as it reads this one.
		enter()
		var wake <-chan struct{}
		switch p.Name {
		case "slow":
			wake = timeAfter(time.Duration(num("ms")) * time.Millisecond)
		case "hold":
			wake = released
		case "gather":
			cmu.Lock()
			wake = gate
			if gathered++; gathered >= num("n") {
				close(gate)
				gate, gathered = make(chan struct{}), 0
			}
			cmu.Unlock()
		}
		select {
		case <-wake:
			leave()
			reply(text("slept", false))
		case <-cancelled:
			cmu.Lock()
			if wake == gate {
				gathered-- // it leaves a group that is not full yet
			}
			cmu.Unlock()
			leave()
			send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "error": map[string]any{"code": -32800, "message": "request cancelled"}})
		}
	case "gated":
		// Holds (like hold) while the file named by "while" exists when the call arrives,
		// else echoes its arguments: a call a test can leave hanging, then replay to an answer.
		if path, _ := p.Arguments["while"].(string); path != "" {
			if _, err := os.Stat(path); err == nil {
				select {
				case <-released:
				case <-cancelled:
				}
				send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "error": map[string]any{"code": -32800, "message": "request cancelled"}})
				return
			}
		}
		b, _ := json.Marshal(p.Arguments)
		reply(text(string(b), false))
	case "burst":
		burst(f, num("n"))
	case "flood":
		flood(f, num("n"))
	case "notes":
		cmu.Lock()
		n := strings.Join(notes, "\n")
		cmu.Unlock()
		reply(text(n, false))
	case "maxconc":
		cmu.Lock()
		n := maxRun
		cmu.Unlock()
		reply(text(fmt.Sprint(n), false))
	case "callback":
		// A reverse request correlated to this very call, then one naming a bogus parent.
		var parent any
		json.Unmarshal(f.ID, &parent)
		good := ask(protocol.MethodInputRequest, map[string]any{"parent_request_id": parent, "prompt": "p", "secret": false})
		bad := ask(protocol.MethodInputRequest, map[string]any{"parent_request_id": 987654, "prompt": "p", "secret": false})
		reply(text(string(good)+"\n"+string(bad), false))
	case "confirm":
		// confirmation/request {"message": arguments.message} within this call; the tool's
		// text is the host's result.
		var parent any
		json.Unmarshal(f.ID, &parent)
		msg, _ := p.Arguments["message"].(string)
		reply(text(string(ask(protocol.MethodConfirmationRequest, map[string]any{"parent_request_id": parent, "message": msg})), false))
	case "crash":
		fmt.Fprintln(os.Stderr, "fakeext: crashing on purpose")
		os.Exit(num("code"))
	case "env":
		reply(text(strings.Join(os.Environ(), "\n"), false))
	case "pid":
		reply(text(fmt.Sprint(os.Getpid()), false))
	case "latch":
		// Tells the test it is running (a line on the FIFO named "fifo"), then waits until
		// the test writes to FIFO.go: the kernel orders the test and the call, no timing.
		path, _ := p.Arguments["fifo"].(string)
		if err := os.WriteFile(path, []byte(fmt.Sprintf("entered %d\n", os.Getpid())), 0); err != nil {
			reply(text(err.Error(), true))
			return
		}
		if _, err := os.ReadFile(path + ".go"); err != nil {
			reply(text(err.Error(), true))
			return
		}
		reply(text(fmt.Sprint(os.Getpid()), false))
	case "stderr":
		chunk := strings.Repeat("e", 1023) + "\n"
		for n := 0; n < num("bytes"); n += len(chunk) {
			os.Stderr.WriteString(chunk)
		}
		reply(text("written", false))
	case "spawn":
		cmd := exec.Command("sleep", "1000")
		cmd.Stdout, cmd.Stderr = nil, nil
		if err := cmd.Start(); err != nil {
			reply(text(err.Error(), true))
			return
		}
		reply(text(fmt.Sprint(cmd.Process.Pid), false))
	case "bad_utf8":
		// A result whose text holds a byte that is not UTF-8, written raw (json.Marshal
		// would have replaced it).
		id, _ := json.Marshal(f.ID)
		outMu.Lock()
		out.WriteString(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[{"type":"text","text":"a` + "\xff" + `b"}]}}` + "\n")
		out.Flush()
		outMu.Unlock()
	case "garbage":
		outMu.Lock()
		out.WriteString("Traceback (most recent call last): oops\n")
		out.Flush()
		outMu.Unlock()
	default:
		send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "error": map[string]any{"code": -32602, "message": "unknown tool " + p.Name}})
	}
}

// timeAfter is time.After as a receive-only struct{} channel, like the other wake-ups.
func timeAfter(d time.Duration) <-chan struct{} {
	ch := make(chan struct{})
	time.AfterFunc(d, func() { close(ch) })
	return ch
}

// spawnFamily starts the descendants the host must not leave behind, each ignoring
// SIGTERM: a sleep in our
// process group, one in a new session, and one in a new session whose parent (a shell)
// exits at once, so it is re-parented away from us. Their pids go to file, whole.
func spawnFamily(file string) {
	// Each ignores SIGTERM (inherited SIG_IGN), so only SIGKILL ends it.
	group := exec.Command("sh", "-c", "trap '' TERM; exec sleep 1000")
	session := exec.Command("sh", "-c", "trap '' TERM; exec sleep 1000")
	session.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	orphan := exec.Command("sh", "-c", "trap '' TERM; setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!")
	var pids []string
	for _, c := range []*exec.Cmd{group, session} {
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fakeext: family:", err)
			os.Exit(9)
		}
		pids = append(pids, fmt.Sprint(c.Process.Pid))
	}
	out, err := orphan.Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeext: family orphan:", err)
		os.Exit(9)
	}
	pids = append(pids, strings.TrimSpace(string(out)))
	if *hidden {
		// In our tree only while we live: the host must see it before we exit.
		hide := exec.Command("env", "-i", "sh", "-c", "trap '' TERM; exec sleep 1000")
		hide.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := hide.Start(); err != nil {
			os.Exit(9)
		}
		pids = append(pids, fmt.Sprint(hide.Process.Pid))
	}
	if *hiddenOrph {
		// Out of the tree, the group and the marker's reach: only a subreaper finds it.
		hide := exec.Command("sh", "-c", "trap '' TERM; env -i setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo $!")
		out, err := hide.Output()
		if err != nil {
			os.Exit(9)
		}
		pids = append(pids, strings.TrimSpace(string(out)))
	}
	if err := os.WriteFile(file+".tmp", []byte(strings.Join(pids, "\n")+"\n"), 0o644); err != nil {
		os.Exit(9)
	}
	if err := os.Rename(file+".tmp", file); err != nil {
		os.Exit(9)
	}
}

// hookRun answers hook/run with a disposition chosen by the payload: a tool hook by the
// call's "hook" argument (block, rewrite -> arguments {"n":7}, replace -> output
// "replaced by hook", block_after, fail), before_prompt by the prompt ("forbidden" blocks,
// "rewrite me" becomes "rewritten"); anything else continues.
func hookRun(f frame) {
	var p struct {
		Hook    string `json:"hook"`
		Payload struct {
			Prompt    string         `json:"prompt"`
			Arguments map[string]any `json:"arguments"`
		} `json:"payload"`
	}
	json.Unmarshal(f.Params, &p)
	want, _ := p.Payload.Arguments["hook"].(string)
	d := map[string]any{"action": "continue"}
	switch {
	case want == "fail":
		send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "error": map[string]any{"code": -32603, "message": "hook failed on purpose"}})
		return
	case p.Hook == "before_tool_call" && want == "block":
		d = map[string]any{"action": "block", "message": "no thanks"}
	case p.Hook == "before_tool_call" && want == "rewrite":
		d = map[string]any{"action": "replace", "arguments": map[string]any{"n": 7}}
	case p.Hook == "after_tool_call" && want == "replace":
		d = map[string]any{"action": "replace", "output": "replaced by hook"}
	case p.Hook == "after_tool_call" && want == "block_after":
		d = map[string]any{"action": "block", "message": "withheld"}
	case p.Hook == "before_prompt" && p.Payload.Prompt == "forbidden":
		d = map[string]any{"action": "block", "message": "not that"}
	case p.Hook == "before_prompt" && p.Payload.Prompt == "rewrite me":
		d = map[string]any{"action": "replace", "prompt": "rewritten"}
	}
	send(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": map[string]any{"disposition": d}})
}
