package manifest_test

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/manifest"
)

const sessionHead = "name=\"owner\"\nversion=\"1.0.0\"\napi_version=\"0.4\"\n[entrypoint]\ncommand=\"run\"\n"

func TestSessionOwnerParses(t *testing.T) {
	src := sessionHead + "[session]\nowner = true\nallowed_tools = [\"git-tools/*\", \"*/read_*\"]\nprivate_tools = [\"audit\"]\n"
	m, diags := manifest.Parse([]byte(src), "/x/owner/extension.toml", opts)
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if !m.Session.Owner || len(m.Session.AllowedTools) != 2 || m.Session.PrivateTools[0] != "audit" {
		t.Fatalf("session = %+v", m.Session)
	}
	if m.Wire.Session == nil || m.Wire.Session.Owner == nil || !*m.Wire.Session.Owner {
		t.Fatalf("the wire manifest lost [session]: %+v", m.Wire.Session)
	}
}

func TestSessionRefusals(t *testing.T) {
	for _, tc := range []struct{ name, table, field, rule string }{
		{"not owner", "allowed_tools = [\"a/b\"]", "session.allowed_tools", manifest.RuleSession},
		{"private not owner", "owner = false\nprivate_tools = [\"b\"]", "session.private_tools", manifest.RuleSession},
		{"unqualified", "owner = true\nallowed_tools = [\"git_status\"]", "session.allowed_tools[0]", manifest.RulePattern},
		{"traversal", "owner = true\nallowed_tools = [\"../etc/x\"]", "session.allowed_tools[0]", manifest.RulePattern},
		{"control char", "owner = true\nallowed_tools = [\"a/b\\u0007\"]", "session.allowed_tools[0]", manifest.RulePattern},
		{"duplicate", "owner = true\nallowed_tools = [\"a/*\", \"a/*\"]", "session.allowed_tools[1]", manifest.RuleUnique},
		{"owner string", "owner = \"yes\"", "session.owner", manifest.RuleType},
		{"unknown", "owner = true\nowners = true", "session.owners", manifest.RuleUnknownField},
		{"bad private", "owner = true\nprivate_tools = [\"<x>\"]", "session.private_tools[0]", manifest.RulePattern},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := manifest.Parse([]byte(sessionHead+"[session]\n"+tc.table+"\n"), "/x/owner/extension.toml", opts)
			for _, d := range diags {
				if d.Field == tc.field && d.Rule == tc.rule {
					return
				}
			}
			t.Fatalf("want %s at %s, got %v", tc.rule, tc.field, diags)
		})
	}
	if _, diags := manifest.Parse([]byte("session = 3\n"+sessionHead), "f", opts); len(diags) == 0 || !strings.Contains(diags[0].Message, "table") {
		t.Fatalf("session = 3: %v", diags)
	}
}

func TestMatchToolPattern(t *testing.T) {
	for _, tc := range []struct {
		pattern, ext, tool string
		want               bool
	}{
		{"git-tools/*", "git-tools", "git_status", true},
		{"git-tools/*", "git-toolsx", "git_status", false},
		{"*/read_*", "fs", "read_file", true},
		{"*/read_*", "fs", "write_file", false},
		{"git-*/*", "git-tools", "a", true},
		{"*/*", "any", "thing", true},
		{"a/b", "a", "b", true},
		{"a/b", "a", "bb", false},
		{"no-slash", "no-slash", "x", false},
	} {
		if got := manifest.MatchToolPattern(tc.pattern, tc.ext, tc.tool); got != tc.want {
			t.Errorf("%q vs %s/%s = %v, want %v", tc.pattern, tc.ext, tc.tool, got, tc.want)
		}
	}
}
