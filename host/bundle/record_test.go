package bundle_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/bundle"
)

func TestRecordDecodesStrictly(t *testing.T) {
	const valid = `{"schema":1,"id":"hello","version":"1.0.0","api_version":"0.4","requires_octet":"=0.8.0","source":"/tmp/hello.tar.gz","sha256":"` + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + `","octet_version":"0.8.0","installed_at":"2026-12-01T07:30:00Z"}`
	cases := map[string]struct{ body, says string }{
		"valid":             {valid, ""},
		"unknown field":     {strings.Replace(valid, `"schema":1,`, `"schema":1,"enabled":true,`, 1), `"enabled" is not known`},
		"differently cased": {strings.Replace(valid, `"id"`, `"ID"`, 1), `"ID" is not known`},
		"duplicate field":   {strings.Replace(valid, `"schema":1,`, `"schema":1,"schema":1,`, 1), "appears twice"},
		"missing field":     {strings.Replace(valid, `"version":"1.0.0",`, "", 1), `"version" is missing`},
		"trailing data":     {valid + "{}", "data after"},
		"wrong type":        {strings.Replace(valid, `"schema":1`, `"schema":"1"`, 1), "does not decode"},
		"future schema":     {strings.Replace(valid, `"schema":1`, `"schema":2`, 1), "schema 2 is not supported"},
		"bad digest":        {strings.Replace(valid, "0123456789abcdef0123", "0123456789ABCDEF0123", 1), "sha256"},
		"bad time":          {strings.Replace(valid, "2026-12-01T07:30:00Z", "yesterday", 1), "installed_at"},
		"relative source":   {strings.Replace(valid, "/tmp/hello.tar.gz", "hello.tar.gz", 1), "source"},
		"API 0.1":           {strings.Replace(valid, `"api_version":"0.4"`, `"api_version":"0.1"`, 1), "api_version"},
		"not an object":     {`[]`, "not a JSON object"},
	}
	for name, c := range cases {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "install.json"), []byte(c.body), 0o644)
		rec, err := bundle.ReadRecord(dir)
		if c.says == "" {
			if err != nil || rec.ID != "hello" {
				t.Errorf("%s: %+v %v", name, rec, err)
			}
			continue
		}
		if !errors.Is(err, &bundle.Error{Rule: bundle.RuleRecord}) || !contains(err, "install.json", c.says) {
			t.Errorf("%s: want %q, got %v", name, c.says, err)
		}
	}
	dir := t.TempDir()
	os.Symlink("/etc/hostname", filepath.Join(dir, "install.json"))
	if _, err := bundle.ReadRecord(dir); !errors.Is(err, &bundle.Error{Rule: bundle.RuleRecord}) || !contains(err, "symbolic link") {
		t.Errorf("symlinked record: %v", err)
	}
}
