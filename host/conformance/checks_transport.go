package conformance

import (
	"encoding/json"
	"fmt"
	"github.com/octet-kit/octet/sdk-go/protocol"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"

	"github.com/octet-kit/octet/host/faultx"
)

// Framing checks under the fault-injecting transport (host/faultx): the host's writes
// cut at every byte and at seeded places, CRLF line ends (allowed), a byte order mark
// and garbage (refused), a frame cut off by EOF (refused), a burst past the admission
// bound, and a host that reads slowly or not at all. The rules are wire.md §1
// "Framing faults"; every check notes its fault seed so a failure replays.

func init() {
	register(
		&Check{
			Name:        "frame.split_writes",
			Description: "the handshake written one byte per write, then requests and a burst of joined frames cut at seeded places with pauses (splitting multi-byte characters), are all read as the frames they are and answered",
			Requirement: "wire.md §1 framing faults: a frame is the bytes up to its \\n, however the writes that carry it are cut",
			Tier:        Required,
			Run:         seeded(checkSplitWrites),
		},
		&Check{
			Name:        "frame.crlf_accepted",
			Description: "frames ended by \\r\\n (the \\r is JSON whitespace) are served like frames ended by \\n, and the extension's own lines end in \\n alone",
			Requirement: "wire.md §1 framing faults: CRLF is accepted, never written",
			Tier:        Required,
			Run:         seeded(checkCRLF),
		},
		&Check{
			Name:        "frame.bom_refused",
			Description: "a UTF-8 byte order mark before the first frame, or before a later one, is a framing fault: that frame is never served, the extension exits 1",
			Requirement: "wire.md §1 framing faults: a byte order mark is not JSON; a framing fault closes the connection, exit 1",
			Tier:        Required,
			Run:         checkBOM,
		},
		&Check{
			Name:        "frame.blank_line_refused",
			Description: "a blank line after the handshake (\\n alone; on the fixture also \\r\\n alone) is a framing fault, not a frame to skip: the request after it is never answered, the extension exits 1",
			Requirement: "wire.md §1 framing faults: a blank line is not JSON",
			Tier:        Required,
			Run:         checkBlankLine,
		},
		&Check{
			Name:        "frame.garbage_refused",
			Description: "a line of garbage before the handshake (another protocol's framing, typing, random bytes) is a framing fault: the initialize after it is never answered, the extension exits 1 and its stderr quotes the garbage",
			Requirement: "wire.md §1 framing faults: invalid JSON closes the connection with a reason quoting the first bytes; exit 1",
			Tier:        Required,
			Run:         seeded(checkGarbage),
		},
		&Check{
			Name:        "eof.mid_frame",
			Description: "stdin ending inside a frame (a prefix of a request, or a whole request without its \\n) is a framing fault: the partial frame is never served and the extension exits 1 within SHUTDOWN_DRAIN_MS",
			Requirement: "wire.md §1 framing faults: bytes after the last \\n at EOF are not a frame; exit 1",
			Tier:        Required,
			Run:         seeded(checkEOFMidFrame),
		},
		&Check{
			Name:        "overload.burst",
			Description: "a burst of requests past the negotiated concurrency plus the admission queue, written as one write cut at seeded places, is answered exactly once each: -32001 with data.limit for the excess at once, -32800 for the admitted ones once cancelled",
			Requirement: "wire.md §1 in flight / overloaded (-32001, data {limit}), §10 admission queue",
			Tier:        Conditional,
			Tools:       []string{"slow"},
			Features:    []protocol.Feature{protocol.FeatureRequestCancellation},
			Covers:      []string{"tool/call error -32001", protocol.MethodCancelRequest, "tool/call error -32800"},
			Run:         seeded(checkBurst),
		},
		&Check{
			Name:        "stdout.backpressure",
			Description: "while the host stops reading, four handlers emitting progress wait instead of queueing without bound (the process group's resident memory grows by at most 16 MiB in 750 ms while 64 MiB is owed); on a fresh process read slowly, every event arrives once, in order, before its result",
			Requirement: "wire.md §10 one writer; its queue is bounded: a sender waits while the host is not reading; §6 $/progress sequences",
			Tier:        Conditional,
			Tools:       []string{"progress_n", "echo"},
			Features:    []protocol.Feature{protocol.FeatureRequestProgress},
			Covers:      []string{protocol.MethodProgress, "tool/call progress"},
			Run:         seeded(checkBackpressure),
		},
	)
}

// probeMethod is a method no extension serves: every extension answers it -32601, so
// the framing checks that bind every extension have a request to send after the
// handshake.
const probeMethod = "conformance/framing_probe"

