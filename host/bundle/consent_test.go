package bundle_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/bundle"
)

// withCapabilities appends a [capabilities] table to the bundle's manifest.
func withCapabilities(entries []entry, name, table string) []entry {
	for i, e := range entries {
		if e.name == name+"/extension.toml" {
			entries[i].body = e.body + "\n[capabilities]\n" + table + "\n"
		}
	}
	return entries
}

// An update that asks for more than the installed bundle is refused until the operator
// consents again; one that asks for the same or less goes through.
func TestUpdateThatWidensPermissionsNeedsConsent(t *testing.T) {
	m := newManager(t)
	ran := filepath.Join(t.TempDir(), "ran")
	if _, err := m.Install(archive(t, withCapabilities(good("hello", "1.0.0", ran), "hello", `filesystem = "none"`), false)); err != nil {
		t.Fatal(err)
	}
	wider := withCapabilities(good("hello", "2.0.0", ran), "hello", "filesystem = \"none\"\nnetwork = true\nread = [\"/etc\"]")
	_, err := m.Update(archive(t, wider, false))
	if !errors.Is(err, &bundle.Error{Rule: bundle.RulePermissions}) || !strings.Contains(err.Error(), "network false → true") || !strings.Contains(err.Error(), "read + /etc") {
		t.Fatalf("widening update: %v", err)
	}
	stillV1(t, m)
	narrower := withCapabilities(good("hello", "1.1.0", ran), "hello", `filesystem = "none"`)
	if _, err := m.Update(archive(t, narrower, false)); err != nil {
		t.Fatalf("same permissions refused: %v", err)
	}
	m.AcceptPermissions = true
	if rec, err := m.Update(archive(t, withCapabilities(good("hello", "2.0.0", ran), "hello", "network = true"), false)); err != nil || rec.Version != "2.0.0" {
		t.Fatalf("consented update: %+v %v", rec, err)
	}
}
