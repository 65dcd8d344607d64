package manifest_test

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/manifest"
)

const withCertify = valid + `
[[certify.tools]]
name = "git_status"
examples = [{ path = "." }, { path = "src", porcelain = true }]

[[certify.tools]]
name = "git_push"
skip = true
reason = "pushes to a remote"
`

func TestCertifyTableDecodes(t *testing.T) {
	m, diags := manifest.Parse([]byte(withCertify), "/x/git-tools/extension.toml", opts)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	st, ok := m.CertifyEntry("git_status")
	if !ok || len(st.Examples) != 2 || string(st.Examples[1]) != `{"path":"src","porcelain":true}` || st.Skip {
		t.Fatalf("git_status entry: %+v", st)
	}
	push, ok := m.CertifyEntry("git_push")
	if !ok || !push.Skip || push.Reason != "pushes to a remote" {
		t.Fatalf("git_push entry: %+v", push)
	}
	if _, ok := m.CertifyEntry("other"); ok {
		t.Fatal("an entry for a tool the table does not name")
	}
}

// Each case edits the [certify] table and names the field and rule that must be reported.
func TestCertifyTableRefusals(t *testing.T) {
	cases := []struct{ name, old, new, field, rule, msg string }{
		{"skip without reason", `reason = "pushes to a remote"`, ``, "certify.tools[1].reason", manifest.RuleRequired, "skip = true"},
		{"empty reason", `reason = "pushes to a remote"`, `reason = ""`, "certify.tools[1].reason", manifest.RuleLength, "1..1024"},
		{"skip false", `skip = true`, `skip = false`, "certify.tools[1].skip", manifest.RuleCertify, "must be true"},
		{"reason without skip", `skip = true`, ``, "certify.tools[1].reason", manifest.RuleCertify, "only meaningful"},
		{"examples on a skipped tool", `reason = "pushes to a remote"`, "reason = \"x\"\nexamples = [{}]", "certify.tools[1].examples", manifest.RuleCertify, "never called"},
		{"example not a table", `examples = [{ path = "." }, { path = "src", porcelain = true }]`, `examples = ["."]`, "certify.tools[0].examples[0]", manifest.RuleType, "table"},
		{"second entry", `name = "git_push"`, `name = "git_status"`, "certify.tools[1].name", manifest.RuleUnique, "second"},
		{"bad name", `name = "git_push"`, `name = "git push"`, "certify.tools[1].name", manifest.RulePattern, ""},
		{"unknown field", `name = "git_push"`, "name = \"git_push\"\nmode = 1", "certify.tools[1].mode", manifest.RuleUnknownField, "newer octet"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(withCertify, c.old, c.new, 1)
			if src == withCertify {
				t.Fatalf("case did not change the manifest")
			}
			_, diags := manifest.Parse([]byte(src), "/x/git-tools/extension.toml", opts)
			for _, d := range diags {
				if d.Field == c.field && d.Rule == c.rule && strings.Contains(d.Message, c.msg) {
					return
				}
			}
			t.Fatalf("want %s/%s containing %q, got %v", c.field, c.rule, c.msg, diags)
		})
	}
}
