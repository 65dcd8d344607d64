package script_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/script"
)

const full = `
secrets_file = "secrets.toml"

[secrets]
"inline.token" = "inline-value"

[[confirmations]]
match = "Deploy"
confirmed = true

[[inputs]]
match = "Password"
value = "pw"

[[inputs]]
match = "Name"
cancel = true

[[policy]]
kind = "external_side_effect"
operation = "browser.*"
decision = "ask"
approve = true

[[agents]]
task_name = "*"
output = "ok"
turns = 1

[[models]]
provider = "octet"
model = "scripted"

[[lifecycle]]
method = "tool/settled"
session_id = "s"
turn_id = "t"
call_id = "c"
name = "echo"
outcome = "completed"
`

func TestLoadFull(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secrets.toml"), []byte(`"file.token" = "file-value"`+"\n"), 0o600)
	p := filepath.Join(dir, "script.toml")
	os.WriteFile(p, []byte(full), 0o600)
	s, err := script.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := s.Secret("file.token"); !ok || v != "file-value" {
		t.Fatal("secrets_file not loaded")
	}
	if v, ok := s.Secret("inline.token"); !ok || v != "inline-value" {
		t.Fatal("inline secret not loaded")
	}
	if len(s.Confirmations) != 1 || len(s.Inputs) != 2 || !s.Inputs[1].Cancel || len(s.Policy) != 1 || !s.Policy[0].Approve ||
		len(s.Agents) != 1 || len(s.Models) != 1 || len(s.Lifecycle) != 1 || !s.HasSecrets() {
		t.Fatalf("parsed %s", s)
	}
	// Printing never shows values.
	for _, f := range []string{"%v", "%+v", "%#v", "%s"} {
		if out := fmt.Sprintf(f, s); strings.Contains(out, "value") {
			t.Errorf("%s prints %q", f, out)
		}
	}
	var nilScript *script.Script
	if _, ok := nilScript.Secret("x"); ok || nilScript.HasSecrets() {
		t.Error("nil script has secrets")
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"unknown section":     "[[confirmation]]\nconfirmed = true\n",
		"unknown key":         "[[confirmations]]\nconfirmed = true\ncolour = 1\n",
		"missing confirmed":   "[[confirmations]]\nmatch = \"x\"\n",
		"wrong type":          "[[confirmations]]\nconfirmed = \"yes\"\n",
		"input both":          "[[inputs]]\nvalue = \"x\"\ncancel = true\n",
		"input neither":       "[[inputs]]\nmatch = \"x\"\n",
		"bad decision":        "[[policy]]\ndecision = \"maybe\"\n",
		"approve without ask": "[[policy]]\ndecision = \"allow\"\napprove = true\n",
		"bad glob":            "[[policy]]\nkind = \"[\"\ndecision = \"deny\"\n",
		"agent no task":       "[[agents]]\noutput = \"x\"\n",
		"agent bad state":     "[[agents]]\ntask_name = \"x\"\nstate = \"exploded\"\n",
		"agent negative":      "[[agents]]\ntask_name = \"x\"\nturns = -1\n",
		"model incomplete":    "[[models]]\nprovider = \"x\"\n",
		"lifecycle method":    "[[lifecycle]]\nmethod = \"session/exploded\"\nsession_id = \"s\"\n",
		"lifecycle missing":   "[[lifecycle]]\nmethod = \"turn/started\"\nsession_id = \"s\"\n",
		"lifecycle extra":     "[[lifecycle]]\nmethod = \"session/started\"\nsession_id = \"s\"\nturn_id = \"t\"\n",
		"lifecycle outcome":   "[[lifecycle]]\nmethod = \"session/settled\"\nsession_id = \"s\"\noutcome = \"meh\"\n",
		"bad secret name":     "[secrets]\n\"9x\" = \"v\"\n",
		"syntax":              "[[confirmations]\n",
		"missing secrets":     "secrets_file = \"nope.toml\"\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := script.Parse("s.toml", []byte(text), t.TempDir())
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), "s.toml") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestSecretsNeverInErrors(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "secrets.toml")
	os.WriteFile(p, []byte("good = \"fine\"\nbad = \"sup3r-s3cret\n"), 0o600)
	s := &script.Script{}
	err := s.AddSecretsFile(p)
	if err == nil || strings.Contains(err.Error(), "sup3r") || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("error %v", err)
	}
	_, err = script.Parse("s.toml", []byte("[secrets]\ntok = \"sup3r-s3cret\nx = 1\n"), dir)
	if err == nil || strings.Contains(err.Error(), "sup3r") {
		t.Fatalf("error %v", err)
	}
	os.WriteFile(p, []byte("tok = 5\n"), 0o600)
	if err := s.AddSecretsFile(p); err == nil {
		t.Fatal("non-string secret accepted")
	}
	os.WriteFile(p, []byte("tok = \""+strings.Repeat("x", 65537)+"\"\n"), 0o600)
	if err := s.AddSecretsFile(p); err == nil || !strings.Contains(err.Error(), "tok") {
		t.Fatalf("oversized secret: %v", err)
	}
}

// TestDocumentedExampleParses keeps docs/host-script.md honest: its complete
// example must load.
func TestDocumentedExampleParses(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "host-script.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## Complete example")
	if !ok {
		t.Fatal("docs/host-script.md has no complete example")
	}
	_, rest, _ = strings.Cut(rest, "```toml\n")
	example, _, _ := strings.Cut(rest, "```")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "demo-secrets.toml"), []byte(`"browser.api_token" = "x"`+"\n"), 0o600)
	s, err := script.Parse("host-script.md example", []byte(example), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Lifecycle) != 6 || len(s.Policy) != 3 || len(s.Agents) != 3 {
		t.Fatalf("parsed %s", s)
	}
	if _, ok := s.Secret("browser.api_token"); !ok {
		t.Fatal("secrets_file of the example not loaded")
	}
}