// padText is n characters of text mixing one-, two-, three- and four-byte UTF-8, so
// seeded cuts fall inside multi-byte characters.
func padText(rng *rand.Rand, n int) string {
	const alphabet = "aZ09 é✓😀\"\\"
	runes := []rune(alphabet)
	var b strings.Builder
	for range n {
		b.WriteRune(runes[rng.IntN(len(runes))])
	}
	return b.String()
}

func requestLine(id int64, method string, params any) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return b
}

func checkSplitWrites(t *T) error {
	seed := t.faultSeed("frame.split_writes")
	s, _, err := t.openFaulty(InitOptions{}, Faults{
		Write: faultx.Plan{Seed: seed, ByteFrames: 1, MaxPiece: 64, MaxPause: time.Millisecond},
		Read:  faultx.ReadPlan{Seed: seed, MaxRead: 512},
	})
	if err != nil {
		return fmt.Errorf("the handshake written one byte per write: %w", err)
	}
	rng := faultx.Plan{Seed: seed + 1}.Rand()
	for i := range 12 {
		resp, err := s.Call(t.Ctx, t.Timeout(), probeMethod, map[string]any{"i": i, "pad": padText(rng, 1+rng.IntN(300))})
		if err != nil {
			return fmt.Errorf("request %d of 12, cut at seeded places: %w", i+1, err)
		}
		if err := expectCode(resp, -32601, "method not found for "+probeMethod); err != nil {
			return err
		}
	}
	const burst = 16
	builds := make([]func(int64) []byte, burst)
	for i := range builds {
		pad := padText(rng, rng.IntN(200))
		builds[i] = func(id int64) []byte {
			return append(requestLine(id, probeMethod, map[string]any{"burst": i, "pad": pad}), '\n')
		}
	}
	ids, chans, err := s.SendBurst(builds)
	if err != nil {
		return err
	}
	for i, id := range ids {
		resp, err := t.wait(s, id, chans[i])
		if err != nil {
			return fmt.Errorf("frame %d of a burst of %d joined frames: %w", i+1, burst, err)
		}
		if err := expectCode(resp, -32601, "method not found for every frame of the burst"); err != nil {
			return err
		}
	}
	if t.Ext.IsFixture() && t.Ext.HasTool("echo") {
		for i := range 24 {
			v := echoValue(padText(rng, 1+rng.IntN(120)), i)
			resp, err := t.toolCall(s, "echo", map[string]any{"value": v})
			if err == nil {
				err = expectEcho(resp, v)
			}
			if err != nil {
				return fmt.Errorf("echo %d of 24, cut at seeded places: %w", i+1, err)
			}
		}
	}
	t.Note("%d writes carried the frames", s.faults.w.Pieces())
	return nil
}

func checkCRLF(t *T) error {
	seed := t.faultSeed("frame.crlf_accepted")
	s, err := t.Start(StartOptions{Faults: &Faults{Write: faultx.Plan{Seed: seed, MaxPiece: 64}}})
	if err != nil {
		return err
	}
	params := initParams(t.Ext, InitOptions{})
	id, ch, err := s.SendRaw(func(id int64) []byte { return faultx.CRLF(requestLine(id, protocol.MethodInitialize, params)) })
	if err != nil {
		return err
	}
	resp, err := t.wait(s, id, ch)
	if err != nil {
		return fmt.Errorf("initialize ended by \\r\\n: %w", err)
	}
	if resp.Error != nil {
		return fail("initialize ended by \\r\\n to succeed (\\r is JSON whitespace)", "%s", resp.Error)
	}
	var r InitResult
	if json.Unmarshal(resp.Result, &r) == nil {
		s.services.initialized(params["api_version"].(string), &r)
	}
	for i := range 4 {
		id, ch, err := s.SendRaw(func(id int64) []byte {
			return faultx.CRLF(requestLine(id, probeMethod, map[string]any{"i": i}))
		})
		if err != nil {
			return err
		}
		resp, err := t.wait(s, id, ch)
		if err != nil {
			return fmt.Errorf("a request ended by \\r\\n: %w", err)
		}
		if err := expectCode(resp, -32601, "method not found for a request ended by \\r\\n"); err != nil {
			return err
		}
	}
	if t.Ext.IsFixture() && t.Ext.HasTool("echo") {
		id, ch, err := s.SendRaw(func(id int64) []byte {
			return faultx.CRLF(requestLine(id, protocol.MethodToolCall, map[string]any{"name": "echo", "arguments": map[string]any{"value": "crlf"}}))
		})
		if err != nil {
			return err
		}
		resp, err := t.wait(s, id, ch)
		if err == nil {
			err = expectEcho(resp, "crlf")
		}
		if err != nil {
			return fmt.Errorf("a tool call ended by \\r\\n: %w", err)
		}
	}
	if read, crs := s.ReadCounts(); crs > 0 {
		return fail("the extension's lines to end in \\n alone (JSON text never holds a raw \\r)", "%d carriage returns in %d bytes of its stdout", crs, read)
	}
	return nil
}

