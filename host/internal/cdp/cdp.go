// Package cdp is a small Chrome DevTools Protocol client for tests: it starts headless
// Chromium with --remote-debugging-pipe (CDP as NUL-terminated JSON messages on file
// descriptors 3 and 4, so no port and no websocket), opens one page, and offers what the
// inspector's browser test needs: navigate, evaluate, wait for a condition in the page,
// click, type, screenshot. No browser is downloaded: it uses the chromium on PATH (Debian's
// package) or $OCTET_CHROMIUM.
package cdp

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Find returns the Chromium binary: $OCTET_CHROMIUM, or chromium / chromium-browser on
// PATH; "" when there is none.
func Find() string {
	if p := os.Getenv("OCTET_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is one headless Chromium with one page attached.
type Browser struct {
	cmd     *exec.Cmd
	w       io.WriteCloser
	session string

	mu      sync.Mutex
	next    int64
	waiting map[int64]chan message
	errs    []string // exceptions thrown in the page
	done    chan struct{}
	readErr error
}

type message struct {
	ID     int64           `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
}

// Launch starts Chromium (bin) headless with a fresh profile in profileDir and opens a
// blank page of width x height CSS pixels.
func Launch(ctx context.Context, bin, profileDir string, width, height int) (*Browser, error) {
	toBrowser, ourEnd, err := os.Pipe() // Chromium reads commands on fd 3
	if err != nil {
		return nil, err
	}
	fromBrowser, theirEnd, err := os.Pipe() // and writes answers on fd 4
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
		"--disable-sync", "--disable-component-update", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
		"--user-data-dir="+profileDir, fmt.Sprintf("--window-size=%d,%d", width, height), "about:blank")
	cmd.ExtraFiles = []*os.File{toBrowser, theirEnd}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	toBrowser.Close()
	theirEnd.Close()
	b := &Browser{cmd: cmd, w: ourEnd, waiting: map[int64]chan message{}, done: make(chan struct{})}
	go b.read(fromBrowser)
	var created struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &created); err != nil {
		b.Close()
		return nil, err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": created.TargetID, "flatten": true}, &attached); err != nil {
		b.Close()
		return nil, err
	}
	b.session = attached.SessionID
	for _, m := range []string{"Page.enable", "Runtime.enable"} {
		if err := b.Call(ctx, m, nil, nil); err != nil {
			b.Close()
			return nil, err
		}
	}
	if err := b.Call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

func (b *Browser) read(r io.ReadCloser) {
	defer close(b.done)
	defer r.Close()
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			for id, ch := range b.waiting {
				close(ch)
				delete(b.waiting, id)
			}
			b.mu.Unlock()
			return
		}
		var m message
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.waiting[m.ID]; ok {
				ch <- m
				delete(b.waiting, m.ID)
			}
		} else if m.Method == "Runtime.exceptionThrown" {
			var p struct {
				ExceptionDetails struct {
					Text      string `json:"text"`
					Exception struct {
						Description string `json:"description"`
					} `json:"exception"`
				} `json:"exceptionDetails"`
			}
			_ = json.Unmarshal(m.Params, &p)
			b.errs = append(b.errs, p.ExceptionDetails.Text+" "+p.ExceptionDetails.Exception.Description)
		}
		b.mu.Unlock()
	}
}

// Call sends method to the page and decodes its result into result (nil: ignored).
func (b *Browser) Call(ctx context.Context, method string, params, result any) error {
	return b.call(ctx, b.session, method, params, result)
}

func (b *Browser) call(ctx context.Context, session, method string, params, result any) error {
	b.mu.Lock()
	if b.readErr != nil {
		b.mu.Unlock()
		return fmt.Errorf("cdp: the browser is gone: %w", b.readErr)
	}
	b.next++
	id := b.next
	ch := make(chan message, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	req := map[string]any{"id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	if session != "" {
		req["sessionId"] = session
	}
	raw, _ := json.Marshal(req)
	if _, err := b.w.Write(append(raw, 0)); err != nil {
		return fmt.Errorf("cdp: %s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("cdp: %s: the browser went away", method)
		}
		if m.Error != nil {
			return fmt.Errorf("cdp: %s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.waiting, id)
		b.mu.Unlock()
		return fmt.Errorf("cdp: %s: %w", method, ctx.Err())
	}
}

// Navigate loads url and waits for its load event's document to be complete.
func (b *Browser) Navigate(ctx context.Context, url string) error {
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := b.Call(ctx, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("cdp: navigate %s: %s", url, nav.ErrorText)
	}
	return b.WaitFor(ctx, `document.readyState === "complete"`)
}

// Eval evaluates a JavaScript expression in the page (awaiting a promise) and decodes its
// value into result (nil: ignored).
func (b *Browser) Eval(ctx context.Context, expr string, result any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := b.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true, "returnByValue": true}, &r); err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("cdp: %s: %s %s", expr, r.ExceptionDetails.Text, r.ExceptionDetails.Exception.Description)
	}
	if result != nil && len(r.Result.Value) > 0 {
		return json.Unmarshal(r.Result.Value, result)
	}
	return nil
}

// WaitFor waits until the JavaScript condition is true in the page. The page itself
// re-checks it on every DOM change (a MutationObserver), so nothing polls on a timer; ctx
// bounds the wait, and the error says which condition never held.
func (b *Browser) WaitFor(ctx context.Context, cond string) error {
	deadline, ok := ctx.Deadline()
	ms := int64(30000)
	if ok {
		ms = time.Until(deadline).Milliseconds()
	}
	expr := fmt.Sprintf(`new Promise((resolve, reject) => {
  const check = () => { try { return !!(%s); } catch (e) { return false; } };
  if (check()) return resolve(true);
  const obs = new MutationObserver(() => { if (check()) { obs.disconnect(); clearTimeout(t); resolve(true); } });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  document.addEventListener("readystatechange", () => { if (check()) { obs.disconnect(); clearTimeout(t); resolve(true); } });
  const t = setTimeout(() => { obs.disconnect(); reject(new Error("timed out")); }, %d);
})`, cond, ms)
	if err := b.Eval(ctx, expr, nil); err != nil {
		return fmt.Errorf("waiting for %s: %w (page errors: %s)", cond, err, strings.Join(b.PageErrors(), "; "))
	}
	return nil
}

// Click clicks the element selector names (a click event dispatched in the page).
func (b *Browser) Click(ctx context.Context, selector string) error {
	return b.Eval(ctx, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) throw new Error("no element " + %q); el.click(); return true; })()`, selector, selector), nil)
}

// Fill sets the value of the input, select or textarea selector names and fires the
// input and change events a person's typing would.
func (b *Browser) Fill(ctx context.Context, selector, value string) error {
	return b.Eval(ctx, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) throw new Error("no element " + %q);
  el.value = %q; el.dispatchEvent(new Event("input", { bubbles: true })); el.dispatchEvent(new Event("change", { bubbles: true })); return true; })()`, selector, selector, value), nil)
}

// Screenshot returns a PNG of the page's viewport.
func (b *Browser) Screenshot(ctx context.Context) ([]byte, error) {
	var r struct {
		Data string `json:"data"`
	}
	if err := b.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

// PageErrors are the uncaught exceptions the page threw so far.
func (b *Browser) PageErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// Close ends the browser (Browser.close, then a kill if it does not exit promptly).
func (b *Browser) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = b.call(ctx, "", "Browser.close", nil, nil)
	b.w.Close()
	exited := make(chan error, 1)
	go func() { exited <- b.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = b.cmd.Process.Kill()
		<-exited
	}
	<-b.done
	return nil
}

// ErrNoChromium says Find found no browser.
var ErrNoChromium = errors.New("no chromium on PATH (Debian: apt-get install chromium) and OCTET_CHROMIUM unset")
