package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/internal/cdp"
)

// shotsEnv names a directory to write the inspector's screenshots into (docs/images, by
// `go run mage.go inspectorShots`); unset, none are taken.
const shotsEnv = "OCTET_INSPECTOR_SHOTS"

// TestInspectorInBrowser drives headless Chromium against `octet-host dev` on each
// language's conformance fixture: fill a tool's form (a validation message first, then a
// good call) and see the result, see progress and a presentation snapshot appear, answer a
// confirmation, open a recorded session, and reload the page into the same live view.
// Without Chromium it skips, except under CI=true, where .ci/run installs it and a missing
// browser is a failure.
func TestInspectorInBrowser(t *testing.T) {
	bin := cdp.Find()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but no chromium: .ci/run installs Debian's chromium package; ", cdp.ErrNoChromium)
		}
		t.Skip("skipping the browser test: ", cdp.ErrNoChromium)
	}
	_, file, _, _ := goruntime.Caller(0)
	kit := filepath.Join(filepath.Dir(file), "..", "..", "..")
	for _, need := range []string{".venv/bin/python", "sdk-typescript/dist/src/index.js", "examples/typescript/conformance-fixture/dist/extension.js"} {
		if _, err := os.Stat(filepath.Join(kit, need)); err != nil {
			t.Fatalf("%s is missing: run `go run mage.go pythonEnv buildTypeScript` first", need)
		}
	}
	goFixture := filepath.Join(kit, "examples", "go", "conformance-fixture")
	build := exec.Command("go", "build", "-o", filepath.Join(goFixture, ".bin", "extension"), ".")
	build.Dir = goFixture
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the Go fixture: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := cdp.Launch(ctx, bin, t.TempDir(), 1440, 960)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	shots := os.Getenv(shotsEnv)
	for _, lang := range []string{"go", "python", "typescript"} {
		t.Run(lang, func(t *testing.T) {
			url := startDev(t, filepath.Join(kit, "examples", lang, "conformance-fixture"))
			shoot := func(name string) {
				if shots == "" || lang != "go" {
					return
				}
				png, err := b.Screenshot(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(shots, "inspector-"+name+".png"), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			browse(ctx, t, b, url, shoot)
			if errs := b.PageErrors(); len(errs) > 0 {
				t.Fatalf("the page threw: %s", strings.Join(errs, "\n"))
			}
		})
	}
	// The operator's opt-out is shown as such: a red badge, no policy, the permissions still.
	t.Run("no-sandbox", func(t *testing.T) {
		url := startDev(t, goFixture, "--no-sandbox")
		if err := b.Navigate(ctx, url); err != nil {
			t.Fatal(err)
		}
		for _, cond := range []string{
			`(document.querySelector("#extensions .sandbox-off")?.textContent ?? "") === "sandbox off"`,
			`(document.querySelector("#extensions .consent")?.textContent ?? "").includes("runs unconfined (operator opt-out)")`,
			`document.querySelector("#extensions .sandbox-on") === null`,
			`(document.querySelector("#extensions .permissions")?.textContent ?? "").includes("asks for: filesystem workspace")`,
		} {
			c, cancel := context.WithTimeout(ctx, 20*time.Second)
			err := b.WaitFor(c, cond)
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", cond, err)
			}
		}
	})
}