// expectFramingFault waits for the process to exit after a framing fault: within the
// drain bound plus grace, with status 1, and without answering request id (0: none).
func expectFramingFault(t *T, s *Session, what string, id int64) error {
	bound := t.Drain() + exitGrace
	if !s.WaitExit(bound) {
		return fail(fmt.Sprintf("%s to be a framing fault: the connection closed and the process exited 1 within %s", what, bound), "still running")
	}
	if id != 0 && s.Answered(id) {
		return fail(fmt.Sprintf("%s never to be served", what), "request %d was answered", id)
	}
	if code := s.ExitCode(); code != 1 {
		return fail(fmt.Sprintf("%s to make the process exit 1 (a framing fault, not an orderly end)", what), "exit %s", s.proc.ExitDescription())
	}
	return nil
}

func checkBOM(t *T) error {
	// At the start of the stream, where a text encoder puts it (and a decoder may
	// silently drop it).
	s, err := t.Start(StartOptions{})
	if err != nil {
		return err
	}
	params := initParams(t.Ext, InitOptions{})
	id, _, err := s.SendRaw(func(id int64) []byte { return faultx.WithBOM(requestLine(id, protocol.MethodInitialize, params)) })
	if err != nil {
		return err
	}
	if err := expectFramingFault(t, s, "a byte order mark before the first frame (initialize)", id); err != nil {
		return err
	}
	if !t.Ext.IsFixture() {
		return nil // one process per example: the framing is its SDK's, proven on the fixture
	}
	// Before a later frame, after a handshake without one.
	s, _, err = t.Open(InitOptions{})
	if err != nil {
		return err
	}
	id, _, err = s.SendRaw(func(id int64) []byte { return faultx.WithBOM(requestLine(id, probeMethod, map[string]any{})) })
	if err != nil {
		return err
	}
	return expectFramingFault(t, s, "a byte order mark before a later frame", id)
}

func checkBlankLine(t *T) error {
	blanks := []string{"\n", "\r\n"}
	if !t.Ext.IsFixture() {
		blanks = blanks[:1] // one process per example: the framing is its SDK's, proven on the fixture
	}
	for _, blank := range blanks {
		s, _, err := t.Open(InitOptions{})
		if err != nil {
			return err
		}
		id, _, err := s.SendRaw(func(id int64) []byte {
			return append([]byte(blank), append(requestLine(id, probeMethod, map[string]any{}), '\n')...)
		})
		if err != nil && !s.WaitExit(0) {
			return err
		}
		if err := expectFramingFault(t, s, fmt.Sprintf("the blank line %q", blank), id); err != nil {
			return err
		}
	}
	return nil
}

// alnumRun returns the longest run of ASCII letters and digits in b ("" under 4): a
// piece of the garbage any log encoding leaves readable.
func alnumRun(b []byte) string {
	best, cur := "", ""
	for _, c := range string(b) {
		if c < unicode.MaxASCII && (unicode.IsLetter(c) || unicode.IsDigit(c)) {
			cur += string(c)
			if len(cur) > len(best) {
				best = cur
			}
		} else {
			cur = ""
		}
	}
	if len(best) < 4 {
		return ""
	}
	return best
}

func checkGarbage(t *T) error {
	seed := t.faultSeed("frame.garbage_refused")
	garbage := faultx.Garbage(faultx.Plan{Seed: seed}.Rand())
	t.Note("garbage %q", garbage)
	s, err := t.Start(StartOptions{})
	if err != nil {
		return err
	}
	if err := s.WriteRaw(garbage); err != nil {
		return err
	}
	params := initParams(t.Ext, InitOptions{})
	id, _, err := s.SendRaw(func(id int64) []byte { return append(requestLine(id, protocol.MethodInitialize, params), '\n') })
	if err != nil && !s.WaitExit(0) {
		return err
	}
	if err := expectFramingFault(t, s, fmt.Sprintf("the garbage line %q before the handshake", garbage), id); err != nil {
		return err
	}
	if run := alnumRun(garbage); run != "" && !s.StderrContains(run) {
		return fail(fmt.Sprintf("the reason on stderr to quote the first bytes of the bad line (%q)", run), "stderr: %s", strings.Join(s.StderrTail(), " | "))
	}
	return nil
}

