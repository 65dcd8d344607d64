package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

const configureHelp = `octet-host configure: deliver an extension's settings to the hosts running it, without a restart

Usage: octet-host configure [flags] NAME [JSON]

Reaches every octet-host run or dev process on the same --state directory through its
control socket (STATE/control/PID.sock, this user only) and configures NAME there. With
JSON (a settings object) those values are delivered; without it each host reloads NAME's
settings from its config files (--config and the workspace's .octet/config.toml, as at
start), so editing the config and running configure applies the edit.

The host checks the values against NAME's settings schema first, then sends them to the
extension (the configure method); the extension may refuse with reasons. An invalid value
or a refusal keeps the settings in force: nothing is lost. --dry-run asks the same questions
and changes nothing.

One JSON line per host running NAME on stdout: {"configure": NAME, "host_pid": PID,
"revision": N, "dry_run": bool, and "accepted": true | "refused": [reasons] |
"error": {"kind", "message", "key"?, "pointer"?, "rule"?}}. revision is the one in force
afterwards.

Exit codes: 0 every host accepted, 1 a host refused or failed, 2 a usage error or no running
host on the state directory runs NAME.

Examples:
  octet-host configure octet-mcp '{"servers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}}'
  octet-host configure --dry-run my-ext '{"limit": 5}'
  octet-host configure my-ext          # after editing [extensions.my-ext.settings]
`

func init() {
	register("configure", verb{Summary: "deliver an extension's settings to the running hosts, without a restart", Run: runConfigure})
}

func runConfigure(args []string, stdout, stderr io.Writer) int {
	fs := flagSet("configure", configureHelp, stderr)
	state := fs.String("state", defaultStateDir(), "the state directory of the running hosts")
	dry := fs.Bool("dry-run", false, "check and ask the extension, change nothing")
	wait := fs.Duration("timeout", 60*time.Second, "how long to wait for each host's answer")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprintln(stderr, "octet-host configure: want NAME [JSON]")
		return exitStartup
	}
	req := controlRequest{Extension: fs.Arg(0), DryRun: *dry}
	if fs.NArg() == 2 {
		var obj map[string]any
		dec := json.NewDecoder(strings.NewReader(fs.Arg(1)))
		dec.UseNumber()
		if err := dec.Decode(&obj); err != nil || obj == nil || dec.More() {
			fmt.Fprintf(stderr, "octet-host configure: JSON must be one settings object: %v\n", err)
			return exitStartup
		}
		req.Settings = json.RawMessage(fs.Arg(1))
	}
	line, _ := json.Marshal(req)
	if len(line) > maxControlBytes {
		fmt.Fprintf(stderr, "octet-host configure: the settings are over %d bytes\n", maxControlBytes)
		return exitStartup
	}
	socks, _ := filepath.Glob(filepath.Join(controlDir(*state), "*.sock"))
	slices.Sort(socks)
	reached, answered, code := 0, 0, exitOK
	for _, sock := range socks {
		answer, err := askControl(sock, append(line, '\n'), *wait)
		if err != nil {
			var ne *net.OpError
			if errors.As(err, &ne) && ne.Op == "dial" {
				continue // a host that exited without removing its socket (killed)
			}
			fmt.Fprintf(stderr, "octet-host configure: %s: %v\n", sock, err)
			code = exitFailed
			continue
		}
		reached++
		var a struct {
			Accepted bool
			Error    *struct{ Kind string }
		}
		_ = json.Unmarshal(answer, &a)
		if a.Error != nil && a.Error.Kind == "no_extension" {
			continue
		}
		answered++
		fmt.Fprintf(stdout, "%s\n", answer)
		if !a.Accepted {
			code = exitFailed
		}
	}
	switch {
	case reached == 0 && code == exitOK:
		fmt.Fprintf(stderr, "octet-host configure: no octet-host is running on %s (run and dev serve configure; pass the same --state)\n", *state)
		return exitStartup
	case answered == 0 && code == exitOK:
		fmt.Fprintf(stderr, "octet-host configure: %d running host(s) on %s, none runs %q\n", reached, *state, req.Extension)
		return exitStartup
	}
	return code
}

// askControl sends one request line to a host's control socket and reads its answer line.
func askControl(sock string, line []byte, wait time.Duration) ([]byte, error) {
	c, err := net.DialTimeout("unix", sock, 5*time.Second)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(wait))
	if _, err := c.Write(line); err != nil {
		return nil, err
	}
	answer, err := bufio.NewReader(io.LimitReader(c, maxControlBytes+1)).ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("no answer: %w", err)
	}
	if len(answer) > maxControlBytes {
		return nil, fmt.Errorf("answer over %d bytes", maxControlBytes)
	}
	return answer[:len(answer)-1], nil
}
