package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/conformance/scaffold"
)

// TestExamplesBehaveAlikeAcrossLanguages calls the same example in each language that has
// it with the same arguments and script, through the reference host, and wants the same
// lines back as JSON values (ids the host generates are masked; an explicit "is_error": false
// is the same result as none; a text part holding JSON is compared as the value it holds,
// so Python's 3.0 and Go's 3 agree, as they do on the wire). The Go twins of git-tools, orchestrate, policy-and-secrets and
// typed-tools are held to the Python and TypeScript behaviour they were written from.
func TestExamplesBehaveAlikeAcrossLanguages(t *testing.T) {
	if testing.Short() {
		t.Skip("starts examples in several languages")
	}
	kit := scaffold.FindKit(".")
	ws := t.TempDir()
	if out, err := exec.Command("sh", "-ec", "cd "+ws+" && git init -q && echo x > a.txt && git add a.txt && git -c user.name=t -c user.email=t@t commit -qm x && echo y > a.txt").CombinedOutput(); err != nil {
		t.Skipf("no usable git: %v\n%s", err, out)
	}
	scripts := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(scripts, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	allow := write("allow.toml", "[secrets]\n\"demo.api_token\" = \"s3cret\"\n[[confirmations]]\nmatch = \"Publish\"\nconfirmed = true\n[[policy]]\nkind = \"external_side_effect\"\noperation = \"browser.*\"\ndecision = \"ask\"\napprove = true\n")
	agents := write("agents.toml", "[[agents]]\ntask_name = \"*\"\noutput = \"ok\"\nturns = 1\n")
	cases := []struct {
		example string
		langs   []string
		script  string
		calls   []string
	}{
		{"typed-tools", []string{"go", "python"}, "", []string{"area", `{"width":2,"height":3}`, "area", `{"width":1.5,"height":2,"unit":"cm"}`, "route", `{"stops":[{"name":"a","minutes":10},{"name":"b","minutes":5}],"mode":"cycle"}`, "area", `{"width":-1,"height":1}`}},
		{"policy-and-secrets", []string{"go", "typescript"}, allow, []string{"submit_comment", `{"text":"héllo"}`}},
		{"policy-and-secrets", []string{"go", "typescript"}, "", []string{"submit_comment", `{"text":"hi"}`}},
		{"git-tools", []string{"go", "typescript"}, "", []string{"git_status", `{"untracked":false}`, "git_status", `{}`}},
		{"orchestrate", []string{"go", "typescript"}, agents, []string{"orchestrate", `{}`}},
	}
	mask := regexp.MustCompile(`agent_[0-9a-f]+|,"is_error":false`)
	for _, c := range cases {
		want, wantLang := "", ""
		for _, lang := range c.langs {
			dir := filepath.Join(kit, "examples", lang, c.example)
			if why := scaffold.SDKMissing(kit, lang); why != "" {
				t.Logf("%s/%s not compared: %s", lang, c.example, why)
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, "extension.toml")); err != nil {
				t.Fatalf("examples/%s/%s is missing", lang, c.example)
			}
			e := newEnv(t)
			args := []string{"call", "--ask", "never", "--state", e.state, "--config", e.config, "--workspace", ws}
			if c.script != "" {
				args = append(args, "--script", c.script)
			}
			_, out, _ := octetHost(t, "", append(append(args, dir), c.calls...)...)
			got := mask.ReplaceAllString(strings.TrimSpace(out), "")
			if got == "" || !sameJSONLines(got, got) {
				t.Fatalf("%s/%s printed nothing", lang, c.example)
			}
			if wantLang == "" {
				want, wantLang = got, lang
				continue
			}
			if !sameJSONLines(got, want) {
				t.Errorf("%s (script %q): %s and %s differ:\n%s: %s\n%s: %s", c.example, filepath.Base(c.script), wantLang, lang, wantLang, want, lang, got)
			}
		}
	}
}

// sameJSONLines compares two outputs line by line as JSON values, strings that hold a JSON
// object or array compared as what they hold.
func sameJSONLines(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		var va, vb any
		if json.Unmarshal([]byte(la[i]), &va) != nil || json.Unmarshal([]byte(lb[i]), &vb) != nil {
			return false
		}
		if !reflect.DeepEqual(decodeEmbedded(va), decodeEmbedded(vb)) {
			return false
		}
	}
	return true
}

func decodeEmbedded(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = decodeEmbedded(e)
		}
	case []any:
		for i, e := range x {
			x[i] = decodeEmbedded(e)
		}
	case string:
		var inner any
		if t := strings.TrimSpace(x); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Unmarshal([]byte(t), &inner) == nil {
			return decodeEmbedded(inner)
		}
	}
	return v
}