func checkEOFMidFrame(t *T) error {
	seed := t.faultSeed("eof.mid_frame")
	rng := faultx.Plan{Seed: seed}.Rand()
	variants := []bool{true, false} // a whole object without its newline first: the one a line reader serves
	if !t.Ext.IsFixture() {
		variants = variants[:1] // one process per example: the framing is its SDK's, proven on the fixture
	}
	for _, whole := range variants {
		s, _, err := t.Open(InitOptions{})
		if err != nil {
			return err
		}
		what := "a prefix of a request, then EOF"
		id, _, err := s.SendRaw(func(id int64) []byte {
			line := requestLine(id, probeMethod, map[string]any{"pad": padText(rng, 40)})
			if whole {
				return line
			}
			return faultx.Truncated(rng, line)
		})
		if whole {
			what = "a whole request without its \\n, then EOF"
		}
		if err != nil {
			return err
		}
		if err := s.CloseStdin(); err != nil {
			return err
		}
		if err := expectFramingFault(t, s, what, id); err != nil {
			return err
		}
	}
	return nil
}

func checkBurst(t *T) error {
	seed := t.faultSeed("overload.burst")
	s, r, err := t.openFaulty(InitOptions{MaxConcurrent: 2, MaxPending: 8}, Faults{Write: faultx.Plan{Seed: seed, MaxPiece: 4096}})
	if err != nil {
		return err
	}
	if !r.HasFeature(protocol.FeatureRequestCancellation) {
		return skip("request_cancellation was not negotiated")
	}
	limit := r.Protocol.Limits.MaxConcurrentRequests
	const extra = 16
	n := limit + 64 + extra // the SDKs' default admission queue is 64
	builds := make([]func(int64) []byte, n)
	for i := range builds {
		builds[i] = func(id int64) []byte {
			return append(requestLine(id, protocol.MethodToolCall, map[string]any{"name": "slow", "arguments": map[string]any{"ms": 60000}}), '\n')
		}
	}
	ids, chans, err := s.SendBurst(builds)
	if err != nil {
		return err
	}
	type answer struct {
		i    int
		resp Response
		err  error
	}
	answers := make(chan answer, n)
	for i, id := range ids {
		go func() {
			resp, err := s.Wait(t.Ctx, id, chans[i])
			answers <- answer{i, resp, err}
		}()
	}
	seen := make([]bool, n)
	overloaded := 0
	deadline := time.NewTimer(t.Timeout())
	defer deadline.Stop()
	for overloaded < extra {
		select {
		case a := <-answers:
			if a.err != nil {
				return a.err
			}
			seen[a.i] = true
			if err := expectOverloaded(a.resp); err != nil {
				return fmt.Errorf("request %d of the burst, answered while the admitted ones still sleep: %w", ids[a.i], err)
			}
			overloaded++
		case <-deadline.C:
			return fail(fmt.Sprintf("at least %d of a burst of %d answered -32001 at once (concurrency %d)", extra, n, limit), "%d", overloaded)
		}
	}
	for i, id := range ids {
		if !seen[i] {
			if err := s.Cancel(id); err != nil {
				return err
			}
		}
	}
	deadline.Reset(t.Timeout())
	cancelled := 0
	for done := overloaded; done < n; done++ {
		select {
		case a := <-answers:
			if a.err != nil {
				return a.err
			}
			switch {
			case a.resp.Error != nil && a.resp.Error.Code == -32001:
				if err := expectOverloaded(a.resp); err != nil {
					return err
				}
				overloaded++
			case a.resp.Error != nil && a.resp.Error.Code == -32800:
				cancelled++
			default:
				return fail("-32800 for a cancelled admitted request", "request %d answered %s", ids[a.i], a.resp)
			}
		case <-deadline.C:
			return fail(fmt.Sprintf("every one of the %d requests answered once the admitted ones were cancelled", n), "%d answered", done)
		}
	}
	if admitted := n - overloaded; admitted < limit {
		return fail(fmt.Sprintf("at least the negotiated concurrency (%d) admitted", limit), "%d admitted", admitted)
	}
	t.Note("burst of %d in %d writes, concurrency %d: %d overloaded, %d cancelled", n, s.faults.w.Pieces(), limit, overloaded, cancelled)
	return nil
}

// expectOverloaded checks resp is -32001 with data {limit: a positive integer}.
func expectOverloaded(resp Response) error {
	if err := expectCode(resp, -32001, "overloaded"); err != nil {
		return err
	}
	var d struct {
		Limit *int64 `json:"limit"`
	}
	if json.Unmarshal(resp.Error.Data, &d) != nil || d.Limit == nil || *d.Limit <= 0 {
		return fail(`-32001 with data {"limit": the bound that was full}`, "data %s", excerpt(resp.Error.Data, 120))
	}
	return nil
}