// browse is the person's session at the page.
func browse(ctx context.Context, t *testing.T, b *cdp.Browser, url string, shoot func(string)) {
	t.Helper()
	// Each wait is bounded on its own, so a missing element fails its step promptly and by
	// name instead of using up the whole test's time.
	bctx := ctx
	wait := func(cond string) error {
		c, cancel := context.WithTimeout(bctx, 20*time.Second)
		defer cancel()
		return b.WaitFor(c, cond)
	}
	step := func(what string, err error) {
		t.Helper()
		if err != nil {
			if png, serr := b.Screenshot(ctx); serr == nil {
				p := filepath.Join(t.TempDir(), "failed.png")
				if os.WriteFile(p, png, 0o644) == nil && os.Getenv("OCTET_KEEP_FAILED_SHOT") != "" {
					_ = os.WriteFile(os.Getenv("OCTET_KEEP_FAILED_SHOT"), png, 0o644)
				}
			}
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel, want string) string {
		return fmt.Sprintf(`(document.querySelector(%q)?.textContent ?? "").includes(%q)`, sel, want)
	}
	step("open the page", b.Navigate(ctx, url))
	step("the extension is ready", wait(text("#extensions", "ready")))
	// Consent: what the fixture asks for, and that the sandbox enforces it.
	step("the sandbox badge", wait(text("#extensions .sandbox-on", "sandboxed")))
	step("the enforced policy", wait(text("#extensions .policy", "filesystem workspace, network none, processes 256")))
	step("the permissions", wait(text("#extensions .permissions", "asks for: filesystem workspace; network none")))
	step("the budgets asked for", wait(text("#extensions .permissions", "memory_mb 1024; processes 256")))
	step("the tools are listed", wait(`document.querySelector("#tool-typed") !== null`))

	// A form from the parameters schema: a bad value is refused before anything is sent.
	step("pick typed", b.Click(ctx, "#tool-typed"))
	step("the form", wait(`document.querySelector("#f-typed-count") !== null`))
	step("fill a fraction", b.Fill(ctx, "#f-typed-count", "1.5"))
	step("fill label", b.Fill(ctx, "#f-typed-label", "apples"))
	step("call", b.Click(ctx, "#call-typed"))
	step("the validation message", wait(text("#problems-typed", "/count must be an integer")))
	step("fill count", b.Fill(ctx, "#f-typed-count", "7"))
	step("call", b.Click(ctx, "#call-typed"))
	step("the result's text", wait(text("#result-typed", "apples:7")))
	step("the structured content", wait(text("#result-typed .structured", "count: 7")))
	shoot("tools")

	step("pick progress_n", b.Click(ctx, "#tool-progress_n"))
	step("the form", wait(`document.querySelector("#f-progress_n-n") !== null`))
	step("fill n", b.Fill(ctx, "#f-progress_n-n", "3"))
	step("call", b.Click(ctx, "#call-progress_n"))
	step("the result", wait(text("#result-progress_n", "done")))
	step("the progress bar", wait(text("#progress", "100% step 3 (3/3)")))

	step("pick present", b.Click(ctx, "#tool-present"))
	step("the form", wait(`document.querySelector("#f-present-activities") !== null`))
	step("fill revision", b.Fill(ctx, "#f-present-revision", "1"))
	step("fill activities", b.Fill(ctx, "#f-present-activities", "2"))
	step("call", b.Click(ctx, "#call-present"))
	step("the result", wait(text("#result-present", "presented")))
	step("the snapshot", wait(text("#live-presentation", "activity 1")))

	step("pick ask", b.Click(ctx, "#tool-ask"))
	step("the form", wait(`document.querySelector("#f-ask-kind") !== null`))
	step("choose confirm", b.Fill(ctx, "#f-ask-kind", `"confirm"`))
	step("fill prompt", b.Fill(ctx, "#f-ask-prompt", "Ship it?"))
	step("call", b.Click(ctx, "#call-ask"))
	step("the question", wait(text("#questions", "Ship it?")))
	shoot("confirmation")
	step("confirm", b.Click(ctx, "#questions .confirm-yes"))
	step("the answer reached the tool", wait(text("#result-ask", "answer: true")))
	step("the question is gone", wait(`document.querySelector("#questions .question") === null`))

	// Raw JSON mode: the arguments go as typed. A dynamic tool shows in the catalog timeline.
	step("pick register_dynamic", b.Click(ctx, "#tool-register_dynamic"))
	step("the form", wait(`document.querySelector("#rawmode-register_dynamic") !== null`))
	step("raw mode", b.Click(ctx, "#rawmode-register_dynamic"))
	step("the raw box", wait(`document.querySelector("#raw-register_dynamic")?.isConnected === true`))
	step("fill raw", b.Fill(ctx, "#raw-register_dynamic", `{"name": "dyn_tool", "text": "first"}`))
	step("call", b.Click(ctx, "#call-register_dynamic"))
	step("the new tool is listed", wait(`document.querySelector("#tool-dyn_tool") !== null`))

	step("pick notify", b.Click(ctx, "#tool-notify"))
	step("the form", wait(`document.querySelector("#f-notify-level") !== null`))
	step("fill message", b.Fill(ctx, "#f-notify-message", "Build finished"))
	step("choose level", b.Fill(ctx, "#f-notify-level", `"success"`))
	step("call", b.Click(ctx, "#call-notify"))
	step("the result", wait(`(document.querySelector("#result-notify")?.textContent ?? "") !== ""`))

	step("pick policy", b.Click(ctx, "#tool-policy"))
	step("the form", wait(`document.querySelector("#f-policy-operation") !== null`))
	step("fill operation", b.Fill(ctx, "#f-policy-operation", "read"))
	step("call", b.Click(ctx, "#call-policy"))
	step("the result", wait(`(document.querySelector("#result-policy")?.textContent ?? "") !== ""`))

	step("frames tab", b.Click(ctx, "#tab-frames"))
	step("the frame log", wait(text("#view", "confirmation/request")))
	step("filter", b.Fill(ctx, "#frame-filter", "presentation/update"))
	step("filtered", wait(`[...document.querySelectorAll("tr.frame")].length > 0 && [...document.querySelectorAll("tr.frame")].every(r => r.textContent.includes("presentation/update"))`))
	step("expand", b.Click(ctx, "tr.frame"))
	step("the frame's JSON", wait(text("tr.frame-json", "activities")))
	step("clear filter", b.Fill(ctx, "#frame-filter", ""))
	shoot("frames")

	step("activity tab", b.Click(ctx, "#tab-activity"))
	step("the notices", wait(text("#notices", "confirmed (answered by the user)")))
	step("the notification", wait(text("#notices", "Build finished")))
	step("the broker's answer", wait(`document.querySelector("#broker .broker-row") !== null && !document.querySelector("#broker").textContent.includes("pending")`))
	shoot("activity")
	step("presentation tab", b.Click(ctx, "#tab-presentation"))
	step("the snapshot", wait(text("#presentation", "revision 1")))
	shoot("presentation")
	step("catalog tab", b.Click(ctx, "#tab-catalog"))
	step("the catalog timeline", wait(text("#catalog", "+ conformance-fixture:dyn_tool")))
	shoot("catalog")

	step("sessions tab", b.Click(ctx, "#tab-sessions"))
	step("the recorded sessions", wait(`document.querySelector(".session-btn") !== null`))
	step("open one", b.Click(ctx, ".session-btn"))
	step("its exchange", wait(text("#recorded-frames", "tool/call")))
	shoot("sessions")

	// Reloading resumes the live view: the snapshot and progress come back from the ring.
	step("reload", b.Navigate(ctx, url))
	step("the snapshot again", wait(text("#live-presentation", "activity 1")))
	step("the progress again", wait(text("#progress", "step 3")))
}

// startDev runs `octet-host dev` on dir as a child process and returns the URL it prints;
// the child is interrupted at the end of the test and must exit 0.
func startDev(t *testing.T, dir string, flags ...string) string {
	t.Helper()
	args := append(append([]string{"dev"}, flags...), "--state", t.TempDir(), "--config", filepath.Join(t.TempDir(), "none.toml"), dir)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), hostChildEnv+"=1", "OCTET_TRUSTED_EXTENSIONS=")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), "inspector at "); ok {
				urls <- u
			}
		}
		close(urls)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		if err := cmd.Wait(); err != nil {
			t.Errorf("octet-host dev did not exit cleanly on SIGINT: %v\n%s", err, stderr.String())
		}
	})
	select {
	case u, ok := <-urls:
		if !ok {
			t.Fatalf("octet-host dev printed no URL\n%s", stderr.String())
		}
		return u
	case <-time.After(60 * time.Second):
		t.Fatalf("octet-host dev printed no URL in 60 s\n%s", stderr.String())
	}
	return ""
}
